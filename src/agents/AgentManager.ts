import { AcpClient } from "../acp/AcpClient";
import type { AgentUpdate, PermissionAnswer, PermissionRequest } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { asSidekicksError, SidekicksError } from "../errors";
import type { Emitter } from "../events/events";
import type { AgentState, ErrorInfo } from "../protocol";
import { resolveLaunch, type LaunchContext } from "./launch";

/** Receives what an agent sends for one ACP session. */
export interface SessionSink {
  onUpdate(update: AgentUpdate): void;
  /** Must resolve; `signal` aborts when the agent withdraws the request or its process ends. */
  onPermissionRequest(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
}

/** An open ACP session of one agent, used by one owner (a channel). */
export interface AgentSession {
  readonly agent: string;
  readonly sessionId: string;
  /**
   * ACP `session/prompt`; the agent is `busy` while it runs.
   * @returns the stop reason
   * @throws SidekicksError `agent/exited` (the process died), `agent/request`
   */
  prompt(text: string): Promise<string>;
  /** ACP `session/cancel`. */
  cancel(): Promise<void>;
}

/** Options of the manager. Durations in milliseconds. */
export interface AgentManagerOptions {
  launch: LaunchContext;
  /** Returns an error when agents must not start (an untrusted workspace), else undefined. */
  canStart?: () => SidekicksError | undefined;
  initializeTimeoutMs?: number;
}

interface Entry {
  config: AgentConfig;
  state: AgentState;
  client?: AcpClient;
  starting?: Promise<AcpClient>;
  /** owner → session */
  sessions: Map<string, { sessionId: string; opening?: Promise<string> }>;
  /** sessionId → sink */
  sinks: Map<string, SessionSink>;
  busy: number;
  removed: boolean;
}

/**
 * Owns every agent process (ADR 0003 `internal/agents`): starts an agent lazily on first use, keeps the state machine
 * `stopped | starting | ready | busy | error` (an `agent:state` event on every transition), routes each session's
 * updates to its owner, and stops processes. A crash puts the agent in `error`; the next use starts it again.
 * Channels use agents through this class; an agent knows nothing of channels.
 */
export class AgentManager {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly emitter: Emitter,
    private readonly options: AgentManagerOptions,
  ) {}

  /**
   * Replaces the roster. New agents appear `stopped`; a removed or changed agent is stopped once it is idle
   * (a changed one starts again with its new definition on next use); unchanged agents are untouched.
   */
  setRoster(agents: AgentConfig[]): void {
    const next = new Map(agents.map((a) => [a.name, a]));
    for (const [name, entry] of this.entries) {
      const config = next.get(name);
      if (!config || JSON.stringify(config) !== JSON.stringify(entry.config)) {
        entry.removed = !config;
        if (entry.busy === 0) void this.stop(name);
        if (config) entry.config = config;
        else if (entry.busy === 0) this.entries.delete(name);
      }
    }
    for (const [name, config] of next) {
      if (!this.entries.has(name)) {
        this.entries.set(name, { config, state: "stopped", sessions: new Map(), sinks: new Map(), busy: 0, removed: false });
        this.emitter.emit("agent:state", { agent: name, state: "stopped" });
      }
    }
  }

  /** Agent names in roster order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Current state of an agent (`stopped` for an unknown name). */
  state(name: string): AgentState {
    return this.entries.get(name)?.state ?? "stopped";
  }

  /**
   * Returns the session `owner` uses with `agent`, starting the process and opening the session (ACP
   * `session/new` with `cwd` = the agent's workspace) if needed.
   * @throws SidekicksError `agent/spawn`, `agent/exited`, `agent/protocol`, `agent/request`, `agent/untrusted`
   */
  async session(agent: string, owner: string, sink: SessionSink): Promise<AgentSession> {
    const entry = this.entries.get(agent);
    if (!entry || entry.removed) throw new SidekicksError("channel/unknownMember", `No agent named "${agent}" in sidekicks.yaml.`);
    const client = await this.ensureStarted(agent, entry);
    let session = entry.sessions.get(owner);
    if (!session) {
      const opening = client.newSession(entry.config.workspace ?? this.options.launch.workspaceFolder);
      session = { sessionId: "", opening };
      entry.sessions.set(owner, session);
      try {
        session.sessionId = await opening;
      } catch (err) {
        entry.sessions.delete(owner);
        throw asSidekicksError(err, "agent/protocol");
      }
      session.opening = undefined;
    } else if (session.opening) {
      await session.opening;
    }
    entry.sinks.set(session.sessionId, sink);
    const sessionId = session.sessionId;
    return {
      agent,
      sessionId,
      prompt: async (text) => {
        entry.busy += 1;
        this.setState(entry, "busy");
        try {
          return await client.prompt(sessionId, text);
        } finally {
          entry.busy -= 1;
          if (entry.busy === 0 && entry.client === client && !client.hasExited) this.setState(entry, "ready");
        }
      },
      cancel: () => client.cancel(sessionId),
    };
  }

  /** Stops one agent's process (its process group); its sessions are forgotten. */
  async stop(name: string): Promise<void> {
    const entry = this.entries.get(name);
    const client = entry?.client;
    if (!entry || !client) return;
    entry.client = undefined;
    entry.sessions.clear();
    entry.sinks.clear();
    await client.stop();
    this.setState(entry, "stopped");
  }

  /** Stops every agent; resolves when all processes have exited. */
  async stopAll(): Promise<void> {
    await Promise.all(this.names().map((n) => this.stop(n)));
  }

  private async ensureStarted(name: string, entry: Entry): Promise<AcpClient> {
    if (entry.client && !entry.client.hasExited) return entry.client;
    if (entry.starting) return entry.starting;
    const refused = this.options.canStart?.();
    if (refused) throw refused;
    const launch = resolveLaunch(entry.config, this.options.launch);
    this.setState(entry, "starting");
    entry.starting = AcpClient.start(
      launch,
      {
        onUpdate: (sessionId, update) => entry.sinks.get(sessionId)?.onUpdate(update),
        onPermissionRequest: (request, signal) => {
          const sink = entry.sinks.get(request.sessionId);
          return sink ? sink.onPermissionRequest(request, signal) : Promise.resolve({ outcome: "cancelled" });
        },
        onStderr: (line) => this.emitter.emit("agent:log", { agent: name, level: "info", line }),
        onLog: (level, line) => this.emitter.emit("agent:log", { agent: name, level, line }),
      },
      { agentName: name, initializeTimeoutMs: this.options.initializeTimeoutMs },
    );
    try {
      const client = await entry.starting;
      entry.client = client;
      this.setState(entry, "ready");
      void client.exited.then((exit) => {
        if (entry.client !== client) return;
        entry.client = undefined;
        entry.sessions.clear();
        entry.sinks.clear();
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
        this.setState(entry, "error", { code: "agent/exited", message: `Agent "${name}" ${how}.`, detail: exit.stderrTail || undefined });
      });
      return client;
    } catch (err) {
      const error = asSidekicksError(err, "agent/protocol");
      this.setState(entry, "error", { code: error.code, message: error.message, detail: error.detail });
      throw error;
    } finally {
      entry.starting = undefined;
    }
  }

  private setState(entry: Entry, state: AgentState, error?: ErrorInfo): void {
    if (entry.state === state && !error) return;
    entry.state = state;
    this.emitter.emit("agent:state", { agent: entry.config.name, state, error });
  }
}
