// @ts-check
// Scrolling back through a long history (#6): `channel/open` gives the latest 50 messages and `more: true`; scrolling
// near the top asks the host for the page before the first loaded message (`channel/older`), one page at a time,
// shows "Loading older messages…" meanwhile, prepends the page without moving what the user looks at, and says where
// the channel starts once everything is loaded. A failed load offers Retry. Home goes to the first loaded message and
// loads the page before it.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");

/** 200 messages `m000`…`m199`, oldest first, of varied heights (one to several paragraphs). */
const ALL = Array.from({ length: 200 }, (_, i) => {
  const id = `m${String(i).padStart(3, "0")}`;
  const text = `Message ${id}.` + " More words to wrap onto another line.".repeat(i % 7) + (i % 11 === 0 ? "\n\nA second paragraph." : "");
  return i % 5 === 0 ? message({ id, author: "user", text: `@demo ${text}`, to: ["demo"] }) : message({ id, agentName: "demo", text });
});

/**
 * Installs a `channel/older` handler over ALL whose answers wait until the test releases (or fails) them.
 * @param {import("./harness.mjs").Page} page
 * @param {import("../../src/shared/protocol").MessageView[]} all
 */
async function holdOlder(page, all) {
  await page.evaluate((messages) => {
    const w = window;
    w.__held = [];
    w.__host.handlers["channel/older"] = ({ beforeId, limit = 50 }) =>
      new Promise((resolve) => {
        const end = messages.findIndex((m) => m.id === beforeId);
        const start = Math.max(0, end - limit);
        w.__held.push({ resolve, page: { messages: messages.slice(start, end), more: start > 0 } });
      });
  }, all);
}

/**
 * Answers the oldest held `channel/older` request: with its page, or with `error`.
 * @param {import("./harness.mjs").Page} page
 * @param {import("../../src/shared/protocol").ErrorInfo} [error]
 */
function release(page, error) {
  return page.evaluate((err) => {
    const held = window.__held.shift();
    if (!held) throw new Error("no channel/older request is held");
    held.resolve(err ? { error: err } : held.page);
  }, error);
}

/** The message at the top of the viewport and its distance (px) from the list's top. @param {import("./harness.mjs").Page} page */
function topVisible(page) {
  return page.$eval(".history", (list) => {
    const box = list.getBoundingClientRect();
    const row = [...list.querySelectorAll(":scope > .message")].find((a) => a.getBoundingClientRect().bottom > box.top + 1);
    return { id: row?.getAttribute("data-message-id"), top: (row?.getBoundingClientRect().top ?? NaN) - box.top };
  });
}

/**
 * Scrolls the list to `top` (px) as the user would (a scroll event).
 * @param {import("./harness.mjs").Page} page
 * @param {number} top
 */
function scrollTo(page, top) {
  return page.$eval(".history", (list, y) => {
    list.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
    list.scrollTop = y;
    list.dispatchEvent(new Event("scroll"));
  }, top);
}

/** Every message id in the list, top to bottom, read by scrolling through the virtual list one viewport at a time. @param {import("./harness.mjs").Page} page */
async function allIds(page) {
  /** @type {(string | null)[]} */
  const seen = [];
  await scrollTo(page, 0);
  for (let guard = 0; guard < 400; guard++) {
    await frames(page, 3);
    const { ids, atEnd } = await page.$eval(".history", (list) => {
      const box = list.getBoundingClientRect();
      const visible = [...list.querySelectorAll(":scope > .message")].filter((a) => {
        const r = a.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      });
      return { ids: visible.map((a) => a.getAttribute("data-message-id")), atEnd: list.scrollTop + list.clientHeight >= list.scrollHeight - 1 };
    });
    assert.equal(new Set(ids).size, ids.length, `a message shown twice: ${ids.join(" ")}`);
    for (const id of ids) if (!seen.includes(id)) seen.push(id);
    if (atEnd) return seen;
    await page.$eval(".history", (list) => {
      list.scrollTop += list.clientHeight / 2;
      list.dispatchEvent(new Event("scroll"));
    });
  }
  throw new Error("never reached the end of the list");
}

const latest = () => ({ ...openResult({ messages: ALL.slice(150) }), more: true });

describe("scrolling back through a long history", () => {
  const env = withBrowser();

  it("loads 3 pages of 50 in order as the user scrolls up, keeps the viewed message in place, then shows the channel's start", async () => {
    const view = await openView(env.browser, env.server.origin, { open: latest(), height: 700, width: 420 });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='m199']");
    await holdOlder(page, ALL);
    await frames(page, 4);
    assert.deepEqual(await host.requests("channel/older"), [], "at the latest message nothing older is loaded");

    const expected = ["m150", "m100", "m050"];
    for (let n = 0; n < expected.length; n++) {
      await scrollTo(page, 150);
      await host.waitForRequests("channel/older", n + 1);
      await page.waitForSelector(".history-older-loading");
      assert.equal((await page.innerText(".history-older-loading")).trim(), "Loading older messages…");
      await frames(page, 3);
      assert.equal((await host.requests("channel/older")).length, n + 1, "one load at a time, however the user scrolls");
      const before = await topVisible(page);
      await release(page);
      await page.waitForSelector(`.message[data-message-id='${ALL[100 - 50 * n + 49].id}']`);
      await page.waitForSelector(".history-older:not(.history-older-loading)");
      await frames(page, 4);
      const after = await topVisible(page);
      assert.equal(after.id, before.id, `page ${n + 1}: the message at the top of the view is still there`);
      // Within 1.5 px: scroll offsets are whole pixels while rows are not, and two adjustments round (the list's own,
      // then the browser's scroll anchoring as the new rows are measured); a real jump is a row's height or more.
      assert.ok(Math.abs(after.top - before.top) <= 1.5, `page ${n + 1}: it did not move (${before.top}px → ${after.top}px)`);
    }
    assert.deepEqual((await host.requests("channel/older")).map((p) => p.beforeId), expected, "each page ends where the last began");

    await scrollTo(page, 0);
    await page.waitForSelector(".history-older-start");
    assert.equal((await page.innerText(".history-older-start")).trim(), "This is the start of #general.");
    await page.waitForSelector(".message[data-message-id='m000']");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-history-start.png") });
    await frames(page, 4);
    assert.equal((await host.requests("channel/older")).length, 3, "nothing more is asked at the start");

    const ids = await allIds(page);
    assert.deepEqual(ids, ALL.map((m) => m.id), "all 200 messages, in order, each once");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("a failed load says why and offers Retry, which loads the page", async () => {
    const all = ALL.slice(100);
    const view = await openView(env.browser, env.server.origin, { open: latest(), height: 600, width: 420 });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='m199']");
    await holdOlder(page, all);
    await scrollTo(page, 100);
    await host.waitForRequests("channel/older");
    await release(page, { code: "store/failed", message: "the history file is locked" });
    await page.waitForSelector(".history-older-failed");
    assert.equal((await page.innerText(".history-older-failed span")).trim(), "Could not load older messages: the history file is locked");
    await scrollTo(page, 0);
    await frames(page, 4);
    assert.equal((await host.requests("channel/older")).length, 1, "no retry behind the user's back");
    await page.screenshot({ path: path.join(outDir, "webview-history-older-failed.png") });

    await page.click(".history-older-retry");
    const asked = await host.waitForRequests("channel/older", 2);
    assert.deepEqual(asked.map((p) => p.beforeId), ["m150", "m150"]);
    await page.waitForSelector(".history-older-loading");
    await release(page);
    await page.waitForSelector(".message[data-message-id='m149']");
    await scrollTo(page, 0);
    await page.waitForSelector(".history-older-start");
    assert.equal(await page.$(".history-older-failed"), null);
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("Home goes to the first loaded message and loads the page before it", async () => {
    const view = await openView(env.browser, env.server.origin, { open: latest(), height: 600, width: 420 });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='m199']");
    await holdOlder(page, ALL);
    await page.focus(".history");
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m150");
    assert.deepEqual((await host.waitForRequests("channel/older")).map((p) => p.beforeId), ["m150"]);
    await release(page);
    await page.waitForSelector(".message[data-message-id='m149']");
    await frames(page, 3);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-message-id")), "m150", "the focus stays on the message");
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m100");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});
