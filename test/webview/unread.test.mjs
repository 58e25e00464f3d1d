// @ts-check
// The unread marker: a "New" divider above the first message that arrived while the user was away (the history
// scrolled up, the view hidden, or the channel not open), read once they are back at the latest message, and
// cleared when the next message arrives while they follow, or when they send one. A channel opened with more unread
// messages than fit opens at the divider. Screenshot: test-results/webview-unread-open.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
/** @param {number} [n] */
const history = (n = 40) => Array.from({ length: n }, (_, i) => message({ id: `m${i}`, text: `message ${i} `.repeat(10) }));
/** The ids of the messages with a divider above them, and whether it is read. @param {import("./harness.mjs").Page} page */
const dividers = (page) =>
  page.$$eval(".history .unread-divider", (els) => els.map((d) => [d.closest(".message")?.getAttribute("data-message-id"), d.getAttribute("data-read")]));

/** Pretends the webview became hidden or visible again (VS Code hides a webview when its view is collapsed). @param {import("./harness.mjs").Page} page @param {boolean} hidden */
function setHidden(page, hidden) {
  return page.evaluate((h) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

describe("unread marker", () => {
  const env = withBrowser();

  it("marks the first message that arrived while scrolled up; read back at the bottom; gone when the next one arrives there", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: history() }), height: 500 });
    const { page, host } = view;
    await frames(page, 2);
    await host.emit("message/finished", message({ id: "live", text: "while following" }));
    await page.waitForSelector(".message[data-message-id='live']");
    assert.deepEqual(await dividers(page), [], "nothing is unread while the user follows at the bottom");

    await page.$eval(".history", (el) => {
      el.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
      el.scrollTop = 0;
    });
    await page.waitForSelector(".jump-latest");
    await host.emit("message/finished", message({ id: "n1", text: "first while away" }));
    await host.emit("message/finished", message({ id: "n2", text: "second while away" }));
    await page.waitForSelector(".jump-latest:has-text('2 new')");
    await page.click(".jump-latest");
    await page.waitForSelector(".unread-divider[data-read='true']");
    assert.deepEqual(await dividers(page), [["n1", "true"]], "above the first unseen message, read once the user is back");
    assert.match(await page.innerText(".message[data-message-id='n1']"), /^New\s/i);

    await host.emit("message/finished", message({ id: "n3", text: "while following again" }));
    await page.waitForSelector(".message[data-message-id='n3']");
    await frames(page, 2);
    assert.deepEqual(await dividers(page), [], "cleared when a message arrives while the user follows");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("marks what arrived while the view was hidden, moves on the next absence, and clears when the user sends", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: history(5) }) });
    const { page, host } = view;
    await frames(page, 2);
    await setHidden(page, true);
    await host.emit("message/finished", message({ id: "h1", text: "while hidden" }));
    await host.emit("message/finished", message({ id: "h2", text: "also while hidden" }));
    await page.waitForSelector(".unread-divider");
    assert.deepEqual(await dividers(page), [["h1", "false"]], "unread while hidden");
    await setHidden(page, false);
    await page.waitForSelector(".unread-divider[data-read='true']");

    await setHidden(page, true);
    await host.emit("message/finished", message({ id: "h3", text: "hidden again" }));
    await page.waitForSelector(".message[data-message-id='h3'] .unread-divider");
    assert.deepEqual(await dividers(page), [["h3", "false"]], "a read marker moves to the first message of the next absence");
    await setHidden(page, false);

    await page.fill("#composer textarea", "@demo thanks");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".message[data-author='user']:has-text('@demo thanks')");
    await frames(page, 2);
    assert.deepEqual(await dividers(page), [], "the user's own message clears the marker");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("a channel opened from the switcher with unread messages shows the divider above the first of them", async () => {
    /** @param {string} name @param {number} unread @returns {import("../../src/shared/protocol").ChannelSummary} */
    const summary = (name, unread) => ({ id: `ch-${name}`, name, kind: "channel", members: ["demo"], unread, busy: false });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: history(3) }), channels: [summary("general", 0), summary("design", 2)] });
    const { page } = view;
    await page.waitForSelector(".channel-tab[data-channel='design']");
    const design = Array.from({ length: 6 }, (_, i) => message({ id: `d${i}`, channelId: "ch-design", text: `design ${i}` }));
    await page.evaluate((next) => (window.__host.open = next), openResult({ name: "design", messages: design }));
    await page.click(".channel-tab[data-channel='design']");
    await page.waitForSelector(".message[data-message-id='d5']");
    await page.waitForSelector(".unread-divider");
    assert.deepEqual((await dividers(page)).map(([id]) => id), ["d4"], "above the first of the 2 unread messages");
    await frames(page, 3);
    const where = await position(page, "d4");
    assert.ok(where.fromBottom < 40, `the divider is in view at the bottom, so the channel opens at the bottom as usual: ${JSON.stringify(where)}`);
    assert.equal(await page.$(".jump-latest"), null);
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("a channel opened with more unread messages than fit opens at the divider, near the top of the view, not at the bottom", async () => {
    /** @param {string} name @param {number} unread @returns {import("../../src/shared/protocol").ChannelSummary} */
    const summary = (name, unread) => ({ id: `ch-${name}`, name, kind: "channel", members: ["demo"], unread, busy: false });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: history(3) }), channels: [summary("general", 0), summary("design", 30)], height: 600 });
    const { page } = view;
    await page.waitForSelector(".channel-tab[data-channel='design']");
    const design = Array.from({ length: 80 }, (_, i) => message({ id: `d${i}`, channelId: "ch-design", text: `design ${i} `.repeat(12) }));
    await page.evaluate((next) => (window.__host.open = next), openResult({ name: "design", messages: design }));
    await page.click(".channel-tab[data-channel='design']");
    await page.waitForSelector(".history .message[data-message-id^='d']");
    await frames(page, 4);
    const where = await position(page, "d50");
    assert.ok(where.dividerTop !== undefined && where.dividerTop >= 0 && where.dividerTop < where.viewport / 4, `the divider is near the top of the view: ${JSON.stringify(where)}`);
    assert.ok(where.fromBottom > where.viewport, `far from the bottom: ${JSON.stringify(where)}`);
    assert.ok(await page.$(".jump-latest"), "Jump to latest leads on to the newest");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-unread-open.png") });
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});

/** The divider's top relative to the history's viewport (px; undefined when not rendered), the viewport's height and the distance from the bottom. @param {import("./harness.mjs").Page} page @param {string} id */
function position(page, id) {
  return page.$eval(
    ".history",
    (list, messageId) => {
      const divider = list.querySelector(`.message[data-message-id="${messageId}"] .unread-divider`);
      const top = divider ? Math.round(divider.getBoundingClientRect().top - list.getBoundingClientRect().top) : undefined;
      return { dividerTop: top, viewport: list.clientHeight, fromBottom: Math.round(list.scrollHeight - list.scrollTop - list.clientHeight) };
    },
    id,
  );
}
