// @ts-check
// Runs the integration suite (out/integration/index.js) in a real VS Code extension host: code-server 4.139.1 under
// Node 24, driven by headless Chromium through playwright-core. Offline; see scripts/tools.mjs for the tools.
//
// Prints the suite's log lines, then `integration: N passed, N failed`; exits 1 when anything failed.
// On `SIDEKICKS_WEBVIEW {"method","params","reply"}` from any suite (suite/vsixBridge.ts, suite/harness.ts), does the
// request (a screenshot `vsix/screenshot`, a workbench or webview DOM check, a click) and writes its answer to the
// `reply` file the suite waits for, so a picture shows the moment the suite asked for it; on
// `SIDEKICKS_CLICK <text>`, clicks the button labelled <text> in a notification toast (what a user does; the suite
// then checks the effect).
// Environment: SIDEKICKS_IT_TIMEOUT_MS (whole run, default 300000), SIDEKICKS_IT_VERBOSE=1 (print every workbench
// log line), SIDEKICKS_IT_KEEP=1 (keep the temp folder with workspace, user data and logs).
// `--suite <name>`: which suite, how it is built and what its workspace holds: see suites.mjs.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { startCodeServer, freePort, workbenchUrl } from "../../scripts/codeServer.mjs";
import { ensureTools, toolsReady, checkChromium } from "../../scripts/tools.mjs";
import { makeRunDir, root, vsixDriverPath } from "./workspace.mjs";
import { buildSuite, prepareWorkspace, suiteFromArgs } from "./suites.mjs";
import { quietSettings } from "../../scripts/codeServer.mjs";
import { webviewRequest } from "./webviewDriver.mjs";

const suite = suiteFromArgs(process.argv);
const { name: suiteName, entry: suiteEntry } = suite;
const trustRun = suiteName === "trust";
const vsixRun = suiteName === "vsix";
const realAgentsRun = suiteName === "realagents";

const timeoutMs = Number(process.env.SIDEKICKS_IT_TIMEOUT_MS) || (realAgentsRun ? 900_000 : 300_000);
const verbose = process.env.SIDEKICKS_IT_VERBOSE === "1";
const keep = process.env.SIDEKICKS_IT_KEEP === "1";
const resultsDir = path.join(root, "test-results");
const started = Date.now();

const say = (/** @type {string} */ line) => console.log(`[integration] ${line}`);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** What the suite reported: `SIDEKICKS_RESULT {"passed":N,"failed":M}` from suite/index.ts. */
/** @typedef {{ passed?: unknown, failed?: unknown }} SuiteResult */
/** @type {SuiteResult | null} */
let result = null;
/** Problems of the harness itself (each counts as one failure when the suite could not report). @type {string[]} */
const problems = [];

async function main() {
  await buildSuite(suite);
  checkChromium();
  if (!toolsReady()) await ensureTools();

  fs.mkdirSync(resultsDir, { recursive: true });
  // Artifacts of an earlier failed run would mislead; the named screenshots are overwritten anyway.
  for (const name of fs.readdirSync(resultsDir)) {
    if (/^failed-.*\.png$|^integration-timeout\.png$|^(logs|server-logs)$/.test(name)) {
      fs.rmSync(path.join(resultsDir, name), { recursive: true, force: true });
    }
  }
  const runDir = makeRunDir("it");
  const { workspace, modelServer } = await prepareWorkspace(suite, runDir, resultsDir, say);
  const serverLog = path.join(resultsDir, "code-server.log");
  const workbenchLog = path.join(resultsDir, "workbench.log");
  fs.writeFileSync(serverLog, "");
  fs.writeFileSync(workbenchLog, "");

  let server;
  let browser;
  let stopping = false;
  const overall = setTimeout(() => {
    console.error(`[integration] TIMEOUT: no result after ${timeoutMs} ms; killing code-server and Chromium`);
    problems.push(`timed out after ${timeoutMs} ms`);
    finish(null);
    // Last resort when even the cleanup hangs: the exit handler of startCodeServer kills the server's group.
    setTimeout(() => {
      console.error("[integration] cleanup hung; exiting");
      console.log("integration: 0 passed, 1 failed");
      process.exit(1);
    }, 30_000).unref();
  }, timeoutMs);
  /** @type {(code: number | null) => void} */
  let finish = () => {};
  /** @type {Promise<number | null>} */
  const finished = new Promise((resolve) => (finish = resolve));

  try {
    const port = await freePort();
    server = await startCodeServer({
      port,
      dataDir: runDir,
      testDriver: true,
      logFile: serverLog,
      ...(trustRun
        ? {
            workspaceTrust: true,
            settings: { ...quietSettings, "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never" },
          }
        : {}),
    });
    server.child.on("exit", (code, signal) => {
      if (stopping) return;
      problems.push(`code-server exited during the run (${signal ?? `exit ${code}`}); see ${serverLog}`);
      finish(null);
    });
    say(`code-server healthy on port ${port} after ${elapsed()}`);

    browser = await chromium.launch({
      executablePath: checkChromium(),
      headless: true,
      timeout: 60_000,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // The clipboard as a desktop editor has it: Copy in a webview writes it, vscode.env.clipboard reads it.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, permissions: ["clipboard-read", "clipboard-write"] });
    const screenshots = screenshotQueue(page);
    await page.exposeFunction("codeAutomationLog", (/** @type {string} */ type, /** @type {unknown} */ message) => {
      const text = Array.isArray(message) ? formatConsoleArgs(message) : String(message);
      fs.appendFileSync(workbenchLog, `[${type}] ${text}\n`);
      onLogEntry(type, text, screenshots);
    });
    await page.exposeFunction("codeAutomationExit", async (/** @type {number} */ code, /** @type {unknown} */ logs) => {
      say(`extension host exited with code ${code} after ${elapsed()}`);
      if (code !== 0 || !result || Number(result.failed) > 0) saveLogs(logs);
      await screenshots.idle();
      finish(code);
    });
    page.on("pageerror", (error) => fs.appendFileSync(workbenchLog, `[pageerror] ${error.message}\n`));

    await page.goto(
      workbenchUrl({ port, folder: workspace, extensionDevelopmentPath: vsixRun ? vsixDriverPath : root, extensionTestsPath: suiteEntry }),
      { waitUntil: "domcontentloaded", timeout: 60_000 },
    );
    const exitCode = await finished;
    if (exitCode === null) await saveFailureScreenshot(page);
    else if (exitCode !== 0 && !result) problems.push(`extension host exited with code ${exitCode} and no result`);
  } finally {
    clearTimeout(overall);
    stopping = true;
    await browser?.close().catch(() => {});
    await server?.stop();
    await modelServer?.close();
    if (problems.length > 0 || !result || Number(result.failed) > 0) saveServerLogs(runDir);
    if (keep) say(`kept ${runDir}`);
    else fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * One workbench log entry: the extension host's console output (the suite's spec reporter, the extension's own
 * console lines) arrives here as console arguments, among the workbench's own lines. Acts on the suite's markers,
 * prints the rest except known workbench noise (all of it with SIDEKICKS_IT_VERBOSE=1; everything always goes to
 * test-results/workbench.log).
 * @param {string} type
 * @param {string} text
 * @param {ReturnType<typeof screenshotQueue>} screenshots
 */
function onLogEntry(type, text, screenshots) {
  const marker = /^SIDEKICKS_(RESULT|CLICK|WEBVIEW) (.*)$/.exec(text.trim());
  if (marker?.[1] === "WEBVIEW") {
    screenshots.webview(marker[2]);
    return;
  }
  if (marker?.[1] === "CLICK") {
    screenshots.click(marker[2].trim());
    return;
  }
  if (marker?.[1] === "RESULT") {
    try {
      result = JSON.parse(marker[2]);
    } catch {
      problems.push(`unreadable result line: ${text}`);
    }
    return;
  }
  if (verbose) {
    console.log(`[${type}] ${text}`);
    return;
  }
  if (type === "trace" || type === "debug" || noise.some((pattern) => pattern.test(text))) return;
  // Errors keep their first line here; the stack is in workbench.log.
  console.log(type === "error" || type === "warn" ? `[${type}] ${text.split("\n")[0]}` : text);
}

/** Workbench lines that say nothing about the extension (offline gallery, telemetry, connection chatter). */
const noise = [
  /ENOTFOUND|EAI_AGAIN/,
  /vsda/,
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^\[AgentHost/,
  /^\[AccountPolicyGate\]/,
  /^\[driver\]/,
  /github.*auth|auth.*github/i,
];

/** Formats console arguments like Node's console (`%s`, `%d`, `%i`, `%f`, `%j`, `%o`, `%O`, `%c`, `%%`). @param {unknown[]} args */
function formatConsoleArgs(args) {
  const show = (/** @type {unknown} */ value) => (typeof value === "string" ? value : JSON.stringify(value));
  if (typeof args[0] !== "string") return args.map(show).join(" ");
  let index = 1;
  const head = args[0].replace(/%([sdifjoOc%])/g, (match, letter) => {
    if (letter === "%") return "%";
    if (index >= args.length) return match;
    const value = args[index++];
    if (letter === "c") return "";
    if (letter === "d" || letter === "i") return String(letter === "i" ? parseInt(String(value), 10) : Number(value));
    if (letter === "f") return String(parseFloat(String(value)));
    return show(value);
  });
  return [head, ...args.slice(index).map(show)].join(" ");
}

/**
 * Serializes the suite's requests to the page (webview requests, screenshots among them, and notification clicks).
 * @param {import("playwright-core").Page} page
 */
function screenshotQueue(page) {
  /** @type {Promise<unknown>} */
  let chain = Promise.resolve();
  return {
    /** Clicks a notification's button named `label` (a toast, else in the notification center). @param {string} label */
    click(label) {
      chain = chain.then(async () => {
        // A toast when the workbench shows one; else the notification center, opened from the status bar bell.
        const button = page.locator(".notification-list-item .monaco-button", { hasText: label }).first();
        try {
          try {
            await button.waitFor({ state: "visible", timeout: 5_000 });
          } catch {
            await page.locator('[id="status.notifications"]').first().click({ timeout: 10_000 });
            await button.waitFor({ state: "visible", timeout: 10_000 });
          }
          await button.click();
          say(`clicked notification button ${JSON.stringify(label)}`);
        } catch (error) {
          say(`WARNING: no notification button ${JSON.stringify(label)}: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`);
          await page.screenshot({ path: path.join(resultsDir, "click-failed.png") }).catch(() => {});
        }
      });
    },
    /** A `SIDEKICKS_WEBVIEW` request of the .vsix suite: done in the webview's frame, answered in its `reply` file. */
    /** @param {string} json */
    webview(json) {
      let request;
      try {
        request = JSON.parse(json);
      } catch {
        problems.push(`unreadable webview request: ${json}`);
        return;
      }
      if (typeof request.reply !== "string" || !path.isAbsolute(request.reply) || !request.reply.endsWith(".json")) {
        problems.push(`webview request without an absolute .json reply file: ${json}`);
        return;
      }
      chain = chain.then(async () => {
        let answer;
        try {
          answer = { result: await webviewRequest(page, request.method, request.params ?? {}) };
        } catch (error) {
          answer = { error: (error instanceof Error ? error.message : String(error)).split("\n")[0] };
        }
        fs.writeFileSync(`${request.reply}.tmp`, JSON.stringify(answer));
        fs.renameSync(`${request.reply}.tmp`, request.reply); // the suite never reads half a file
      });
    },
    idle: () => chain,
  };
}

/** After a timeout: a picture of the workbench as it was, to see what hung. @param {import("playwright-core").Page} page */
async function saveFailureScreenshot(page) {
  const file = path.join(resultsDir, "integration-timeout.png");
  try {
    await page.screenshot({ path: file, timeout: 10_000 });
    say(`screenshot of the hung workbench: ${path.relative(root, file)}`);
  } catch {
    // the page is gone too
  }
}

/** Writes the workbench's log files (extension host log included) to test-results/logs/. @param {unknown} logs what the workbench gave: `{ relativePath, contents }[]` */
function saveLogs(logs) {
  if (!Array.isArray(logs)) return;
  const dir = path.join(resultsDir, "logs");
  fs.rmSync(dir, { recursive: true, force: true });
  for (const { relativePath, contents } of logs) {
    const file = path.join(dir, relativePath);
    if (!file.startsWith(dir + path.sep)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, contents);
  }
  say(`workbench logs saved in ${path.relative(root, dir)}/`);
}

/** Copies code-server's own logs (remote extension host, the extension's output channels) to test-results/. @param {string} runDir */
function saveServerLogs(runDir) {
  const from = path.join(runDir, "user-data", "logs");
  if (!fs.existsSync(from)) return;
  const to = path.join(resultsDir, "server-logs");
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
  say(`code-server logs saved in ${path.relative(root, to)}/`);
}

let passed = 0;
let failed = 0;
try {
  await main();
} catch (error) {
  problems.push(error instanceof Error ? error.message : String(error));
}
// Set by onLogEntry while main() ran (the compiler does not follow assignments made in callbacks).
const reported = /** @type {SuiteResult | null} */ (result);
if (reported) {
  passed = Number(reported.passed) || 0;
  failed = Number(reported.failed) || 0;
}
for (const problem of problems) console.error(`[integration] FAILED: ${problem}`);
if (problems.length > 0 && failed === 0) failed = 1;
if (!result && problems.length === 0) {
  console.error("[integration] FAILED: the suite reported no result");
  failed = 1;
}
say(`done in ${elapsed()}`);
console.log(`integration: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
