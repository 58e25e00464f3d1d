/**
 * ACP client terminals (`terminal/create`, `terminal/output`, `terminal/wait_for_exit`, `terminal/kill`,
 * `terminal/release`; https://agentclientprotocol.com/protocol/terminals) run with `node-pty`: the command and its
 * arguments as an array (no shell, so paths with spaces need no quoting), in the requested `cwd` with the requested
 * `env` over a base environment, its output kept within `outputByteLimit` (`OutputBuffer`). A pseudo-terminal, so
 * programs behave as in the user's terminal (colours, line buffering) and the output is what a VS Code terminal
 * shows: line ends arrive as `\r\n`.
 *
 * Bytes from the pty are decoded with a streaming UTF-8 decoder, so a character split across reads arrives whole;
 * escape sequences are passed through untouched. `onData` hands every decoded piece to listeners — the editor layer
 * mirrors it into a VS Code `Pseudoterminal` (see `Terminal.onData`).
 *
 * Where the process runs is a `SpawnPlanner`'s business (spawnPlanner.ts): `localPlanner` (default) runs it on this
 * machine; `containerPlanner` (container.ts) wraps it in `docker exec -it`. No `vscode` import.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { StringDecoder } from "node:string_decoder";
import type * as Pty from "node-pty";
import { SidekicksError } from "../shared/errors";
import type { Confinement } from "./confinement";
import { OutputBuffer } from "./outputBuffer";
import { loadPty } from "./ptyLoader";
import { localPlanner, type PlannedCommand, type SpawnPlan, type SpawnPlanner } from "./spawnPlanner";

export { localPlanner, type PlannedCommand, type SpawnPlan, type SpawnPlanner } from "./spawnPlanner";
export { loadPty, terminalsAvailable } from "./ptyLoader";

/** Default `outputByteLimit` (bytes) when the agent sends none: 1 MiB, so memory stays bounded. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;

/**
 * Most terminals one agent holds at once (created and not yet released, running or exited: each keeps up to its
 * `outputByteLimit` of output). Past it `terminal/create` is refused with `agent/requestLimit` (issue 17: 1,000 ran
 * at once).
 */
export const MAX_TERMINALS = 64;

/** ACP `EnvVariable`. */
export interface EnvVariable {
  name: string;
  value: string;
}

/** ACP `CreateTerminalRequest` without `sessionId` and `_meta`. */
export interface TerminalRequest {
  command: string;
  args?: string[];
  /** ACP's list of `{name, value}`, or a map. Merged over the base environment. */
  env?: EnvVariable[] | Record<string, string>;
  /** Absolute working directory; default: the manager's `cwd`. */
  cwd?: string | null;
  /** Most bytes of output to retain (≥ 0); default {@link DEFAULT_OUTPUT_BYTE_LIMIT}. */
  outputByteLimit?: number | null;
}

/** ACP `TerminalExitStatus`: `exitCode` when the process exited, `signal` (a name such as `SIGTERM`) when killed. */
export interface TerminalExitStatus {
  exitCode: number | null;
  signal: string | null;
}

/** ACP `TerminalOutputResponse`. */
export interface TerminalOutput {
  output: string;
  truncated: boolean;
  /** Present once the command has exited. */
  exitStatus?: TerminalExitStatus;
}

/** Options of {@link TerminalManager}. */
export interface TerminalManagerOptions {
  /** Default working directory (absolute): the agent's workspace. */
  cwd: string;
  /** Base environment the requested `env` is merged over; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where processes run; default {@link localPlanner} over `cwd`, `env` and `confinement`. */
  planner?: SpawnPlanner;
  /** When set (local runs), a requested `cwd` outside the agent's workspace is refused (`workspace/outside`). */
  confinement?: Confinement;
  /** `outputByteLimit` when the request has none; default {@link DEFAULT_OUTPUT_BYTE_LIMIT}. */
  defaultOutputByteLimit?: number;
  /** Terminal size; default 120 × 30. */
  cols?: number;
  rows?: number;
  /** How long `kill` waits after SIGTERM before SIGKILL (ms); default 2000. */
  killGraceMs?: number;
  /** Called for every terminal created, before any output: where the editor layer attaches its Pseudoterminal. */
  onCreate?: (terminal: Terminal) => void;
  /** Most terminals held at once; default {@link MAX_TERMINALS}. */
  maxTerminals?: number;
}

const SIGNAL_NAMES: Record<number, string> = Object.fromEntries(Object.entries(os.constants.signals).map(([name, n]) => [n, name]));

/** node-pty's `{exitCode, signal}` (signal 0 = none) as ACP's exit status. */
export function exitStatusOf(e: { exitCode: number; signal?: number }): TerminalExitStatus {
  if (e.signal) return { exitCode: null, signal: SIGNAL_NAMES[e.signal] ?? `signal ${e.signal}` };
  return { exitCode: e.exitCode, signal: null };
}

/** ACP env list or map as a map; names that are empty or contain `=` are refused. */
export function envMap(env: TerminalRequest["env"]): Record<string, string> {
  const list = Array.isArray(env) ? env : Object.entries(env ?? {}).map(([name, value]) => ({ name, value }));
  const out: Record<string, string> = {};
  for (const { name, value } of list) {
    if (!name || name.includes("=") || name.includes("\0")) throw new SidekicksError("agent/request", `Invalid environment variable name "${name}".`);
    out[name] = String(value);
  }
  return out;
}

type Listener<T> = (value: T) => void;

/**
 * One running (or finished) command. Created by {@link TerminalManager.create}; the editor layer may listen to its
 * output and forward keystrokes.
 */
export class Terminal {
  /** The id given to the agent (ACP `TerminalId`). */
  readonly id: string = `term_${randomUUID()}`;
  private readonly buffer: OutputBuffer;
  private readonly decoder = new StringDecoder("utf8");
  private readonly dataListeners = new Set<Listener<string>>();
  private readonly exitListeners = new Set<Listener<TerminalExitStatus>>();
  private status: TerminalExitStatus | undefined;
  private readonly exited: Promise<TerminalExitStatus>;
  private readonly subscriptions: { dispose(): void }[] = [];

  /** @internal built by the manager */
  constructor(
    private readonly proc: Pty.IPty,
    /** The command as the agent asked for it (before any `docker exec` wrapping). */
    readonly request: Readonly<PlannedCommand>,
    /** What was started. */
    readonly plan: Readonly<SpawnPlan>,
    outputByteLimit: number,
    private readonly killGraceMs: number,
  ) {
    this.buffer = new OutputBuffer(outputByteLimit);
    this.exited = new Promise((resolve) => {
      this.subscriptions.push(
        proc.onData((chunk: string | Buffer) => this.receive(typeof chunk === "string" ? chunk : this.decoder.write(chunk))),
        proc.onExit((e) => {
          this.receive(this.decoder.end());
          this.status = exitStatusOf(e);
          for (const l of this.exitListeners) l(this.status);
          resolve(this.status);
        }),
      );
    });
  }

  private receive(text: string): void {
    if (!text) return;
    this.buffer.push(text);
    for (const l of this.dataListeners) l(text);
  }

  /** Process id of what was started (the `docker` client for a container). */
  get pid(): number {
    return this.proc.pid;
  }

  /** A short title for the editor's terminal list: the command and its arguments. */
  get title(): string {
    return [this.request.command, ...this.request.args].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");
  }

  /**
   * Listens to output as it arrives: decoded text, whole characters, escape sequences untouched (`\r\n` line ends).
   * For a VS Code `Pseudoterminal`: on `open`, write `output().output` first (what was retained before the
   * terminal was shown), then forward each piece to `onDidWrite`.
   * @returns a function that stops listening
   */
  onData(listener: (text: string) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  /** Listens for the exit (called at once if it already exited). @returns a function that stops listening */
  onExit(listener: (status: TerminalExitStatus) => void): () => void {
    if (this.status) {
      listener(this.status);
      return () => undefined;
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** ACP `terminal/output`: the retained output, whether some was dropped, and the exit status once exited. */
  output(): TerminalOutput {
    return { output: this.buffer.text(), truncated: this.buffer.truncated, ...(this.status ? { exitStatus: this.status } : {}) };
  }

  /** The exit status, once the process has exited. */
  get exitStatus(): TerminalExitStatus | undefined {
    return this.status;
  }

  /** Output bytes received in all (retained or not). */
  get receivedBytes(): number {
    return this.buffer.receivedBytes;
  }

  /** ACP `terminal/wait_for_exit`: resolves with the exit status when the process exits (all output received). */
  waitForExit(): Promise<TerminalExitStatus> {
    return this.exited;
  }

  /**
   * ACP `terminal/kill`: SIGTERM to the process group (the command and its children), SIGKILL after the grace
   * period; resolves once it exited (or 2 s after SIGKILL). The terminal stays valid: output and exit status remain.
   */
  async kill(): Promise<void> {
    if (this.status) return;
    this.signal("SIGTERM");
    if (await this.exitedWithin(this.killGraceMs)) return;
    this.signal("SIGKILL");
    await this.exitedWithin(2000);
  }

  /** Keystrokes from the user (a Pseudoterminal's `handleInput`), written to the process's terminal. */
  write(data: string): void {
    if (!this.status) this.proc.write(data);
  }

  /** Resizes the pseudo-terminal (a Pseudoterminal's `setDimensions`). */
  resize(cols: number, rows: number): void {
    if (!this.status && cols > 0 && rows > 0) this.proc.resize(cols, rows);
  }

  private signal(sig: "SIGTERM" | "SIGKILL"): void {
    try {
      process.kill(-this.proc.pid, sig); // the pty child leads its own session and process group
    } catch {
      try {
        this.proc.kill(sig);
      } catch {
        // already gone
      }
    }
  }

  private exitedWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** @internal stops listening to the process (after release). */
  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.dataListeners.clear();
    this.exitListeners.clear();
  }
}

/**
 * The terminals of one agent (or one session: pass an `owner`), by id. Every ACP terminal method maps to one method
 * here; an unknown or released id is refused with `terminal/unknown`.
 */
export class TerminalManager {
  private readonly terminals = new Map<string, { terminal: Terminal; owner: string | undefined }>();
  private readonly planner: SpawnPlanner;
  /** Places taken by {@link reserve} and not yet filled by a created terminal or given back. */
  private reserved = 0;

  constructor(private readonly options: TerminalManagerOptions) {
    this.planner = options.planner ?? localPlanner({ cwd: options.cwd, env: options.env, confinement: options.confinement });
  }

  /**
   * ACP `terminal/create`: starts the command and returns at once (it is not awaited).
   * @param owner groups terminals for {@link releaseAll} (such as the ACP session id)
   * @returns the new terminal; its `id` is ACP's `terminalId`
   * @param reservation a place taken with {@link reserve} (else one is taken here)
   * @throws SidekicksError `workspace/outside` / `workspace/notFound` for a bad `cwd`; `agent/request` for a bad
   *   env name or limit; `agent/requestLimit` when too many terminals are held. A command that is not found starts anyway and exits with code 1 and
   *   `execvp(3) failed.: No such file or directory` as its output, as in a terminal.
   */
  async create(request: TerminalRequest, owner?: string, reservation?: () => void): Promise<Terminal> {
    const release = reservation ?? this.reserve();
    try {
      return await this.start(request, owner);
    } finally {
      release();
    }
  }

  /**
   * Takes a place for one terminal now, synchronously, so requests that arrive together cannot all pass the limit
   * before any of them is created. Pass the result to {@link create} (which gives it back), or call it to give the
   * place back unused; calling it more than once does nothing.
   * @throws SidekicksError `agent/requestLimit` when {@link MAX_TERMINALS} (or `maxTerminals`) are held already
   */
  reserve(): () => void {
    const max = this.options.maxTerminals ?? MAX_TERMINALS;
    if (this.terminals.size + this.reserved >= max) {
      throw new SidekicksError(
        "agent/requestLimit",
        `Too many terminals: ${this.terminals.size} are held (created and not released), and at most ${max} may be at once. Release the ones no longer needed (terminal/release) before creating more.`,
      );
    }
    this.reserved += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.reserved -= 1;
    };
  }

  private async start(request: TerminalRequest, owner: string | undefined): Promise<Terminal> {
    const limit = request.outputByteLimit ?? this.options.defaultOutputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    if (!(limit >= 0) || !Number.isFinite(limit)) throw new SidekicksError("agent/request", `Invalid outputByteLimit ${String(request.outputByteLimit)}: it must be a whole number ≥ 0.`);
    if (typeof request.command !== "string" || request.command.length === 0) throw new SidekicksError("agent/request", "terminal/create needs a command.");
    const cmd: PlannedCommand = { command: request.command, args: [...(request.args ?? [])], cwd: request.cwd ?? undefined, env: envMap(request.env) };
    const pty = loadPty();
    if (pty instanceof Error) {
      throw new SidekicksError(
        "terminal/unavailable",
        `Terminals are not available here: node-pty did not load (${pty.message.split("\n")[0]}). Install the Sidekicks package built for this platform (linux-x64, darwin-arm64, win32-x64).`,
      );
    }
    const plan = await this.planner(cmd);
    const proc = pty.spawn(plan.file, plan.args, {
      name: plan.env.TERM || "xterm-256color",
      cols: this.options.cols ?? 120,
      rows: this.options.rows ?? 30,
      cwd: plan.cwd,
      env: plan.env,
      encoding: null, // bytes: decoded here with a streaming decoder
    });
    const terminal = new Terminal(proc, cmd, plan, Math.floor(limit), this.options.killGraceMs ?? 2000);
    this.terminals.set(terminal.id, { terminal, owner });
    this.options.onCreate?.(terminal);
    return terminal;
  }

  /** The terminal with this id. @throws SidekicksError `terminal/unknown` */
  get(terminalId: string): Terminal {
    const t = this.terminals.get(terminalId);
    if (!t) throw new SidekicksError("terminal/unknown", `No terminal "${terminalId}": it was never created here or was already released.`);
    return t.terminal;
  }

  /** ACP `terminal/output`. @throws SidekicksError `terminal/unknown` */
  output(terminalId: string): TerminalOutput {
    return this.get(terminalId).output();
  }

  /** ACP `terminal/wait_for_exit`. @throws SidekicksError `terminal/unknown` */
  waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    return this.get(terminalId).waitForExit();
  }

  /** ACP `terminal/kill`: the terminal stays until released. @throws SidekicksError `terminal/unknown` */
  kill(terminalId: string): Promise<void> {
    return this.get(terminalId).kill();
  }

  /**
   * ACP `terminal/release`: kills the command if it still runs, stops listening, forgets the id.
   * @returns the final output (for a tool call that still shows it)
   * @throws SidekicksError `terminal/unknown`
   */
  async release(terminalId: string): Promise<TerminalOutput> {
    const terminal = this.get(terminalId);
    this.terminals.delete(terminalId);
    await terminal.kill();
    const final = terminal.output();
    terminal.dispose();
    return final;
  }

  /** Releases every terminal (of `owner`, when given): a session or the agent ended. */
  async releaseAll(owner?: string): Promise<void> {
    const ids = [...this.terminals].filter(([, t]) => owner === undefined || t.owner === owner).map(([id]) => id);
    await Promise.all(ids.map((id) => this.release(id)));
  }

  /** Ids of the terminals not yet released. */
  ids(): string[] {
    return [...this.terminals.keys()];
  }
}
