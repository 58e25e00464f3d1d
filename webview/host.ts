/**
 * The webview's side of the typed host⇄webview protocol (`src/shared/protocol`).
 *
 * `HostConnection` posts `ready`, sends typed requests matched by `id`, dispatches typed host events, and answers
 * the host's own requests with exactly one `response` each. It only talks to a `HostPort`, so tests (and any
 * other embedding) can wire it to a fake host; `vsCodePort` wires it to VS Code's webview API.
 */
import * as l10n from "@vscode/l10n";
import {
  PROTOCOL_VERSION,
  type ErrorInfo,
  type HostEventName,
  type HostEvents,
  type HostRequestMethod,
  type HostRequests,
  type HostToWebview,
  type WebviewRequestMethod,
  type WebviewRequests,
  type WebviewToHost,
} from "../src/shared/protocol";

/** The transport under a connection: post to the host, receive what the host posts. */
export interface HostPort {
  postMessage(message: WebviewToHost): void;
  /** Registers a receiver of raw host messages; returns a function that unregisters it. */
  onMessage(listener: (data: unknown) => void): () => void;
  /** Reloads the webview (the host asked for it after a protocol version mismatch). */
  reload(): void;
}

/** One handler per host request method; the compiler forces every method to be handled. */
export type HostRequestHandlers = {
  [M in HostRequestMethod]: (params: HostRequests[M][0]) => Promise<HostRequests[M][1]> | HostRequests[M][1];
};

/** A request the host answered with `error`, or that timed out (`webview/timeout`). */
export class RequestError extends Error {
  readonly code: string;
  readonly detail: string | undefined;

  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = "RequestError";
    this.code = info.code;
    this.detail = info.detail;
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: RequestError): void;
  timer: ReturnType<typeof setTimeout>;
}

type EventListener<E extends HostEventName> = (payload: HostEvents[E]) => void;

/** Default time a request may wait for its response before it is rejected, in milliseconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** The webview end of the protocol. Create one per webview; call `start()` once listeners are registered. */
export class HostConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<HostEventName, Set<(payload: never) => void>>();
  private handlers: HostRequestHandlers | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly port: HostPort,
    private readonly timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {}

  /** Starts listening and posts `{kind: "ready", protocolVersion}`; the host sends nothing before that. */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.port.onMessage((data) => this.receive(data));
    this.port.postMessage({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  }

  /** Stops listening and rejects every pending request with `webview/disposed`. */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new RequestError({ code: "webview/disposed", message: l10n.t("The view was closed.") }));
      this.pending.delete(id);
    }
  }

  /**
   * Sends a request to the host. Resolves with its `result`; rejects with a `RequestError` carrying the host's
   * error, or `webview/timeout` after `timeoutMs` without an answer.
   */
  request<M extends WebviewRequestMethod>(method: M, params: WebviewRequests[M][0]): Promise<WebviewRequests[M][1]> {
    const id = this.nextId++;
    return new Promise<WebviewRequests[M][1]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError({ code: "webview/timeout", message: l10n.t("The host did not answer {0}.", method) }));
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject, timer });
      this.port.postMessage({ kind: "request", id, method, params } as WebviewToHost);
    });
  }

  /** Subscribes to a host event; returns a function that unsubscribes. */
  on<E extends HostEventName>(name: E, listener: EventListener<E>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  /** Installs the handlers that answer the host's requests (`test/*`). Unhandled requests get an error reply. */
  handleRequests(handlers: HostRequestHandlers): void {
    this.handlers = handlers;
  }

  private receive(data: unknown): void {
    if (!isHostMessage(data)) return;
    switch (data.kind) {
      case "response":
        return this.settle(data.id, data.result, data.error);
      case "event":
        return this.emit(data.name, data.payload);
      case "request":
        void this.answer(data.id, data.method, data.params);
        return;
      case "reload":
        this.port.reload();
        return;
    }
  }

  private settle(id: number, result: unknown, error: ErrorInfo | undefined): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (error) p.reject(new RequestError(error));
    else p.resolve(result);
  }

  private emit(name: HostEventName, payload: unknown): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        listener(payload as never);
      } catch (err) {
        console.error(`[sidekicks] listener for ${name} failed`, err);
      }
    }
  }

  /** Answers one host request with exactly one response, whatever the handler does. */
  private async answer(id: number, method: string, params: unknown): Promise<void> {
    let reply: WebviewToHost;
    try {
      const handler = this.handlers && Object.hasOwn(this.handlers, method)
        ? (this.handlers[method as HostRequestMethod] as (p: unknown) => unknown)
        : undefined;
      if (!handler) {
        reply = { kind: "response", id, error: { code: "webview/unknownMethod", message: `Unknown request ${method}.` } };
      } else {
        reply = { kind: "response", id, result: await handler(params) };
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      reply = { kind: "response", id, error: { code: "webview/failed", message } };
    }
    this.port.postMessage(reply);
  }
}

/** Shape check at the trust boundary: anything that is not a host message is ignored. */
function isHostMessage(data: unknown): data is HostToWebview {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Record<string, unknown>;
  switch (m.kind) {
    case "response":
      return typeof m.id === "number";
    case "event":
      return typeof m.name === "string" && typeof m.payload === "object" && m.payload !== null;
    case "request":
      return typeof m.id === "number" && typeof m.method === "string";
    case "reload":
      return true;
    default:
      return false;
  }
}

/** What `acquireVsCodeApi()` returns inside a VS Code webview. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState<T>(state: T): T;
}

declare global {
  /** Provided by VS Code to webview scripts; may be called only once per page. */
  function acquireVsCodeApi(): VsCodeApi;
}

/** A `HostPort` over VS Code's webview API: host messages arrive as window `message` events. */
export function vsCodePort(api: VsCodeApi, target: Window = window): HostPort {
  return {
    postMessage: (message) => api.postMessage(message),
    onMessage(listener) {
      const onMessage = (event: MessageEvent): void => listener(event.data);
      target.addEventListener("message", onMessage);
      return () => target.removeEventListener("message", onMessage);
    },
    reload: () => target.location.reload(),
  };
}
