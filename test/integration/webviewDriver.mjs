// @ts-check
// The harness's hands and eyes in the workbench page (runCodeServer.mjs): screenshots of the channel view, and the
// webview requests a suite asks for with a `SIDEKICKS_WEBVIEW` line (suite/vsixBridge.ts), done in the webview's
// frame with Playwright as a user would (real clicks, typing), plus the e2e render bench's timing requests.
import fs from "node:fs";
import path from "node:path";
import { root } from "./workspace.mjs";

const resultsDir = path.join(root, "test-results");
const say = (/** @type {string} */ line) => console.log(`[integration] ${line}`);

/**
 * Saves test-results/<name>.png once the webview shows (the whole page, or with `part` "sidebar" the side bar only);
 * without a webview after 20 s, a picture of the page as it is and a warning. Resolves to whether the webview showed.
 * @param {import("playwright-core").Page} page
 * @param {string} name
 * @param {string} [part]
 */
export async function screenshot(page, name, part) {
  const file = path.join(resultsDir, `${name}.png`);
  try {
    const outer = page.locator("iframe.webview.ready").first();
    await outer.waitFor({ state: "attached", timeout: 20_000 });
    const inner = outer.contentFrame().locator("iframe#active-frame");
    await inner.waitFor({ state: "attached", timeout: 20_000 });
    await inner.contentFrame().locator("body *").first().waitFor({ state: "attached", timeout: 20_000 });
    await page.waitForTimeout(300); // let the last paint land
    if (part === "sidebar") await page.locator('[id="workbench.parts.sidebar"]').screenshot({ path: file, timeout: 10_000 });
    else await page.screenshot({ path: file, fullPage: true });
    say(`screenshot ${path.relative(root, file)}`);
    return true;
  } catch (error) {
    say(`WARNING: no webview for screenshot ${name}: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    return false;
  }
}

/** The channel view's document: the inner `iframe#active-frame` of the outer `iframe.webview.ready`. @param {import("playwright-core").Page} page */
async function webviewFrame(page) {
  const outer = page.locator("iframe.webview.ready").first();
  await outer.waitFor({ state: "attached", timeout: 20_000 });
  const inner = outer.contentFrame().locator("iframe#active-frame");
  await inner.waitFor({ state: "attached", timeout: 20_000 });
  const frame = await (await inner.elementHandle({ timeout: 20_000 }))?.contentFrame();
  if (!frame) throw new Error("the webview has no document yet");
  return frame;
}

/**
 * The development test API's webview requests (`test/*` in src/shared/protocol), done from outside as a user would:
 * `test/text` (innerText, or null), `test/attribute` (or null), `test/click` (a real click when the element exists),
 * `test/compose` (types into the composer, presses Enter; `sent` once the composer is cleared, which it is only when
 * the host accepted the message). Plus `workbench/visible` (waits, 30 s at most, for an element of the workbench page
 * itself to be visible: the terminal panel, the diff editor) `workbench/keys` (types into the focused workbench input and presses Enter),
 * `workbench/type` (types at the end of it, no Enter), `workbench/value` (its text), `vsix/press` (a key pressed on an
 * element of the webview), `workbench/clipboard` (the browser's
 * clipboard text) and `workbench/squiggles` (the lines of the active editor's
 * drawn error squiggles).
 */
/** The CDP session profiling the e2e bench's page (SIDEKICKS_E2E_PROFILE=1), from `e2e/arm` to `e2e/painted`. */
/** @type {import("playwright-core").CDPSession | undefined} */
let e2eProfiler;
/** The CDP session tracing it (SIDEKICKS_E2E_TRACE=1), and the events collected. */
/** @type {import("playwright-core").CDPSession | undefined} */
let e2eTracer;
/** @type {unknown[]} */
let e2eTraceEvents = [];

/**
 * @param {import("playwright-core").Page} page
 * @param {string} method
 * @param {{ selector?: string, name?: string, part?: string, text?: string, marker?: string, key?: string }} given the request's
 *   params as the suite sent them (JSON); each method takes the ones it needs (`need`)
 */
export async function webviewRequest(page, method, given) {
  /** @param {keyof typeof given} key */
  const need = (key) => {
    const value = given[key];
    if (typeof value !== "string") throw new Error(`webview request ${method} needs params.${key} (a string), not ${JSON.stringify(value)}`);
    return value;
  };
  if (method === "workbench/visible") {
    // The workbench's own DOM (outside the webview): resolves once an element matching `selector` is visible.
    await page.locator(need("selector")).first().waitFor({ state: "visible", timeout: 30_000 });
    return { visible: true };
  }
  if (method === "workbench/squiggles") {
    // The active text editor's error squiggles as drawn: each overlay line holding one, and the line number drawn in
    // the gutter at the same height (both layers place a line at the same `top`). 1-based, in order.
    await page.locator(".editor-group-container.active .monaco-editor .view-overlays").first().waitFor({ state: "attached", timeout: 30_000 });
    return {
      lines: await page.evaluate(() => {
        const editor = document.querySelector(".editor-group-container.active .monaco-editor");
        if (!editor) return [];
        /** @type {Map<string, number>} */
        const numbers = new Map();
        for (const row of editor.querySelectorAll(".margin-view-overlays > div")) {
          const n = row.querySelector(".line-numbers")?.textContent?.trim();
          if (n) numbers.set(/** @type {HTMLElement} */ (row).style.top, Number(n));
        }
        return [...editor.querySelectorAll(".view-overlays > div")]
          .filter((row) => row.querySelector(".squiggly-error"))
          .map((row) => numbers.get(/** @type {HTMLElement} */ (row).style.top) ?? -1)
          .sort((a, b) => a - b);
      }),
    };
  }
  if (method === "workbench/keys") {
    // What a user types into the focused workbench input (a quick pick, an input box): all of it replaced by `text`,
    // then Enter.
    await page.keyboard.press("Control+A");
    await page.keyboard.type(need("text"));
    await page.keyboard.press("Enter");
    return { typed: true };
  }
  if (method === "workbench/type") {
    // Typed into the focused workbench input as it is (a quick pick that came with a value), no Enter.
    await page.keyboard.type(need("text"));
    return { typed: true };
  }
  if (method === "workbench/value") {
    // The focused workbench input's text (a quick pick's value), as the user sees it.
    return { value: await page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? document.activeElement.value : null)) };
  }
  if (method === "workbench/clipboard") {
    // The browser's clipboard (what Copy in a webview wrote), read by the workbench page: the page is focused first, as
    // the Clipboard API reads only for a focused document.
    await page.bringToFront();
    return { text: await page.evaluate(async () => { window.focus(); return navigator.clipboard.readText(); }) };
  }
  const frame = await webviewFrame(page);
  switch (method) {
    case "test/text":
      return {
        text: await frame.evaluate((selector) => {
          const el = document.querySelector(selector);
          return el ? (el instanceof HTMLElement ? el.innerText : (el.textContent ?? "")) : null;
        }, need("selector")),
      };
    case "test/attribute":
      return { text: await frame.evaluate(({ selector, name }) => document.querySelector(selector)?.getAttribute(name) ?? null, { selector: need("selector"), name: need("name") }) };
    case "test/click": {
      const target = frame.locator(need("selector")).first();
      if ((await target.count()) === 0) return { clicked: false };
      await target.click({ timeout: 10_000 });
      return { clicked: true };
    }
    case "vsix/screenshot": {
      // A picture taken before the suite goes on: it waits for this answer.
      if (!/^[\w.-]+$/.test(need("name"))) throw new Error(`bad screenshot name: ${JSON.stringify(need("name"))}`);
      return { taken: await screenshot(page, need("name"), given.part) };
    }
    case "vsix/press": {
      // A real key pressed on an element of the webview (focused first), through the webview frame as a user's is.
      await frame.locator(need("selector")).first().press(need("key"), { timeout: 10_000 });
      return { pressed: true };
    }
    case "vsix/type": {
      // Only types (a picture of the composer before sending).
      const textarea = frame.locator("#composer textarea");
      await textarea.fill(need("text"), { timeout: 10_000 });
      await textarea.press("Escape");
      return { typed: true };
    }
    case "test/compose": {
      const textarea = frame.locator("#composer textarea");
      await textarea.fill(need("text"), { timeout: 10_000 });
      await textarea.press("Escape"); // closes @-suggestions, so Enter sends instead of accepting one
      await textarea.press("Enter");
      try {
        // Enter empties the box at once; the send was accepted once none is in flight and the text did not come back.
        await frame.waitForFunction(() => !document.querySelector("#composer")?.classList.contains("sending") && /** @type {HTMLTextAreaElement | null} */ (document.querySelector("#composer textarea"))?.value === "", undefined, { timeout: 10_000 });
        return { sent: true };
      } catch {
        return { sent: false };
      }
    }
    case "e2e/arm": {
      if (process.env.SIDEKICKS_E2E_TRACE) {
        e2eTracer = await page.context().newCDPSession(page);
        e2eTraceEvents = [];
        e2eTracer.on("Tracing.dataCollected", (e) => e2eTraceEvents.push(...e.value));
        await e2eTracer.send("Tracing.start", { traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8", "toplevel", "ipc", "mojom", "cc", "loading"] } });
      }
      if (process.env.SIDEKICKS_E2E_PROFILE) {
        // A CPU profile of the page's renderer (the workbench and, same-site, the webview) from arm to painted.
        e2eProfiler = await page.context().newCDPSession(page);
        await e2eProfiler.send("Profiler.enable");
        await e2eProfiler.send("Profiler.start");
      }
      // Before the prompt is sent: every animation frame, the page checks (cheaply: the deepest last element, not the
      // whole 2 MB text) whether the last message is done and ends with the marker; the first time it is, it takes
      // one more frame (so it is painted) and keeps the page's wall clock in `__e2ePaintedAt`. Meanwhile, every
      // 500 ms with SIDEKICKS_E2E_SAMPLES=1: [wall clock, characters of the last message's text, its status].
      await frame.evaluate(({ marker, sample }) => {
        const w = window;
        const last = () => {
          const messages = document.querySelectorAll(".history > .message");
          return messages[messages.length - 1];
        };
        w.__e2eSamples = [];
        w.__e2ePaintedAt = undefined;
        // Reading 2 MB of text costs the page time: only when asked (SIDEKICKS_E2E_SAMPLES=1), not in the figure.
        if (sample && !w.__e2eArrivals) {
          // When each batch of deltas reached the page, and how much text it carried: tells a slow host from a slow view.
          w.__e2eArrivals = [];
          window.addEventListener("message", (event) => {
            const d = event.data;
            if (d?.kind === "event" && d.name === "message/delta") w.__e2eArrivals?.push([Date.now(), d.payload?.appendText?.length ?? 0]);
          });
        }
        if (sample) w.__e2eTimer = setInterval(() => {
          const m = last();
          w.__e2eSamples.push([Date.now(), m?.querySelector(".message-body")?.textContent?.length ?? 0, m?.getAttribute("data-status")]);
        }, 500);
        const check = () => {
          const m = last();
          let el = m?.getAttribute("data-status") === "done" ? m.querySelector(".message-body") : null;
          while (el?.lastElementChild) el = el.lastElementChild;
          const parent = el?.parentElement;
          const shown = el && ((el.textContent ?? "").includes(marker) || ((parent?.textContent?.length ?? 0) < 10_000 && (parent?.textContent ?? "").includes(marker)));
          if (!shown) return void requestAnimationFrame(check);
          requestAnimationFrame(() => {
            w.__e2ePaintedAt = Date.now();
            clearInterval(w.__e2eTimer);
          });
        };
        requestAnimationFrame(check);
      }, { marker: need("marker"), sample: process.env.SIDEKICKS_E2E_SAMPLES === "1" });
      return { armed: true };
    }
    case "e2e/painted": {
      // After `e2e/arm`: waits for its paint time; answers it with the text shown and the samples.
      await frame.waitForFunction(() => window.__e2ePaintedAt !== undefined, undefined, { timeout: 270_000 });
      if (e2eTracer) {
        const tracer = e2eTracer;
        const done = new Promise((resolve) => tracer.once("Tracing.tracingComplete", resolve));
        await e2eTracer.send("Tracing.end");
        await done;
        fs.writeFileSync(path.join(root, "test-results", "e2e-trace.json"), JSON.stringify(e2eTraceEvents));
      }
      if (e2eProfiler) {
        const { profile } = await e2eProfiler.send("Profiler.stop");
        fs.writeFileSync(path.join(root, "test-results", "e2e.cpuprofile"), JSON.stringify(profile));
      }
      return frame.evaluate(() => {
        const w = window;
        const messages = document.querySelectorAll(".history > .message");
        return { paintedAt: w.__e2ePaintedAt, shownBytes: messages[messages.length - 1]?.querySelector(".message-body")?.textContent?.length ?? 0, samples: w.__e2eSamples, arrivals: w.__e2eArrivals ?? [] };
      });
    }
    default:
      throw new Error(`unknown webview request ${method}`);
  }
}

