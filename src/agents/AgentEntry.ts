import type { AcpClient } from "../acp/AcpClient";
import type { AgentUpdate, ClientRequest, PermissionAnswer, PermissionRequest, PromptInput } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import type { AgentState, AgentWait, ErrorInfo } from "../shared/protocol";
import type { TimerHandle } from "./Clock";
import type { AgentPlace, AgentWorktree, WorktreeStatus } from "./runtimes";

/**
 * An effect the client runs for the agent (ACP `fs/write_text_file`, `terminal/create`), handed to the session's
 * sink so it can be recorded around its execution (brief, "Tool intents").
 */
export interface ClientEffect {
  request: Extract<ClientRequest, { method: "fs/write_text_file" | "terminal/create" }>;
  /** For a write: the target's text before it (undefined: the file did not exist). */
  before?: string;
  /**
   * Runs the effect. `response` is the ACP response; for `terminal/create`, `exited` resolves with the command's
   * exit status; for a write, `written` is the absolute path written on this machine.
   */
  perform(): Promise<{ response: unknown; exited?: Promise<{ exitCode: number | null; signal: string | null }>; written?: string }>;
}

/** Receives what an agent sends for one ACP session. */
export interface SessionSink {
  onUpdate(update: AgentUpdate): void;
  /** Must resolve; `signal` aborts when the agent withdraws the request or its process ends. */
  onPermissionRequest(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
  /** Runs an effect for the agent (default: just runs it); resolves with the ACP response. */
  onEffect?(effect: ClientEffect): Promise<unknown>;
}

/** An open ACP session of one agent, used by one channel. */
export interface AgentSession {
  readonly agent: string;
  /**
   * The current ACP session id: the resumed one when ACP `session/load` succeeded, else the one `session/new`
   * returned (a new one after the process was restarted for this channel and could not resume). Store it to pass
   * back as `resumeSessionId` after a reload.
   */
  readonly sessionId: string;
  /**
   * True when the agent remembers nothing of this channel yet: a new session (`session/new`: a first use, a new process
   * after a crash, an idle stop or a reload, or a resume that failed) not prompted so far, or a session whose process
   * has gone since (the next prompt opens another). False for a resumed session (`session/load`: the agent
   * remembers) and after the first prompt on a new one.
   */
  readonly fresh: boolean;
  /**
   * True when the current session was opened with ACP `session/load` (the agent had stored it and resumed it); false
   * for a session opened with `session/new`, and once the session's process has gone.
   */
  readonly resumed: boolean;
  /**
   * ACP `session/prompt`; the agent is `busy` while it runs. When the process has gone since the session was opened
   * (idle stop, eviction, a roster change, a crash), a new process is started and the session reopened first: resumed
   * with ACP `session/load` when the agent offers it and this session had been used (prompted or resumed), else
   * a new one (`session/new`).
   * @returns the stop reason
   * @throws SidekicksError `agent/exited` (the process died), `agent/request`, and what starting throws
   */
  prompt(input: string | PromptInput): Promise<string>;
  /** ACP `session/cancel`. */
  cancel(): Promise<void>;
}

/** One agent as the Agents view shows it. */
export interface AgentSummary {
  name: string;
  state: AgentState;
  /** What Sidekicks waits for the running agent to answer (said instead of "ready"/"busy"), if anything. */
  waiting?: AgentWait;
  /** Why the agent is in `error`. */
  error?: ErrorInfo;
  /** Absolute folder the agent works in. */
  workspace: string;
  /** What happens at the agent's next idle moment: a restart (its definition changed) or removal. */
  pending?: "restart" | "remove";
  /** OS process id while a process runs. */
  pid?: number;
  /**
   * Set when the agent's workspace is a git worktree: once made or found, its folder, branch and base, and when
   * counted, how far it is from its base and how many paths are uncommitted (empty before its first start).
   */
  worktree?: { path?: string; branch?: string; base?: string; ahead?: number; behind?: number; uncommitted?: number };
}

/** A session of one channel on one process. */
export interface SessionRecord {
  sessionId: string;
  /** Set by the first `session/prompt` on this session. */
  prompted?: boolean;
  /** Set when the session was opened with ACP `session/load` (the agent remembers it). */
  resumed?: boolean;
  /** The prompt running on this session; `endCancelWait` once the user's Stop sent `session/cancel`. */
  running?: { endCancelWait?: () => void };
  /** Pending while `session/load` or `session/new` runs; `sessionId` and `resumed` are set when it resolves. */
  opening?: Promise<void>;
  client: AcpClient;
}

/** The manager's bookkeeping for one agent. Bounded: no per-line or per-turn history is kept here. */
export interface AgentEntry {
  config: AgentConfig;
  state: AgentState;
  error?: ErrorInfo;
  client?: AcpClient;
  starting?: Promise<AcpClient>;
  stopping?: Promise<void>;
  /** Set by a stop during `starting`: the new process is stopped as soon as it answers. */
  stopRequested: boolean;
  /** Increases with every start; handlers of an older process ignore its late messages. */
  generation: number;
  /** `processKey` of the definition the current process was started with. */
  runningKey?: string;
  /** channel id → session */
  sessions: Map<string, SessionRecord>;
  /** sessionId → sink (current process only) */
  sinks: Map<string, SessionSink>;
  /** sessionId → the sink of the session's last prompt sent (its late content goes there; current process only) */
  promptSinks: Map<string, SessionSink>;
  /** Prompts running. */
  busy: number;
  /** What Sidekicks waits for this process to answer, oldest first (the last one is shown); see `AgentProcesses.waitFor`. */
  waiting: AgentWait[];
  /** `session()` calls in progress (starting or opening a session). */
  using: number;
  removed: boolean;
  restartPending: boolean;
  /** Clock time of the last use (LRU eviction order), ms. */
  lastUsed: number;
  /** Clock time the current process became ready, ms. */
  upSince?: number;
  /** Where the current (or last) start works, prepared by its runtime before the process spawned. */
  place?: AgentPlace;
  /** The agent's git worktree (`agents[].workspace.worktree`) once made or found, with its last counted status. */
  worktree?: AgentWorktree | WorktreeStatus;
  /** Crashes (or failed starts) in a row. */
  crashes: number;
  /** Clock time before which a start waits out the crash backoff, ms. */
  retryAt: number;
  idleTimer?: TimerHandle;
}

/** A fresh entry for a roster agent, `stopped`. */
export function newEntry(config: AgentConfig, now: number): AgentEntry {
  return {
    config,
    state: "stopped",
    stopRequested: false,
    generation: 0,
    sessions: new Map(),
    sinks: new Map(),
    promptSinks: new Map(),
    busy: 0,
    waiting: [],
    using: 0,
    removed: false,
    restartPending: false,
    lastUsed: now,
    crashes: 0,
    retryAt: 0,
  };
}

/** True while the agent counts against `maxRunningAgents`: a live process, or one starting. */
export function holdsSlot(e: AgentEntry): boolean {
  return (e.client !== undefined && !e.client.hasExited) || e.starting !== undefined;
}

/** True when the agent has a live process doing nothing: no prompt, no session being opened, not stopping. */
export function isIdle(e: AgentEntry): boolean {
  return e.client !== undefined && !e.client.hasExited && !e.starting && !e.stopping && e.busy === 0 && e.using === 0;
}

/** What the agent's state shows it waits for: the latest wait, while a process runs (`ready` or `busy`). */
export function shownWait(e: AgentEntry): AgentWait | undefined {
  return e.state === "ready" || e.state === "busy" ? e.waiting.at(-1) : undefined;
}

/** "10 min", "45 s", "1.5 h": a duration in ms for people. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round((ms / 60_000) * 10) / 10} min`;
  return `${Math.round((ms / 3_600_000) * 10) / 10} h`;
}
