import type { AgentUpdate } from "../acp/types";

type TextUpdate = Extract<AgentUpdate, { kind: "text" }>;

/**
 * Joins text chunks that arrive together (one read of the agent's stdout holds many) into one update: the same text,
 * the same order, one reducer step instead of hundreds. Chunks of different ACP messages (`messageId`, a change
 * starts a new message) are never joined. The joined update is handed to `emit` on the next turn of the event loop,
 * or at once by {@link flush} (call it before any other update, so the order holds).
 */
export class TextCoalescer {
  private text = "";
  private messageId: string | undefined;
  private pending: ReturnType<typeof setImmediate> | undefined;

  constructor(private readonly emit: (update: TextUpdate) => void) {}

  /** Adds a chunk; a chunk of another ACP message first flushes what was held. */
  add(update: TextUpdate): void {
    if (this.text !== "" && update.messageId !== this.messageId) this.flush();
    this.messageId = update.messageId;
    this.text += update.text;
    this.pending ??= setImmediate(() => this.flush());
  }

  /** Emits what is held, if anything. */
  flush(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
    if (this.text === "") return;
    const update: TextUpdate = { kind: "text", text: this.text, ...(this.messageId !== undefined ? { messageId: this.messageId } : {}) };
    this.text = "";
    this.emit(update);
  }
}
