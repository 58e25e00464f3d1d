/**
 * An agent's answer as it streams: pure functions from a message and one ACP `session/update` to the next message
 * and the delta the webview gets. Nothing here mutates its input (the reducer keeps every state it returns).
 */
import * as l10n from "@vscode/l10n";
import type { AgentUpdate, PermissionRequest } from "../acp/types";
import type { ContentBlockView, ContentPart, NoticePart, Part, PermissionPart, PlanPart, ThoughtPart, ToolCallPart } from "../shared/protocol";
import { RETRY_NOTE_END, RETRY_NOTE_START } from "../shared/preamble";
import type { MessageRecord } from "../store/records";
import { withAgentTerminal } from "./agentTerminals";
import { indexOfPart, withPart } from "../shared/parts";

/** What one update did: the next message, the delta to broadcast, and whether it was a tool-call boundary. */
export interface Applied {
  message: MessageRecord;
  delta?: { appendText?: string; part?: Part };
  /** A tool call started or finished (`completed`/`failed`): a checkpoint is due (brief, "Recovery"). */
  boundary: boolean;
  /** Set when the update was dropped, for the log (a `tool_call_update` for an unknown id: field case 2). */
  warning?: string;
}

/**
 * Applies one `session/update` (ACP `agent_message_chunk`, `agent_thought_chunk`, `plan`, `tool_call`,
 * `tool_call_update`) to `message`. Repeated `tool_call` ids update the same part of the current attempt (after the
 * last retry divider); a `tool_call_update` keeps the fields it omits (`content` with its diffs, `locations`) and
 * replaces those it carries; an unknown id creates nothing. Text and thought chunks coalesce into the last part when
 * it is of their kind and their ACP `messageId` (or its absence) is the same; otherwise they start a new part. A plan
 * replaces the message's plan; a plan with no entries removes it (its delta, the empty plan, does the same in the view).
 * Other kinds leave the message as it is.
 */
export function applyUpdate(message: MessageRecord, update: AgentUpdate): Applied {
  if (update.kind === "text") {
    if (update.text === "") return { message, boundary: false };
    const parts = message.parts.slice();
    const last = parts[parts.length - 1];
    const id = update.messageId !== undefined ? { messageId: update.messageId } : {};
    if (last?.type === "text" && last.messageId === update.messageId) {
      parts[parts.length - 1] = { ...last, text: last.text + update.text };
      return { message: { ...message, parts }, delta: { appendText: update.text }, boundary: false };
    }
    parts.push({ type: "text", text: update.text, ...id });
    // After a text part of another message, the webview must start a new part too (ACP: a new message began).
    const delta = last?.type === "text" ? { part: { type: "text" as const, text: "", ...id }, appendText: update.text } : { appendText: update.text };
    return { message: { ...message, parts }, delta, boundary: false };
  }
  if (update.kind === "thought") return applyThought(message, update.text, update.messageId);
  if (update.kind === "content") {
    const part: ContentPart = { type: "content", block: withinImageBudget(message.parts, update.block), ...(update.messageId !== undefined ? { messageId: update.messageId } : {}) };
    return { message: { ...message, parts: [...message.parts, part] }, delta: { part }, boundary: false };
  }
  if (update.kind === "plan") return applyPlan(message, update.entries);
  if (update.kind === "notice") return applyNotice(message, update.text, update.retrying);
  if (update.kind !== "toolCall") return { message, boundary: false };
  const index = currentToolCall(message.parts, update.toolCallId);
  const existing = index === -1 ? undefined : (message.parts[index] as ToolCallPart);
  if (update.isUpdate && !existing) {
    return { message, boundary: false, warning: `tool_call_update for unknown tool call id "${update.toolCallId}" ignored` };
  }
  let part: ToolCallPart;
  if (!update.isUpdate) {
    part = { type: "toolCall", toolCallId: update.toolCallId, title: update.title ?? existing?.title ?? "", kind: update.toolKind, status: update.status ?? "pending", content: update.content };
    // The delegation Sidekicks put on the agent's card of its `delegate` call stays when the agent announces it again.
    if (existing?.delegation) part.delegation = existing.delegation;
    if (update.blocks && update.blocks.length > 0) part.blocks = update.blocks.map((b) => withinImageBudget(message.parts, b));
  } else {
    part = { ...existing! };
    if (update.title !== undefined) part.title = update.title;
    if (update.toolKind !== undefined) part.kind = update.toolKind;
    if (update.status !== undefined) part.status = update.status;
    // A late report of the end (after the turn ended, field case 1) is the agent's word: no longer "no result".
    if (update.status === "completed" || update.status === "failed") delete part.noResult;
    if (update.content !== undefined) part.content = update.content;
    if (update.blocks !== undefined) {
      const others = message.parts.filter((p) => p !== existing);
      if (update.blocks.length > 0) part.blocks = update.blocks.map((b) => withinImageBudget(others, b));
      else delete part.blocks;
    }
  }
  if (!update.isUpdate || update.diffs !== undefined) setList(part, "diffs", update.diffs);
  if (!update.isUpdate || update.locations !== undefined) setList(part, "locations", update.locations);
  if (!update.isUpdate || update.terminals !== undefined) {
    if (update.terminals && update.terminals.length > 0) part.terminals = [...update.terminals];
    else delete part.terminals;
  }
  // What an agent's own terminal printed is never taken back: a repeated tool_call keeps it.
  if (!update.isUpdate && existing?.agentTerminals) part.agentTerminals = existing.agentTerminals;
  if (update.agentTerminal) part = withAgentTerminal(part, update.agentTerminal);
  const parts = message.parts.slice();
  if (existing) parts[index] = part;
  else parts.push(part);
  const finished = (part.status === "completed" || part.status === "failed") && existing?.status !== part.status;
  return { message: { ...message, parts }, delta: { part }, boundary: !existing || finished };
}

/**
 * The index of the current attempt's tool-call part `toolCallId`, searched back to the last retry divider, or -1: an
 * agent may use an id again in its next prompt turn, and an earlier attempt's card stays as that attempt left it.
 */
function currentToolCall(parts: readonly Part[], toolCallId: string): number {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.type === "retry") return -1;
    if (p.type === "toolCall" && p.toolCallId === toolCallId) return i;
  }
  return -1;
}

/** A thought chunk: appended to the last part when that is a thought of the same ACP message, else a new part. */
function applyThought(message: MessageRecord, text: string, messageId: string | undefined): Applied {
  if (text === "") return { message, boundary: false };
  const chunk: ThoughtPart = { type: "thought", text, ...(messageId !== undefined ? { messageId } : {}) };
  // The shared rule (src/shared/parts.ts) says which thought a chunk continues: the last part, of the same ACP message.
  const at = indexOfPart(message.parts, chunk);
  const part: ThoughtPart = at === -1 ? chunk : { ...chunk, text: (message.parts[at] as ThoughtPart).text + text };
  return { message: { ...message, parts: withPart(message.parts, part) }, delta: { part }, boundary: false };
}

/** A plan (ACP `plan`): replaces the message's plan part where it is, or adds one; an empty plan removes it (field case 24). */
function applyPlan(message: MessageRecord, entries: PlanPart["entries"]): Applied {
  const part: PlanPart = { type: "plan", entries: entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) };
  return { message: { ...message, parts: withPart(message.parts, part) }, delta: { part }, boundary: false };
}

/** A notice (the agent's word on its own condition): replaces the message's notice where it is, or adds one. */
function applyNotice(message: MessageRecord, text: string, retrying: boolean): Applied {
  const part: NoticePart = { type: "notice", text, retrying };
  return { message: { ...message, parts: withPart(message.parts, part) }, delta: { part }, boundary: false };
}

/** Most image data one answer keeps, in decoded bytes (4 MiB): each checkpoint rewrites the answer, images included. */
export const MAX_ANSWER_IMAGE_BYTES = 4 * 1024 * 1024;

/**
 * `block`, without its image data when the images `parts` already keep would exceed {@link MAX_ANSWER_IMAGE_BYTES}
 * with it (then `omitted: "size"`: the view names the image and says it was too large to keep).
 */
function withinImageBudget(parts: readonly Part[], block: ContentBlockView): ContentBlockView {
  if (block.kind !== "image" || block.data === undefined) return block;
  let kept = 0;
  for (const p of parts) {
    const blocks = p.type === "content" ? [p.block] : p.type === "toolCall" ? (p.blocks ?? []) : [];
    for (const b of blocks) if (b.kind === "image" && b.data !== undefined) kept += b.bytes;
  }
  if (kept + block.bytes <= MAX_ANSWER_IMAGE_BYTES) return block;
  const { data: _data, ...named } = block;
  return { ...named, omitted: "size" };
}

/** Sets `part[key]` to a copy of `list`, or removes the key when the list is absent or empty. */
function setList<K extends "diffs" | "locations">(part: ToolCallPart, key: K, list: readonly NonNullable<ToolCallPart[K]>[number][] | undefined): void {
  if (list && list.length > 0) part[key] = list.map((item) => ({ ...item })) as ToolCallPart[K];
  else delete part[key];
}

/**
 * The answer with the tool call a permission request is about, when the agent never announced it (ACP: the request's
 * `toolCall` carries its details; Gemini CLI sends no `tool_call` for an edit or a command it asks about, then reports
 * the end with a `tool_call_update` of that id). Undefined when the call is already shown or the request has none.
 */
export function withRequestedToolCall(message: MessageRecord, request: PermissionRequest): Applied | undefined {
  if (!request.toolCall || message.parts.some((p) => p.type === "toolCall" && p.toolCallId === request.toolCallId)) return undefined;
  return applyUpdate(message, request.toolCall);
}

/** The tool kind of the tool call a permission request is about: from the request, else from its tool-call part. */
export function toolKindOf(message: MessageRecord, request: PermissionRequest): string | undefined {
  const tool = message.parts.find((p): p is ToolCallPart => p.type === "toolCall" && p.toolCallId === request.toolCallId);
  return request.toolKind ?? tool?.kind;
}

/**
 * Adds a permission request to the answer (ACP `session/request_permission`): pending, or already answered when
 * `auto` says so (the policy or a remembered choice; the card says why).
 */
export function addPermission(
  message: MessageRecord,
  requestId: string,
  request: PermissionRequest,
  auto?: { optionId: string; reason: string },
): { message: MessageRecord; part: PermissionPart } {
  const tool = message.parts.find((p): p is ToolCallPart => p.type === "toolCall" && p.toolCallId === request.toolCallId);
  const toolKind = toolKindOf(message, request);
  const part: PermissionPart = {
    type: "permission",
    requestId,
    toolCallId: request.toolCallId,
    // The request's own title says what it asks (Claude: "`exit 3`" while its tool call may still say "Terminal").
    title: request.title ?? (tool?.title || l10n.t("Permission requested")),
    ...(request.title === undefined && !tool?.title ? { untitled: true } : {}),
    options: request.options,
    ...(toolKind ? { toolKind } : {}),
    ...(auto ? { outcome: auto.optionId, auto: auto.reason } : {}),
  };
  return { message: { ...message, parts: [...message.parts, part] }, part };
}

/** Records the outcome of a permission request: the chosen option id, or `cancelled`. */
export function answerPermissionPart(message: MessageRecord, requestId: string, outcome: string): { message: MessageRecord; part?: PermissionPart } {
  const index = message.parts.findIndex((p) => p.type === "permission" && p.requestId === requestId);
  if (index === -1) return { message };
  const part: PermissionPart = { ...(message.parts[index] as PermissionPart), outcome };
  const parts = message.parts.slice();
  parts[index] = part;
  return { message: { ...message, parts }, part };
}

/** The ids of permission requests still waiting for an answer in `message`. */
export function pendingPermissions(message: MessageRecord): string[] {
  return message.parts.filter((p): p is PermissionPart => p.type === "permission" && p.outcome === undefined).map((p) => p.requestId);
}

/** Why a request was closed without the user's answer, by how its attempt ended. */
const UNANSWERED = {
  unknown: () => l10n.t("Not answered: the answer was interrupted (a reload, or the window closed) before you chose. Retry asks again."),
  failed: () => l10n.t("Not answered: the agent stopped before you chose."),
  noResult: () => l10n.t("Not answered: the agent ended its turn without waiting for your answer."),
};

/**
 * Closes what an ended attempt left open: pending permission requests become `cancelled` (the agent's answer), shown as
 * "not answered" with why unless the user stopped the turn (`unanswered`); tool calls still
 * `pending`/`in_progress` are marked failed when the attempt failed, cancelled when the user stopped it (ACP
 * `session/cancel`: the client marks unfinished tool calls cancelled), "outcome unknown" when it was interrupted
 * (the agent ran them itself; whether they finished is not known — brief, "Tool intents"), and "no result" when the
 * agent ended its turn itself (ACP stop reason) without reporting their end. ACP's `status` keeps the agent's last
 * word in every case but `failed`.
 */
export function closeOpenParts(message: MessageRecord, how: "failed" | "cancelled" | "unknown" | "noResult"): MessageRecord {
  let changed = false;
  const parts = message.parts.map((p) => {
    if (p.type === "permission" && p.outcome === undefined) {
      changed = true;
      // The agent is answered `cancelled`; the card says the user chose nothing, unless the user's Stop ended it.
      return how === "cancelled" ? { ...p, outcome: "cancelled" } : { ...p, outcome: "cancelled", unanswered: true, notice: UNANSWERED[how]() };
    }
    if (p.type === "toolCall" && (p.status === "pending" || p.status === "in_progress")) {
      changed = true;
      if (how === "failed") return { ...p, status: "failed" as const };
      if (how === "noResult") return { ...p, noResult: true };
      return how === "cancelled" ? { ...p, cancelled: true } : { ...p, outcomeUnknown: true };
    }
    return p;
  });
  return changed ? { ...message, parts } : message;
}

export { RETRY_NOTE_END };

/** How much of the earlier attempt's text a retry quotes back to the agent, in characters. */
export const RETRY_TEXT_LIMIT = 2_000;

/**
 * What a new attempt tells the agent about the earlier one (brief, "The user can Retry … whose prompt tells the
 * agent what the earlier attempt is known to have done"): the tool calls with their last known status, permission
 * answers, the effects Sidekicks ran for it (`known`: tool intents, one line each), and the end of the text it had
 * written. Reads only the parts since the last retry divider.
 */
export function describeEarlierAttempt(message: MessageRecord, attempt: number, known: readonly string[] = []): string {
  let start = 0;
  message.parts.forEach((p, i) => {
    if (p.type === "retry") start = i + 1;
  });
  const earlier = message.parts.slice(start);
  const lines: string[] = [];
  for (const p of earlier) {
    if (p.type === "toolCall") {
      const status = p.outcomeUnknown
        ? `outcome unknown (last seen ${p.status})`
        : p.cancelled
          ? `cancelled by the user (last seen ${p.status})`
          : p.noResult
            ? `no result reported before the turn ended (last seen ${p.status})`
            : p.status;
      lines.push(`- tool call "${p.title || p.toolCallId}"${p.kind ? ` (${p.kind})` : ""}: ${status}`);
    } else if (p.type === "permission" && p.outcome) {
      const chosen = p.options.find((o) => o.optionId === p.outcome);
      // A request the attempt left unanswered was never allowed: the agent must ask again, not act on it.
      lines.push(`- permission "${p.title}": ${chosen ? `answered "${chosen.name}"` : "never answered, so not allowed: ask again before doing it"}`);
    }
  }
  for (const line of known) lines.push(`- Sidekicks, for you: ${line}`);
  const text = earlier.map((p) => (p.type === "text" ? p.text : "")).join("");
  const why = message.error ? ` (${message.error.message})` : "";
  const ended = message.outcome === "cancelled" ? "was stopped by the user before it finished; they asked to run it again" : `ended before it finished${why}`;
  const head = `${RETRY_NOTE_START} ${attempt} of this request. Attempt ${attempt - 1} ${ended}.`;
  const done = lines.length > 0 ? `\nWhat it is known to have done:\n${lines.join("\n")}` : "\nIt made no tool calls that Sidekicks saw.";
  const quoted =
    text.trim() === ""
      ? "\nIt had written no text yet."
      : `\nThe text it had written${text.length > RETRY_TEXT_LIMIT ? ` (last ${RETRY_TEXT_LIMIT} characters)` : ""}:\n> ${text.slice(-RETRY_TEXT_LIMIT).replace(/\n/g, "\n> ")}`;
  return `${head}${done}${quoted}\n\n${RETRY_NOTE_END}\n\n`;
}
