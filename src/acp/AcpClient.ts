import * as l10n from "@vscode/l10n";
import * as acp from "@agentclientprotocol/sdk";
import { SidekicksError } from "../shared/errors";
import { stripTerminalEscapes } from "../shared/terminalText";
import { AgentProcess } from "./agentProcess";
import { parseAuthMethods } from "./auth";
import { connectClient, SessionTable, type Served } from "./clientSide";
import * as dl from "./deadlines";
import { explainFailure } from "./explain";
import { promptBlocks, withheldNote } from "./promptBlocks";
import type { AcpClientHandlers, AgentInfo, AgentLaunch, ConfigOptionInfo, ExitInfo, McpServerSpec, PromptInput, SessionSetup } from "./types";
import { configOptions, toSessionSetup } from "./updates";

/** Options of {@link AcpClient.start}. Durations in milliseconds. */
export interface AcpClientOptions {
  /** Name used in error messages, such as the roster name `demo`. */
  agentName: string;
  /** How long `initialize` may take before the start fails (default 60 000 ms: `npx` may download first). */
  initializeTimeoutMs?: number;
  /** How long after SIGTERM before the process group is killed (default 2 000 ms). */
  killGraceMs?: number;
  /**
   * How long `initialize` waits after the last stdout line that is not ACP, when the agent has sent no ACP message at
   * all, before it fails (default 5 000 ms): a CLI started without its ACP flag prints a banner or a prompt and waits
   * for a person, and saying so at once beats waiting out `initializeTimeoutMs`.
   */
  notAcpQuietMs?: number;
  /** Deadline of every request but `initialize` and `session/prompt` (default 60 000 ms; 0: none). `authenticate` waits at least 5 min. */
  requestTimeoutMs?: dl.Millis;
  /** How long the cancelled `session/prompt` may take to answer after `session/cancel` (default 10 000 ms; 0: forever). */
  cancelTimeoutMs?: dl.Millis;
  /** The timers of those deadlines (default Node's; the agent manager passes its clock). */
  timers?: dl.DeadlineTimers;
}

/**
 * One agent process and its ACP connection, from the client side (ACP `initialize`, `session/new`, `session/load`,
 * `session/prompt`, `session/cancel`; `session/update` and `session/request_permission` come back through
 * {@link AcpClientHandlers}).
 *
 * Every request is raced against the process exiting, because the SDK's connection cannot know why its stream
 * ended: a dying agent rejects the pending request with `agent/exited` (exit code and stderr tail), never a hang. A
 * live agent that does not answer is not waited for forever either: every request but `session/prompt` has a deadline
 * (`requestTimeoutMs`), and so does the cancelled prompt after `session/cancel` (`cancelTimeoutMs`; `deadlines.ts`).
 * The process is started in its own process group so that {@link stop} also ends the children of wrapper agents
 * (`agentProcess.ts`); what the agent sends is handled in `clientSide.ts`.
 */
export class AcpClient {
  /** Resolves once when the process has exited (or failed to start). Never rejects. */
  readonly exited: Promise<ExitInfo>;
  private readonly exitRejection: Promise<never>;
  private readonly sessions = new SessionTable();
  /** Whether any ACP message arrived at all (the not-ACP verdict of `initialize`). */
  private sawMessage = false;
  /** Called on each non-ACP stdout line while `initialize` waits (re-arms the not-ACP timer). */
  private onNotAcpLine: (() => void) | undefined;
  private connection!: acp.ClientConnection;
  /** What `initialize` advertises: files and terminals only when the handlers serve them. */
  private served: Served = { fs: false, terminal: false };
  private agentInfo: AgentInfo | undefined;
  /** The prompt running in each session, abandoned when the agent does not answer `session/cancel` in time. */
  private readonly prompts = new Map<string, RunningPrompt>();

  private constructor(
    private readonly proc: AgentProcess,
    private readonly handlers: AcpClientHandlers,
    private readonly options: Required<AcpClientOptions>,
    private readonly launch: AgentLaunch,
  ) {
    this.exited = proc.exited;
    this.exitRejection = this.exited.then((exit) => {
      throw proc.exitedError(exit, l10n.t("while it was running"));
    });
    this.exitRejection.catch(() => undefined);
  }

  /**
   * Spawns the agent and performs ACP `initialize`.
   *
   * @throws SidekicksError `agent/spawn` when the command or the working folder does not exist;
   *   `agent/exited` when it exits before answering; `agent/protocol` when it never sends a valid answer
   *   (the message quotes the last non-ACP line it printed, field case 6), or answers a protocol version Sidekicks
   *   does not speak (field case 20: the process is stopped); `agent/request` on a JSON-RPC error.
   */
  static async start(launch: AgentLaunch, handlers: AcpClientHandlers, options: AcpClientOptions): Promise<AcpClient> {
    const opts: Required<AcpClientOptions> = {
      agentName: options.agentName,
      initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
      killGraceMs: options.killGraceMs ?? 2_000,
      notAcpQuietMs: options.notAcpQuietMs ?? 5_000,
      requestTimeoutMs: options.requestTimeoutMs ?? dl.DEFAULT_REQUEST_TIMEOUT_MS,
      cancelTimeoutMs: options.cancelTimeoutMs ?? dl.DEFAULT_CANCEL_TIMEOUT_MS,
      timers: options.timers ?? dl.nodeTimers,
    };
    const proc = AgentProcess.spawn(launch, opts.agentName, opts.killGraceMs, (line) => handlers.onStderr(line));
    const client = new AcpClient(proc, handlers, opts, launch);
    client.connect();
    await client.initialize(launch);
    return client;
  }

  /** What the agent said about itself in `initialize`. */
  get info(): AgentInfo | undefined {
    return this.agentInfo;
  }

  /** OS process id, when the process started. */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** The kept tail of the agent's stderr (bounded to about 64 KB, field case 8). */
  get stderrTail(): string {
    return this.proc.stderr.tail();
  }

  /** True once the process has exited. */
  get hasExited(): boolean {
    return this.proc.hasExited;
  }

  /**
   * ACP `session/new` with `cwd` (absolute) and the MCP servers the agent should connect to.
   * @returns the new session id
   * @throws SidekicksError `agent/exited`, `agent/request` (an `AuthRequiredError` when authentication is required), `agent/timeout`
   */
  async newSession(cwd: string, mcpServers: McpServerSpec[] = []): Promise<string> {
    this.sessions.creating += 1;
    let response: acp.NewSessionResponse;
    try {
      response = await this.request("session/new", this.connection.agent.request("session/new", { cwd, mcpServers: toAcpServers(mcpServers) }));
    } finally {
      this.sessions.creating -= 1;
    }
    this.sessions.opened(response.sessionId, toSessionSetup(response));
    return response.sessionId;
  }

  /**
   * The settings the answer that opened `sessionId` described (ACP `modes`, `configOptions`, the unstable `models`);
   * empty for a session this process did not open.
   */
  sessionSetup(sessionId: string): SessionSetup {
    return this.sessions.setup(sessionId);
  }

  /**
   * ACP `session/set_mode`. The agent may also send `current_mode_update`.
   * @throws SidekicksError `agent/request` when the agent refuses (an unknown mode), `agent/exited`, `agent/timeout`
   */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.request("session/set_mode", this.connection.agent.request("session/set_mode", { sessionId, modeId }));
  }

  /**
   * ACP `session/set_config_option` with a select's value id (a string) or a boolean toggle's value.
   * @returns the complete set of options as the agent answered it
   * @throws SidekicksError `agent/request` when the agent refuses the value, `agent/exited`, `agent/timeout`
   */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<ConfigOptionInfo[]> {
    const params: acp.SetSessionConfigOptionRequest = typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
    const response = await this.request("session/set_config_option", this.connection.agent.request("session/set_config_option", params));
    return configOptions(response.configOptions);
  }

  /**
   * `session/set_model`: the legacy, unstable way to pick a model, for agents that offer `models` but no model config
   * option. SDK 2.4.0 types it nowhere, so it goes as an untyped request.
   * @throws SidekicksError `agent/request` (the agent refuses, or does not know the method), `agent/exited`, `agent/timeout`
   */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.request("session/set_model", this.connection.agent.request<unknown>("session/set_model", { sessionId, modelId }));
  }

  /**
   * ACP `session/load`: reopens a session the agent stored earlier. Only for an agent whose `initialize` advertised
   * `agentCapabilities.loadSession` ({@link info}`.loadSession`). `cwd` (absolute) and `mcpServers` as for
   * {@link newSession}.
   *
   * The agent replays the session's history as `session/update` notifications before it answers. Every update for
   * `sessionId` that arrives while the request is in flight is dropped here, in the order the agent wrote it (so none
   * can slip past the answer): it never reaches `handlers.onUpdate`, and how many were dropped is logged at debug.
   * `available_commands_update` is kept (the agent's commands, not history).
   * @returns how many replayed updates were dropped
   * @throws SidekicksError `agent/request` when the agent refuses (an unknown or expired session; an
   *   `AuthRequiredError` when authentication is required), `agent/exited` when the process dies meanwhile, `agent/timeout`
   */
  async loadSession(sessionId: string, cwd: string, mcpServers: McpServerSpec[] = []): Promise<{ replayed: number }> {
    const load = this.sessions.beginLoad(sessionId);
    try {
      const response = await this.request("session/load", this.connection.agent.request("session/load", { sessionId, cwd, mcpServers: toAcpServers(mcpServers) }));
      this.sessions.opened(sessionId, toSessionSetup(response));
    } finally {
      this.sessions.endLoad(sessionId, load);
      if (load.dropped > 0) this.handlers.onLog("debug", `session/load ${sessionId}: ${load.dropped} replayed session/update(s) dropped (history already shown)`);
    }
    return { replayed: load.dropped };
  }

  /**
   * ACP `session/prompt` with the blocks {@link promptBlocks} makes. Updates stream through `handlers.onUpdate`.
   * @returns the stop reason (`end_turn`, `cancelled`, `max_tokens`, `max_turn_requests`, `refusal`)
   * @throws SidekicksError `agent/exited` when the process dies mid-turn, `agent/request` on an error answer,
   *   `agent/timeout` when it did not answer within `cancelTimeoutMs` of {@link cancel} (no deadline otherwise)
   */
  async prompt(sessionId: string, input: string | PromptInput): Promise<string> {
    const running: RunningPrompt = { abandon: () => undefined, timer: undefined };
    const abandoned = new Promise<never>((_, reject) => (running.abandon = reject));
    this.prompts.set(sessionId, running);
    const plan = promptBlocks(input, { embeddedContext: this.agentInfo?.embeddedContext === true, image: this.agentInfo?.image === true });
    if (plan.withheld.length > 0) this.handlers.onUpdate(sessionId, { kind: "notice", text: withheldNote(this.options.agentName, plan.withheld), retrying: false });
    const request = this.connection.agent.request("session/prompt", { sessionId, prompt: plan.blocks });
    try {
      return this.stopReasonOf(await this.call("session/prompt", Promise.race([request, abandoned])));
    } finally {
      this.options.timers.clearTimeout(running.timer);
      if (this.prompts.get(sessionId) === running) this.prompts.delete(sessionId);
    }
  }

  /**
   * The stop reason of a `session/prompt` result, checked where it enters: a result that is not an object, or a stop
   * reason outside ACP's list, is the agent's protocol error (issue 17), never a completed turn.
   * @throws SidekicksError `agent/protocol`
   */
  private stopReasonOf(response: unknown): string {
    const stopReason = response !== null && typeof response === "object" ? (response as { stopReason?: unknown }).stopReason : undefined;
    if (typeof stopReason === "string" && (STOP_REASONS as readonly string[]).includes(stopReason)) return stopReason;
    const got = response === null || typeof response !== "object" ? `the result ${JSON.stringify(response) ?? String(response)}` : stopReason === undefined ? "no stop reason" : `the stop reason ${JSON.stringify(stopReason).slice(0, 80)}`;
    throw new SidekicksError(
      "agent/protocol",
      l10n.t('Agent "{0}" ended its turn with {1}, which ACP does not define (a stop reason is one of {2}). The answer so far is kept; the agent may need an update.', this.options.agentName, got, STOP_REASONS.join(", ")),
      JSON.stringify(response)?.slice(0, 2000),
    );
  }

  /**
   * ACP `authenticate` with one of the agent's `agent`-kind auth methods (the agent runs its own sign-in, such as a
   * browser flow). Not for `terminal` methods, which the user runs in a terminal.
   * @throws SidekicksError `agent/exited`, `agent/request` (the agent refused or the sign-in failed), `agent/timeout`
   */
  async authenticate(methodId: string): Promise<void> {
    await this.request("authenticate", this.connection.agent.request("authenticate", { methodId }));
  }

  /**
   * ACP `session/cancel` (a notification: the pending prompt then ends with stop reason `cancelled`). When that prompt
   * has not answered `cancelTimeoutMs` later, it is abandoned: it rejects with `agent/timeout`, a late answer ignored.
   */
  async cancel(sessionId: string): Promise<void> {
    if (this.hasExited) return;
    const running = this.prompts.get(sessionId);
    const ms = dl.millis(this.options.cancelTimeoutMs);
    if (running && running.timer === undefined && ms > 0 && Number.isFinite(ms)) {
      running.timer = this.options.timers.setTimeout(() => running.abandon(dl.cancelTimeoutError(this.options.agentName, ms)), ms);
    }
    await this.connection.agent.notify("session/cancel", { sessionId }).catch(() => undefined);
  }

  /**
   * Ends the process: closes stdin, sends SIGTERM to its process group, then SIGKILL after the grace period.
   * Resolves when the process has exited.
   */
  async stop(): Promise<ExitInfo> {
    await this.proc.stop();
    this.connection.close();
    return this.exited;
  }

  private connect(): void {
    const { connection, served } = connectClient(this.proc, this.handlers, this.sessions, {
      onMessage: () => {
        this.sawMessage = true;
      },
      onNotAcpLine: () => this.onNotAcpLine?.(),
      agentName: () => this.agentInfo?.name,
    });
    this.connection = connection;
    this.served = served;
  }

  private async initialize(launch: AgentLaunch): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let quiet: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      // Text that is not ACP, then silence, and not one ACP message: a CLI waiting for a person (field case 6).
      this.onNotAcpLine = () => {
        clearTimeout(quiet);
        if (this.sawMessage) return;
        quiet = setTimeout(() => {
          if (this.sawMessage) return;
          reject(
            new SidekicksError(
              "agent/protocol",
              l10n.t(
                'Agent "{0}" printed text that is not ACP ("{1}") and did not answer ACP initialize. Is "{2}" an ACP agent (some need a flag such as --acp)?',
                this.options.agentName,
                stripTerminalEscapes(this.proc.notAcp.first ?? "").trim().slice(0, 120),
                launch.command,
              ),
              this.proc.diagnosticDetail(),
            ),
          );
        }, this.options.notAcpQuietMs);
      };
      if (this.proc.notAcp.first !== undefined) this.onNotAcpLine();
      timer = setTimeout(() => {
        reject(
          new SidekicksError(
            "agent/protocol",
            l10n.t(
              'Agent "{0}" did not answer ACP initialize within {1} s. Is "{2}" an ACP agent (some need a flag such as --acp)?',
              this.options.agentName,
              Math.round(this.options.initializeTimeoutMs / 1000),
              launch.command,
            ),
            this.proc.diagnosticDetail(),
          ),
        );
      }, this.options.initializeTimeoutMs);
    });
    try {
      const response = await Promise.race([
        this.call(
          "initialize",
          this.connection.agent.request("initialize", {
            protocolVersion: acp.PROTOCOL_VERSION,
            // auth.terminal: Sidekicks can run the agent's own command in a VS Code terminal for a terminal login.
            clientCapabilities: {
              fs: { readTextFile: this.served.fs, writeTextFile: this.served.fs },
              terminal: this.served.terminal,
              auth: { terminal: true },
              // An agent that runs commands itself (codex-acp) streams their output to us as tool call `_meta`
              // chunks to append (`terminal_output_delta`), which the card shows (src/turns/agentTerminals.ts).
              _meta: { terminal_output_delta: true },
            },
            clientInfo: { name: "sidekicks", title: "Sidekicks for VS Code", version: "0.1.0" },
          }),
        ),
        timeout,
      ]);
      const mismatch = dl.protocolVersionError(this.options.agentName, response.protocolVersion, acp.PROTOCOL_VERSION);
      if (mismatch) throw mismatch;
      this.agentInfo = {
        name: response.agentInfo?.name,
        version: response.agentInfo?.version,
        protocolVersion: response.protocolVersion,
        loadSession: response.agentCapabilities?.loadSession === true,
        embeddedContext: response.agentCapabilities?.promptCapabilities?.embeddedContext === true,
        mcpHttp: response.agentCapabilities?.mcpCapabilities?.http === true,
        image: response.agentCapabilities?.promptCapabilities?.image === true,
        authMethods: parseAuthMethods(response.authMethods as unknown),
        meta: response._meta ?? undefined,
      };
    } catch (err) {
      if (!this.hasExited) await this.stop();
      throw err;
    } finally {
      clearTimeout(timer);
      clearTimeout(quiet);
      this.onNotAcpLine = undefined;
    }
  }

  /** {@link call} within the request deadline (`requestTimeoutMs`; `authenticate` at least 5 min: a browser sign-in). */
  private request<T>(method: dl.DeadlineMethod, work: Promise<T>): Promise<T> {
    const base = dl.millis(this.options.requestTimeoutMs);
    const ms = method === "authenticate" && base > 0 ? Math.max(base, dl.MIN_AUTHENTICATE_TIMEOUT_MS) : base;
    return dl.withDeadline(this.call(method, work), ms, this.options.timers, () => dl.requestTimeoutError(this.options.agentName, method, ms));
  }

  /** Races `request` against the process exiting and turns every failure into a `SidekicksError`. */
  private async call<T>(method: string, request: Promise<T>): Promise<T> {
    try {
      return await Promise.race([request, this.exitRejection]);
    } catch (err) {
      throw await this.explain(err, method);
    }
  }

  private explain(err: unknown, method: string): Promise<SidekicksError> {
    return explainFailure(err, method, { proc: this.proc, agentName: this.options.agentName, authMethods: this.agentInfo?.authMethods ?? [], launch: this.launch });
  }
}

/** A `session/prompt` in flight: how to abandon it, and the timer armed by `session/cancel`. */
interface RunningPrompt {
  abandon: (error: SidekicksError) => void;
  timer: unknown;
}

/** ACP's stop reasons (https://agentclientprotocol.com/protocol/prompt-turn#stop-reasons). */
export const STOP_REASONS = ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"] as const satisfies readonly acp.StopReason[];

/** Sidekicks' MCP server shapes → the SDK's `McpServer` (for `session/new` and `session/load`). */
function toAcpServers(mcpServers: McpServerSpec[]): acp.McpServer[] {
  return mcpServers.map((m): acp.McpServer => ("type" in m ? (m.type === "http" ? { ...m, type: "http" } : { ...m, type: "sse" }) : m));
}

