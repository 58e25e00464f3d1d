import * as l10n from "@vscode/l10n";
import type { AcpClient } from "../acp/AcpClient";
import { AuthRequiredError } from "../acp/auth";
import type { AgentInfo, AuthRequired, McpServerSpec, PromptInput } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { asSidekicksError, SidekicksError } from "../shared/errors";
import type { SessionChange, SessionStateView } from "../shared/protocol";
import type { AgentEntry, AgentSession, SessionRecord, SessionSink } from "./AgentEntry";
import type { AgentProcesses } from "./AgentProcesses";
import { changeMethod, restoreChoices, sendChange } from "./sessionChoices";
import { changeProblem } from "./sessionState";
import type { SessionStates } from "./SessionStates";

/** Options of {@link AgentSessions.session} (and `AgentManager.session`). */
export interface SessionOptions {
  /**
   * ACP session id to resume with `session/load` when the channel has no session on the running process yet and the
   * agent advertised `agentCapabilities.loadSession` (typically the id stored for this channel before a reload).
   * Ignored otherwise; a failed load falls back to `session/new`.
   */
  resumeSessionId?: string;
}

/**
 * MCP servers Sidekicks itself adds to a session (issue 22: its own server, scoped to the channel and agent), asked
 * each time a session is opened (`session/new`, `session/load`). `info` is what the agent said in `initialize` (its
 * `mcpCapabilities`). Returns the entries to add beside the roster's own, or none.
 */
export type SessionMcpServers = (session: { agent: AgentConfig; channelId: string; workspaceFolder: string; info: AgentInfo | undefined }) => Promise<McpServerSpec[]>;

/** What {@link AgentSessions} needs from the manager that owns the entries. */
export interface AgentSessionsHost {
  processes: AgentProcesses;
  /** The settings and meters of each (agent, channel) session. */
  sessionStates: SessionStates;
  /** The workspace folder (the session `cwd` of an agent not started yet has no prepared place). */
  workspaceFolder: string;
  /** The roster entry named `name`. @throws SidekicksError `channel/unknownMember` */
  require(name: string): AgentEntry;
  /** Sidekicks' own MCP servers for a session being opened, if any are set ({@link SessionMcpServers}). */
  sessionMcpServers(): SessionMcpServers | undefined;
}

/**
 * The session side of the agent manager (issue 3, "sessions per channel"; issue 6, "Session controls"): opening a
 * session for a channel (ACP `session/load` of a stored id when the agent offers it, else `session/new`; the user's
 * choices set again), the {@link AgentSession} handle channels prompt through (reopened on a new process when the
 * old one has gone), session settings changed with `session/set_mode`, `session/set_config_option` or
 * `session/set_model`, and "authentication required" reported to listeners. Works on the manager's entries.
 */
export class AgentSessions {
  private readonly authListeners = new Set<(auth: AuthRequired) => void>();

  constructor(private readonly host: AgentSessionsHost) {}

  /** {@link AgentManager.configure}: changes a setting of the session `channelId` uses with `agent`. */
  async configure(agent: string, channelId: string, change: SessionChange, options: SessionOptions = {}): Promise<{ state: SessionStateView; sessionId: string }> {
    const entry = this.host.require(agent);
    entry.using += 1;
    this.host.processes.touch(entry);
    try {
      const record = await this.openSession(entry, channelId, options.resumeSessionId);
      const problem = changeProblem(this.host.sessionStates.get(agent, channelId), change);
      if (problem) {
        this.host.sessionStates.refused(agent, channelId);
        throw new SidekicksError("session/invalidChange", problem);
      }
      const { client, sessionId } = record;
      try {
        const options = await this.host.processes.waitFor(entry, changeMethod(change), () => sendChange(client, sessionId, change));
        const state = this.host.sessionStates.accepted(agent, channelId, change, options)!;
        this.host.processes.log(entry, "info", `session ${sessionId}: ${describeChange(change)}`);
        return { state, sessionId };
      } catch (err) {
        this.host.sessionStates.refused(agent, channelId);
        throw asSidekicksError(err, "agent/request");
      }
    } finally {
      entry.using -= 1;
      this.host.processes.touch(entry);
      this.host.processes.settleIdle(entry);
    }
  }

  /** {@link AgentManager.session}: the session `channelId` uses with `agent`, started and opened if needed. */
  async session(agent: string, channelId: string, sink: SessionSink, options: SessionOptions = {}): Promise<AgentSession> {
    const entry = this.host.require(agent);
    entry.using += 1;
    this.host.processes.touch(entry);
    try {
      const record = await this.openSession(entry, channelId, options.resumeSessionId);
      entry.sinks.set(record.sessionId, sink);
      return this.handle(entry, channelId, record, sink);
    } finally {
      entry.using -= 1;
      this.host.processes.touch(entry);
      this.host.processes.settleIdle(entry);
    }
  }

  /** {@link AgentManager.probeSession}: a throw-away session, to check the agent accepts sessions now. */
  async probeSession(name: string): Promise<void> {
    const entry = this.host.require(name);
    entry.using += 1;
    try {
      const client = await this.host.processes.ensureStarted(entry, true);
      await this.host.processes.waitFor(entry, "session/new", () => client.newSession(this.sessionCwd(entry), entry.config.mcpServers));
    } finally {
      entry.using -= 1;
      this.host.processes.settleIdle(entry);
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
    return entry.place?.sessionCwd ?? entry.worktree?.cwd ?? entry.config.workspace ?? this.host.workspaceFolder;
  }

  private async openSession(entry: AgentEntry, channelId: string, resumeSessionId: string | undefined): Promise<SessionRecord> {
    const client = await this.host.processes.ensureStarted(entry, false);
    const existing = entry.sessions.get(channelId);
    if (existing && existing.client === client) {
      if (existing.opening) await existing.opening;
      return existing;
    }
    const record: SessionRecord = { sessionId: "", client };
    // Others asking for this session meanwhile wait for all of it: opened, and the user's choices set again.
    const opening = (async () => {
      const { sessionId, resumed } = await this.openAcpSession(entry, client, channelId, resumeSessionId);
      record.sessionId = sessionId;
      record.resumed = resumed;
      // Updates are routed by session id: two channels on one id would get each other's answers.
      const shared = [...entry.sessions].find(([other, r]) => other !== channelId && r.client === client && r.sessionId === record.sessionId);
      if (shared) {
        throw new SidekicksError(
          "agent/protocol",
          l10n.t('Agent "{0}" gave this channel the session id "{1}", which it already gave another channel, so their answers could not be told apart. This is a bug in the agent: each session/new must answer a new id.', entry.config.name, record.sessionId),
        );
      }
      this.host.sessionStates.opened(entry.config.name, channelId, record.sessionId, client.sessionSetup(record.sessionId), record.resumed === true);
      await this.restoreChoices(entry, channelId, record);
    })();
    record.opening = opening;
    entry.sessions.set(channelId, record);
    try {
      await opening;
      record.opening = undefined;
      return record;
    } catch (err) {
      if (entry.sessions.get(channelId) === record) entry.sessions.delete(channelId);
      throw this.noteAuth(asSidekicksError(err, "agent/protocol"));
    }
  }

  /**
   * Sets the user's choices again on a session just opened that reports other values (issue 15, item 3: codex-acp's
   * `session/load` reports its default mode), before any prompt; each one restored or refused goes to the log.
   */
  private async restoreChoices(entry: AgentEntry, channelId: string, record: SessionRecord): Promise<void> {
    const name = entry.config.name;
    const run = <T>(change: SessionChange, work: () => Promise<T>) => this.host.processes.waitFor(entry, changeMethod(change), work);
    const outcome = await restoreChoices(record.client, record.sessionId, this.host.sessionStates.get(name, channelId), run);
    for (const { change } of outcome.restored) this.host.processes.log(entry, "info", `session ${record.sessionId}: restored the user's ${describeChange(change)}`);
    for (const r of outcome.refused) this.host.processes.log(entry, "warn", `session ${record.sessionId}: could not restore the user's ${r.setting} ${r.value}: ${r.reason}`);
    this.host.sessionStates.restoreEnded(name, channelId, outcome);
  }

  /**
   * ACP `session/load` of `resumeSessionId` when given and the agent offers it, else (or when the load fails)
   * `session/new`. @throws what `session/new` throws, or the load's error when the process died meanwhile
   */
  private async openAcpSession(entry: AgentEntry, client: AcpClient, channelId: string, resumeSessionId: string | undefined): Promise<{ sessionId: string; resumed: boolean }> {
    const cwd = this.sessionCwd(entry);
    const servers = await this.mcpServers(entry, client, channelId);
    if (resumeSessionId !== undefined) {
      if (!client.info?.loadSession) {
        this.host.processes.log(entry, "info", `session ${resumeSessionId} not resumed: the agent does not offer ACP session/load; opening a new session`);
      } else {
        try {
          await this.host.processes.waitFor(entry, "session/load", () => client.loadSession(resumeSessionId, cwd, servers));
          this.host.processes.log(entry, "info", `session ${resumeSessionId} resumed (ACP session/load)`);
          return { sessionId: resumeSessionId, resumed: true };
        } catch (err) {
          const error = asSidekicksError(err, "agent/protocol");
          // A process that died, was stopped, or did not answer at all (agent/timeout: session/new would wait as long) is said so.
          if (client.hasExited || error.code === "agent/exited" || error.code === "agent/stopped" || error.code === "agent/timeout") throw error;
          this.host.processes.log(entry, "warn", `session ${resumeSessionId} could not be resumed (${error.message}); opening a new session`);
        }
      }
    }
    return { sessionId: await this.host.processes.waitFor(entry, "session/new", () => client.newSession(cwd, servers)), resumed: false };
  }

  /**
   * The roster's MCP servers of `entry`, then Sidekicks' own for this channel (unless a roster server already has its
   * name: the user's entry wins). A failure to provide Sidekicks' own is logged; the session opens without them.
   */
  private async mcpServers(entry: AgentEntry, client: AcpClient, channelId: string): Promise<McpServerSpec[]> {
    const own = entry.config.mcpServers ?? [];
    const provider = this.host.sessionMcpServers();
    if (!provider) return own;
    try {
      const extra = await provider({ agent: entry.config, channelId, workspaceFolder: entry.config.workspace ?? this.host.workspaceFolder, info: client.info });
      const taken = new Set(own.map((s) => s.name));
      const kept = extra.filter((s) => !taken.has(s.name));
      if (kept.length < extra.length) this.host.processes.log(entry, "warn", `the roster already has an MCP server named ${extra.filter((s) => taken.has(s.name)).map((s) => `"${s.name}"`).join(", ")}: Sidekicks' own is not added`);
      return [...own, ...kept];
    } catch (err) {
      this.host.processes.log(entry, "warn", `Sidekicks' MCP server not added to the session: ${(err as Error).message}`);
      return own;
    }
  }

  private handle(entry: AgentEntry, channelId: string, first: SessionRecord, sink: SessionSink): AgentSession {
    let record = first;
    const name = entry.config.name;
    const current = () => entry.client === record.client && entry.sessions.get(channelId) === record;
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
          const reopened = await this.session(name, channelId, sink, { resumeSessionId: previous });
          record = entry.sessions.get(channelId) ?? record;
          return reopened.prompt(input);
        }
        return this.runPrompt(entry, record, sink, input);
      },
      cancel: () => {
        // Until the cancelled prompt answers (or its cancel deadline abandons it), the agent "waits to stop".
        if (record.running && !record.running.endCancelWait) record.running.endCancelWait = this.host.processes.beginWait(entry, "session/cancel");
        return record.client.cancel(record.sessionId);
      },
    };
  }

  private async runPrompt(entry: AgentEntry, record: SessionRecord, sink: SessionSink, input: string | PromptInput): Promise<string> {
    const client = record.client;
    const running: NonNullable<SessionRecord["running"]> = {};
    record.running = running;
    record.prompted = true;
    entry.promptSinks.set(record.sessionId, sink);
    entry.busy += 1;
    this.host.processes.touch(entry);
    this.host.processes.setState(entry, "busy");
    try {
      return await client.prompt(record.sessionId, input);
    } catch (err) {
      throw this.noteAuth(asSidekicksError(err, "agent/protocol"));
    } finally {
      running.endCancelWait?.();
      if (record.running === running) record.running = undefined;
      entry.busy -= 1;
      this.host.processes.touch(entry);
      if (entry.busy === 0 && entry.client === client && !client.hasExited) {
        this.host.processes.setState(entry, "ready");
        this.host.processes.settleIdle(entry);
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
