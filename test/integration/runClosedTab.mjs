// @ts-check
// `npm start`'s browser demo when a tab goes away (README, troubleshooting): code-server started as scripts/start.mjs
// starts it (DEMO_RECONNECTION_GRACE_SECONDS), the demo roster, headless Chromium through playwright-core.
//
// Checks, as a user would see them in the Sidekicks view:
// 1. a first tab opens the view and `@demo hello` is answered;
// 2. a second tab meanwhile: its view says the history is open in another window, and so do the commands
//    "Open channel in editor" and "Go to next permission request" (notifications); the tab is closed normally;
// 3. the first tab gone without a goodbye: its page crashed (CDP `Page.crash`) and the crashed tab is left open, as a
//    user sees it ("Aw, Snap!"); a new tab opened at once first says the history is open in another window, then (once
//    the crashed tab's extension host is gone, after the grace) opens it by itself with the first tab's messages, and
//    the demo agent answers there. With code-server's default grace (3 hours; 5 minutes once another tab connects) that
//    host kept the history locked.
// What this does NOT reproduce: here the crash closes the crashed tab's connections at once, so the grace starts then
// (seen in headless Chromium and in headed Chromium with --ozone-platform=headless). A new-user trial saw a crashed tab
// keep its extension host (and the history) for more than 100 s, until the tab was closed; the README and the locked
// message say to close a crashed tab.
// Prints `closed tab: the new tab got the history N s after the first tab crashed` (a figure, not asserted beyond the
// outcome) and, like runCodeServer.mjs, `integration: N passed, N failed` as its last count line; exits 1 on failure.
// Environment: SIDEKICKS_IT_KEEP=1 keeps the temp folder (workspace, user data, code-server logs).
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { DEMO_RECONNECTION_GRACE_SECONDS, freePort, startCodeServer, workbenchUrl } from "../../scripts/codeServer.mjs";
import { checkChromium, ensureTools, toolsReady } from "../../scripts/tools.mjs";
import { poll } from "./poll.mjs";
import { makeRunDir, root } from "./workspace.mjs";

const keep = process.env.SIDEKICKS_IT_KEEP === "1";
const resultsDir = path.join(root, "test-results");
const started = Date.now();
const say = (/** @type {string} */ line) => console.log(`[closed-tab] ${line}`);
const seconds = (/** @type {number} */ ms) => (ms / 1000).toFixed(1);

/** The roster of `npm start`'s demo workspace (scripts/start.mjs). */
const ROSTER = "agents:\n  - name: demo\n    command: sidekicks:demo\n";

/** What the channel view says while another window holds the history (StoreLifecycle.open, `store/locked`). */
const LOCKED = /open in another VS Code window/;

/** The channel view's document (outer `iframe.webview.ready`, inner `iframe#active-frame`), or null when not shown. @param {import("playwright-core").Page} page */
async function viewFrame(page) {
  for (const outer of await page.locator("iframe.webview.ready").elementHandles()) {
    const outerFrame = await outer.contentFrame();
    const inner = await outerFrame?.$("iframe#active-frame");
    const frame = await inner?.contentFrame();
    if (frame && (await frame.$("#composer"))) return frame;
  }
  return null;
}

/** The view's text (innerText of its body), or undefined while it is not shown. @param {import("playwright-core").Page} page */
async function viewText(page) {
  const frame = await viewFrame(page);
  return frame ? await frame.evaluate(() => document.body.innerText) : undefined;
}

/**
 * Opens the Sidekicks view from the activity bar (what a user clicks) unless the side bar already shows it (a new tab
 * restores the open view, and a click would close it), and waits for its webview.
 * @param {import("playwright-core").Page} page
 */
async function openView(page) {
  const item = page.locator('.activitybar .action-item a[aria-label^="Sidekicks"]').first();
  await item.waitFor({ state: "visible", timeout: 90_000 });
  let clickedAt = 0;
  return poll("Sidekicks view", async () => {
    const frame = await viewFrame(page);
    if (frame) return frame;
    const sidebar = page.locator('[id="workbench.parts.sidebar"]');
    const shown = (await sidebar.isVisible()) && /sidekicks/i.test((await sidebar.locator(".composite.title").first().innerText().catch(() => "")) ?? "");
    if (!shown && Date.now() - clickedAt > 10_000) {
      clickedAt = Date.now();
      await item.click();
    }
    return undefined;
  }, 90_000);
}

/** Sends `text` from the view's composer and waits for an answer of the demo agent quoting it; returns the answer. @param {import("playwright-core").Page} page @param {string} text */
async function ask(page, text, timeoutMs = 60_000) {
  const frame = await viewFrame(page);
  if (!frame) throw new Error("the Sidekicks view is not shown");
  const textarea = frame.locator("#composer textarea");
  await textarea.fill(text, { timeout: 10_000 });
  await textarea.press("Escape"); // closes @-suggestions, so Enter sends
  await textarea.press("Enter");
  return poll(`demo answer to ${JSON.stringify(text)}`, async () => {
    const current = await viewFrame(page);
    const answers = await current?.$$eval('.message[data-author="agent"][data-status="done"]', (nodes) => nodes.map((/** @type {Element} */ n) => /** @type {HTMLElement} */ (n).innerText));
    return answers?.find((answer) => answer.includes("Hello from the demo agent") && answer.includes(text.replace(/^@demo\s*/, "")));
  }, timeoutMs);
}

/** Runs a command from the Command Palette (F1, its title, Enter), as a user does. @param {import("playwright-core").Page} page @param {string} title */
async function runCommand(page, title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  await input.fill(`>${title}`);
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first().waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.press("Enter");
}

/**
 * Waits for a notification whose text matches every pattern, as a toast or, when the workbench shows none (a window
 * without focus), in the notification list of the status bar's bell; returns its text.
 * @param {import("playwright-core").Page} page
 * @param {RegExp[]} patterns
 */
async function notification(page, patterns) {
  const matching = async (/** @type {string} */ selector) =>
    (await page.locator(selector).allInnerTexts()).find((text) => patterns.every((pattern) => pattern.test(text.replace(/\s+/g, " "))));
  let opened = false;
  const begun = Date.now();
  try {
    return await poll(`a notification matching ${patterns.join(" and ")}`, async () => {
      const shown = (await matching(".notification-toast .notification-list-item")) ?? (await matching(".notifications-center .notification-list-item"));
      if (shown) {
        await page.screenshot({ path: path.join(resultsDir, "closed-tab-notification.png") });
        return shown;
      }
      if (!opened && Date.now() - begun > 1_000) {
        opened = true;
        await page.locator('[id="status.notifications"]').first().click({ timeout: 5_000 });
      }
      return undefined;
    }, 20_000);
  } finally {
    if (opened) await page.keyboard.press("Escape");
  }
}

/** @type {boolean[]} */
const results = [];
/**
 * Runs one check; a failure is printed with a screenshot of every open page in test-results/closed-tab-*.png.
 * @param {string} name
 * @param {() => import("playwright-core").Page[]} pages
 * @param {() => Promise<void>} run
 */
async function check(name, pages, run) {
  const begun = Date.now();
  try {
    fs.mkdirSync(resultsDir, { recursive: true });
    await run();
    results.push(true);
    say(`ok - ${name} (${seconds(Date.now() - begun)} s)`);
    return true;
  } catch (error) {
    results.push(false);
    say(`FAILED - ${name}: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`);
    fs.mkdirSync(resultsDir, { recursive: true });
    for (const [index, page] of pages().entries()) {
      await page.screenshot({ path: path.join(resultsDir, `closed-tab-${results.length}-${index}.png`) }).catch(() => undefined);
    }
    return false;
  }
}

async function main() {
  if (!fs.existsSync(path.join(root, "dist", "extension.js"))) throw new Error("dist/extension.js is missing: run node scripts/build.mjs");
  const chromiumPath = checkChromium();
  if (!toolsReady()) await ensureTools();
  const runDir = makeRunDir("tab");
  const workspace = path.join(runDir, "workspace");
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "sidekicks.yaml"), ROSTER);
  const port = await freePort();
  let server;
  let browser;
  try {
    server = await startCodeServer({
      port,
      dataDir: runDir,
      testDriver: true,
      logFile: path.join(runDir, "code-server.log"),
      reconnectionGraceSeconds: DEMO_RECONNECTION_GRACE_SECONDS,
    });
    say(`code-server healthy after ${seconds(Date.now() - started)} s (grace ${DEMO_RECONNECTION_GRACE_SECONDS} s)`);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, timeout: 60_000, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const url = workbenchUrl({ port, folder: workspace, extensionDevelopmentPath: root });
    const first = await context.newPage();
    await first.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });

    const ok = await check("a first tab: the Sidekicks view opens and @demo answers", () => [first], async () => {
      await openView(first);
      await ask(first, "@demo hello from the first tab", 120_000);
    });
    if (!ok) return;

    const other = await context.newPage();
    await check("a second tab while the first has the history: the view and its commands say the history is open in another window", () => [other], async () => {
      await other.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
      await openView(other);
      await poll("the locked history in the second tab", async () => (LOCKED.test((await viewText(other)) ?? "") ? true : undefined), 60_000);
      await other.bringToFront(); // the workbench shows toasts only in a focused window (else only in the bell's list)
      await runCommand(other, "Sidekicks: Open channel in editor");
      await notification(other, [/Cannot open a channel in an editor tab/, LOCKED]);
      await runCommand(other, "Sidekicks: Go to next permission request");
      await notification(other, [/Cannot go to the next permission request/, LOCKED]);
    });
    // Closed normally, it tells the server, which ends its extension host at once.
    await other.close({ runBeforeUnload: true });

    const closedAt = Date.now();
    // The tab goes without a goodbye: its page crashes and the tab stays open. A tab closed normally tells the server,
    // which ends its extension host at once (seen: the new tab had the history about 10 s later, the time it takes to
    // load); without that message the host waits for the grace.
    const cdp = await context.newCDPSession(first);
    void cdp.send("Page.crash").catch(() => undefined);
    await first.waitForEvent("crash", { timeout: 10_000 });
    say("first tab crashed (left open)");
    const second = await context.newPage();
    await check("the tab crashed (left open), a new tab opened: it gets the history once the crashed tab's host ends (the grace), and @demo answers", () => [second], async () => {
      await second.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
      await openView(second);
      let sawLocked = false;
      // Within the grace plus the view's retry (3 s) and a generous margin, far below code-server's 5 min short grace.
      await poll("history in the new tab", async () => {
        const text = (await viewText(second)) ?? "";
        if (LOCKED.test(text)) sawLocked = true;
        return !LOCKED.test(text) && text.includes("hello from the first tab") ? true : undefined;
      }, (DEMO_RECONNECTION_GRACE_SECONDS + 120) * 1000);
      say(`closed tab: the new tab got the history ${seconds(Date.now() - closedAt)} s after the first tab crashed (it said "another window" first: ${sawLocked})`);
      await ask(second, "@demo hello from the second tab");
    });
    await first.close().catch(() => undefined);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (keep) say(`kept ${runDir}`);
    else fs.rmSync(runDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  say(`FAILED: ${error instanceof Error ? error.message : error}`);
  results.push(false);
}
const passed = results.filter(Boolean).length;
const failed = results.length - passed + (results.length === 0 ? 1 : 0);
say(`done in ${seconds(Date.now() - started)} s`);
console.log(`integration: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
