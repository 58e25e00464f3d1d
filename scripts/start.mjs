// `npm start`: builds the extension and opens a demo workspace (.demo/workspace, whose sidekicks.yaml declares two
// bundled offline demo agents: scripts/demoWorkspace.mjs) in an Extension Development Host. `npm start -- --help`
// prints the usage (scripts/startArgs.mjs).
//
// - With a `code` CLI on PATH: `code --extensionDevelopmentPath=<repo> .demo/workspace`.
// - Otherwise, or with an explicit --port: code-server (VS Code in the browser; tools from scripts/tools.mjs) on
//   127.0.0.1, printing the URL to open. It runs until Ctrl+C or SIGTERM, which stop the whole code-server process
//   group. Port: --port, else SIDEKICKS_PORT, else PORT (a port asked for that is taken is an error), else 8080 when
//   free, else any free port. SIDEKICKS_EDITOR=code-server forces code-server even when `code` exists. code-server is
//   waited for as long as it makes progress (scripts/startupWait.mjs), saying what it does; a failure says what to do.
//   A tab's extension host outlives a lost connection by DEMO_RECONNECTION_GRACE_SECONDS (scripts/codeServer.mjs),
//   not code-server's 3 hours: a closed tab no longer keeps the channel history locked for the next one.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_RECONNECTION_GRACE_SECONDS, freePort, portIsFree, startCodeServer, workbenchUrl } from "./codeServer.mjs";
import { createDemoWorkspace } from "./demoWorkspace.mjs";
import { DEFAULT_PORT, START_USAGE, parseStartArgs } from "./startArgs.mjs";
import { ensureTools } from "./tools.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const demoDir = path.join(root, ".demo");
const workspace = path.join(demoDir, "workspace");
const say = (line) => console.log(`[start] ${line}`);
const fail = (lines) => {
  for (const line of [lines].flat()) console.error(`[start] ${line}`);
  process.exit(1);
};

/** Absolute path of `name` on PATH, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The port asked for is taken: say so and what to do, before anything is built or started. */
async function checkAskedPort(options) {
  if (options.port === undefined || (await portIsFree(options.port))) return;
  const how = options.portFrom === "--port" ? `--port ${options.port}` : `${options.portFrom}=${options.port}`;
  fail([
    `port ${options.port} (asked for by ${how}) is already in use on 127.0.0.1: another program listens there (perhaps an earlier npm start).`,
    `Stop that program, or choose another port: npm start -- --port ${options.port === 65535 ? 9000 : options.port + 1}`,
  ]);
}

async function withCodeServer(options) {
  await ensureTools({ log: (line) => say(line) });
  let port = options.port;
  if (port === undefined) {
    port = await freePort(DEFAULT_PORT);
    if (port !== DEFAULT_PORT) say(`port ${DEFAULT_PORT} is in use; using ${port} instead (choose one with npm start -- --port <port>)`);
  }
  const logFile = path.join(demoDir, "code-server.log");
  const log = path.relative(root, logFile);
  say(`starting code-server on 127.0.0.1:${port} (log: ${log}); a first start on a busy machine can take a few minutes`);
  // User data and extensions persist in .demo/ so the layout and the channel history survive a restart.
  const server = await startCodeServer({
    port,
    dataDir: path.join(demoDir, "code-server"),
    logFile,
    // The workbench honours the URL's extensionDevelopmentPath only with the smoke-test driver enabled.
    testDriver: true,
    // A closed tab's extension host stops after this instead of code-server's 3 hours, so a new tab gets the history.
    reconnectionGraceSeconds: DEMO_RECONNECTION_GRACE_SECONDS,
    onWait: ({ elapsedMs, sinceProgressMs, logBytes, cpuMs, health }) => {
      const cpu = cpuMs === undefined ? "" : `, ${(cpuMs / 1000).toFixed(1)} s of CPU`;
      const quiet = sinceProgressMs >= 20_000 ? `; nothing new for ${Math.round(sinceProgressMs / 1000)} s` : "";
      say(`still waiting for code-server (${Math.round(elapsedMs / 1000)} s: ${logBytes} bytes of log${cpu}, /healthz ${health}${quiet})`);
    },
  }).catch((error) => {
    const lines = [error.message];
    if (error.logTail?.length) lines.push(`last lines of ${log}:`, ...error.logTail.map((line) => `  ${line}`));
    lines.push(`To retry: npm start${options.port === undefined ? "" : ` -- --port ${port}`} (or on another port: npm start -- --port ${port === 65535 ? 9000 : port + 1}).`);
    if (error.code === "codeServer/stalled") lines.push("If the machine is very busy, let it settle (or close other programs) and retry.");
    throw new Error(lines.join("\n"));
  });
  const url = workbenchUrl({ port, folder: workspace, extensionDevelopmentPath: root });
  console.log(`\nSidekicks demo: open ${url}\n`);
  say(`code-server log: ${path.relative(root, logFile)}; stop with Ctrl+C`);

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping code-server`);
    await server.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGHUP", () => stop("SIGHUP"));
  server.child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[start] code-server exited (${signal ?? `exit ${code}`}); see ${logFile}`);
    server.stop().finally(() => process.exit(1));
  });
}

const options = parseStartArgs(process.argv.slice(2), process.env);
if (options.help) {
  process.stdout.write(START_USAGE);
  process.exit(0);
}
if (options.error) {
  console.error(`[start] ${options.error}\n`);
  process.stderr.write(START_USAGE);
  process.exit(2);
}
// An explicit --port asks for the browser editor; a port from the environment applies only to it.
const code = process.env.SIDEKICKS_EDITOR === "code-server" || options.portFrom === "--port" ? null : onPath("code");
if (code && options.port !== undefined) say(`${options.portFrom}=${options.port} is for the browser editor; opening VS Code instead (SIDEKICKS_EDITOR=code-server or --port for the browser)`);
if (!code) await checkAskedPort(options);

say("building");
const build = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.error("[start] build failed");
  process.exit(1);
}
const written = createDemoWorkspace(workspace);
say(`demo workspace: ${path.relative(root, workspace)}${written.length ? ` (wrote ${written.join(", ")})` : ""}`);

if (code) {
  say(`opening it with ${code}`);
  const child = spawn(code, [`--extensionDevelopmentPath=${root}`, workspace], { stdio: "inherit" });
  child.on("exit", (status) => process.exit(status ?? 1));
  child.on("error", (error) => {
    console.error(`[start] ${code}: ${error.message}`);
    process.exit(1);
  });
} else {
  try {
    await withCodeServer(options);
  } catch (error) {
    fail(error.message.split("\n"));
  }
}
