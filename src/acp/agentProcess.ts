/**
 * The process side of an ACP agent: spawned in its own process group (so a stop also ends the children of wrapper
 * agents), its exit (code, signal, stderr tail), its stop (SIGTERM, then SIGKILL), and what it printed that people
 * need when it fails: the stderr tail (bounded, field case 8) and the stdout lines that were not ACP (field case 6).
 * The errors that say why it could not start or why it ended are built here. No SDK import.
 */
import * as l10n from "@vscode/l10n";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { SidekicksError } from "../shared/errors";
import { stripTerminalEscapes } from "../shared/terminalText";
import { StderrTail } from "./StderrTail";
import type { AgentLaunch, ExitInfo } from "./types";

/** What the process printed on stdout that was not ACP (the lines themselves are logged by the connection). */
export interface NotAcpLines {
  count: number;
  first?: string;
  last?: string;
}

/** How long stdout must be quiet after the exit, when the pipes stay open (a grandchild holds them), in ms. */
const EXIT_QUIET_MS = 300;
/** The longest an exit waits for its output to be read, in ms. */
const EXIT_DRAIN_MS = 5_000;

/** One spawned agent process. Built by {@link AgentProcess.spawn}. */
export class AgentProcess {
  /** Resolves once when the process has exited (or failed to start). Never rejects. */
  readonly exited: Promise<ExitInfo>;
  /** The kept tail of stderr. */
  readonly stderr = new StderrTail();
  /** Stdout lines that were not ACP, counted, with the first and the last. */
  readonly notAcp: NotAcpLines = { count: 0 };
  private exitInfo: ExitInfo | undefined;
  /** Set when the process could not be started (`spawn`'s `error` event). */
  private spawnError: Error | undefined;
  /** Set by {@link stop}: an exit after it is not a crash. */
  private stopping = false;
  /** `Date.now()` of the last stdout or stderr data (the exit waits for quiet; see the constructor). */
  private lastOutputAt = 0;

  private constructor(
    /** The child process; its stdio are pipes. */
    readonly child: ChildProcess,
    private readonly agentName: string,
    private readonly killGraceMs: number,
  ) {
    this.exited = new Promise<ExitInfo>((resolve) => {
      let exitCode: number | null = null;
      let exitSignal: string | null = null;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        const info: ExitInfo = { code: exitCode, signal: exitSignal, stderrTail: stripTerminalEscapes(this.stderr.tail(4096)) };
        this.exitInfo = info;
        // Resolved one turn of the event loop later, once the SDK has handed on every message read before the end
        // (it does so in microtasks): whoever acts on the exit (a failing request, the agent manager dropping the
        // process's sessions) then comes after the agent's last updates, never before (issue 17, the fuzz suite).
        setImmediate(() => resolve(info));
      };
      child.once("error", (err) => {
        this.spawnError = err;
        finish();
      });
      child.once("exit", (code, signal) => {
        exitCode = code;
        exitSignal = signal;
        // Not stopped by us (a crash, a kill from outside): what it started must not run on without it, re-parented,
        // still calling a model or running a command nobody sees (a tryout's `kill -9` of claude-agent-acp left the
        // claude CLI and its command running). Its process group goes as on stop: SIGTERM, then SIGKILL.
        if (!this.stopping) this.endGroup();
        // The exit counts once stdout and stderr are read to their end ("close"), so nothing the agent wrote before
        // it died is lost (issue 17: chunks lost under load when 300 ms was all it got). A grandchild may hold the
        // pipes open for ever: then it counts once stdout has been quiet for EXIT_QUIET_MS (at most EXIT_DRAIN_MS).
        // Each check runs after the event loop's pending reads (setImmediate), so a starved loop cannot mistake
        // data it has not read yet for quiet.
        child.once("close", finish);
        const exitAt = Date.now();
        const check = (): void => {
          setImmediate(() => {
            if (done) return;
            const now = Date.now();
            if (now - Math.max(exitAt, this.lastOutputAt) >= EXIT_QUIET_MS || now - exitAt >= EXIT_DRAIN_MS) finish();
            else setTimeout(check, 50).unref();
          });
        };
        setTimeout(check, EXIT_QUIET_MS).unref();
      });
    });
  }

  /**
   * Spawns `launch` with piped stdio, detached (its own process group) except on Windows; each complete stderr line
   * goes to `onStderr` and into the kept tail.
   * @param killGraceMs how long {@link stop} waits after SIGTERM before SIGKILL
   * @throws SidekicksError `agent/spawn` when the working folder does not exist (a missing command is reported by
   *   {@link spawnFailure} once the `error` event came), or when the system refuses the launch at once (E2BIG: an
   *   argument or environment value too large)
   */
  static spawn(launch: AgentLaunch, agentName: string, killGraceMs: number, onStderr: (line: string) => void): AgentProcess {
    if (!existsSync(launch.cwd)) {
      throw new SidekicksError(
        "agent/spawn",
        l10n.t('Cannot start agent "{0}": its working folder {1} does not exist. Fix "workspace" in sidekicks.yaml.', agentName, launch.cwd),
      );
    }
    let child: ChildProcess;
    try {
      child = spawn(launch.command, launch.args, {
        cwd: launch.cwd,
        env: launch.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true,
      });
    } catch (err) {
      // Node throws at once for what the system refuses outright (E2BIG: an argument or environment value too large).
      const why = (err as NodeJS.ErrnoException).code === "E2BIG" ? l10n.t("its arguments or environment are too large for the system (E2BIG). Shorten \"args\" or \"env\" in sidekicks.yaml, or pass large values in a file.") : `${(err as Error).message}.`;
      throw new SidekicksError("agent/spawn", l10n.t('Cannot start agent "{0}": {1}', agentName, why), undefined, { cause: err });
    }
    const proc = new AgentProcess(child, agentName, killGraceMs);
    child.stdout?.on("data", () => {
      proc.lastOutputAt = Date.now();
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      proc.lastOutputAt = Date.now();
      for (const line of proc.stderr.push(text)) onStderr(line);
    });
    return proc;
  }

  /** OS process id, when the process started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True once the process has exited. */
  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** True when the process could not be started at all. */
  get failedToSpawn(): boolean {
    return this.spawnError !== undefined;
  }

  /**
   * Ends the process: closes stdin, sends SIGTERM to its process group, then SIGKILL after the grace period, and
   * SIGKILL to the group once the leader is gone. Resolves when the process has exited.
   */
  async stop(): Promise<ExitInfo> {
    this.stopping = true;
    if (!this.hasExited) {
      this.child.stdin?.end();
      this.signal("SIGTERM");
      const timer = setTimeout(() => this.signal("SIGKILL"), this.killGraceMs);
      await this.exited;
      clearTimeout(timer);
      // The leader is gone; make sure no child of a wrapper agent survives it.
      this.signal("SIGKILL");
    }
    return this.exited;
  }

  /** Ends what is left of the process group once the leader exited by itself: SIGTERM, then SIGKILL after the grace. */
  private endGroup(): void {
    if (process.platform === "win32" || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 0);
    } catch {
      return; // nothing left of the group
    }
    this.signal("SIGTERM");
    setTimeout(() => this.signal("SIGKILL"), this.killGraceMs).unref();
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

  /**
   * Why the process is gone, `when` ("while it was running", "during session/prompt"): `agent/spawn` when it never
   * started, `agent/stopped` after {@link stop} (not a crash), else `agent/exited` with the code or signal.
   */
  exitedError(exit: ExitInfo, when: string): SidekicksError {
    if (this.spawnError) return this.spawnFailure();
    if (this.stopping) {
      // Stopped on purpose (Stop agent, Restart agent, shutdown): not a crash.
      return new SidekicksError("agent/stopped", l10n.t('Agent "{0}" was stopped {1}.', this.agentName, when));
    }
    const message = exit.signal
      ? l10n.t('Agent "{0}" was killed by {1} {2}.', this.agentName, exit.signal, when)
      : l10n.t('Agent "{0}" exited (code {1}) {2}.', this.agentName, String(exit.code), when);
    return new SidekicksError("agent/exited", message, this.diagnosticDetail());
  }

  /** `agent/spawn` for a command that could not be started (not found, not executable). Only once spawning failed. */
  spawnFailure(): SidekicksError {
    const err = this.spawnError ?? new Error("the process did not start");
    const code = (err as NodeJS.ErrnoException).code;
    const what =
      code === "ENOENT"
        ? l10n.t("command not found")
        : code === "EACCES"
          ? l10n.t("permission denied (is it executable?)")
          : err.message;
    return new SidekicksError(
      "agent/spawn",
      l10n.t('Cannot start agent "{0}": {1}: "{2}". Fix "command" in sidekicks.yaml or install the agent.', this.agentName, what, this.child.spawnfile),
      undefined,
      { cause: err },
    );
  }

  /** The last non-ACP stdout line and the stderr tail, for error details (terminal escapes stripped: field case 12). */
  diagnosticDetail(): string | undefined {
    const lines: string[] = [];
    if (this.notAcp.last !== undefined) {
      lines.push(l10n.t("Last non-ACP line on stdout: {0}", stripTerminalEscapes(this.notAcp.last.slice(0, 500))));
    }
    const tail = stripTerminalEscapes(this.stderr.tail(2048));
    if (tail) lines.push(`stderr:\n${tail}`);
    return lines.length > 0 ? lines.join("\n") : undefined;
  }
}
