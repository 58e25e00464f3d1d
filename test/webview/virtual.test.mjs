// @ts-check
// The virtualised history: a 10,000-message channel keeps few messages in the DOM, scrolls to its first and last
// message, stays pinned while an answer streams at the bottom, and does not move when the user scrolled up.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

/** `count` messages, alternating user and agent, with a few very long ones (20 KB) and some multi-paragraph ones. @param {number} [count] */
export function bigHistory(count = 10_000) {
  return Array.from({ length: count }, (_, i) => {
    const long = i % 1_500 === 7;
    const text = long ? `long ${i}\n\n` + `A very long answer line ${i}. `.repeat(700) : i % 3 === 0 ? `message ${i}\n\nsecond paragraph of ${i}` : `message ${i}`;
    return message({ id: `m${i}`, author: i % 2 ? "agent" : "user", text });
  });
}

/** How far (px) the history is from its bottom. @param {import("./harness.mjs").Page} page */
const distance = (page) => page.$eval(".history", (el) => el.scrollHeight - el.scrollTop - el.clientHeight);
/** How many message elements are in the DOM. @param {import("./harness.mjs").Page} page */
const domMessages = (page) => page.$$eval(".history .message", (els) => els.length);
/** Whether the message is rendered and at least partly inside the history's viewport. @param {import("./harness.mjs").Page} page @param {string} id */
const inView = (page, id) =>
  page.$eval(".history", (list, messageId) => {
    const article = list.querySelector(`.message[data-message-id="${messageId}"]`);
    if (!article) return false;
    const box = list.getBoundingClientRect();
    const r = article.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  }, id);

/**
 * Sends `chunks` to a streaming message, `perFrame` of them per animation frame.
 * @param {import("./harness.mjs").Page} page
 * @param {string} messageId
 * @param {string[]} chunks
 */
async function stream(page, messageId, chunks, perFrame = 5) {
  await page.evaluate(
    async ({ id, list, n }) => {
      for (let i = 0; i < list.length; i++) {
        window.__host.emit("message/delta", { channelId: "ch-general", messageId: id, appendText: list[i] });
        if ((i + 1) % n === 0) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      }
    },
    { id: messageId, list: chunks, n: perFrame },
  );
}

describe("virtualised history", () => {
  const env = withBrowser();

  it("opens a 10,000-message channel at its latest message with at most ~100 messages in the DOM; top and End reach both ends", async (t) => {
    const messages = bigHistory();
    const started = Date.now();
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages }), height: 700 });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='m9999']");
    await frames(page, 2);
    const openMs = Date.now() - started;
    t.diagnostic(`opening a 10,000-message channel (page load + channel/open + first windowed render): ${openMs} ms`);
    console.log(`virtual: opening a 10,000-message channel took ${openMs} ms (page load included)`);

    // The webview's own cost: switching to another 10,000-message channel, from `channel/reload` to its latest
    // message painted (channel/open answered in-page by the fake host).
    const switchMs = await page.evaluate(async () => {
      const w = window;
      const open = w.__host.open;
      w.__host.open = {
        ...open,
        channel: { ...open.channel, id: "ch-other", name: "other" },
        messages: open.messages.map((m) => ({ ...m, id: `o${m.id}`, channelId: "ch-other" })),
      };
      const t0 = performance.now();
      w.__host.emit("channel/reload", { name: "other" });
      await new Promise((resolve) => {
        const check = () => (document.querySelector(".message[data-message-id='om9999']") ? resolve(undefined) : requestAnimationFrame(check));
        check();
      });
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const ms = performance.now() - t0;
      w.__host.open = open;
      w.__host.emit("channel/reload", { name: "general" });
      return ms;
    });
    await page.waitForSelector(".message[data-message-id='m9999']");
    await frames(page, 3);
    t.diagnostic(`switching to a 10,000-message channel in the webview (reload → latest message painted): ${switchMs.toFixed(0)} ms`);
    console.log(`virtual: switching to a 10,000-message channel took ${switchMs.toFixed(0)} ms in the webview`);

    assert.ok(await inView(page, "m9999"), "the latest message is in view");
    assert.ok((await distance(page)) < 40, "opens at the bottom");
    const count = await domMessages(page);
    t.diagnostic(`messages in the DOM at the bottom: ${count}`);
    assert.ok(count <= 100, `at most ~100 message elements in the DOM, got ${count}`);
    assert.ok(count >= 5, `the viewport is filled, got ${count}`);

    // Scrolling to the top (as a scroll bar drag would) shows the first message.
    for (let i = 0; i < 5 && !(await inView(page, "m0")); i++) {
      await page.$eval(".history", (el) => {
      el.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
      el.scrollTop = 0;
    });
      await frames(page, 3);
    }
    assert.ok(await inView(page, "m0"), "the first message is in view at the top");
    assert.equal(await page.$eval(".history", (el) => el.scrollTop), 0);
    assert.ok((await domMessages(page)) <= 100, "still windowed at the top");
    assert.equal(await page.$(".message[data-message-id='m9999']"), null, "the latest message left the DOM");
    assert.match(await page.innerText(".jump-latest"), /^↓?\s*Jump to latest$/, "scrolled up: the button offers the way back");

    // A position in the middle, passing the long messages: still windowed, and the messages there are rendered.
    await page.$eval(".history", (el) => {
      el.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
      el.scrollTop = el.scrollHeight / 2;
    });
    await frames(page, 4);
    const middle = await page.$$eval(".history .message", (els) => els.map((e) => Number(e.getAttribute("data-message-id")?.slice(1))));
    assert.ok(middle.length > 0 && middle.length <= 100, `windowed in the middle: ${middle.length}`);
    assert.ok(middle.every((n) => n > 1000 && n < 9000), `the middle rows are from the middle: ${middle[0]}…${middle.at(-1)}`);

    // End (with the list focused) returns to the latest message.
    await page.focus(".history");
    await page.keyboard.press("End");
    await page.waitForSelector(".message[data-message-id='m9999']");
    await frames(page, 3);
    assert.ok(await inView(page, "m9999"), "End shows the last message");
    assert.ok((await distance(page)) < 40, "End goes to the bottom");
    assert.equal(await page.$(".jump-latest"), null, "at the bottom, no jump button");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("keeps a streaming answer at the bottom pinned, with the long history windowed", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: bigHistory() }), height: 600 });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='m9999']");
    await host.emit("message/started", message({ id: "s1", status: "streaming" }));
    await page.waitForSelector(".message[data-message-id='s1']");
    const chunks = Array.from({ length: 300 }, (_, i) => `word${i}${i % 20 === 19 ? "\n\n" : " "}`);
    await stream(page, "s1", chunks);
    await page.waitForFunction(() => document.querySelector(".message[data-message-id='s1']")?.textContent?.includes("word299"));
    await frames(page, 3);
    assert.ok((await distance(page)) < 40, `pinned to the bottom while streaming (${await distance(page)} px)`);
    assert.ok(await inView(page, "s1"));
    assert.ok((await domMessages(page)) <= 100);
    assert.equal(await page.$(".jump-latest"), null);
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("scrolled up, new messages and a streaming answer do not move the view; the button counts them and brings the view back", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: bigHistory() }), height: 600 });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='m9999']");
    await host.emit("message/started", message({ id: "s1", status: "streaming", text: "Starting" }));
    await page.waitForSelector(".message[data-message-id='s1']");
    // The user scrolls up by a few screens (as the wheel would).
    for (let i = 0; i < 4; i++) {
      await page.mouse.move(150, 300);
      await page.mouse.wheel(0, -900);
      await frames(page, 2);
    }
    await frames(page, 3);
    /** The first message whose top is inside the viewport, and where it is. */
    const anchor = () =>
      page.$eval(".history", (list) => {
        const box = list.getBoundingClientRect();
        for (const a of list.querySelectorAll(".message")) {
          const r = a.getBoundingClientRect();
          if (r.top >= box.top && r.top < box.bottom) return { id: a.getAttribute("data-message-id"), top: r.top };
        }
        return null;
      });
    const before = await anchor();
    assert.ok(before, "some message is in view");
    assert.ok((await distance(page)) > 1000, "scrolled away from the bottom");
    assert.match(await page.innerText(".jump-latest"), /Jump to latest$/, "no new message yet");

    await stream(page, "s1", Array.from({ length: 200 }, (_, i) => `chunk${i}${i % 10 === 9 ? "\n\n" : " "}`));
    for (let i = 0; i < 3; i++) await host.emit("message/finished", message({ id: `n${i}`, text: `new message ${i}\n\nwith two paragraphs` }));
    await page.waitForSelector(".jump-latest:has-text('3 new')");
    await frames(page, 3);
    const after = await anchor();
    assert.equal(after?.id, before.id, "the same message is at the top of the view");
    assert.ok(Math.abs((after?.top ?? 0) - before.top) <= 1, `and it did not move: ${before.top} → ${after?.top}`);
    assert.match(await page.innerText(".jump-latest"), /Jump to latest \(3 new\)/);

    await page.click(".jump-latest");
    await page.waitForSelector(".message[data-message-id='n2']");
    await frames(page, 3);
    assert.ok((await distance(page)) < 40, "the button returns to the bottom");
    assert.ok(await inView(page, "n2"));
    assert.equal(await page.$(".jump-latest"), null);
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});

describe("virtualised history across channels", () => {
  const env = withBrowser();

  it("another channel opens at its latest message even when the last one was scrolled up", async () => {
    /** @param {string} name @returns {import("../../src/shared/protocol").ChannelSummary} */
    const summary = (name) => ({ id: `ch-${name}`, name, kind: "channel", members: ["demo"], unread: 0, busy: false });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: bigHistory(2_000) }), channels: [summary("general"), summary("design")], height: 600 });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='m1999']");
    await page.$eval(".history", (el) => {
      el.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
      el.scrollTop = 0;
    });
    await page.waitForSelector(".jump-latest");
    const design = Array.from({ length: 500 }, (_, i) => message({ id: `d${i}`, channelId: "ch-design", text: `design ${i}` }));
    await page.evaluate((next) => (window.__host.open = next), openResult({ name: "design", messages: design }));
    await page.click(".channel-tab[data-channel='design']");
    await page.waitForSelector(".message[data-message-id='d499']");
    await frames(page, 3);
    assert.ok(await inView(page, "d499"), "the new channel's latest message is in view");
    assert.ok((await distance(page)) < 40);
    assert.equal(await page.$(".jump-latest"), null, "no jump button: the view is at the latest message");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});

describe("the Jump to latest button", () => {
  const env = withBrowser();

  it("covers no content: scrolled just above the bottom, the last tool call card's status badge is in view and clear of the button", async () => {
    const last = message({
      id: "last",
      parts: [
        { type: "text", text: "I ran the tests." },
        { type: "toolCall", toolCallId: "t1", kind: "execute", title: "npm test", status: "completed", content: Array.from({ length: 8 }, (_, i) => `ok ${i + 1} - test ${i + 1}`).join("\n") },
      ],
    });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [...bigHistory(30), last] }), height: 500 });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='last'] .status-badge");
    /** Scrolls so that the badge's bottom is 2 px above the list's visible bottom (the edge the button sits on). */
    const badgeAtBottom = () =>
      page.$eval(".history", (list) => {
        const badge = /** @type {HTMLElement} */ (list.querySelector(".message[data-message-id='last'] .status-badge"));
        list.dispatchEvent(new WheelEvent("wheel", { bubbles: true })); // the user's wheel, then where it took the view
        list.scrollTop += badge.getBoundingClientRect().bottom - (list.getBoundingClientRect().bottom - 2);
      });
    await badgeAtBottom();
    await page.waitForSelector(".jump-latest");
    await frames(page, 2);
    await badgeAtBottom(); // again: showing the button may have changed the list's height
    await frames(page, 2);
    const boxes = await page.evaluate(() => {
      /** @param {Element | null} el */
      const box = (el) => {
        const r = /** @type {HTMLElement} */ (el).getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const list = /** @type {HTMLElement} */ (document.querySelector(".history"));
      return {
        list: box(list),
        badge: box(document.querySelector(".message[data-message-id='last'] .status-badge")),
        pill: box(document.querySelector(".jump-latest")),
        fromBottom: list.scrollHeight - list.scrollTop - list.clientHeight,
      };
    });
    const { list, badge, pill } = boxes;
    assert.ok(boxes.fromBottom >= 40, `still away from the bottom, so the button is offered: ${JSON.stringify(boxes)}`);
    assert.ok(badge.top >= list.top && badge.bottom <= list.bottom, `the badge is inside the list's viewport: ${JSON.stringify(boxes)}`);
    const overlap = badge.left < pill.right && pill.left < badge.right && badge.top < pill.bottom && pill.top < badge.bottom;
    assert.ok(!overlap, `the button does not cover the badge: ${JSON.stringify(boxes)}`);
    const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-jump-latest.png") });
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});
