// @ts-check
// The suites runCodeServer.mjs runs (`--suite <name>`, default `main`: out/integration/index.js), how each is built
// and what its workspace holds.
// `--suite trust` runs out/integration/trust.js instead, with Workspace Trust on and the workspace left untrusted.
// `--suite reload` runs out/integration/reload.js: a suite that reloads the window in the middle (the page reloads
// with the same URL, a new extension host runs the same suite entry, which finds its second phase from a file in the
// workspace); only the second phase reports the result. `--suite panel` (out/integration/panel.js) does the same with
// channels in editor tabs, restored after the reload.
// `--suite vsix` runs out/integration/vsix.js against the INSTALLED package (issue 8): the linux-x64 .vsix of
// `npm run package` is installed with code-server's `--install-extension` into the fresh extensions folder, and the
// window's development extension is test/integration/vsix-driver (an empty extension: code-server runs
// `extensionTestsPath` only in an extension development window), so Sidekicks loads from its installed folder in
// production mode and exports no test API. The suite then asks the harness to read and drive the webview
// (`SIDEKICKS_WEBVIEW {"method","params","reply"}`: the development test API's `test/*` requests, done here with
// Playwright, the answer written as JSON to the `reply` file). It reloads the window once, like `--suite reload`.
// `--suite e2e` runs out/integration/e2e.js, the end-to-end render bench (bench/renderE2e.ts, `npm run bench -- --e2e`;
// not part of `npm test`): with `SIDEKICKS_WEBVIEW` `e2e/arm` (before the prompt) and `e2e/painted`, it asks the
// harness for the wall clock at which the webview painted a finished answer ending with a marker.
// `--suite worktrees` runs out/integration/worktrees.js (issue 20): two agents in git worktrees of their own; the
// suite makes the test workspace a git repository (git init and one commit) and removes it after.
// `--suite realagents` runs out/integration/realagents.js with Claude Code and Codex (issue 15): the harness starts
// the scripted model server (test/fixtures/model-server.mjs) on a free port, writes the workspace `npm start --
// --real-agents` writes (scripts/realAgentRoster.mjs) pointed at it, and stops the server after; its request lines go
// to test-results/model-server.log. A window reload in the middle, like `--suite reload`. Default timeout 15 min.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureRealAgents, node24Path, codeServerEntry } from "../../scripts/tools.mjs";
import { startModelServer } from "../fixtures/model-server.mjs";
import { buildE2eSuite, buildRealAgentsSuite, buildVsixSuite, createRealAgentsWorkspace, createTestWorkspace, e2eSuiteEntry, panelSuiteEntry, realAgentsSuiteEntry, reloadSuiteEntry, root, suiteEntry as mainSuiteEntry, trustSuiteEntry, vsixFile, vsixSuiteEntry, worktreesSuiteEntry } from "./workspace.mjs";

/** Each suite's entry file (the `extensionTestsPath` of the window). */
const suiteEntries = { main: mainSuiteEntry, trust: trustSuiteEntry, reload: reloadSuiteEntry, vsix: vsixSuiteEntry, panel: panelSuiteEntry, e2e: e2eSuiteEntry, realagents: realAgentsSuiteEntry, worktrees: worktreesSuiteEntry };

/** @typedef {{ name: keyof typeof suiteEntries, entry: string }} Suite */

/**
 * The suite `--suite <name>` of `argv` names (`main` without one); throws on an unknown name.
 * @param {string[]} argv
 * @returns {Suite}
 */
export function suiteFromArgs(argv) {
  const name = argv.includes("--suite") ? argv[argv.indexOf("--suite") + 1] : "main";
  if (!name || !Object.hasOwn(suiteEntries, name)) throw new Error(`unknown --suite ${name}: main, trust, reload, vsix, panel, e2e, realagents or worktrees`);
  const known = /** @type {keyof typeof suiteEntries} */ (name); // a name checked just above
  return { name: known, entry: suiteEntries[known] };
}

/**
 * Builds what `suite` needs beyond `node scripts/build.mjs` and checks that its files are there.
 * @param {Suite} suite
 */
export async function buildSuite(suite) {
  if (suite.name === "vsix") await buildVsixSuite();
  if (suite.name === "e2e") await buildE2eSuite();
  if (suite.name === "realagents") await buildRealAgentsSuite();
  for (const [file, hint] of suite.name === "vsix"
    ? [[vsixFile, "npm run package"]]
    : [
        [suite.entry, "node scripts/build.mjs"],
        [path.join(root, "dist", "extension.js"), "node scripts/build.mjs"],
      ]) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: run ${hint}`);
  }
}

/**
 * The workspace of `suite` in `runDir`: for `realagents`, with the scripted model server it points at (started here;
 * the caller closes it; its request lines go to `<resultsDir>/model-server.log`); for `vsix`, with the package
 * installed.
 * @param {Suite} suite
 * @param {string} runDir
 * @param {string} resultsDir
 * @param {(line: string) => void} say
 */
export async function prepareWorkspace(suite, runDir, resultsDir, say) {
  let modelServer;
  let workspace;
  if (suite.name === "realagents") {
    const { node24, ...entries } = await ensureRealAgents({ log: say });
    const modelLog = path.join(resultsDir, "model-server.log");
    fs.writeFileSync(modelLog, "");
    modelServer = await startModelServer({ log: (line) => fs.appendFileSync(modelLog, `${new Date().toISOString()} ${line}\n`) });
    say(`scripted model server on ${modelServer.url}`);
    workspace = createRealAgentsWorkspace(runDir, { modelUrl: modelServer.url, node: node24, entries });
  } else {
    workspace = createTestWorkspace(runDir, { node: node24Path });
  }
  if (suite.name === "vsix") installVsix(runDir, workspace, say);
  return { workspace, modelServer };
}

/**
 * Installs the .vsix the way a user does (`code-server --install-extension <file>`) into this run's fresh extensions
 * folder, before the server starts, and tells the suite where (`.sidekicks-vsix-run.json` in the workspace).
 * @param {string} runDir
 * @param {string} workspace
 * @param {(line: string) => void} say
 */
function installVsix(runDir, workspace, say) {
  const extensionsDir = path.join(runDir, "extensions");
  const userDataDir = path.join(runDir, "user-data");
  const begun = Date.now();
  const output = execFileSync(
    node24Path,
    [codeServerEntry, "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir, "--install-extension", vsixFile],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 },
  );
  if (!/successfully installed/.test(output)) throw new Error(`code-server --install-extension ${vsixFile} said: ${output.trim()}`);
  say(`installed ${path.relative(root, vsixFile)} into ${extensionsDir} in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
  fs.writeFileSync(
    path.join(workspace, ".sidekicks-vsix-run.json"),
    JSON.stringify({ extensionsDir, userDataDir, repoRoot: root, vsix: vsixFile }, null, 2),
  );
}
