/**
 * The client side of one ACP connection: the stdout stream (newline-delimited JSON; lines that are not ACP counted
 * and logged; the replayed history of a `session/load` dropped in the order the agent wrote it), the sessions this
 * process opened, and the handlers for what the agent sends: `session/update`, `session/request_permission`, and the
 * client methods `fs/read_text_file`, `fs/write_text_file`, `terminal/*` (handed to `onClientRequest`; a refusal
 * becomes a JSON-RPC error carrying its sentence). SDK types stay in this folder.
 */
import { randomUUID } from "node:crypto";
import * as acp from "@agentclientprotocol/sdk";
import { asSidekicksError } from "../shared/errors";
import type { AgentProcess } from "./agentProcess";
import { detachedPrefix, stdioStream } from "./stdioStream";
import type { AcpClientHandlers, ClientRequest, SessionSetup } from "./types";
import { readPermissionRequest } from "./permissionRequest";
import { toAgentUpdate } from "./updates";

/** At most this many dropped stdout lines are logged one by one; the rest are counted. */
const DROPPED_LINES_LOGGED = 50;
/** How much of a rejected stdout line is kept for messages (the first and the last one), in characters. */
export const KEPT_LINE_CHARS = 1_000;

/** Refusals of what the agent asked (its params), answered as JSON-RPC "invalid params"; the rest as internal errors. */
const INVALID_PARAMS_CODES: ReadonlySet<string> = new Set(["workspace/outside", "workspace/notRegular", "workspace/tooLarge", "terminal/unknown", "agent/requestLimit"]);

/** The `session/update` kinds that belong to a prompt turn (the rest describe the session). */
const TURN_CONTENT: ReadonlySet<string> = new Set(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"]);

/** What `initialize` advertises: files and terminals only when the handlers serve them. */
export interface Served {
  fs: boolean;
  terminal: boolean;
}

/**
 * The sessions one process opened (`session/new`, `session/load`), their settings as the opening answer described
 * them, and the loads in flight, whose replayed updates are dropped.
 */
export class SessionTable {
  private readonly known = new Set<string>();
  private readonly setups = new Map<string, SessionSetup>();
  /** Sessions being opened with `session/load` → how many replayed updates were dropped so far. */
  private readonly loading = new Map<string, { dropped: number }>();
  /** How many `session/new` requests are in flight (their answers register sessions as they are read). */
  creating = 0;
  /** `session/prompt` requests in flight: JSON-RPC id → session id. */
  private readonly prompts = new Map<string | number, string>();
  /** Sessions with a prompt in flight → how many (normally one). */
  private readonly prompting = new Map<string, number>();
  /** Content updates that arrived when no prompt of their session was in flight (marked late). */
  late = 0;
  /** Appended to the session id of a late update (random, so no agent can send it). */
  private readonly lateMark = `\u0000late-${randomUUID()}`;

  /** True for a session this process opened (or whose `session/new` answer was just read). */
  has(sessionId: string): boolean {
    return this.known.has(sessionId);
  }

  /** Records an opened session and what its opening answer said about its settings. */
  opened(sessionId: string, setup: SessionSetup): void {
    this.known.add(sessionId);
    this.setups.set(sessionId, setup);
  }

  /** The settings the answer that opened `sessionId` described; empty for a session this process did not open. */
  setup(sessionId: string): SessionSetup {
    return this.setups.get(sessionId) ?? {};
  }

  /** Starts dropping the replay of `sessionId`; pass the result to {@link endLoad}. */
  beginLoad(sessionId: string): { dropped: number } {
    const load = { dropped: 0 };
    this.loading.set(sessionId, load);
    return load;
  }

  /** Stops dropping the replay of a load begun with {@link beginLoad}. */
  endLoad(sessionId: string, load: { dropped: number }): void {
    if (this.loading.get(sessionId) === load) this.loading.delete(sessionId);
  }

  /**
   * Judges one message from the agent in the order it wrote it, before the SDK sees it: a `session/new` answer
   * registers its session at once (the updates right behind it then find the session: the SDK resolves the request
   * a tick later); a prompt's answer ends that prompt; a `session/update` of a session being loaded is replayed
   * history; turn content of a session with no prompt in flight is marked late (see {@link unmark}).
   * @returns false to drop the message (replay, counted)
   */
  keep(message: acp.AnyMessage): boolean {
    if (!("method" in message) && "id" in message) {
      if (this.creating > 0 && "result" in message) {
        const id = (message.result as { sessionId?: unknown } | null)?.sessionId;
        if (typeof id === "string") this.known.add(id);
      }
      this.promptAnswered(message.id);
    }
    if (this.isReplay(message)) return false;
    if (this.isLate(message)) {
      const params = (message as { params: { sessionId: string } }).params;
      params.sessionId += this.lateMark;
    }
    return true;
  }

  /** Notes a message Sidekicks sends (before it is written): a `session/prompt` starts its session's prompt. */
  sent(message: acp.AnyMessage): void {
    if (!("method" in message) || message.method !== "session/prompt" || !("id" in message)) return;
    const sessionId = (message.params as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sessionId !== "string") return;
    if (message.id === null) return;
    this.prompts.set(message.id, sessionId);
    this.prompting.set(sessionId, (this.prompting.get(sessionId) ?? 0) + 1);
  }

  /** The answer to request `id` was read: if it was a prompt, that prompt is over. */
  private promptAnswered(id: string | number | null): void {
    if (id === null) return;
    const sessionId = this.prompts.get(id);
    if (sessionId === undefined) return;
    this.prompts.delete(id);
    const left = (this.prompting.get(sessionId) ?? 1) - 1;
    if (left > 0) this.prompting.set(sessionId, left);
    else this.prompting.delete(sessionId);
  }

  /**
   * True for content of a known session (message and thought chunks, tool calls, plans) that arrives when none of
   * its prompts is in flight: written after the agent answered its prompt, it belongs to the turn that has ended
   * (field case 1: kept there) and must never be shown in the next one (issue 17). Session state (commands, mode,
   * options, usage) is never late.
   */
  private isLate(message: acp.AnyMessage): boolean {
    if (!("method" in message) || message.method !== "session/update" || "id" in message) return false;
    const params = message.params as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | undefined;
    const sessionId = params?.sessionId;
    if (typeof sessionId !== "string" || !this.known.has(sessionId) || this.prompting.has(sessionId) || this.loading.has(sessionId)) return false;
    if (!TURN_CONTENT.has(String(params?.update?.sessionUpdate))) return false;
    this.late += 1;
    return true;
  }

  /**
   * Splits the session id of an update {@link keep} marked late (it rewrites the id: the mark then survives the
   * SDK's parsing of the message, which builds new objects). @returns the real session id and whether it was late
   */
  unmark(sessionId: string): { sessionId: string; late: boolean } {
    return sessionId.endsWith(this.lateMark) ? { sessionId: sessionId.slice(0, -this.lateMark.length), late: true } : { sessionId, late: false };
  }

  /** True for a `session/update` of a session being loaded (its replayed history); counts it. */
  private isReplay(message: acp.AnyMessage): boolean {
    if (this.loading.size === 0 || !("method" in message) || message.method !== "session/update" || "id" in message) return false;
    const params = message.params as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | undefined;
    const load = typeof params?.sessionId === "string" ? this.loading.get(params.sessionId) : undefined;
    if (!load || params?.update?.sessionUpdate === "available_commands_update") return false;
    load.dropped += 1;
    return true;
  }
}

/** What the connection tells its owner about the stream, for `initialize`'s not-ACP verdict. */
export interface StreamHooks {
  /** An ACP message arrived. */
  onMessage(): void;
  /** A stdout line that is not ACP arrived (already counted in `proc.notAcp`). */
  onNotAcpLine(): void;
  /** The name the agent gave itself in `initialize` (`agentInfo.name`), once known. */
  agentName(): string | undefined;
}

/**
 * Connects the SDK's client side to the process's stdio, with a handler for every method the agent may call.
 * @returns the connection, and what `initialize` may advertise (`handlers.serves`, else files and terminals when
 *   `onClientRequest` is given)
 */
export function connectClient(proc: AgentProcess, handlers: AcpClientHandlers, sessions: SessionTable, hooks: StreamHooks): { connection: acp.ClientConnection; served: Served } {
  const ignoredKinds = new Set<string>();
  const ignoredOnce = (kind: string, why: string) => {
    if (ignoredKinds.has(kind) || ignoredKinds.size >= 100) return;
    ignoredKinds.add(kind);
    handlers.onLog("debug", `session/update of kind ${JSON.stringify(kind).slice(0, 80)} ignored (${why}); later ones of this kind are not logged`);
  };
  const stream = stdioStream(proc.child.stdout!, proc.child.stdin!, {
    onDroppedLine: (line, reason) => {
      const notAcp = proc.notAcp;
      notAcp.count += 1;
      // Only the start of a rejected line is kept (a 32 MB line would otherwise stay in memory: issue 17).
      const kept = detachedPrefix(line, KEPT_LINE_CHARS);
      notAcp.last = kept;
      notAcp.first ??= kept;
      hooks.onNotAcpLine();
      if (notAcp.count <= DROPPED_LINES_LOGGED) {
        handlers.onLog("warn", `stdout line skipped (${reason}, not ACP): ${detachedPrefix(kept, 300)}`);
      } else if (notAcp.count === DROPPED_LINES_LOGGED + 1) {
        handlers.onLog("warn", `more stdout lines skipped; only the first ${DROPPED_LINES_LOGGED} are logged`);
      }
    },
    // The replay of a `session/load` is dropped before the SDK sees it: messages are judged in the order the agent
    // wrote them, so every update sent before the load's answer is judged while the load is still in flight.
    keep: (message) => {
      hooks.onMessage();
      // An update of a kind this version of ACP does not define (field case 25): ignored here, logged once per kind
      // (the SDK would refuse it with a console error, out of the agent's log).
      const kind = updateKind(message);
      if (kind !== undefined && !SESSION_UPDATE_KINDS.has(kind)) {
        ignoredOnce(kind, "a kind Sidekicks does not know");
        return false;
      }
      return sessions.keep(message);
    },
    onSend: (message) => sessions.sent(message),
  });
  const served: Served = handlers.serves ?? { fs: handlers.onClientRequest !== undefined, terminal: handlers.onClientRequest !== undefined };
  const serve = (request: ClientRequest) => clientRequest(handlers, served, sessions, request, hooks.agentName());
  const connection = acp
    .client({ name: "sidekicks" })
    .onNotification("session/update", ({ params }) => {
      const { sessionId, late } = sessions.unmark(params.sessionId);
      // Commands belong to the agent, and often come right behind the session/new response, before the session
      // is known here: they are kept whatever the session.
      if (!sessions.has(sessionId) && params.update.sessionUpdate !== "available_commands_update") {
        handlers.onLog("debug", `session/update for unknown session ${sessionId} dropped`);
        return;
      }
      if (late) handlers.onLog("debug", `session/update ${params.update.sessionUpdate} of session ${sessionId} came after the agent answered its prompt: it goes to that prompt's turn`);
      const update = toAgentUpdate(params.update);
      if (update.kind === "ignored") ignoredOnce(update.sessionUpdate, "not shown");
      handlers.onUpdate(sessionId, update, late);
    })
    // Raw params, read by `readPermissionRequest`: the SDK's schema would refuse an option of an unknown kind (and
    // more) with "Invalid params" to the agent, unseen by the user and unlogged (issue 18).
    .onRequest("session/request_permission", (raw: unknown) => raw, async ({ params, signal }): Promise<acp.RequestPermissionResponse> => {
      const read = readPermissionRequest(params);
      if (!read || !sessions.has(read.request.sessionId)) {
        const session = (params as { sessionId?: unknown } | null)?.sessionId;
        handlers.onLog("warn", `permission request for unknown session ${JSON.stringify(session ?? null).slice(0, 100)} cancelled`);
        return { outcome: { outcome: "cancelled" } };
      }
      if (read.problems.length > 0) handlers.onLog("warn", `permission request for tool call ${read.request.toolCallId}: ${read.problems.join("; ")}`);
      try {
        const answer = await handlers.onPermissionRequest(read.request, signal);
        return { outcome: answer };
      } catch (err) {
        throw asRequestError(err);
      }
    })
    .onRequest("fs/read_text_file", ({ params }) => serve({ method: "fs/read_text_file", sessionId: params.sessionId, path: params.path, line: params.line, limit: params.limit }) as Promise<acp.ReadTextFileResponse>)
    .onRequest("fs/write_text_file", async ({ params }) => {
      await serve({ method: "fs/write_text_file", sessionId: params.sessionId, path: params.path, content: params.content });
      return {};
    })
    .onRequest("terminal/create", ({ params }) =>
      serve({
        method: "terminal/create",
        sessionId: params.sessionId,
        command: params.command,
        args: params.args ?? [],
        env: params.env ?? [],
        cwd: params.cwd,
        outputByteLimit: params.outputByteLimit,
      }) as Promise<acp.CreateTerminalResponse>,
    )
    .onRequest("terminal/output", ({ params }) => serve({ method: "terminal/output", sessionId: params.sessionId, terminalId: params.terminalId }) as Promise<acp.TerminalOutputResponse>)
    .onRequest("terminal/wait_for_exit", ({ params }) =>
      serve({ method: "terminal/wait_for_exit", sessionId: params.sessionId, terminalId: params.terminalId }) as Promise<acp.WaitForTerminalExitResponse>,
    )
    .onRequest("terminal/kill", async ({ params }) => {
      await serve({ method: "terminal/kill", sessionId: params.sessionId, terminalId: params.terminalId });
      return {};
    })
    .onRequest("terminal/release", async ({ params }) => {
      await serve({ method: "terminal/release", sessionId: params.sessionId, terminalId: params.terminalId });
      return {};
    })
    .connect(stream);
  return { connection, served };
}

/**
 * Serves one `fs/*` or `terminal/*` request through the handlers: refused with "method not found" when they do
 * not serve files and terminals (nothing was advertised), for an unknown session, and as a JSON-RPC error carrying
 * the sentence of a `SidekicksError` (`workspace/outside` as invalid params).
 */
async function clientRequest(handlers: AcpClientHandlers, served: Served, sessions: SessionTable, request: ClientRequest, agentName: string | undefined): Promise<unknown> {
  const advertised = request.method.startsWith("fs/") ? served.fs : served.terminal;
  if (!handlers.onClientRequest || !advertised) throw acp.RequestError.methodNotFound(request.method);
  if (!sessions.has(request.sessionId)) throw acp.RequestError.sessionNotFound(request.sessionId);
  try {
    return await handlers.onClientRequest(request);
  } catch (err) {
    if (request.method === "fs/read_text_file" && agentName === "gemini-cli" && asSidekicksError(err, "agent/request").code === "workspace/notFound") {
      // Gemini CLI reads a file before it writes it, and takes any refusal of that read for a failure: its connection
      // rejects with the JSON-RPC error object, which its check for a missing file (`err instanceof Error`) never
      // recognises (gemini-cli#9280, "Error checking existing file"), so it could not create a file. Zed answers such
      // a read with the empty text of a new buffer; so does Sidekicks, for Gemini CLI only, and says so in the log.
      // Its read_file tool asks the disk first whether the file exists, so the model is not told a missing file is empty.
      handlers.onLog("warn", `${request.method}: ${request.path} does not exist; answered with empty text, as Gemini CLI needs to create it`);
      return { content: "" };
    }
    const e = asRequestError(err, "path" in request ? request.path : undefined);
    handlers.onLog("warn", `${request.method} refused: ${e.message}`);
    throw e;
  }
}

/**
 * A refusal as the JSON-RPC error the agent gets: its sentence, and its code in `data.code`. A file that does not
 * exist is ACP's "Resource not found" (-32002, `data.uri` the path asked for), as the SDK's
 * `RequestError.resourceNotFound` makes it, so an agent can tell a missing file from a failure.
 */
function asRequestError(err: unknown, path?: string): acp.RequestError {
  const e = asSidekicksError(err, "agent/request");
  if (e.code === "workspace/notFound" && path !== undefined) return new acp.RequestError(-32002, `Resource not found: ${path}`, { code: e.code, uri: path });
  return new acp.RequestError(INVALID_PARAMS_CODES.has(e.code) ? -32602 : -32603, e.message, { code: e.code });
}

/**
 * The `session/update` kinds of the ACP schema this SDK speaks (its `SessionUpdate`): an update of any other kind is
 * ignored where it enters (field case 25), as ACP asks of clients for what they do not understand.
 */
const SESSION_UPDATE_KINDS: ReadonlySet<string> = new Set([
  "user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan",
  "available_commands_update", "current_mode_update", "config_option_update", "session_info_update", "usage_update",
  "notice", "compaction_update", "compaction_summary_chunk",
]);

/** The `sessionUpdate` kind of a `session/update` notification, or undefined for any other message. */
function updateKind(message: acp.AnyMessage): string | undefined {
  if (!("method" in message) || message.method !== "session/update" || "id" in message) return undefined;
  const update = (message.params as { update?: { sessionUpdate?: unknown } } | null | undefined)?.update;
  return typeof update?.sessionUpdate === "string" ? update.sessionUpdate : "(none)";
}
