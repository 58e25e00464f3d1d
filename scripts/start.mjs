// `npm start`: builds the extension and opens a demo workspace (.demo/workspace, whose sidekicks.yaml declares the
// bundled offline demo agent) in an Extension Development Host.
//
// - With a `code` CLI on PATH: `code --extensionDevelopmentPath=<repo> .demo/workspace`.
// - Otherwise: code-server (VS Code in the browser; tools from scripts/tools.mjs) on 127.0.0.1, printing the URL to
//   open. It runs until Ctrl+C or SIGTERM, which stop the whole code-server process group. Port: SIDEKICKS_PORT, else
//   8080 when free, else any free port. SIDEKICKS_EDITOR=code-server forces code-server even when `code` exists.
//   A tab's extension host outlives a lost connection by DEMO_RECONNECTION_GRACE_SECONDS (scripts/codeServer.mjs),
//   not code-server's 3 hours: a closed tab no longer keeps the channel history locked for the next one.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_RECONNECTION_GRACE_SECONDS, freePort, startCodeServer, workbenchUrl } from "./codeServer.mjs";
import { ensureTools } from "./tools.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const demoDir = path.join(root, ".demo");
const workspace = path.join(demoDir, "workspace");
const say = (line) => console.log(`[start] ${line}`);

const ROSTER = `# Sidekicks demo roster: an offline demo agent that needs no account.
agents:
  - name: demo
    command: sidekicks:demo
`;

const README = `# Sidekicks demo workspace

Created by \`npm start\`. Open the Sidekicks view in the activity bar and write in #general, for example:

    @demo hello

\`demo\` is the bundled offline demo agent (\`command: sidekicks:demo\` in sidekicks.yaml): it needs no account and
no network. Add real ACP agents (Claude Code, Codex, Gemini CLI, …) to sidekicks.yaml to talk to them here too.
`;

/** Writes the demo workspace's files when missing, so edits a user made survive the next `npm start`. */
function createDemoWorkspace() {
  fs.mkdirSync(workspace, { recursive: true });
  for (const [name, text] of [["sidekicks.yaml", ROSTER], ["README.md", README]]) {
    const file = path.join(workspace, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, text);
  }
}

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

async function withCodeServer() {
  await ensureTools({ log: (line) => say(line) });
  const requested = Number(process.env.SIDEKICKS_PORT) || 0;
  const port = requested || (await freePort(8080));
  const logFile = path.join(demoDir, "code-server.log");
  // User data and extensions persist in .demo/ so the layout and the channel history survive a restart.
  const server = await startCodeServer({
    port,
    dataDir: path.join(demoDir, "code-server"),
    logFile,
    // The workbench honours the URL's extensionDevelopmentPath only with the smoke-test driver enabled.
    testDriver: true,
    // A closed tab's extension host stops after this instead of code-server's 3 hours, so a new tab gets the history.
    reconnectionGraceSeconds: DEMO_RECONNECTION_GRACE_SECONDS,
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

say("building");
const build = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.error("[start] build failed");
  process.exit(1);
}
createDemoWorkspace();
say(`demo workspace: ${path.relative(root, workspace)}`);

const code = process.env.SIDEKICKS_EDITOR === "code-server" ? null : onPath("code");
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
    await withCodeServer();
  } catch (error) {
    console.error(`[start] ${error.message}`);
    process.exit(1);
  }
}
