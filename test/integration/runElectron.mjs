// @ts-check
// Runs the integration suite in desktop VS Code through @vscode/test-electron, the usual launcher on a developer
// machine with internet access (it downloads VS Code into .vscode-test/ on first use). Not part of `npm test`: build
// machines without internet use runCodeServer.mjs. Usage: node scripts/build.mjs && node test/integration/runElectron.mjs
// Environment: SIDEKICKS_ELECTRON_DOWNLOAD_TIMEOUT_MS (default 120000), VSCODE_VERSION (default "stable").
import fs from "node:fs";
import path from "node:path";
import { downloadAndUnzipVSCode, runTests } from "@vscode/test-electron";
import { createTestWorkspace, makeRunDir, root, suiteEntry } from "./workspace.mjs";

const downloadTimeoutMs = Number(process.env.SIDEKICKS_ELECTRON_DOWNLOAD_TIMEOUT_MS) || 120_000;
/** @param {string} message */
const fail = (message) => {
  console.error(`[electron] ${message}`);
  console.log("integration (electron): 0 passed, 1 failed");
  process.exit(1);
};

if (!fs.existsSync(suiteEntry)) fail(`${path.relative(root, suiteEntry)} is missing: run node scripts/build.mjs`);

let vscodeExecutablePath;
try {
  // The download has its own timeout, but on a network that drops packets it can wait a long time: race it.
  vscodeExecutablePath = await Promise.race([
    downloadAndUnzipVSCode({ version: process.env.VSCODE_VERSION || "stable", timeout: downloadTimeoutMs }),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${downloadTimeoutMs} ms`)), downloadTimeoutMs).unref(),
    ),
  ]);
} catch (error) {
  fail(
    `could not download VS Code: ${error instanceof Error ? error.message : error}\n` +
      "@vscode/test-electron needs internet access to update.code.visualstudio.com the first time.\n" +
      "Offline, run the same suite in code-server instead: node test/integration/runCodeServer.mjs",
  );
}

const runDir = makeRunDir("electron");
// The example agent runs with the Node that runs this script (>= 20 with ESM, like the extension host needs).
const workspace = createTestWorkspace(runDir, { node: process.execPath });
let code = 1;
try {
  code = await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: root,
    extensionTestsPath: suiteEntry,
    launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust", `--user-data-dir=${path.join(runDir, "user-data")}`],
  });
} catch (error) {
  console.error(`[electron] ${error instanceof Error ? error.message : error}`);
} finally {
  fs.rmSync(runDir, { recursive: true, force: true });
}
process.exit(code === 0 ? 0 : 1);
