import * as l10n from "@vscode/l10n";
import { AcpClient } from "../acp/AcpClient";
import type { ClientRequest, ExitInfo } from "../acp/types";
import { asSidekicksError, SidekicksError } from "../shared/errors";
import type { Emitter } from "../events/events";
import type { AgentState, AgentWait, ErrorInfo } from "../shared/protocol";
import { formatDuration, holdsSlot, isIdle, shownWait, type AgentEntry } from "./AgentEntry";
import { terminalsAvailable } from "../workspace/terminals";
import type { AgentWorkspaces } from "./AgentWorkspaces";
import type { Clock } from "./Clock";
import { StderrLog } from "./StderrLog";
import { placeInWorktree, runtimeFor, type LaunchContext } from "./runtimes";
import { isSessionStateUpdate, type SessionStateUpdate } from "./sessionState";
import { DEFAULT_CANCEL_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "../acp/deadlines";
import { BACKOFF_RESET_AFTER_MS, backoffDelayMs, limitError, MAX_PENDING_PERMISSIONS, processKey, type AgentLimits } from "./policy";

/** What {@link AgentProcesses} needs from the manager that owns the entries. */
export interface AgentProcessesHost {
  emitter: Emitter;
  clock: Clock;
  launch: LaunchContext;
  /** Returns an error when agents must not start (an untrusted workspace), else undefined. */
  canStart?: () => SidekicksError | undefined;
  initializeTimeoutMs?: number;
  /** The limits in force. */
  limits(): AgentLimits;
  /** Every entry, roster order. */
  entries(): Iterable<AgentEntry>;
  /** Drops a removed agent once its process is gone. */
  forget(entry: AgentEntry): void;
  /** Files and terminals for agents; without it, none are advertised (`initialize` stays truthful). */
  workspaces?: AgentWorkspaces;
  /** A session's settings or meters changed (ACP mode, config option, usage, session info updates). */
  onSessionUpdate?(entry: AgentEntry, sessionId: string, update: SessionStateUpdate): void;
  /** The process is going: its sessions end (called before `entry.sessions` is cleared). */
  onSessionsGone?(entry: AgentEntry): void;
}

/**
 * The process side of the agent manager: starting (limits, crash backoff; the runtime's refusal, launch and prepared
 * place, `runtimes/`), stopping (idle timer, eviction, roster changes), crashes, and the state machine's transitions
 * with their `agent/state` events.
 * Works on the manager's {@link AgentEntry}s; sessions and the roster stay in `AgentManager`.
 */
export class AgentProcesses {
  private readonly emitter: Emitter;
  private readonly clock: Clock;

  constructor(private readonly host: AgentProcessesHost) {
    this.emitter = host.emitter;
    this.clock = host.clock;
  }

  private entries(): Iterable<AgentEntry> {
    return this.host.entries();
  }

  private limits(): AgentLimits {
    return this.host.limits();
  }

  private forget(entry: AgentEntry): void {
    this.host.forget(entry);
  }

  /** Starts the process if needed; `byUser` skips the crash backoff (an explicit Start or Restart). */
  async ensureStarted(entry: AgentEntry, byUser: boolean): Promise<AcpClient> {
    if (entry.client && !entry.client.hasExited) return entry.client;
    if (entry.starting) return entry.starting;
    const refused = this.host.canStart?.();
    if (refused) throw refused;
    const unsupported = runtimeFor(entry.config).refuse(entry.config);
    if (unsupported) {
      this.setState(entry, "error", toInfo(unsupported));
      throw unsupported;
    }
    if (!byUser) this.checkBackoff(entry);
    const victims = this.victimsFor(entry);
    entry.generation += 1;
    entry.stopRequested = false;
    entry.runningKey = processKey(entry.config);
    entry.restartPending = false;
    this.setState(entry, "starting");
    const starting = this.launch(entry, victims);
    entry.starting = starting;
    return starting;
  }

  /**
   * The start itself: stops `victims` (to stay within `maxRunningAgents`), spawns and initializes the process, and
   * settles the state (`ready`, `error`, or `stopped` when a stop came meanwhile). `entry.starting` is cleared
   * before the returned promise settles.
   */
  private async launch(entry: AgentEntry, victims: AgentEntry[]): Promise<AcpClient> {
    const name = entry.config.name;
    const generation = entry.generation;
    const current = () => entry.generation === generation;
    const max = this.limits().maxRunningAgents;
    try {
      await Promise.all(victims.map((v) => this.stopEntry(v, `least recently used idle agent, stopped to make room for "${name}" (limits.maxRunningAgents is ${max})`)));
      await entry.stopping;
      const runtime = runtimeFor(entry.config);
      // An agent with a git worktree: made (or found) here, at its first start; the runtime sees its folder.
      // A runtime that reaches only some folders (a container: its bind mounts) checks the worktree's first.
      const access = entry.config.worktree ? await runtime.worktreeAccess?.(entry.config, this.host.launch) : undefined;
      const { agent: config, worktree } = await placeInWorktree(entry.config, this.host.launch, access);
      if (worktree) {
        entry.worktree = worktree;
        if (worktree.created) this.log(entry, "info", `worktree made: ${worktree.path} on branch ${worktree.branch ?? "(detached)"} from ${worktree.base}`);
      }
      const launch = runtime.launch(config, this.host.launch);
      const place = await runtime.prepare(config, launch);
      entry.place = place;
      // A stderr flood reaches the log as at most STDERR_LOG_LINES lines a second and a count (field case 8).
      /** Permission requests of this process waiting for an answer (issue 17: 300 were). */
      let waitingPermissions = 0;
      const stderrLog = new StderrLog((level, line) => this.emitter.emit("agent/log", { agent: name, level, line }), this.clock);
      const client = await AcpClient.start(
        launch,
        {
          onUpdate: (sessionId, update, late) => {
            if (!current()) return;
            // Commands belong to the agent, not to a session: announced before any prompt (often just after
            // session/new, before the session has a channel), they are reported whichever session they came from.
            if (update.kind === "commands") {
              if (update.problems) this.log(entry, "warn", `available_commands_update: ${update.problems.join("; ")}`);
              this.emitter.emit("commands/changed", { agent: name, commands: update.commands });
            }
            // Settings and meters belong to the session, not to the turn running in it (there may be none).
            else if (isSessionStateUpdate(update)) this.host.onSessionUpdate?.(entry, sessionId, update);
            // Content the agent wrote after answering a prompt goes to that prompt's turn, never to the next one.
            else (late ? (entry.promptSinks.get(sessionId) ?? entry.sinks.get(sessionId)) : entry.sinks.get(sessionId))?.onUpdate(update);
          },
          onPermissionRequest: async (request, signal) => {
            const sink = current() ? entry.sinks.get(request.sessionId) : undefined;
            if (!sink) return { outcome: "cancelled" };
            if (waitingPermissions >= MAX_PENDING_PERMISSIONS) {
              this.log(entry, "warn", `permission request "${(request.title ?? request.toolCallId).slice(0, 120)}" refused: ${MAX_PENDING_PERMISSIONS} are waiting for an answer already (the most one agent may have)`);
              throw new SidekicksError(
                "agent/requestLimit",
                `Too many permission requests: ${MAX_PENDING_PERMISSIONS} are waiting for the user's answer already, the most one agent may have at once. Wait for them to be answered before asking again.`,
              );
            }
            waitingPermissions += 1;
            try {
              return await sink.onPermissionRequest(request, signal);
            } finally {
              waitingPermissions -= 1;
            }
          },
          ...(this.host.workspaces
            ? {
                serves: { fs: true, terminal: terminalsAvailable() },
                onClientRequest: (request: ClientRequest) => {
                  const sink = current() ? entry.sinks.get(request.sessionId) : undefined;
                  return this.host.workspaces!.handle(entry.config, place, sink, request);
                },
              }
            : {}),
          onStderr: (line) => stderrLog.line(line),
          onLog: (level, line) => this.emitter.emit("agent/log", { agent: name, level, line }),
        },
        {
          agentName: name,
          initializeTimeoutMs: this.host.initializeTimeoutMs,
          requestTimeoutMs: () => this.limits().requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          cancelTimeoutMs: () => this.limits().cancelTimeoutMs ?? DEFAULT_CANCEL_TIMEOUT_MS,
          timers: this.clock,
        },
      );
      if (entry.stopRequested) {
        await client.stop();
        throw new SidekicksError("agent/exited", l10n.t('Agent "{0}" was stopped while it was starting.', name));
      }
      entry.client = client;
      entry.upSince = this.clock.now();
      this.log(entry, "info", `started: pid ${client.pid}, ${launch.command} ${launch.args.join(" ")} in ${launch.cwd}`);
      this.setState(entry, "ready");
      void client.exited.then((exit) => {
        stderrLog.flush();
        this.onExit(entry, client, exit);
      });
      return client;
    } catch (err) {
      const error = asSidekicksError(err, "agent/protocol");
      if (entry.stopRequested) {
        this.setState(entry, "stopped");
      } else {
        this.recordCrash(entry);
        this.setState(entry, "error", toInfo(error));
      }
      throw error;
    } finally {
      if (current()) entry.starting = undefined;
    }
  }

  /** @throws `agent/backoff` while the agent waits out its crash backoff */
  private checkBackoff(entry: AgentEntry): void {
    const wait = entry.retryAt - this.clock.now();
    if (wait <= 0) return;
    const last = entry.error ? `${l10n.t("Last error: {0}", entry.error.message)}${entry.error.detail ? `\n${entry.error.detail}` : ""}` : undefined;
    throw new SidekicksError(
      "agent/backoff",
      l10n.t(
        'Agent "{0}" crashed or failed to start {1} times in a row, so Sidekicks waits {2} s before starting it again. Try again then, or run "Sidekicks: Restart agent" to start it now.',
        entry.config.name,
        entry.crashes,
        Math.ceil(wait / 1000),
      ),
      last,
    );
  }

  /**
   * The idle agents to stop so that `entry` can start within `maxRunningAgents`, least recently used first.
   * @throws `agent/limit` when not enough running agents are idle
   */
  private victimsFor(entry: AgentEntry): AgentEntry[] {
    const max = this.limits().maxRunningAgents;
    const running = [...this.entries()].filter((e) => e !== entry && holdsSlot(e));
    const excess = running.length + 1 - max;
    if (excess <= 0) return [];
    const idle = running.filter(isIdle).sort((a, b) => a.lastUsed - b.lastUsed);
    if (idle.length < excess) throw limitError(max, running.filter((e) => !isIdle(e)).map((e) => e.config.name));
    return idle.slice(0, excess);
  }

  /** What an agent does when it becomes idle: leave (removed), restart (changed), make room, or arm its idle timer. */
  settleIdle(entry: AgentEntry): void {
    if (!isIdle(entry)) return;
    if (entry.removed) {
      void this.stopEntry(entry, "removed from sidekicks.yaml").then(() => {
        if (entry.removed && !holdsSlot(entry)) this.forget(entry);
      });
    } else if (entry.restartPending) {
      void this.stopEntry(entry, "its definition in sidekicks.yaml changed")
        .then(() => this.ensureStarted(entry, true))
        .then(() => this.settleIdle(entry))
        .catch((err: unknown) => this.log(entry, "warn", `restart with the new definition failed: ${asSidekicksError(err, "agent/protocol").message}`));
    } else if ([...this.entries()].filter(holdsSlot).length > this.limits().maxRunningAgents) {
      void this.stopEntry(entry, `more agents are running than limits.maxRunningAgents (${this.limits().maxRunningAgents})`);
    } else {
      this.armIdleTimer(entry);
    }
  }

  private armIdleTimer(entry: AgentEntry): void {
    this.clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    const ms = this.limits().idleTimeoutMs;
    if (!(ms > 0 && Number.isFinite(ms))) return;
    entry.idleTimer = this.clock.setTimeout(() => {
      entry.idleTimer = undefined;
      if (isIdle(entry)) void this.stopEntry(entry, `idle for ${formatDuration(ms)} (limits.idleTimeout)`);
    }, ms);
  }

  touch(entry: AgentEntry): void {
    entry.lastUsed = this.clock.now();
    this.clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
  }

  /** Stops the process (waiting for a start in progress first); `reason` goes to the agent's log. */
  async stopEntry(entry: AgentEntry, reason?: string): Promise<void> {
    this.clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    if (entry.starting) {
      entry.stopRequested = true;
      await entry.starting.catch(() => undefined);
    }
    const client = entry.client;
    entry.client = undefined;
    this.host.onSessionsGone?.(entry);
    entry.sessions.clear();
    entry.sinks.clear();
    entry.promptSinks.clear();
    // The agent's terminals die with it (their commands are killed).
    void this.host.workspaces?.release(entry.config.name);
    if (client) {
      if (entry.upSince !== undefined && this.clock.now() - entry.upSince >= BACKOFF_RESET_AFTER_MS) entry.crashes = 0;
      entry.upSince = undefined;
      if (reason) this.log(entry, "info", `stopping: ${reason}`);
      const stopping = client.stop().then(() => undefined);
      entry.stopping = stopping;
      await stopping;
      if (entry.stopping === stopping) entry.stopping = undefined;
    } else if (entry.stopping) {
      await entry.stopping;
    }
    if (!entry.client && !entry.starting) this.setState(entry, "stopped");
  }

  private onExit(entry: AgentEntry, client: AcpClient, exit: ExitInfo): void {
    if (entry.client !== client) return; // stopped by Sidekicks
    entry.client = undefined;
    this.host.onSessionsGone?.(entry);
    entry.sessions.clear();
    entry.sinks.clear();
    entry.promptSinks.clear();
    void this.host.workspaces?.release(entry.config.name);
    this.clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    this.recordCrash(entry);
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const message = `Agent "${entry.config.name}" ${how}.`;
    this.log(entry, "error", `${message} Its next use restarts it${entry.retryAt > this.clock.now() ? ` (after ${formatDuration(entry.retryAt - this.clock.now())})` : ""}.`);
    this.setState(entry, "error", { code: "agent/exited", message, detail: exit.stderrTail || undefined });
    if (entry.removed) this.forget(entry);
  }

  /** Counts a crash or failed start and sets the time before which the next automatic start waits. */
  private recordCrash(entry: AgentEntry): void {
    const now = this.clock.now();
    const stable = entry.upSince !== undefined && now - entry.upSince >= BACKOFF_RESET_AFTER_MS;
    entry.crashes = stable ? 1 : entry.crashes + 1;
    entry.upSince = undefined;
    entry.retryAt = now + backoffDelayMs(entry.crashes);
  }

  /** Moves the state machine; an `agent/state` event says so (with what the agent is waiting for, if anything). */
  setState(entry: AgentEntry, state: AgentState, error?: ErrorInfo): void {
    if (entry.state === state && !error) return;
    entry.state = state;
    entry.error = error;
    const waiting = shownWait(entry);
    this.emitter.emit("agent/state", { agent: entry.config.name, state, error, ...(waiting ? { waiting } : {}) });
  }

  private emitWaiting(entry: AgentEntry): void {
    const waiting = shownWait(entry);
    this.emitter.emit("agent/waiting", { agent: entry.config.name, state: entry.state, ...(waiting ? { waiting } : {}) });
  }

  /**
   * Runs `work` (a request with a deadline) while the agent's state says it waits for `what` ("starting session…",
   * never "ready"); the state says what it said before once `work` settles.
   */
  async waitFor<T>(entry: AgentEntry, what: AgentWait, work: () => Promise<T>): Promise<T> {
    const end = this.beginWait(entry, what);
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Starts showing that the agent waits for `what`. @returns the function that ends it (once) */
  beginWait(entry: AgentEntry, what: AgentWait): () => void {
    entry.waiting.push(what);
    this.emitWaiting(entry);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const at = entry.waiting.lastIndexOf(what);
      if (at >= 0) entry.waiting.splice(at, 1);
      this.emitWaiting(entry);
    };
  }

  log(entry: AgentEntry, level: "info" | "warn" | "error", line: string): void {
    this.emitter.emit("agent/log", { agent: entry.config.name, level, line: `[sidekicks] ${line}` });
  }
}

function toInfo(error: SidekicksError): ErrorInfo {
  return { code: error.code, message: error.message, detail: error.detail };
}
