import * as l10n from "@vscode/l10n";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import { SidekicksError, asSidekicksError } from "../errors";
import { AuthRequiredError, describeAuthMethod, parseAuthMethods } from "./auth";
import { StderrTail } from "./StderrTail";
import { stdioStream } from "./stdioStream";
import { configOptions, toAgentUpdate, toPermissionRequest, toSessionSetup } from "./updates";
import { promptBlocks } from "./promptBlocks";
import type { AcpClientHandlers, AgentInfo, AgentLaunch, ClientRequest, ConfigOptionInfo, ExitInfo, McpServerSpec, PromptInput, SessionSetup } from "./types";
import { stripTerminalEscapes } from "../terminalText";

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
}

/** At most this many dropped stdout lines are logged one by one; the rest are counted. */
const DROPPED_LINES_LOGGED = 50;

/**
 * One agent process and its ACP connection, from the client side (ACP `initialize`, `session/new`, `session/load`,
 * `session/prompt`, `session/cancel`; `session/update` and `session/request_permission` come back through
 * {@link AcpClientHandlers}).
 *
 * Every request is raced against the process exiting, because the SDK's connection cannot know why its stream
 * ended: a dying agent rejects the pending request with `agent/exited` (exit code and stderr tail), never a hang.
 * The process is started in its own process group so that {@link stop} also ends the children of wrapper agents.
 */
export class AcpClient {
  /** Resolves once when the process has exited (or failed to start). Never rejects. */
  readonly exited: Promise<ExitInfo>;
  private readonly exitRejection: Promise<never>;
  private readonly sessions = new Set<string>();
  /** What each session's `session/new` or `session/load` answer said about its settings. */
  private readonly setups = new Map<string, SessionSetup>();
  /** Sessions being opened with `session/load` → how many replayed updates were dropped so far. */
  private readonly loading = new Map<string, { dropped: number }>();
  private exitInfo: ExitInfo | undefined;
  private spawnError: Error | undefined;
  private droppedLines = 0;
  private lastDroppedLine: string | undefined;
  /** The first stdout line that was not ACP, and whether any ACP message arrived at all (the not-ACP verdict). */
  private firstDroppedLine: string | undefined;
  private sawMessage = false;
  /** How many `session/new` requests are in flight (their answers register sessions as they are read). */
  private creating = 0;
  /** Called on each non-ACP stdout line while `initialize` waits (re-arms the not-ACP timer). */
  private onNotAcpLine: (() => void) | undefined;
  private stopping = false;
  private connection!: acp.ClientConnection;
  private agentInfo: AgentInfo | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly handlers: AcpClientHandlers,
    private readonly options: Required<AcpClientOptions>,
    private readonly stderr: StderrTail,
    private readonly launch: AgentLaunch,
  ) {
    this.exited = new Promise<ExitInfo>((resolve) => {
      let exitCode: number | null = null;
      let exitSignal: string | null = null;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        this.exitInfo = { code: exitCode, signal: exitSignal, stderrTail: stripTerminalEscapes(this.stderr.tail(4096)) };
        resolve(this.exitInfo);
      };
      child.once("error", (err) => {
        this.spawnError = err;
        finish();
      });
      child.once("exit", (code, signal) => {
        exitCode = code;
        exitSignal = signal;
        // Give stderr a moment to drain so the tail holds the agent's last words.
        child.once("close", finish);
        setTimeout(finish, 300).unref();
      });
    });
    this.exitRejection = this.exited.then((exit) => {
      throw this.exitedError(exit, l10n.t("while it was running"));
    });
    this.exitRejection.catch(() => undefined);
  }

  /**
   * Spawns the agent and performs ACP `initialize`.
   *
   * @throws SidekicksError `agent/spawn` when the command or the working folder does not exist;
   *   `agent/exited` when it exits before answering; `agent/protocol` when it never sends a valid answer
   *   (the message quotes the last non-ACP line it printed, field case 6); `agent/request` on a JSON-RPC error.
   */
  static async start(launch: AgentLaunch, handlers: AcpClientHandlers, options: AcpClientOptions): Promise<AcpClient> {
    const opts: Required<AcpClientOptions> = {
      agentName: options.agentName,
      initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
      killGraceMs: options.killGraceMs ?? 2_000,
      notAcpQuietMs: options.notAcpQuietMs ?? 5_000,
    };
    if (!existsSync(launch.cwd)) {
      throw new SidekicksError(
        "agent/spawn",
        l10n.t('Cannot start agent "{0}": its working folder {1} does not exist. Fix "workspace" in sidekicks.yaml.', opts.agentName, launch.cwd),
      );
    }
    const child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
      windowsHide: true,
    });
    const stderr = new StderrTail();
    const client = new AcpClient(child, handlers, opts, stderr, launch);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      for (const line of stderr.push(text)) handlers.onStderr(line);
    });
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
    return this.child.pid;
  }

  /** The kept tail of the agent's stderr (bounded to about 64 KB, field case 8). */
  get stderrTail(): string {
    return this.stderr.tail();
  }

  /** True once the process has exited. */
  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /**
   * ACP `session/new` with `cwd` (absolute) and the MCP servers the agent should connect to.
   * @returns the new session id
   * @throws SidekicksError `agent/exited`, `agent/request` (an `AuthRequiredError` when authentication is required)
   */
  async newSession(cwd: string, mcpServers: McpServerSpec[] = []): Promise<string> {
    this.creating += 1;
    let response: acp.NewSessionResponse;
    try {
      response = await this.call("session/new", this.connection.agent.request("session/new", { cwd, mcpServers: toAcpServers(mcpServers) }));
    } finally {
      this.creating -= 1;
    }
    this.sessions.add(response.sessionId);
    this.setups.set(response.sessionId, toSessionSetup(response));
    return response.sessionId;
  }

  /**
   * The settings the answer that opened `sessionId` described (ACP `modes`, `configOptions`, the unstable `models`);
   * empty for a session this process did not open.
   */
  sessionSetup(sessionId: string): SessionSetup {
    return this.setups.get(sessionId) ?? {};
  }

  /**
   * ACP `session/set_mode`. The agent may also send `current_mode_update`.
   * @throws SidekicksError `agent/request` when the agent refuses (an unknown mode), `agent/exited`
   */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.call("session/set_mode", this.connection.agent.request("session/set_mode", { sessionId, modeId }));
  }

  /**
   * ACP `session/set_config_option` with a select's value id (a string) or a boolean toggle's value.
   * @returns the complete set of options as the agent answered it
   * @throws SidekicksError `agent/request` when the agent refuses the value, `agent/exited`
   */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<ConfigOptionInfo[]> {
    const params: acp.SetSessionConfigOptionRequest = typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
    const response = await this.call("session/set_config_option", this.connection.agent.request("session/set_config_option", params));
    return configOptions(response.configOptions);
  }

  /**
   * `session/set_model`: the legacy, unstable way to pick a model, for agents that offer `models` but no model config
   * option. SDK 2.4.0 types it nowhere, so it goes as an untyped request.
   * @throws SidekicksError `agent/request` (the agent refuses, or does not know the method), `agent/exited`
   */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.call("session/set_model", this.connection.agent.request<unknown>("session/set_model", { sessionId, modelId }));
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
   *   `AuthRequiredError` when authentication is required), `agent/exited` when the process dies meanwhile
   */
  async loadSession(sessionId: string, cwd: string, mcpServers: McpServerSpec[] = []): Promise<{ replayed: number }> {
    const load = { dropped: 0 };
    this.loading.set(sessionId, load);
    try {
      const response = await this.call("session/load", this.connection.agent.request("session/load", { sessionId, cwd, mcpServers: toAcpServers(mcpServers) }));
      this.sessions.add(sessionId);
      this.setups.set(sessionId, toSessionSetup(response));
    } finally {
      if (this.loading.get(sessionId) === load) this.loading.delete(sessionId);
      if (load.dropped > 0) this.handlers.onLog("debug", `session/load ${sessionId}: ${load.dropped} replayed session/update(s) dropped (history already shown)`);
    }
    return { replayed: load.dropped };
  }

  /**
   * ACP `session/prompt` with the blocks {@link promptBlocks} makes. Updates stream through `handlers.onUpdate`.
   * @returns the stop reason (`end_turn`, `cancelled`, `max_tokens`, `max_turn_requests`, `refusal`)
   * @throws SidekicksError `agent/exited` when the process dies mid-turn, `agent/request` on an error answer
   */
  async prompt(sessionId: string, input: string | PromptInput): Promise<string> {
    const response = await this.call(
      "session/prompt",
      this.connection.agent.request("session/prompt", { sessionId, prompt: promptBlocks(input, this.agentInfo?.embeddedContext === true) }),
    );
    return response.stopReason;
  }

  /**
   * ACP `authenticate` with one of the agent's `agent`-kind auth methods (the agent runs its own sign-in, such as a
   * browser flow). Not for `terminal` methods, which the user runs in a terminal.
   * @throws SidekicksError `agent/exited`, `agent/request` (the agent refused or the sign-in failed)
   */
  async authenticate(methodId: string): Promise<void> {
    await this.call("authenticate", this.connection.agent.request("authenticate", { methodId }));
  }

  /** ACP `session/cancel` (a notification: the pending prompt then ends with stop reason `cancelled`). */
  async cancel(sessionId: string): Promise<void> {
    if (this.hasExited) return;
    await this.connection.agent.notify("session/cancel", { sessionId }).catch(() => undefined);
  }

  /**
   * Ends the process: closes stdin, sends SIGTERM to its process group, then SIGKILL after the grace period.
   * Resolves when the process has exited.
   */
  async stop(): Promise<ExitInfo> {
    this.stopping = true;
    if (!this.hasExited) {
      this.child.stdin?.end();
      this.signal("SIGTERM");
      const timer = setTimeout(() => this.signal("SIGKILL"), this.options.killGraceMs);
      await this.exited;
      clearTimeout(timer);
      // The leader is gone; make sure no child of a wrapper agent survives it.
      this.signal("SIGKILL");
    }
    this.connection.close();
    return this.exited;
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === "win32") this.child.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  private connect(): void {
    const { handlers } = this;
    const stream = stdioStream(this.child.stdout!, this.child.stdin!, {
      onDroppedLine: (line, reason) => {
        this.droppedLines += 1;
        this.lastDroppedLine = line;
        this.firstDroppedLine ??= line;
        this.onNotAcpLine?.();
        if (this.droppedLines <= DROPPED_LINES_LOGGED) {
          handlers.onLog("warn", `stdout line skipped (${reason}, not ACP): ${line.slice(0, 300)}`);
        } else if (this.droppedLines === DROPPED_LINES_LOGGED + 1) {
          handlers.onLog("warn", `more stdout lines skipped; only the first ${DROPPED_LINES_LOGGED} are logged`);
        }
      },
      // The replay of a `session/load` is dropped before the SDK sees it: messages are judged in the order the agent
      // wrote them, so every update sent before the load's answer is judged while the load is still in flight.
      keep: (message) => {
        this.sawMessage = true;
        // A session/new answer registers its session here, in the order the agent wrote it: the updates it sends
        // right behind the answer are then judged knowing the session (the SDK resolves the request a tick later).
        if (this.creating > 0 && "result" in message && !("method" in message)) {
          const id = (message.result as { sessionId?: unknown } | null)?.sessionId;
          if (typeof id === "string") this.sessions.add(id);
        }
        return !this.isReplay(message);
      },
    });
    const filtered: acp.Stream = stream;
    this.connection = acp
      .client({ name: "sidekicks" })
      .onNotification("session/update", ({ params }) => {
        // Commands belong to the agent, and often come right behind the session/new response, before the session
        // is known here: they are kept whatever the session.
        if (!this.sessions.has(params.sessionId) && params.update.sessionUpdate !== "available_commands_update") {
          handlers.onLog("debug", `session/update for unknown session ${params.sessionId} dropped`);
          return;
        }
        handlers.onUpdate(params.sessionId, toAgentUpdate(params.update));
      })
      .onRequest("session/request_permission", async ({ params, signal }) => {
        if (!this.sessions.has(params.sessionId)) {
          handlers.onLog("warn", `permission request for unknown session ${params.sessionId} cancelled`);
          return { outcome: { outcome: "cancelled" } };
        }
        const answer = await handlers.onPermissionRequest(toPermissionRequest(params), signal);
        return { outcome: answer };
      })
      .onRequest("fs/read_text_file", ({ params }) => this.clientRequest(handlers, { method: "fs/read_text_file", sessionId: params.sessionId, path: params.path, line: params.line, limit: params.limit }) as Promise<acp.ReadTextFileResponse>)
      .onRequest("fs/write_text_file", async ({ params }) => {
        await this.clientRequest(handlers, { method: "fs/write_text_file", sessionId: params.sessionId, path: params.path, content: params.content });
        return {};
      })
      .onRequest("terminal/create", ({ params }) =>
        this.clientRequest(handlers, {
          method: "terminal/create",
          sessionId: params.sessionId,
          command: params.command,
          args: params.args ?? [],
          env: params.env ?? [],
          cwd: params.cwd,
          outputByteLimit: params.outputByteLimit,
        }) as Promise<acp.CreateTerminalResponse>,
      )
      .onRequest("terminal/output", ({ params }) => this.clientRequest(handlers, { method: "terminal/output", sessionId: params.sessionId, terminalId: params.terminalId }) as Promise<acp.TerminalOutputResponse>)
      .onRequest("terminal/wait_for_exit", ({ params }) =>
        this.clientRequest(handlers, { method: "terminal/wait_for_exit", sessionId: params.sessionId, terminalId: params.terminalId }) as Promise<acp.WaitForTerminalExitResponse>,
      )
      .onRequest("terminal/kill", async ({ params }) => {
        await this.clientRequest(handlers, { method: "terminal/kill", sessionId: params.sessionId, terminalId: params.terminalId });
        return {};
      })
      .onRequest("terminal/release", async ({ params }) => {
        await this.clientRequest(handlers, { method: "terminal/release", sessionId: params.sessionId, terminalId: params.terminalId });
        return {};
      })
      .connect(filtered);
    const served = handlers.onClientRequest !== undefined;
    this.serves = handlers.serves ?? { fs: served, terminal: served };
  }

  /** What `initialize` advertises: files and terminals only when the handlers serve them. */
  private serves = { fs: false, terminal: false };

  /**
   * Serves one `fs/*` or `terminal/*` request through the handlers: refused with "method not found" when they do
   * not serve files and terminals (nothing was advertised), for an unknown session, and as a JSON-RPC error carrying
   * the sentence of a `SidekicksError` (`workspace/outside` as invalid params).
   */
  private async clientRequest(handlers: AcpClientHandlers, request: ClientRequest): Promise<unknown> {
    const advertised = request.method.startsWith("fs/") ? this.serves.fs : this.serves.terminal;
    if (!handlers.onClientRequest || !advertised) throw acp.RequestError.methodNotFound(request.method);
    if (!this.sessions.has(request.sessionId)) throw acp.RequestError.sessionNotFound(request.sessionId);
    try {
      return await handlers.onClientRequest(request);
    } catch (err) {
      const e = asSidekicksError(err, "agent/request");
      handlers.onLog("warn", `${request.method} refused: ${e.message}`);
      throw new acp.RequestError(e.code === "workspace/outside" || e.code === "terminal/unknown" ? -32602 : -32603, e.message, { code: e.code });
    }
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
                stripTerminalEscapes(this.firstDroppedLine ?? "").trim().slice(0, 120),
                launch.command,
              ),
              this.diagnosticDetail(),
            ),
          );
        }, this.options.notAcpQuietMs);
      };
      if (this.firstDroppedLine !== undefined) this.onNotAcpLine();
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
            this.diagnosticDetail(),
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
              fs: { readTextFile: this.serves.fs, writeTextFile: this.serves.fs },
              terminal: this.serves.terminal,
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
      this.agentInfo = {
        name: response.agentInfo?.name,
        version: response.agentInfo?.version,
        protocolVersion: response.protocolVersion,
        loadSession: response.agentCapabilities?.loadSession === true,
        embeddedContext: response.agentCapabilities?.promptCapabilities?.embeddedContext === true,
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

  /** Races `request` against the process exiting and turns every failure into a `SidekicksError`. */
  private async call<T>(method: string, request: Promise<T>): Promise<T> {
    try {
      return await Promise.race([request, this.exitRejection]);
    } catch (err) {
      throw await this.explain(err, method);
    }
  }

  private async explain(err: unknown, method: string): Promise<SidekicksError> {
    if (this.spawnError) return this.spawnFailure(this.spawnError);
    if (err instanceof SidekicksError) return err;
    if (err instanceof acp.RequestError) {
      const detail = err.data === undefined ? this.stderr.tail(2048) || undefined : JSON.stringify(err.data, null, 2);
      if (err.code === -32000) {
        const methods = this.agentInfo?.authMethods ?? [];
        const ways = methods.map(describeAuthMethod).join("; ");
        return new AuthRequiredError(
          { agent: this.options.agentName, methods, launch: this.launch },
          ways
            ? l10n.t('Agent "{0}" needs you to sign in first ({1}). Sign in, then try again.', this.options.agentName, ways)
            : l10n.t('Agent "{0}" needs you to sign in first. Sign in, then try again.', this.options.agentName),
          detail,
          { cause: err },
        );
      }
      if (method === "initialize") {
        // A program that echoes its input (`cat`) bounces our own "Method not found" back: not an ACP agent.
        return new SidekicksError(
          "agent/protocol",
          l10n.t(
            'Agent "{0}" does not look like an ACP agent: it answered initialize with "{1}". Check "command" and "args" in sidekicks.yaml (some agents need a flag such as --acp).',
            this.options.agentName,
            err.message,
          ),
          this.diagnosticDetail() ?? detail,
          { cause: err },
        );
      }
      return new SidekicksError("agent/request", l10n.t('Agent "{0}" answered {1} with an error: {2}', this.options.agentName, method, err.message), detail, {
        cause: err,
      });
    }
    // The connection closed under a pending request: most likely the process is exiting; wait for its status.
    const exit = await Promise.race([this.exited, delay(1000)]);
    if (exit) {
      if (this.spawnError) return this.spawnFailure(this.spawnError);
      return this.exitedError(exit, l10n.t("during {0}", method));
    }
    return new SidekicksError(
      "agent/protocol",
      l10n.t('Lost the ACP connection to agent "{0}" during {1}: {2}', this.options.agentName, method, err instanceof Error ? err.message : String(err)),
      this.diagnosticDetail(),
      { cause: err },
    );
  }

  private exitedError(exit: ExitInfo, when: string): SidekicksError {
    if (this.spawnError) return this.spawnFailure(this.spawnError);
    if (this.stopping) {
      // Stopped on purpose (Stop agent, Restart agent, shutdown): not a crash.
      return new SidekicksError("agent/stopped", l10n.t('Agent "{0}" was stopped {1}.', this.options.agentName, when));
    }
    const message = exit.signal
      ? l10n.t('Agent "{0}" was killed by {1} {2}.', this.options.agentName, exit.signal, when)
      : l10n.t('Agent "{0}" exited (code {1}) {2}.', this.options.agentName, String(exit.code), when);
    return new SidekicksError("agent/exited", message, this.diagnosticDetail());
  }

  private spawnFailure(err: Error): SidekicksError {
    const code = (err as NodeJS.ErrnoException).code;
    const what =
      code === "ENOENT"
        ? l10n.t("command not found")
        : code === "EACCES"
          ? l10n.t("permission denied (is it executable?)")
          : err.message;
    return new SidekicksError(
      "agent/spawn",
      l10n.t('Cannot start agent "{0}": {1}: "{2}". Fix "command" in sidekicks.yaml or install the agent.', this.options.agentName, what, this.child.spawnfile),
      undefined,
      { cause: err },
    );
  }

  /** The agent's last non-ACP stdout line and stderr tail, for error details (terminal escapes stripped: field case 12). */
  private diagnosticDetail(): string | undefined {
    const lines: string[] = [];
    if (this.lastDroppedLine !== undefined) {
      lines.push(l10n.t("Last non-ACP line on stdout: {0}", stripTerminalEscapes(this.lastDroppedLine.slice(0, 500))));
    }
    const tail = stripTerminalEscapes(this.stderr.tail(2048));
    if (tail) lines.push(`stderr:\n${tail}`);
    return lines.length > 0 ? lines.join("\n") : undefined;
  }
}

/** Sidekicks' MCP server shapes → the SDK's `McpServer` (for `session/new` and `session/load`). */
function toAcpServers(mcpServers: McpServerSpec[]): acp.McpServer[] {
  return mcpServers.map((m): acp.McpServer => ("type" in m ? (m.type === "http" ? { ...m, type: "http" } : { ...m, type: "sse" }) : m));
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

