// Starts code-server (VS Code in a browser, with a real Node extension host) for the integration harness and
// `npm start`, and builds the workbench URLs that load this extension. Used by test/integration/runCodeServer.mjs and
// scripts/start.mjs; tools come from scripts/tools.mjs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
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

/** Resolves to `preferred` when it can be bound on 127.0.0.1, otherwise to a free port the system picks. */
export async function freePort(preferred = 0) {
  const tryListen = (port) =>
    new Promise((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const { port: bound } = server.address();
        server.close(() => resolve(bound));
      });
    });
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
 * this process exits. Rejects when the server exits or is not healthy within `timeoutMs` (ms).
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
  timeoutMs = 60_000,
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
  const out = logFile ? fs.openSync(logFile, "a") : "ignore";
  const child = spawn(node24, args, { detached: true, stdio: ["ignore", out, out] });
  if (typeof out === "number") fs.closeSync(out);

  let exited = null;
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

  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`code-server exited before it was healthy (${exited})${logFile ? `; see ${logFile}` : ""}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server was not healthy at ${baseUrl}/healthz within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { port, baseUrl, child, stop };
}

/**
 * The workbench URL that opens `folder` in an Extension Development Host loading the extension at
 * `extensionDevelopmentPath` and, when given, running the test suite `extensionTestsPath` (absolute paths).
 */
export function workbenchUrl({ port, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (absolutePath) => `vscode-remote://127.0.0.1:${port}${absolutePath}`;
  const payload = [["extensionDevelopmentPath", remote(extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(["extensionTestsPath", remote(extensionTestsPath)]);
  payload.push(["skipWelcome", "true"]);
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `http://127.0.0.1:${port}/?${query}`;
}
