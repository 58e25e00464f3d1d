// @ts-check
// `npm start -- --real-agents` as a user runs it (issue 15): scripts/start.mjs in its own process group, in the browser
// editor (SIDEKICKS_EDITOR=code-server, --port), its demo folder in a temp folder (SIDEKICKS_DEMO_DIR). Checks:
// 1. it prints the URL to open; the workspace's sidekicks.yaml is a valid roster of claude, codex and gemini whose
//    model server answers; in the page (headless Chromium), `@claude @codex @gemini say hello script:text` in #general
//    gets the three answers (screenshot test-results/start-real-agents.png);
// 2. Ctrl+C (SIGINT to its process group, as a terminal sends it) stops it, and no process is left behind: none whose
//    command line or working folder is in the demo folder (code-server, the agents), no model server.
// Prints `integration: N passed, N failed` like runCodeServer.mjs; exits 1 on failure. SIDEKICKS_IT_KEEP=1 keeps the
// temp folder.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { freePort } from "../../scripts/codeServer.mjs";
import { modelUrlOf } from "../../scripts/realAgentRoster.mjs";
import { checkChromium } from "../../scripts/tools.mjs";
import { poll } from "./poll.mjs";
import { makeRunDir, root } from "./workspace.mjs";

const say = (/** @type {string} */ line) => console.log(`[start-real-agents] ${line}`);
const resultsDir = path.join(root, "test-results");
const demoDir = makeRunDir("start");
/** @type {boolean[]} */
const results = [];

/** Processes (pid and command line) whose command line or working folder lies in `dir`, and this clone's model server (Linux /proc). @param {string} dir */
function processesIn(dir) {
  const ownModelServer = path.join(root, "scripts", "modelServerChild.mjs");
  /** @type {string[]} */
  const found = [];
  for (const name of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      let cwd = "";
      try {
        cwd = fs.readlinkSync(`/proc/${name}/cwd`);
      } catch {
        // not ours to read
      }
      // This clone's model server only: another clone's `npm start` on the same machine is not this run's to stop.
      if (cmdline.includes(dir) || cwd.startsWith(dir) || cmdline.includes(`${ownModelServer} --serve`)) found.push(`${name} ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Runs one check, saying ok or FAILED with the error; its result joins `results`. @param {string} name @param {() => Promise<void>} run */
async function check(name, run) {
  const begun = Date.now();
  try {
    await run();
    results.push(true);
    say(`ok - ${name} (${((Date.now() - begun) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push(false);
    say(`FAILED - ${name}: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  }
}

/** The channel view's document, or null while it is not shown. @param {import("playwright-core").Page} page */
async function viewFrame(page) {
  for (const outer of await page.locator("iframe.webview.ready").elementHandles()) {
    const inner = await (await outer.contentFrame())?.$("iframe#active-frame");
    const frame = await inner?.contentFrame();
    if (frame && (await frame.$("#composer"))) return frame;
  }
  return null;
}

const port = await freePort();
const start = spawn(process.execPath, [path.join(root, "scripts", "start.mjs"), "--real-agents", "--port", String(port)], {
  cwd: root,
  detached: true, // its own process group, as a terminal gives it: Ctrl+C goes to the whole group
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, SIDEKICKS_EDITOR: "code-server", SIDEKICKS_DEMO_DIR: demoDir },
});
let output = "";
for (const stream of [start.stdout, start.stderr]) stream.on("data", (chunk) => (output += chunk));
const exited = new Promise((resolve) => start.once("exit", (code, signal) => resolve(signal ?? code)));
/** @type {import("playwright-core").Browser | undefined} */
let browser;
try {
  await check("npm start -- --real-agents opens the real agents' workspace, and Claude Code, Codex and Gemini CLI answer there", async () => {
    const url = await poll("npm start's URL", () => /open (http:\/\/127\.0\.0\.1:\d+\/\?\S+)/.exec(output)?.[1], 15 * 60_000).catch((error) => {
      throw new Error(`${error.message}\n${output}`);
    });
    const yaml = fs.readFileSync(path.join(demoDir, "real-agents", "sidekicks.yaml"), "utf8");
    for (const agent of ["claude", "codex", "gemini"]) if (!yaml.includes(`  - name: ${agent}\n`)) throw new Error(`no ${agent} in the roster`);
    const modelUrl = modelUrlOf(yaml);
    const answer = await fetch(`${modelUrl}/v1/messages/count_tokens`, { method: "POST", body: "{}" });
    if (answer.status !== 200) throw new Error(`the model server at ${modelUrl} answered ${answer.status}`);

    browser = await chromium.launch({ executablePath: checkChromium(), headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    const item = page.locator('.activitybar .action-item a[aria-label^="Sidekicks"]').first();
    await item.waitFor({ state: "visible", timeout: 120_000 });
    let clicked = 0;
    const frame = await poll("the Sidekicks view", async () => {
      const found = await viewFrame(page);
      if (!found && Date.now() - clicked > 10_000) {
        clicked = Date.now();
        await item.click();
        await page.mouse.move(800, 600); // off the icon, so its tooltip does not cover the view
      }
      return found ?? undefined;
    }, 120_000);
    await poll("#general with claude, codex and gemini", async () => ((await frame.innerText(".channel-header")).includes("gemini") ? true : undefined), 60_000);
    const textarea = frame.locator("#composer textarea");
    await textarea.fill("@claude @codex @gemini say hello script:text");
    await textarea.press("Escape"); // closes @-suggestions, so Enter sends
    await textarea.press("Enter");
    await poll("the three answers", async () => {
      const done = await frame.$$eval('.message[data-author="agent"][data-status="done"]', (nodes) => nodes.map((/** @type {Element} */ n) => /** @type {HTMLElement} */ (n).innerText));
      return ["claude", "codex", "gemini"].every((agent) => done.some((text) => text.startsWith(agent) && text.includes("Hello from the scripted model."))) ? true : undefined;
    }, 180_000);
    fs.mkdirSync(resultsDir, { recursive: true });
    await page.screenshot({ path: path.join(resultsDir, "start-real-agents.png") });
  });

  await check("Ctrl+C stops npm start and leaves no process behind: code-server, the agents, the model server", async () => {
    await browser?.close();
    browser = undefined;
    if (start.pid !== undefined) process.kill(-start.pid, "SIGINT");
    const how = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
    if (how === "still running") throw new Error(`npm start still runs 30 s after Ctrl+C:\n${output.split("\n").slice(-5).join("\n")}`);
    await poll("every process of the demo to end", () => (processesIn(demoDir).length === 0 ? true : undefined), 20_000).catch(() => {
      throw new Error(`left behind after Ctrl+C:\n${processesIn(demoDir).join("\n")}`);
    });
  });
} finally {
  await browser?.close().catch(() => undefined);
  try {
    if (start.pid !== undefined) process.kill(-start.pid, "SIGKILL");
  } catch {
    // already gone
  }
  if (process.env.SIDEKICKS_IT_KEEP === "1") say(`kept ${demoDir}`);
  else fs.rmSync(demoDir, { recursive: true, force: true });
}
const passed = results.filter(Boolean).length;
console.log(`integration: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.length - passed > 0 || results.length === 0 ? 1 : 0);
