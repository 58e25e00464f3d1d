// @ts-check
// Starts code-server (VS Code in a browser, with a real Node extension host) for the integration harness and
// `npm start`, and builds the workbench URLs that load this extension. Used by test/integration/runCodeServer.mjs and
// scripts/start.mjs; tools come from scripts/tools.mjs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { MAX_WAIT_MS, STALL_MS, fileBytes, groupCpuMs, logTail, progressMade, startupVerdict } from "./startupWait.mjs";
import { codeServerEntry, node24Path } from "./tools.mjs";

/**
 * User settings that keep the workbench quiet: no AI chat, no welcome page, no telemetry, no update or extension
 * update checks, no git scanning, no Workspace Trust prompt.
 */
export const quietSettings = {
  "chat.disableAIFeatures": true,
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "update.mode": "none",
  "git.enabled": false,
  "security.workspace.trust.enabled": false,
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
};

/**
 * The reconnection grace of `npm start`'s code-server, in seconds (code-server's `--reconnection-grace-time`): a tab
 * that lost its connection (network blip, laptop asleep) for less than this gets its own extension host back; a closed
 * tab's host stops after it, which frees the channel history for the next tab. code-server's 3-hour default kept the
 * history locked for a new tab until `npm start` was restarted.
 */
export const DEMO_RECONNECTION_GRACE_SECONDS = 15;

/**
 * Binds `port` on 127.0.0.1 (0: one the system picks) and lets it go; resolves to the port, rejects when taken.
 * @param {number} port
 * @returns {Promise<number>}
 */
const tryListen = (port) =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(bound));
    });
  });

/** Whether `port` can be bound on 127.0.0.1 now (nothing else listens there). @type {typeof import("./codeServer.mjs").portIsFree} */
export async function portIsFree(port) {
  try {
    await tryListen(port);
    return true;
  } catch {
    return false;
  }
}

/** Resolves to `preferred` when it can be bound on 127.0.0.1, otherwise to a free port the system picks. @type {typeof import("./codeServer.mjs").freePort} */
export async function freePort(preferred = 0) {
  if (preferred) {
    try {
      return await tryListen(preferred);
    } catch {
      // taken: fall through to any free port
    }
  }
  return tryListen(0);
}

/**
 * Starts code-server in its own process group and waits until `/healthz` answers: by default the one in `.tools/`
 * under the Node 24 there (`ensureTools`); `node24` and `entry` name others.
 *
 * `dataDir` receives `user-data/` (with a quiet `User/settings.json`) and `extensions/`; `testDriver` adds
 * `--vscode-option enable-smoke-test-driver`, which the browser needs to run an extension test suite;
 * `workspaceTrust` keeps Workspace Trust on (pass settings that enable it too). `reconnectionGraceSeconds` (s) is
 * code-server's `--reconnection-grace-time`: how long a window's extension host outlives a lost browser connection
 * (a closed tab included) waiting for that tab to come back; code-server's default is 10 800 (3 hours), and while it
 * runs that host keeps the Sidekicks history locked for every other window.
 * code-server's stdout and stderr go to `logFile` (or are dropped). Resolves to `{ port, baseUrl, child, stop }`;
 * `stop()` kills the whole process group (killing only the main pid leaves a child running) and is also called when
 * this process exits.
 *
 * It waits as long as the server makes progress (its log grows, its processes use CPU, or /healthz answers
 * differently; scripts/startupWait.mjs): a loaded machine may take minutes. `onWait({ elapsedMs, sinceProgressMs,
 * logBytes, cpuMs, health })` is called about every `reportEveryMs` (ms) meanwhile. Rejects when the server exits,
 * makes no progress for `stallMs` (ms), or is not healthy after `maxWaitMs` (ms): the error's `code` is
 * `codeServer/exited`, `codeServer/stalled` or `codeServer/timeout`, its message names the log, and it carries
 * `port`, `logFile` and `logTail` (this run's last log lines).
 * @type {typeof import("./codeServer.mjs").startCodeServer}
 */
export async function startCodeServer({
  node24 = node24Path,
  entry = codeServerEntry,
  port,
  dataDir,
  testDriver = false,
  workspaceTrust = false,
  settings = quietSettings,
  extensionsDir = path.join(dataDir, "extensions"),
  logFile,
  reconnectionGraceSeconds,
  stallMs = STALL_MS,
  maxWaitMs = MAX_WAIT_MS,
  onWait,
  reportEveryMs = 10_000,
}) {
  if (reconnectionGraceSeconds !== undefined && !(Number.isInteger(reconnectionGraceSeconds) && reconnectionGraceSeconds > 0)) {
    throw new Error(`reconnectionGraceSeconds must be a whole number of seconds above 0, not ${reconnectionGraceSeconds}`);
  }
  const userDataDir = path.join(dataDir, "user-data");
  fs.mkdirSync(path.join(userDataDir, "User"), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, "User", "settings.json"), JSON.stringify(settings, null, 2) + "\n");

  const args = [
    entry,
    "--bind-addr", `127.0.0.1:${port}`,
    "--auth", "none",
    "--disable-telemetry",
    "--disable-update-check",
    ...(workspaceTrust ? [] : ["--disable-workspace-trust"]),
    "--disable-getting-started-override",
    "--config", "/dev/null",
    "--user-data-dir", userDataDir,
    "--extensions-dir", extensionsDir,
    ...(testDriver ? ["--vscode-option", "enable-smoke-test-driver"] : []),
    ...(reconnectionGraceSeconds ? ["--reconnection-grace-time", String(reconnectionGraceSeconds)] : []),
  ];
  const logStart = fileBytes(logFile);
  const out = logFile ? fs.openSync(logFile, "a") : "ignore";
  const child = spawn(node24, args, { detached: true, stdio: ["ignore", out, out] });
  if (typeof out === "number") fs.closeSync(out);

  /** @type {string | null} */
  let exited = null;
  /** @type {Promise<void>} */
  const exitedPromise = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exited = signal ?? `exit ${code}`;
      resolve();
    });
    child.on("error", (error) => {
      exited = error.message;
      resolve();
    });
  });

  /** @param {NodeJS.Signals} signal */
  const killGroup = (signal) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const onExit = () => killGroup("SIGKILL");
  process.on("exit", onExit);

  const stop = async () => {
    process.off("exit", onExit);
    killGroup("SIGTERM");
    const timer = setTimeout(() => killGroup("SIGKILL"), 3000);
    await Promise.race([exitedPromise, new Promise((resolve) => setTimeout(resolve, 3500))]);
    clearTimeout(timer);
    killGroup("SIGKILL"); // children that outlived the main process
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const cpuMs = () => (child.pid === undefined ? undefined : groupCpuMs(child.pid));
  let last = { logBytes: logStart, cpuMs: cpuMs(), health: "refused" };
  let lastProgress = started;
  let nextReport = started + reportEveryMs;
  for (;;) {
    let health = "refused";
    let healthy = false;
    if (!exited) {
      try {
        const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
        health = `status ${response.status}`;
        healthy = response.ok;
      } catch (error) {
        health = /** @type {{ name?: string } | undefined} */ (error)?.name === "TimeoutError" ? "timeout" : "refused";
      }
    }
    const now = Date.now();
    const sample = { logBytes: fileBytes(logFile), cpuMs: cpuMs(), health };
    if (progressMade(last, sample)) lastProgress = now;
    last = sample;
    const waited = { elapsedMs: now - started, sinceProgressMs: now - lastProgress };
    const verdict = startupVerdict({ ...waited, healthy, exited: exited !== null }, { stallMs, maxWaitMs });
    if (verdict === "ready") break;
    if (verdict !== "wait") {
      await stop();
      throw startupError(verdict, { port, baseUrl, logFile, logStart, exited, health, ...waited });
    }
    if (onWait && now >= nextReport) {
      nextReport = now + reportEveryMs;
      onWait({ ...waited, logBytes: sample.logBytes - logStart, cpuMs: sample.cpuMs, health });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { port, baseUrl, child, stop };
}

/**
 * The error of a start that failed (`verdict`: exited, stalled, timeout), with this run's log lines.
 * @param {"exited" | "stalled" | "timeout"} verdict
 * @param {{ port: number, baseUrl: string, logFile?: string, logStart: number, exited: string | null, health: string, elapsedMs: number, sinceProgressMs: number }} run
 */
function startupError(verdict, { port, baseUrl, logFile, logStart, exited, health, elapsedMs, sinceProgressMs }) {
  const seconds = (/** @type {number} */ ms) => `${Math.round(ms / 1000)} s`;
  const tail = logTail(logFile, 15, logStart);
  const why = {
    exited: `code-server exited before it was ready (${exited}) after ${seconds(elapsedMs)}`,
    stalled: `code-server made no progress for ${seconds(sinceProgressMs)} (no new log line, no CPU time used, /healthz: ${health}), ${seconds(elapsedMs)} after it started`,
    timeout: `code-server was still not ready at ${baseUrl}/healthz after ${seconds(elapsedMs)}, although it kept working`,
  }[verdict];
  const taken = tail.some((line) => line.includes("EADDRINUSE")) ? `; its log says port ${port} is in use (another program took it)` : "";
  const error = new Error(`${why}${taken}${logFile ? `; log: ${logFile}` : ""}`);
  Object.assign(error, { code: `codeServer/${verdict}`, port, logFile, logTail: tail });
  return error;
}

/**
 * The workbench URL that opens `folder` in an Extension Development Host loading the extension at
 * `extensionDevelopmentPath` and, when given, running the test suite `extensionTestsPath` (absolute paths).
 * @type {typeof import("./codeServer.mjs").workbenchUrl}
 */
export function workbenchUrl({ port, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (/** @type {string} */ absolutePath) => `vscode-remote://127.0.0.1:${port}${absolutePath}`;
  const payload = [["extensionDevelopmentPath", remote(extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(["extensionTestsPath", remote(extensionTestsPath)]);
  payload.push(["skipWelcome", "true"]);
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `http://127.0.0.1:${port}/?${query}`;
}
