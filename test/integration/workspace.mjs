// @ts-check
// The workspace the integration suite opens: a temp folder whose sidekicks.yaml declares the ACP SDK's example agent
// (node_modules/acp-sdk-example = @agentclientprotocol/sdk@1.9.0, dist/examples/agent.js), a real ACP subprocess.
// Shared by runCodeServer.mjs and runElectron.mjs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeRealAgentsWorkspace } from "../../scripts/realAgentRoster.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Absolute path of the example agent's script (it needs Node >= 20 with ESM). */
export const exampleAgentScript = path.join(root, "node_modules", "acp-sdk-example", "dist", "examples", "agent.js");

/** Compiled suite entry, built by `node scripts/build.mjs` from test/integration/suite/index.ts. */
export const suiteEntry = path.join(root, "out", "integration", "index.js");

/** Compiled Workspace Trust suite (test/integration/suite/trustIndex.ts), run with trust on and the folder untrusted. */
export const trustSuiteEntry = path.join(root, "out", "integration", "trust.js");

/** Compiled reload suite (test/integration/suite/reloadIndex.ts): reloads the window mid-answer, in two phases. */
export const reloadSuiteEntry = path.join(root, "out", "integration", "reload.js");

/** Compiled .vsix suite (test/integration/suite/vsixIndex.ts), run against the installed package; see buildVsixSuite. */
export const vsixSuiteEntry = path.join(root, "out", "integration", "vsix.js");

/** The development extension of the .vsix run: an empty extension, so that the window runs a test suite at all. */
export const vsixDriverPath = path.join(root, "test", "integration", "vsix-driver");

/** The linux-x64 package `npm run package` builds (dist/sidekicks-<version>-linux-x64.vsix). */
export const vsixFile = path.join(root, "dist", `sidekicks-${JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version}-linux-x64.vsix`);

/**
 * Bundles one suite entry (`test/integration/suite/<entry>.ts`) to `out/integration/<name>.js`, as scripts/build.mjs
 * bundles the other suites (CommonJS for Node 20; `vscode`, `mocha` and the native modules external). Used for the
 * suites the build leaves out: the .vsix suite (built here, not by `npm run package`'s production build, so it never
 * ends up in the package) and the end-to-end render bench.
 * @param {string} name
 * @param {string} entry
 */
async function buildSuite(name, entry) {
  const esbuild = await import("esbuild");
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { [`integration/${name}`]: `test/integration/suite/${entry}.ts` },
    outdir: path.join(root, "out"),
    bundle: true,
    sourcemap: "linked",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode", "classic-level", "node-pty", "mocha"],
    logLevel: "warning",
  });
}

/** Bundles the .vsix suite (test/integration/suite/vsixIndex.ts) to out/integration/vsix.js. */
export const buildVsixSuite = () => buildSuite("vsix", "vsixIndex");

/** Compiled end-to-end render bench (test/integration/suite/e2eBenchIndex.ts); see buildE2eSuite. */
export const e2eSuiteEntry = path.join(root, "out", "integration", "e2e.js");

/** Bundles the end-to-end render bench suite to out/integration/e2e.js (not part of the build). */
export const buildE2eSuite = () => buildSuite("e2e", "e2eBenchIndex");

/** Compiled worktree suite (test/integration/suite/worktreesIndex.ts): two agents in git worktrees of their own. */
export const worktreesSuiteEntry = path.join(root, "out", "integration", "worktrees.js");

/** Compiled panel suite (test/integration/suite/panelIndex.ts): channels in editor tabs, restored after a reload. */
export const panelSuiteEntry = path.join(root, "out", "integration", "panel.js");

/** Compiled real-agents suite (test/integration/suite/realAgentsIndex.ts); see buildRealAgentsSuite. */
export const realAgentsSuiteEntry = path.join(root, "out", "integration", "realagents.js");

/** Bundles the real-agents suite (`--suite realagents`) to out/integration/realagents.js. */
export const buildRealAgentsSuite = () => buildSuite("realagents", "realAgentsIndex");

/**
 * Creates `<parent>/workspace` as `npm start -- --real-agents` writes its workspace (scripts/realAgentRoster.mjs):
 * a sidekicks.yaml declaring Claude Code and Codex pointed at the scripted model server at `modelUrl`, each with a
 * throwaway HOME under `<parent>/agents-home`, and notes.txt. `node` runs the agents' `entries` (scripts/tools.mjs).
 * Returns the workspace's absolute path.
 * @param {string} parent
 * @param {{ modelUrl: string, node: string, entries: Record<import("../../scripts/realAgentRoster.mjs").RealAgentName, string> }} options
 */
export function createRealAgentsWorkspace(parent, { modelUrl, node, entries }) {
  const workspace = path.join(parent, "workspace");
  writeRealAgentsWorkspace({ folder: workspace, stateDir: path.join(parent, "agents-home"), modelUrl, node, entries, agents: ["claude", "codex"] });
  return workspace;
}

/** A YAML double-quoted scalar: JSON strings are valid YAML, so paths with spaces, quotes or `#` stay intact. */
const quote = (/** @type {string} */ value) => JSON.stringify(value);

/**
 * Creates `<parent>/workspace` with a sidekicks.yaml that declares one agent, `example`, run as
 * `<node> <exampleAgentScript>`. `node` is the absolute path of the Node binary that runs the agent. Returns the
 * workspace's absolute path. Throws when the example agent is not installed (run `npm ci`).
 * @param {string} parent
 * @param {{ node: string }} options
 */
export function createTestWorkspace(parent, { node }) {
  if (!fs.existsSync(exampleAgentScript)) {
    throw new Error(`ACP example agent missing at ${exampleAgentScript}: run npm ci`);
  }
  const workspace = path.join(parent, "workspace");
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(
    path.join(workspace, "sidekicks.yaml"),
    [
      "# Written by test/integration/workspace.mjs: the ACP SDK example agent as a channel member.",
      "agents:",
      "  - name: example",
      `    command: ${quote(node)}`,
      `    args: [${quote(exampleAgentScript)}]`,
      "",
    ].join("\n"),
  );
  fs.writeFileSync(path.join(workspace, "README.md"), "# Sidekicks integration test workspace\n");
  return workspace;
}

/** Makes a fresh temp folder for one run (`/tmp/sidekicks-<label>-XXXXXX`). @param {string} label */
export function makeRunDir(label) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sidekicks-${label}-`));
}
