import * as l10n from "@vscode/l10n";
import type { AgentInfo, AuthRequired } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { SidekicksError } from "../shared/errors";
import type { Emitter } from "../events/events";
import type { AgentState, SessionChange, SessionStateView } from "../shared/protocol";
import { holdsSlot, isIdle, newEntry, shownWait, type AgentEntry, type AgentSession, type AgentSummary, type SessionSink } from "./AgentEntry";
import { AgentProcesses } from "./AgentProcesses";
import { AgentSessions, type SessionMcpServers, type SessionOptions } from "./AgentSessions";
import { AgentWorkspaces, type WorkspaceHost } from "./AgentWorkspaces";
import { systemClock, type Clock } from "./Clock";
import type { LaunchContext } from "./launch";
import { checkLimits, DEFAULT_LIMITS, processKey, type AgentLimits } from "./policy";
import { placeInWorktree, removeAgentWorktree, statusOfWorktree, type AgentWorktree, type WorktreeStatus } from "./runtimes";
import { SessionStates } from "./SessionStates";
import { WorktreeBringBack } from "./WorktreeBringBack";

export type { AgentSession, AgentSummary, ClientEffect, SessionSink } from "./AgentEntry";
export type { SessionMcpServers, SessionOptions } from "./AgentSessions";
export type { AgentLimits } from "./policy";

/** Options of the manager. Durations in milliseconds. */
export interface AgentManagerOptions {
  launch: LaunchContext;
  /** Returns an error when agents must not start (an untrusted workspace), else undefined. */
  canStart?: () => SidekicksError | undefined;
  initializeTimeoutMs?: number;
  /** Time and timers (idle stop, crash backoff); tests pass a `ManualClock`. Default: the system clock. */
  clock?: Clock;
  /** Initial limits (default {@link DEFAULT_LIMITS}); see {@link AgentManager.setLimits}. */
  limits?: AgentLimits;
  /**
   * Serve agents' files and terminals (ACP `fs/*`, `terminal/*`, advertised in `initialize`) through the editor:
   * its open documents and where its terminals show. Without it, agents get no files or terminals from Sidekicks.
   */
  workspace?: WorkspaceHost;
}

/**
 * Owns every agent process (`src/agents/`; the original design's `internal/agents`; issue 3, "Agent manager"):
 * - starts an agent lazily on first use and keeps the state machine `stopped | starting | ready | busy | error`,
 *   with an `agent/state` event on every transition and `agent/log` lines about what it decides;
 * - stops an agent idle for `limits.idleTimeoutMs`; before starting one agent too many (`limits.maxRunningAgents`)
 *   stops the least recently used idle one, and refuses (`agent/limit`) only when every running agent is busy;
 * - puts a crashed agent in `error` (exit code, stderr tail); the next use restarts it, after a backoff when it
 *   keeps crashing (`agent/backoff`: 0 s, 1 s, 2 s, 4 s… ≤ 30 s; the count resets once a process stays up 60 s);
 * - applies roster changes: new agents appear `stopped`, removed ones stop after their current turn, changed ones
 *   restart at their next idle moment, unchanged ones are untouched;
 * - routes each session's updates to its channel. Stopping kills the process group (`AcpClient.stop`).
 * Channels use agents through this class; an agent knows nothing of channels.
 */
export class AgentManager {
  private entries = new Map<string, AgentEntry>();
  private limits: AgentLimits;
  private readonly clock: Clock;
  private readonly processes: AgentProcesses;
  /** The settings and meters of each (agent, channel) session, emitted as `session/state`. */
  private readonly sessionStates: SessionStates;
  /** Sessions per channel, their settings, and sign-in reports (`AgentSessions.ts`). */
  private readonly sessions: AgentSessions;

  constructor(
    private readonly emitter: Emitter,
    private readonly options: AgentManagerOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.limits = checkLimits(options.limits ?? DEFAULT_LIMITS);
    this.sessionStates = new SessionStates(emitter);
    this.processes = new AgentProcesses({
      emitter,
      clock: this.clock,
      launch: options.launch,
      canStart: options.canStart,
      initializeTimeoutMs: options.initializeTimeoutMs,
      limits: () => this.limits,
      entries: () => this.entries.values(),
      forget: (entry) => {
        if (this.entries.get(entry.config.name) === entry) this.entries.delete(entry.config.name);
      },
      workspaces: options.workspace ? new AgentWorkspaces(options.workspace) : undefined,
      onSessionUpdate: (entry, sessionId, update) => {
        const channelId = [...entry.sessions].find(([, r]) => r.sessionId === sessionId && r.client === entry.client)?.[0];
        this.sessionStates.update(entry.config.name, channelId, sessionId, update);
      },
      onSessionsGone: (entry) => this.sessionStates.gone(entry.config.name, entry.sessions.keys()),
    });
    this.sessions = new AgentSessions({
      processes: this.processes,
      sessionStates: this.sessionStates,
      workspaceFolder: options.launch.workspaceFolder,
      require: (name) => this.require(name),
      sessionMcpServers: () => this.sessionMcpServers,
    });
  }

  private sessionMcpServers: SessionMcpServers | undefined;

  /**
   * Sets (or clears) what adds Sidekicks' own MCP servers to each session opened from now on (issue 22): the channels
   * over the open store set it, and clear it when they close.
   */
  setSessionMcpServers(provider: SessionMcpServers | undefined): void {
    this.sessionMcpServers = provider;
  }

  /** Remembers the session state an earlier activation stored (shown, and kept by a resumed session); see SessionStates.seed. */
  seedSessionState(state: SessionStateView): void {
    this.sessionStates.seed(state);
  }

  /** The settings and meters of `agent`'s session for `channelId` in this activation (see `session/state`), if any. */
  sessionState(agent: string, channelId: string): SessionStateView | undefined {
    return this.sessionStates.get(agent, channelId);
  }

  /**
   * Changes a setting of the session `channelId` uses with `agent` (issue 6, "Session controls"): ACP `session/set_mode`,
   * `session/set_config_option` (the answer's options replace the known ones), or the legacy `session/set_model`.
   * When the channel has no session on a running process, one is opened first (resuming `options.resumeSessionId` as
   * {@link session} does), without taking over the session's updates. A `session/state` event follows either way: the
   * new state, or the unchanged one when the agent refuses (so a control that moved goes back).
   * @returns the state after the change, and the session id (store it for the next resume)
   * @throws SidekicksError `session/invalidChange` when the session does not offer that value, `agent/request` when the
   *   agent refuses, and what {@link session} throws
   */
  configure(agent: string, channelId: string, change: SessionChange, options: SessionOptions = {}): Promise<{ state: SessionStateView; sessionId: string }> {
    return this.sessions.configure(agent, channelId, change, options);
  }

  /**
   * Sets `maxRunningAgents` and `idleTimeoutMs` (sidekicks.yaml `limits`). Idle timers restart with the new
   * timeout; agents beyond a lowered maximum stop as soon as they are idle (least recently used first).
   * @throws RangeError for a maximum below 1 or a negative timeout
   */
  setLimits(limits: AgentLimits): void {
    this.limits = checkLimits(limits);
    const idle = [...this.entries.values()].filter(isIdle).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of idle) this.processes.settleIdle(entry);
  }

  /** The limits in force. */
  get currentLimits(): AgentLimits {
    return { ...this.limits };
  }

  /**
   * Replaces the roster. New agents appear `stopped`; a removed agent stops after its current turn; an agent whose
   * process definition changed (command, args, env, workspace, runtime, MCP servers) restarts at its next idle
   * moment; unchanged agents keep their process. Other keys apply at once.
   */
  setRoster(agents: AgentConfig[]): void {
    const next = new Map<string, AgentEntry>();
    for (const config of agents) {
      const entry = this.entries.get(config.name);
      if (!entry) {
        const created = newEntry(config, this.clock.now());
        next.set(config.name, created);
        this.emitter.emit("agent/state", { agent: config.name, state: "stopped" });
        continue;
      }
      next.set(config.name, entry);
      const changed = processKey(config) !== processKey(entry.config);
      entry.config = config;
      entry.removed = false;
      if (!changed) continue;
      entry.crashes = 0;
      entry.retryAt = 0;
      if (holdsSlot(entry)) {
        entry.restartPending = entry.runningKey !== processKey(config);
        if (entry.restartPending) this.processes.log(entry, "info", "definition changed in sidekicks.yaml: restarts at its next idle moment");
      } else if (entry.state === "error") {
        this.processes.setState(entry, "stopped"); // the error was about the old definition
      }
    }
    for (const [name, entry] of this.entries) {
      if (next.has(name)) continue;
      if (!holdsSlot(entry)) continue; // not running: forgotten at once
      entry.removed = true;
      next.set(name, entry);
      this.processes.log(entry, "info", "removed from sidekicks.yaml: stops after its current turn");
    }
    this.entries = next;
    for (const entry of next.values()) if (entry.removed || entry.restartPending) this.processes.settleIdle(entry);
  }

  /** Agent names in roster order (agents removed from the roster but finishing a turn are not listed). */
  names(): string[] {
    return [...this.entries.values()].filter((e) => !e.removed).map((e) => e.config.name);
  }

  /** Current state of an agent (`stopped` for an unknown name). */
  state(name: string): AgentState {
    return this.entries.get(name)?.state ?? "stopped";
  }

  /**
   * The folder on this machine an agent works in (its worktree's folder, its `workspace`, else the workspace folder);
   * undefined if unknown, or for a worktree not made yet.
   */
  workspaceOf(name: string): string | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.config.worktree) return entry.worktree?.cwd;
    return entry.config.workspace ?? this.options.launch.workspaceFolder;
  }

  /** Whether agent `name` works in a git worktree of its own (the roster's `worktree`); false for an unknown agent. */
  inWorktree(name: string): boolean {
    return this.entries.get(name)?.config.worktree !== undefined;
  }

  /** Every agent with its state, in roster order; agents removed but still finishing a turn come last. */
  summaries(): AgentSummary[] {
    return [...this.entries.values()].map((e) => ({
      name: e.config.name,
      state: e.state,
      waiting: shownWait(e),
      error: e.state === "error" ? e.error : undefined,
      workspace: (e.config.worktree ? e.worktree?.cwd : undefined) ?? e.config.workspace ?? this.options.launch.workspaceFolder,
      ...(e.config.worktree ? { worktree: worktreeSummary(e.worktree) } : {}),
      pending: e.removed ? "remove" : e.restartPending ? "restart" : undefined,
      pid: e.client?.pid,
    }));
  }

  /** What the running process said about itself in ACP `initialize` (auth methods, `_meta`), if it runs. */
  agentInfo(name: string): AgentInfo | undefined {
    const client = this.entries.get(name)?.client;
    return client && !client.hasExited ? client.info : undefined;
  }

  /** OS process id of the agent's running process, if any. */
  processId(name: string): number | undefined {
    const client = this.entries.get(name)?.client;
    return client && !client.hasExited ? client.pid : undefined;
  }

  /**
   * Returns the session `channelId` uses with `agent`, starting the process and opening the session if needed. A channel
   * that already has a session on the running process gets it back (`options` are then ignored).
   *
   * Opening a session: with `options.resumeSessionId` (say, the id stored for this channel before a reload) and an
   * agent whose ACP `initialize` advertised `agentCapabilities.loadSession`, ACP `session/load` with that id, `cwd` =
   * the agent's workspace and its MCP servers. The history the agent replays meanwhile (`session/update`s sent before
   * its answer) never reaches `sink`: it is dropped, and the count logged at debug. The session is then `resumed`
   * (not `fresh`: the agent remembers). When the agent does not offer `session/load`, or the load fails (an error
   * answer, such as an unknown or expired session), the reason goes to the agent's log and a new session is opened
   * instead with ACP `session/new` (`fresh`, `resumed` false): the caller re-injects what the agent must know. A
   * process that dies during the load is not retried: its error is thrown.
   * @param options `resumeSessionId`: the ACP session id to resume, if the agent can
   * @returns the session; its `sessionId` is the resumed id or the new one (store it for the next resume)
   * @throws SidekicksError `channel/unknownMember`, `agent/spawn`, `agent/exited`, `agent/protocol`,
   *   `agent/request` (an `AuthRequiredError` when the agent needs a sign-in), `agent/untrusted`, `agent/limit`,
   *   `agent/backoff`, `agent/unsupported`
   */
  session(agent: string, channelId: string, sink: SessionSink, options: SessionOptions = {}): Promise<AgentSession> {
    return this.sessions.session(agent, channelId, sink, options);
  }

  /**
   * Starts an agent without opening a session (the Agents view's Start). Does not wait out a crash backoff.
   * @throws like {@link session}, except `agent/backoff`
   */
  async start(name: string): Promise<void> {
    const entry = this.require(name);
    entry.using += 1;
    this.processes.touch(entry);
    try {
      await this.processes.ensureStarted(entry, true);
    } finally {
      entry.using -= 1;
      this.processes.settleIdle(entry);
    }
  }

  /**
   * Stops the agent (if running) and starts it again with its current definition; clears its crash backoff.
   * @throws like {@link start}
   */
  async restart(name: string): Promise<void> {
    const entry = this.require(name);
    entry.crashes = 0;
    entry.retryAt = 0;
    await this.processes.stopEntry(entry, "restart requested");
    await this.start(name);
  }

  /** Stops one agent's process (its process group); its sessions are forgotten. A turn it was running fails. */
  async stop(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (entry) await this.processes.stopEntry(entry, "stop requested");
  }

  /**
   * The agent's git worktree, made now if its first start has not made it yet (to open it as a folder).
   * @returns undefined for an agent whose workspace is not a worktree
   * @throws SidekicksError `worktree/unavailable` with what to do
   */
  async ensureWorktree(name: string): Promise<AgentWorktree | undefined> {
    const entry = this.require(name);
    const { worktree } = await placeInWorktree(entry.config, this.options.launch);
    if (worktree) entry.worktree = { ...entry.worktree, ...worktree };
    return worktree;
  }

  /**
   * Counts how far the agent's worktree is from its base (`git rev-list --left-right --count`) and what it holds
   * uncommitted; the Agents view shows it. Undefined for an agent without a worktree, or one not made yet.
   */
  async worktreeStatus(name: string): Promise<WorktreeStatus | undefined> {
    const entry = this.require(name);
    const status = await statusOfWorktree(entry.config, this.options.launch);
    if (entry.config.worktree) entry.worktree = status;
    return status;
  }

  /**
   * Removes the agent's worktree on the user's request; its branch and commits stay. The agent stops first (it
   * starts again in a new worktree at its next turn). Nothing is removed while it answers, or when the worktree
   * holds uncommitted work and `force` (the user's confirmation) is not set.
   * @returns the removed folder and branch, or undefined when there was no worktree
   * @throws SidekicksError `worktree/dirty` (the paths in `detail`), `worktree/unavailable` (busy, locked, git)
   */
  async removeWorktree(name: string, force = false): Promise<{ path: string; branch: string | undefined } | undefined> {
    const entry = this.require(name);
    if (entry.state === "busy") throw new SidekicksError("worktree/unavailable", l10n.t('Agent "{0}" is answering in its worktree. Stop its turn, then remove the worktree.', name));
    if (!force) {
      const status = await statusOfWorktree(entry.config, this.options.launch);
      if (status && status.uncommitted.length > 0) {
        throw new SidekicksError("worktree/dirty", l10n.t("Agent {0}'s worktree has {1} uncommitted changes.", name, status.uncommitted.length), status.uncommitted.join("\n"));
      }
    }
    await this.processes.stopEntry(entry, "its worktree is being removed");
    const removed = await removeAgentWorktree(entry.config, this.options.launch, force);
    entry.worktree = undefined;
    return removed;
  }

  /**
   * The agent's worktree to review and bring back (issue 20, "Bring it back"): its changes against its base, its
   * uncommitted work committed, its branch applied to the user's branch; nothing is committed or applied while it
   * answers. Undefined for an agent whose workspace is not a worktree.
   */
  worktreeBringBack(name: string): WorktreeBringBack | undefined {
    const entry = this.require(name);
    return entry.config.worktree ? new WorktreeBringBack(entry.config, this.options.launch, () => entry.state === "busy") : undefined;
  }

  /** Stops every agent; resolves when all processes have exited. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.processes.stopEntry(e)));
  }

  /**
   * ACP `authenticate` with one of the agent's `agent`-kind auth methods (the agent runs its own sign-in), starting
   * the agent if needed.
   * @throws SidekicksError `agent/request` when the sign-in fails, and what starting throws
   */
  async authenticate(name: string, methodId: string): Promise<void> {
    const entry = this.require(name);
    entry.using += 1;
    try {
      const client = await this.processes.ensureStarted(entry, true);
      await this.processes.waitFor(entry, "authenticate", () => client.authenticate(methodId));
    } finally {
      entry.using -= 1;
      this.processes.settleIdle(entry);
    }
  }

  /**
   * Opens a throw-away session to check that the agent accepts sessions now (after a sign-in), starting it if
   * needed. @throws `AuthRequiredError` when it still needs a sign-in, and what starting throws
   */
  probeSession(name: string): Promise<void> {
    return this.sessions.probeSession(name);
  }

  /** Calls `listener` whenever an agent answers "authentication required". Returns an unsubscribe function. */
  onAuthRequired(listener: (auth: AuthRequired) => void): () => void {
    return this.sessions.onAuthRequired(listener);
  }

  private require(name: string): AgentEntry {
    const entry = this.entries.get(name);
    if (!entry || entry.removed) throw new SidekicksError("channel/unknownMember", l10n.t('No agent named "{0}" in sidekicks.yaml.', name));
    return entry;
  }
}

/** What the Agents view shows of a worktree: its folder, branch, base and, when counted, its distance and changes. */
function worktreeSummary(w: AgentWorktree | WorktreeStatus | undefined): NonNullable<AgentSummary["worktree"]> {
  if (!w) return {};
  const counted = "ahead" in w ? { ahead: w.ahead, behind: w.behind, uncommitted: w.uncommitted.length } : {};
  return { path: w.path, ...(w.branch !== undefined ? { branch: w.branch } : {}), base: w.base, ...counted };
}
