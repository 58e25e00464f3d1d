import {
  PROTOCOL_VERSION,
  type ErrorInfo,
  type HostEventName,
  type HostEvents,
  type HostRequestMethod,
  type HostRequests,
  type HostToWebview,
  type MessageView,
  type TextPart,
  type WebviewRequestMethod,
  type WebviewRequests,
} from "../shared/protocol";
import * as l10n from "@vscode/l10n";
import { asSidekicksError } from "../shared/errors";
import { isWebviewRequestMethod } from "../shared/protocol/requestGuards";
import { samePart } from "../shared/parts";

/** One handler per webview request: the compiler makes the map complete. */
export type WebviewRequestHandlers = {
  [M in WebviewRequestMethod]: (params: WebviewRequests[M][0]) => Promise<WebviewRequests[M][1]>;
};

/** How long deltas are gathered before they are posted, in ms (about one frame). */
export const DELTA_FLUSH_MS = 16;

/** How long a host → webview request may wait for its answer, in ms. */
export const HOST_REQUEST_TIMEOUT_MS = 10_000;

type Delta = HostEvents["message/delta"];

/**
 * The host side of the webview protocol (`src/shared/protocol`) for one webview: holds events back until the webview
 * says `ready`, answers every request exactly once, validates what the webview sends, and coalesces streamed deltas
 * so that a burst of chunks costs one post per frame instead of one per chunk (order with other events is kept).
 *
 * Events that happen before `ready` are not replayed: a webview that (re)loads always starts with `channel/open`,
 * whose answer is a snapshot taken after every earlier event was posted. So a hidden view costs no memory.
 */
export class WebviewBridge {
  private ready = false;
  private deltas: Delta[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private disposed = false;
  /**
   * Per message this webview saw start (while ready), the texts posted for it: its text at `message/started`, then
   * each appended delta. Its `message/finished` then need not carry the text again (`withoutStreamedText`).
   */
  private readonly streamed = new Map<string, string[]>();

  /**
   * @param post sends one message to the webview (`Webview.postMessage`)
   * @param handlers answers the webview's requests
   * @param onReady called each time the webview (re)loads and says `ready`
   * @param log receives a line for each message the bridge rejects
   */
  constructor(
    private readonly post: (message: HostToWebview) => void,
    private readonly handlers: WebviewRequestHandlers,
    private readonly onReady: () => void = () => undefined,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** Whether the webview has said `ready`. */
  get isReady(): boolean {
    return this.ready;
  }

  /** Handles one message from the webview (`onDidReceiveMessage`). Unknown shapes are logged and dropped. */
  receive(raw: unknown): void {
    if (typeof raw !== "object" || raw === null) return this.log("webview message dropped: not an object");
    const msg = raw as { kind?: unknown; id?: unknown; method?: unknown; params?: unknown; protocolVersion?: unknown; result?: unknown; error?: unknown };
    if (msg.kind === "ready") {
      if (msg.protocolVersion !== PROTOCOL_VERSION) {
        this.post({ kind: "reload" });
        return;
      }
      this.ready = true;
      this.deltas = [];
      this.streamed.clear(); // a (re)loaded webview starts from `channel/open`, not from these streams
      this.onReady();
      return;
    }
    if (msg.kind === "response" && typeof msg.id === "number") {
      const waiting = this.pending.get(msg.id);
      if (!waiting) return;
      this.pending.delete(msg.id);
      clearTimeout(waiting.timer);
      if (msg.error) waiting.reject(new Error((msg.error as ErrorInfo).message ?? "webview request failed"));
      else waiting.resolve(msg.result);
      return;
    }
    if (msg.kind === "request" && typeof msg.id === "number" && isWebviewRequestMethod(msg.method) && msg.method in this.handlers) {
      void this.answer(msg.id, msg.method, msg.params);
      return;
    }
    if (msg.kind === "request" && typeof msg.id === "number") {
      // Not a method of the protocol (or a prototype name: `__proto__`, `toString`…): refused, and said so.
      const method = typeof msg.method === "string" ? msg.method.slice(0, 100) : typeof msg.method;
      this.log(`webview request ${JSON.stringify(method)} refused: not a request of the protocol`);
      const error: ErrorInfo = { code: "webview/unknownRequest", message: l10n.t("The Sidekicks view asked for something the host does not do ({0}).", method) };
      void Promise.resolve().then(() => this.send({ kind: "response", id: msg.id as number, error }));
      return;
    }
    this.log(`webview message dropped: unexpected ${JSON.stringify(raw).slice(0, 200)}`);
  }

  /** Posts an event (dropped before `ready`, see the class comment). `message/delta` events are coalesced for up to one frame. */
  event<E extends HostEventName>(name: E, payload: HostEvents[E]): void {
    if (this.disposed) return;
    if (name === "message/delta") {
      this.recordText(payload as Delta);
      this.addDelta(payload as Delta);
      return;
    }
    this.flush();
    if (name === "message/started" && this.ready) {
      const message = payload as HostEvents["message/started"];
      this.streamed.set(message.id, textParts(message).map((part) => part.text));
    }
    if (name === "message/finished") {
      this.send({ kind: "event", name, payload: this.withoutStreamedText(payload as HostEvents["message/finished"]) });
      return;
    }
    this.send({ kind: "event", name, payload } as HostToWebview);
  }

  /** Keeps the text a delta appends to a message whose whole stream this webview has seen (see `streamed`). */
  private recordText(delta: Delta): void {
    const texts = this.streamed.get(delta.messageId);
    if (!texts) return;
    if (delta.part?.type === "text") this.streamed.delete(delta.messageId); // not a shape the check below follows
    else if (delta.appendText) texts.push(delta.appendText);
  }

  /**
   * The committed message as it is posted: its text parts emptied, with `streamedText`, when everything posted for it
   * since its `message/started` (that text and every appended delta) is exactly its text; else whole.
   */
  private withoutStreamedText(message: HostEvents["message/finished"]): HostEvents["message/finished"] {
    const texts = this.streamed.get(message.id);
    this.streamed.delete(message.id);
    if (!texts || !this.ready) return message;
    const parts = textParts(message);
    if (parts.length === 0 || texts.join("") !== parts.map((part) => part.text).join("")) return message;
    return {
      ...message,
      parts: message.parts.map((part) => (part.type === "text" ? { ...part, text: "" } : part)),
      streamedText: parts.map((part) => part.text.length),
    };
  }

  /**
   * Sends a request to the webview and resolves with its result.
   * @throws Error when the webview is not ready, answers with an error, or does not answer within 10 s
   */
  request<M extends HostRequestMethod>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]> {
    if (!this.ready) return Promise.reject(new Error("the Sidekicks view is not loaded yet"));
    this.flush();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`webview did not answer ${method} within ${HOST_REQUEST_TIMEOUT_MS} ms`));
      }, HOST_REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.post({ kind: "request", id, method, params } as HostToWebview);
    });
  }

  /** Forgets the webview (it was disposed); pending host requests fail. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error("the Sidekicks view was closed"));
      this.pending.delete(id);
    }
  }

  /** Marks the webview as reloading: events are held back again until it says `ready`. */
  reset(): void {
    this.ready = false;
    this.streamed.clear();
  }

  private async answer(id: number, method: WebviewRequestMethod, params: unknown): Promise<void> {
    try {
      const handler = this.handlers[method] as (p: unknown) => Promise<unknown>;
      const result = await handler(params ?? {});
      this.flush();
      this.send({ kind: "response", id, result });
    } catch (err) {
      const e = asSidekicksError(err, "agent/protocol");
      const error: ErrorInfo = { code: e.code, message: e.message, detail: e.detail };
      this.send({ kind: "response", id, error });
    }
  }

  private addDelta(delta: Delta): void {
    const last = this.deltas[this.deltas.length - 1];
    if (last && last.messageId === delta.messageId && delta.appendText !== undefined && delta.part === undefined && last.part === undefined) {
      last.appendText = (last.appendText ?? "") + delta.appendText;
    } else if (last && last.messageId === delta.messageId && delta.part && last.part && samePart(last.part, delta.part) && last.appendText === undefined) {
      last.part = delta.part;
    } else {
      this.deltas.push({ ...delta });
    }
    this.flushTimer ??= setTimeout(() => this.flush(), DELTA_FLUSH_MS);
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const deltas = this.deltas;
    if (deltas.length === 0) return;
    this.deltas = [];
    for (const payload of deltas) this.send({ kind: "event", name: "message/delta", payload });
  }

  private send(message: HostToWebview): void {
    if (this.ready) this.post(message);
  }
}

/** The text parts of a message, in order. */
function textParts(message: MessageView): TextPart[] {
  return message.parts.filter((part): part is TextPart => part.type === "text");
}
