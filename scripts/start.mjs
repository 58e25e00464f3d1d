// @ts-check
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
// - `--real-agents` (issue 15): the real agents instead (scripts/tools.mjs `ensureRealAgents`), pointed at the
//   scripted model server, run as a child of this process on a free port (scripts/modelServerChild.mjs; it stops
//   with npm start, Ctrl+C included); the workspace is .demo/real-agents (scripts/realAgentRoster.mjs), each agent's
//   throwaway HOME in .demo/real-agents-home. With `code`, npm start keeps serving the model until Ctrl+C.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_RECONNECTION_GRACE_SECONDS, freePort, portIsFree, startCodeServer, workbenchUrl } from "./codeServer.mjs";
import { createDemoWorkspace } from "./demoWorkspace.mjs";
import { startModelServerChild } from "./modelServerChild.mjs";
import { modelUrlOf, writeRealAgentsWorkspace } from "./realAgentRoster.mjs";
import { DEFAULT_PORT, START_USAGE, parseStartArgs } from "./startArgs.mjs";
import { ensureRealAgents, ensureTools } from "./tools.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// SIDEKICKS_DEMO_DIR: where the demo workspaces and the browser editor's data go (a test runs npm start in a temp folder).
const demoDir = process.env.SIDEKICKS_DEMO_DIR ? path.resolve(process.env.SIDEKICKS_DEMO_DIR) : path.join(root, ".demo");
const demoWorkspace = path.join(demoDir, "workspace");
const realAgentsWorkspace = path.join(demoDir, "real-agents");
/** The scripted model server of `--real-agents` (a child process), stopped with npm start. */
/** @type {Awaited<ReturnType<typeof import("./modelServerChild.mjs").startModelServerChild>> | undefined} */
let modelServer;
const say = (/** @type {string} */ line) => console.log(`[start] ${line}`);
/** A path as the user reads it: relative to the clone when inside it. @param {string} file */
const shown = (file) => (file.startsWith(root + path.sep) ? path.relative(root, file) : file);
/** Says why npm start stops (one line or several), and exits with 1. @param {string | string[]} lines @returns {never} */
const fail = (lines) => {
  for (const line of [lines].flat()) console.error(`[start] ${line}`);
  process.exit(1);
};

/** Absolute path of `name` on PATH, or null. @param {string} name */
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

/** The port asked for is taken: say so and what to do, before anything is built or started. @param {import("./startArgs.mjs").StartOptions} options */
async function checkAskedPort(options) {
  if (options.port === undefined || (await portIsFree(options.port))) return;
  const how = options.portFrom === "--port" ? `--port ${options.port}` : `${options.portFrom}=${options.port}`;
  fail([
    `port ${options.port} (asked for by ${how}) is already in use on 127.0.0.1: another program listens there (perhaps an earlier npm start).`,
    `Stop that program, or choose another port: npm start -- --port ${options.port === 65535 ? 9000 : options.port + 1}`,
  ]);
}

/**
 * `--real-agents`: the real agents installed, the scripted model server started (on the port the workspace's roster
 * already names when it is free, so an untouched roster stays as it is; else a free port), and the workspace written.
 * Resolves to the workspace folder.
 */
async function prepareRealAgents() {
  say("making sure the real agents are installed in .tools/ (the first time takes a few minutes)");
  const { node24, ...entries } = await ensureRealAgents({ log: (line) => say(line) });
  const roster = path.join(realAgentsWorkspace, "sidekicks.yaml");
  const earlier = fs.existsSync(roster) ? Number(modelUrlOf(fs.readFileSync(roster, "utf8"))?.split(":")[2]) : NaN;
  const port = Number.isInteger(earlier) && (await portIsFree(earlier)) ? earlier : 0;
  fs.mkdirSync(demoDir, { recursive: true });
  const logFile = path.join(demoDir, "model-server.log");
  modelServer = await startModelServerChild({ port, logFile });
  say(`scripted model server on ${modelServer.url} (requests logged in ${shown(logFile)})`);
  const stateDir = path.join(demoDir, "real-agents-home");
  const { written, kept, keptUrl } = writeRealAgentsWorkspace({ folder: realAgentsWorkspace, stateDir, modelUrl: modelServer.url, node: node24, entries });
  say(`real-agents workspace: ${shown(realAgentsWorkspace)}${written.length ? ` (wrote ${written.join(", ")})` : ""}; the agents' HOMEs: ${shown(stateDir)}`);
  if (kept.includes("sidekicks.yaml")) {
    say(`kept your edited ${shown(roster)}${keptUrl ? `; it names the model server ${keptUrl}, which is not running: make it ${modelServer.url}, or delete the file to have it written again` : ""}`);
  }
  return realAgentsWorkspace;
}

/** Stops the model server of `--real-agents`, if any. */
const stopModelServer = () => modelServer?.stop() ?? Promise.resolve();

/**
 * Starts code-server on the workspace (the port asked for, or a free one from the default), says where to open it,
 * and stops it (and the model server) on Ctrl+C.
 * @param {import("./startArgs.mjs").StartOptions} options
 * @param {string} workspace
 */
async function withCodeServer(options, workspace) {
  await ensureTools({ log: (line) => say(line) });
  let port = options.port;
  if (port === undefined) {
    port = await freePort(DEFAULT_PORT);
    if (port !== DEFAULT_PORT) say(`port ${DEFAULT_PORT} is in use; using ${port} instead (choose one with npm start -- --port <port>)`);
  }
  // The demo and --real-agents each have their own log and user data, so both can run side by side without writing
  // into one log or sharing one code-server state (a tryout ran both and read the other's lines).
  const editorName = modelServer ? "code-server-real-agents" : "code-server";
  const logFile = path.join(demoDir, `${editorName}.log`);
  const log = shown(logFile);
  say(`starting code-server on 127.0.0.1:${port} (log: ${log}); a first start on a busy machine can take a few minutes`);
  // User data and extensions persist in .demo/ so the layout and the channel history survive a restart.
  const server = await startCodeServer({
    port,
    dataDir: path.join(demoDir, editorName),
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
    if (error.logTail?.length) lines.push(`last lines of ${log}:`, ...error.logTail.map((/** @type {string} */ line) => `  ${line}`));
    lines.push(`To retry: npm start${options.port === undefined ? "" : ` -- --port ${port}`} (or on another port: npm start -- --port ${port === 65535 ? 9000 : port + 1}).`);
    if (error.code === "codeServer/stalled") lines.push("If the machine is very busy, let it settle (or close other programs) and retry.");
    throw new Error(lines.join("\n"));
  });
  const url = workbenchUrl({ port, folder: workspace, extensionDevelopmentPath: root });
  console.log(`\nSidekicks ${modelServer ? "with real agents (offline)" : "demo"}: open ${url}\n`);
  say(`code-server log: ${shown(logFile)}; stop with Ctrl+C`);

  let stopping = false;
  const stop = async (/** @type {NodeJS.Signals} */ signal) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping code-server${modelServer ? " and the model server" : ""}`);
    await Promise.all([server.stop(), stopModelServer()]);
    process.exit(0);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGHUP", () => stop("SIGHUP"));
  server.child.on("exit", (code, signal) => {
    if (stopping) return;
    // Not stopped here (no Ctrl+C): something outside ended it. Say which, and how to go on.
    const why = signal
      ? `code-server was stopped by ${signal} from outside this command`
      : code === 0
        ? "code-server stopped by itself (exit 0): something outside asked it to"
        : `code-server failed (exit ${code})`;
    console.error(`[start] ${why}; the editor at ${url} is closed. See ${logFile}; run npm start to open it again.`);
    Promise.all([server.stop(), stopModelServer()]).finally(() => process.exit(1));
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
let workspace = demoWorkspace;
try {
  if (options.realAgents) {
    workspace = await prepareRealAgents();
  } else {
    const written = createDemoWorkspace(demoWorkspace);
    say(`demo workspace: ${shown(demoWorkspace)}${written.length ? ` (wrote ${written.join(", ")})` : ""}`);
  }
} catch (error) {
  await stopModelServer();
  fail((error instanceof Error ? error.message : String(error)).split("\n"));
}

if (code) {
  say(`opening it with ${code}`);
  const child = spawn(code, [`--extensionDevelopmentPath=${root}`, workspace], { stdio: "inherit" });
  child.on("exit", (status) => {
    // The window outlives the `code` command: the agents in it need the model server until the user stops it.
    if (!modelServer || status !== 0) return void stopModelServer().then(() => process.exit(status ?? 1));
    say(`serving the scripted model on ${modelServer.url} for the real agents; stop with Ctrl+C`);
  });
  child.on("error", (error) => {
    console.error(`[start] ${code}: ${error.message}`);
    stopModelServer().then(() => process.exit(1));
  });
  if (modelServer) for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void stopModelServer().then(() => process.exit(0)));
} else {
  try {
    await withCodeServer(options, workspace);
  } catch (error) {
    await stopModelServer();
    fail((error instanceof Error ? error.message : String(error)).split("\n"));
  }
}
