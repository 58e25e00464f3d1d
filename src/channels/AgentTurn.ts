import type { AgentUpdate, PermissionAnswer, PermissionRequest } from "../acp/types";
import type { Emitter } from "../events/events";
import type { ErrorInfo, Part, PermissionPart, ToolCallPart } from "../protocol";
import type { MessageRecord } from "../store/records";

/**
 * One agent's answer while it streams: the message being built from ACP updates, its pending permission
 * requests, and the deltas it emits. Pure bookkeeping; persistence belongs to the caller.
 */
export class AgentTurn {
  private readonly permissions = new Map<string, { part: PermissionPart; resolve: (a: PermissionAnswer) => void }>();
  private settled = false;
  private cancelRequested = false;

  constructor(
    readonly message: MessageRecord,
    private readonly emitter: Emitter,
    private readonly newId: () => string,
    private readonly warn: (line: string) => void,
  ) {}

  /** Applies one `session/update`. Late updates after settlement patch the message too (field case 1). */
  apply(update: AgentUpdate): void {
    const { channelId, id: messageId } = this.message;
    if (update.kind === "text") {
      if (update.text === "") return;
      const last = this.message.parts[this.message.parts.length - 1];
      if (last?.type === "text") last.text += update.text;
      else this.message.parts.push({ type: "text", text: update.text });
      this.emitter.emit("message:delta", { channelId, messageId, appendText: update.text });
      return;
    }
    if (update.kind === "toolCall") {
      const existing = this.findToolCall(update.toolCallId);
      if (update.isUpdate && !existing) {
        this.warn(`tool_call_update for unknown tool call id "${update.toolCallId}" ignored`);
        return;
      }
      const part: ToolCallPart = existing ?? { type: "toolCall", toolCallId: update.toolCallId, title: "", status: "pending" };
      if (!update.isUpdate) {
        part.title = update.title ?? part.title;
        part.kind = update.toolKind;
        part.status = update.status ?? "pending";
        part.content = update.content;
      } else {
        if (update.title !== undefined) part.title = update.title;
        if (update.toolKind !== undefined) part.kind = update.toolKind;
        if (update.status !== undefined) part.status = update.status;
        if (update.content !== undefined) part.content = update.content;
      }
      if (!existing) this.message.parts.push(part);
      this.emitter.emit("message:delta", { channelId, messageId, part: { ...part } });
    }
  }

  /** Whether the user stopped this turn. */
  get cancelled(): boolean {
    return this.cancelRequested;
  }

  /**
   * The user pressed Stop: every pending permission request is answered `cancelled`, and any that arrive afterwards
   * are answered `cancelled` without being shown (field case 4). The caller sends ACP `session/cancel`.
   */
  cancel(): void {
    this.cancelRequested = true;
    for (const requestId of [...this.permissions.keys()]) this.answer(requestId, undefined);
  }

  /** Shows a permission request and resolves when the user answers, the agent withdraws it, or the turn ends. */
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (this.settled || this.cancelRequested) return Promise.resolve({ outcome: "cancelled" });
    const requestId = this.newId();
    const title = this.findToolCall(request.toolCallId)?.title || request.title;
    const part: PermissionPart = { type: "permission", requestId, toolCallId: request.toolCallId, title, options: request.options };
    this.message.parts.push(part);
    this.emitter.emit("message:delta", { channelId: this.message.channelId, messageId: this.message.id, part: { ...part } });
    return new Promise<PermissionAnswer>((resolve) => {
      this.permissions.set(requestId, { part, resolve });
      signal.addEventListener("abort", () => this.answer(requestId, undefined), { once: true });
    });
  }

  /** Whether this turn holds the pending request `requestId`. */
  hasPermission(requestId: string): boolean {
    return this.permissions.has(requestId);
  }

  /**
   * Answers a pending permission request with `optionId`, or cancels it when `optionId` is undefined.
   * @returns false when the request is not pending (already answered, or unknown option)
   */
  answer(requestId: string, optionId: string | undefined): boolean {
    const pending = this.permissions.get(requestId);
    if (!pending) return false;
    if (optionId !== undefined && !pending.part.options.some((o) => o.optionId === optionId)) return false;
    this.permissions.delete(requestId);
    pending.part.outcome = optionId ?? "cancelled";
    pending.resolve(optionId === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId });
    this.emitter.emit("message:delta", { channelId: this.message.channelId, messageId: this.message.id, part: { ...pending.part } });
    return true;
  }

  /**
   * Ends the turn: cancels pending permission requests, records the stop reason or the error, and marks tool calls
   * still running as failed when the turn failed (their outcome is unknown).
   */
  settle(result: { stopReason?: string; error?: ErrorInfo }): MessageRecord {
    this.settled = true;
    if (this.cancelRequested && !result.error) result = { stopReason: "cancelled" };
    for (const requestId of [...this.permissions.keys()]) this.answer(requestId, undefined);
    if (result.stopReason) this.message.stopReason = result.stopReason;
    if (result.error || this.cancelRequested) {
      if (result.error) this.message.error = result.error;
      for (const part of this.message.parts) {
        if (part.type === "toolCall" && (part.status === "pending" || part.status === "in_progress")) part.status = "failed";
      }
    }
    return this.message;
  }

  private findToolCall(toolCallId: string): ToolCallPart | undefined {
    return this.message.parts.find((p: Part): p is ToolCallPart => p.type === "toolCall" && p.toolCallId === toolCallId);
  }
}
