import * as l10n from "@vscode/l10n";
import type { AcpClient } from "../acp/AcpClient";
import { AuthRequiredError } from "../acp/auth";
import type { AgentInfo, AuthRequired, PromptInput } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { asSidekicksError, SidekicksError } from "../errors";
import type { Emitter } from "../events/events";
import type { AgentState, SessionChange, SessionStateView } from "../protocol";
import { holdsSlot, isIdle, newEntry, type AgentEntry, type AgentSession, type AgentSummary, type SessionRecord, type SessionSink } from "./AgentEntry";
import { AgentProcesses } from "./AgentProcesses";
import { AgentWorkspaces, type WorkspaceHost } from "./AgentWorkspaces";
import { systemClock, type Clock } from "./Clock";
import type { LaunchContext } from "./launch";
import { checkLimits, DEFAULT_LIMITS, processKey, type AgentLimits } from "./policy";
import { restoreChoices, sendChange } from "./sessionChoices";
import { changeProblem } from "./sessionState";
import { SessionStates } from "./SessionStates";

export type { AgentSession, AgentSummary, ClientEffect, SessionSink } from "./AgentEntry";
export type { AgentLimits } from "./policy";

/** Options of {@link AgentManager.session}. */
export interface SessionOptions {
  /**
   * ACP session id to resume with `session/load` when the owner has no session on the running process yet and the
   * agent advertised `agentCapabilities.loadSession` (typically the id stored for this owner before a reload).
   * Ignored otherwise; a failed load falls back to `session/new`.
   */
  resumeSessionId?: string;
}

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
 * Owns every agent process (ADR 0003 `internal/agents`; issue 3, "Agent manager"):
 * - starts an agent lazily on first use and keeps the state machine `stopped | starting | ready | busy | error`,
 *   with an `agent:state` event on every transition and `agent:log` lines about what it decides;
 * - stops an agent idle for `limits.idleTimeoutMs`; before starting one agent too many (`limits.maxRunningAgents`)
 *   stops the least recently used idle one, and refuses (`agent/limit`) only when every running agent is busy;
 * - puts a crashed agent in `error` (exit code, stderr tail); the next use restarts it, after a backoff when it
 *   keeps crashing (`agent/backoff`: 0 s, 1 s, 2 s, 4 s… ≤ 30 s; the count resets once a process stays up 60 s);
 * - applies roster changes: new agents appear `stopped`, removed ones stop after their current turn, changed ones
 *   restart at their next idle moment, unchanged ones are untouched;
 * - routes each session's updates to its owner. Stopping kills the process group (`AcpClient.stop`).
 * Channels use agents through this class; an agent knows nothing of channels.
 */
export class AgentManager {
  private entries = new Map<string, AgentEntry>();
  private limits: AgentLimits;
  private readonly clock: Clock;
  private readonly processes: AgentProcesses;
  private readonly authListeners = new Set<(auth: AuthRequired) => void>();
  /** The settings and meters of each (agent, owner) session, emitted as `session:state`. */
  private readonly sessionStates: SessionStates;

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
        const owner = [...entry.sessions].find(([, r]) => r.sessionId === sessionId && r.client === entry.client)?.[0];
        this.sessionStates.update(entry.config.name, owner, sessionId, update);
      },
      onSessionsGone: (entry) => this.sessionStates.gone(entry.config.name, entry.sessions.keys()),
    });
  }

  /** Remembers the session state an earlier activation stored (shown, and kept by a resumed session); see SessionStates.seed. */
  seedSessionState(state: SessionStateView): void {
    this.sessionStates.seed(state);
  }

  /** The settings and meters of `agent`'s session for `owner` in this activation (see `session:state`), if any. */
  sessionState(agent: string, owner: string): SessionStateView | undefined {
    return this.sessionStates.get(agent, owner);
  }

  /**
   * Changes a setting of the session `owner` uses with `agent` (issue 6, "Session controls"): ACP `session/set_mode`,
   * `session/set_config_option` (the answer's options replace the known ones), or the legacy `session/set_model`.
   * When the owner has no session on a running process, one is opened first (resuming `options.resumeSessionId` as
   * {@link session} does), without taking over the session's updates. A `session:state` event follows either way: the
   * new state, or the unchanged one when the agent refuses (so a control that moved goes back).
   * @returns the state after the change, and the session id (store it for the next resume)
   * @throws SidekicksError `session/invalidChange` when the session does not offer that value, `agent/request` when the
   *   agent refuses, and what {@link session} throws
   */
  async configure(agent: string, owner: string, change: SessionChange, options: SessionOptions = {}): Promise<{ state: SessionStateView; sessionId: string }> {
    const entry = this.require(agent);
    entry.using += 1;
    this.processes.touch(entry);
    try {
      const record = await this.openSession(entry, owner, options.resumeSessionId);
      const problem = changeProblem(this.sessionStates.get(agent, owner), change);
      if (problem) {
        this.sessionStates.refused(agent, owner);
        throw new SidekicksError("session/invalidChange", problem);
      }
      const { client, sessionId } = record;
      try {
        const options = await sendChange(client, sessionId, change);
        const state = this.sessionStates.accepted(agent, owner, change, options)!;
        this.processes.log(entry, "info", `session ${sessionId}: ${describeChange(change)}`);
        return { state, sessionId };
      } catch (err) {
        this.sessionStates.refused(agent, owner);
        throw asSidekicksError(err, "agent/request");
      }
    } finally {
      entry.using -= 1;
      this.processes.touch(entry);
      this.processes.settleIdle(entry);
    }
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
        this.emitter.emit("agent:state", { agent: config.name, state: "stopped" });
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

  /** The folder on this machine an agent works in (its `workspace`, else the workspace folder); undefined if unknown. */
  workspaceOf(name: string): string | undefined {
    const entry = this.entries.get(name);
    return entry ? (entry.config.workspace ?? this.options.launch.workspaceFolder) : undefined;
  }

  /** Every agent with its state, in roster order; agents removed but still finishing a turn come last. */
  summaries(): AgentSummary[] {
    return [...this.entries.values()].map((e) => ({
      name: e.config.name,
      state: e.state,
      error: e.state === "error" ? e.error : undefined,
      workspace: e.config.workspace ?? this.options.launch.workspaceFolder,
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
   * Returns the session `owner` uses with `agent`, starting the process and opening the session if needed. An owner
   * that already has a session on the running process gets it back (`options` are then ignored).
   *
   * Opening a session: with `options.resumeSessionId` (say, the id stored for this owner before a reload) and an
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
  async session(agent: string, owner: string, sink: SessionSink, options: SessionOptions = {}): Promise<AgentSession> {
    const entry = this.require(agent);
    entry.using += 1;
    this.processes.touch(entry);
    try {
      const record = await this.openSession(entry, owner, options.resumeSessionId);
      entry.sinks.set(record.sessionId, sink);
      return this.handle(entry, owner, record, sink);
    } finally {
      entry.using -= 1;
      this.processes.touch(entry);
      this.processes.settleIdle(entry);
    }
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
      await client.authenticate(methodId);
    } finally {
      entry.using -= 1;
      this.processes.settleIdle(entry);
    }
  }

  /**
   * Opens a throw-away session to check that the agent accepts sessions now (after a sign-in), starting it if
   * needed. @throws `AuthRequiredError` when it still needs a sign-in, and what starting throws
   */
  async probeSession(name: string): Promise<void> {
    const entry = this.require(name);
    entry.using += 1;
    try {
      const client = await this.processes.ensureStarted(entry, true);
      await client.newSession(this.sessionCwd(entry), entry.config.mcpServers);
    } finally {
      entry.using -= 1;
      this.processes.settleIdle(entry);
    }
  }

  /** Calls `listener` whenever an agent answers "authentication required". Returns an unsubscribe function. */
  onAuthRequired(listener: (auth: AuthRequired) => void): () => void {
    this.authListeners.add(listener);
    return () => this.authListeners.delete(listener);
  }

  /**
   * The session `cwd` of the running process, as its runtime prepared it (the container's folder for a container
   * runtime, else the agent's workspace on this machine).
   */
  private sessionCwd(entry: AgentEntry): string {
    return entry.place?.sessionCwd ?? entry.config.workspace ?? this.options.launch.workspaceFolder;
  }

  private require(name: string): AgentEntry {
    const entry = this.entries.get(name);
    if (!entry || entry.removed) throw new SidekicksError("channel/unknownMember", l10n.t('No agent named "{0}" in sidekicks.yaml.', name));
    return entry;
  }

  private async openSession(entry: AgentEntry, owner: string, resumeSessionId: string | undefined): Promise<SessionRecord> {
    const client = await this.processes.ensureStarted(entry, false);
    const existing = entry.sessions.get(owner);
    if (existing && existing.client === client) {
      if (existing.opening) await existing.opening;
      return existing;
    }
    const record: SessionRecord = { sessionId: "", client };
    // Others asking for this session meanwhile wait for all of it: opened, and the user's choices set again.
    const opening = (async () => {
      const { sessionId, resumed } = await this.openAcpSession(entry, client, resumeSessionId);
      record.sessionId = sessionId;
      record.resumed = resumed;
      // Updates are routed by session id: two channels on one id would get each other's answers.
      const shared = [...entry.sessions].find(([other, r]) => other !== owner && r.client === client && r.sessionId === record.sessionId);
      if (shared) {
        throw new SidekicksError(
          "agent/protocol",
          l10n.t('Agent "{0}" gave this channel the session id "{1}", which it already gave another channel, so their answers could not be told apart. This is a bug in the agent: each session/new must answer a new id.', entry.config.name, record.sessionId),
        );
      }
      this.sessionStates.opened(entry.config.name, owner, record.sessionId, client.sessionSetup(record.sessionId), record.resumed === true);
      await this.restoreChoices(entry, owner, record);
    })();
    record.opening = opening;
    entry.sessions.set(owner, record);
    try {
      await opening;
      record.opening = undefined;
      return record;
    } catch (err) {
      if (entry.sessions.get(owner) === record) entry.sessions.delete(owner);
      throw this.noteAuth(asSidekicksError(err, "agent/protocol"));
    }
  }

  /**
   * Sets the user's choices again on a session just opened that reports other values (issue 15, item 3: codex-acp's
   * `session/load` reports its default mode), before any prompt; each one restored or refused goes to the log.
   */
  private async restoreChoices(entry: AgentEntry, owner: string, record: SessionRecord): Promise<void> {
    const name = entry.config.name;
    const outcome = await restoreChoices(record.client, record.sessionId, this.sessionStates.get(name, owner));
    for (const { change } of outcome.restored) this.processes.log(entry, "info", `session ${record.sessionId}: restored the user's ${describeChange(change)}`);
    for (const r of outcome.refused) this.processes.log(entry, "warn", `session ${record.sessionId}: could not restore the user's ${r.setting} ${r.value}: ${r.reason}`);
    this.sessionStates.restoreEnded(name, owner, outcome);
  }

  /**
   * ACP `session/load` of `resumeSessionId` when given and the agent offers it, else (or when the load fails)
   * `session/new`. @throws what `session/new` throws, or the load's error when the process died meanwhile
   */
  private async openAcpSession(entry: AgentEntry, client: AcpClient, resumeSessionId: string | undefined): Promise<{ sessionId: string; resumed: boolean }> {
    const cwd = this.sessionCwd(entry);
    if (resumeSessionId !== undefined) {
      if (!client.info?.loadSession) {
        this.processes.log(entry, "info", `session ${resumeSessionId} not resumed: the agent does not offer ACP session/load; opening a new session`);
      } else {
        try {
          await client.loadSession(resumeSessionId, cwd, entry.config.mcpServers);
          this.processes.log(entry, "info", `session ${resumeSessionId} resumed (ACP session/load)`);
          return { sessionId: resumeSessionId, resumed: true };
        } catch (err) {
          const error = asSidekicksError(err, "agent/protocol");
          if (client.hasExited || error.code === "agent/exited" || error.code === "agent/stopped") throw error;
          this.processes.log(entry, "warn", `session ${resumeSessionId} could not be resumed (${error.message}); opening a new session`);
        }
      }
    }
    return { sessionId: await client.newSession(cwd, entry.config.mcpServers), resumed: false };
  }

  private handle(entry: AgentEntry, owner: string, first: SessionRecord, sink: SessionSink): AgentSession {
    let record = first;
    const name = entry.config.name;
    const current = () => entry.client === record.client && entry.sessions.get(owner) === record;
    return {
      agent: name,
      get sessionId() {
        return record.sessionId;
      },
      get fresh() {
        return !current() || (!record.resumed && !record.prompted);
      },
      get resumed() {
        return current() && record.resumed === true;
      },
      prompt: async (input) => {
        if (!current()) {
          // The process has gone since (idle stop, eviction, roster change, crash): reopen on a new process,
          // resuming this session when it was used and the agent can load it.
          const previous = record.prompted || record.resumed ? record.sessionId : undefined;
          const reopened = await this.session(name, owner, sink, { resumeSessionId: previous });
          record = entry.sessions.get(owner) ?? record;
          return reopened.prompt(input);
        }
        return this.runPrompt(entry, record, input);
      },
      cancel: () => record.client.cancel(record.sessionId),
    };
  }

  private async runPrompt(entry: AgentEntry, record: SessionRecord, input: string | PromptInput): Promise<string> {
    const client = record.client;
    record.prompted = true;
    entry.busy += 1;
    this.processes.touch(entry);
    this.processes.setState(entry, "busy");
    try {
      return await client.prompt(record.sessionId, input);
    } catch (err) {
      throw this.noteAuth(asSidekicksError(err, "agent/protocol"));
    } finally {
      entry.busy -= 1;
      this.processes.touch(entry);
      if (entry.busy === 0 && entry.client === client && !client.hasExited) {
        this.processes.setState(entry, "ready");
        this.processes.settleIdle(entry);
      }
    }
  }

  private noteAuth(error: SidekicksError): SidekicksError {
    if (error instanceof AuthRequiredError) for (const listener of this.authListeners) listener(error.auth);
    return error;
  }
}

/** "mode set to code", for the agent's log. */
function describeChange(change: SessionChange): string {
  if (change.kind === "mode") return `mode set to ${change.modeId} (ACP session/set_mode)`;
  if (change.kind === "model") return `model set to ${change.modelId} (session/set_model)`;
  return `option ${change.configId} set to ${String(change.value)} (ACP session/set_config_option)`;
}
