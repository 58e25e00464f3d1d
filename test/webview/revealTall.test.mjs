// @ts-check
// A history search result opened in a channel with very tall messages (issue 21, "a result opens its message in
// context, loading its page"): the chosen message, in a page before the loaded one, ends in the viewport and focused,
// and stays there while the rows around it are measured and laid out (a 1 MB single-line answer above it, code
// blocks and Markdown below it), until the user scrolls.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { frames, markdownSections, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");

/** One line of about 1 MB (words, no newline), as an agent answer that printed a minified file. */
const HUGE_LINE = "minified ".repeat(116_000).trim();

/**
 * 200 messages `m000`…`m199`, oldest first: every seventh an agent answer of Markdown with code blocks, `m060` and
 * `m170` the 1 MB line, the others short.
 */
const ALL = Array.from({ length: 200 }, (_, i) => {
  const id = `m${String(i).padStart(3, "0")}`;
  if (i === 60 || i === 170) return message({ id, text: `Answer ${id}: ${HUGE_LINE}` });
  if (i % 7 === 3) return message({ id, text: `Answer ${id}.\n\n${markdownSections(3)}` });
  return message({ id, author: i % 2 ? "agent" : "user", text: `Message ${id}.\n\nwith a second paragraph so rows have some height` });
});

/**
 * Whether the row of `id` is focused and its top is inside the history's viewport (what the user sees of it).
 * @param {import("playwright-core").Page} page
 * @param {string} id
 */
async function shown(page, id) {
  return page.evaluate((messageId) => {
    const row = document.querySelector(`.message[data-message-id='${messageId}']`);
    const list = document.querySelector(".history");
    if (!row || !list) return { rendered: false, focused: false, inView: false, top: NaN, viewTop: NaN, viewBottom: NaN };
    const r = row.getBoundingClientRect();
    const h = list.getBoundingClientRect();
    return { rendered: true, focused: document.activeElement === row, inView: r.top >= h.top - 1 && r.top < h.bottom, top: r.top, viewTop: h.top, viewBottom: h.bottom };
  }, id);
}

describe("message/reveal among tall messages", () => {
  const env = withBrowser();

  for (const target of ["m058", "m062", "m120"]) {
    it(`opens ${target} from a page before the loaded one: its top in view, focused, and it stays there`, async () => {
      const view = await openView(env.browser, env.server.origin, { open: { ...openResult({ messages: ALL.slice(150) }), more: true }, width: 480, height: 700 });
      const { page, host } = view;
      await page.evaluate((messages) => {
        window.__host.handlers["channel/older"] = ({ beforeId, limit = 50 }) => {
          const end = messages.findIndex((m) => m.id === beforeId);
          const start = Math.max(0, end - limit);
          return { messages: messages.slice(start, end), more: start > 0 };
        };
      }, ALL);
      await host.emit("message/reveal", { channelId: "ch-general", messageId: target });
      await page.waitForFunction((id) => document.activeElement?.getAttribute("data-message-id") === id, target);
      // The rows around it are measured over the next frames (the 1 MB line, the code blocks): it must not move away.
      for (let i = 0; i < 12; i++) {
        await frames(page, 5);
        const now = await shown(page, target);
        assert.ok(now.rendered && now.focused && now.inView, `after ${(i + 1) * 5} frames, ${target} is focused with its top in view: ${JSON.stringify(now)}`);
      }
      await page.screenshot({ path: path.join(outDir, `webview-reveal-tall-${target}.png`) });
      assert.match(await page.innerText(`.message[data-message-id='${target}']`), new RegExp(`${target}`));
      assert.deepEqual(await view.problems(), []);
      await page.close();
    });
  }

  it("reveals a message asked for while the view was hidden once the view is shown (the editor shows it after the pick)", async () => {
    const view = await openView(env.browser, env.server.origin, { open: { ...openResult({ messages: ALL.slice(150) }), more: true }, width: 480, height: 700 });
    const { page, host } = view;
    await page.evaluate((messages) => {
      window.__host.handlers["channel/older"] = ({ beforeId, limit = 50 }) => {
        const end = messages.findIndex((m) => m.id === beforeId);
        const start = Math.max(0, end - limit);
        return { messages: messages.slice(start, end), more: start > 0 };
      };
      document.body.style.display = "none";
    }, ALL);
    await host.emit("message/reveal", { channelId: "ch-general", messageId: "m120" });
    await page.waitForFunction(() => window.__host.requests("channel/older").length >= 1);
    await frames(page, 10);
    await page.evaluate(() => document.body.style.removeProperty("display"));
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m120");
    await frames(page, 10);
    const now = await shown(page, "m120");
    assert.ok(now.focused && now.inView, `m120 is focused with its top in view: ${JSON.stringify(now)}`);
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("revealed at the bottom, then clicked: the view follows the next answer again", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: ALL.slice(190) }), width: 480, height: 700 });
    const { page, host } = view;
    await host.emit("message/reveal", { channelId: "ch-general", messageId: "m199" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m199");
    await page.click(".message[data-message-id='m199'] .message-body");
    await host.emit("message/finished", message({ id: "m200", text: `Answer m200.\n\n${markdownSections(4)}`, stopReason: "end_turn" }));
    await page.waitForSelector(".message[data-message-id='m200']");
    await frames(page, 10);
    const gap = await page.$eval(".history", (list) => list.scrollHeight - list.scrollTop - list.clientHeight);
    assert.ok(gap < 40, `the view is at the bottom, showing the new answer's end (${gap} px left below)`);
    assert.equal(await page.$$eval(".jump-latest", (b) => b.length), 0, "no Jump to latest");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("lets the message go when the user scrolls: the view stays where they scrolled to", async () => {
    const view = await openView(env.browser, env.server.origin, { open: { ...openResult({ messages: ALL.slice(50) }), more: false }, width: 480, height: 700 });
    const { page, host } = view;
    await host.emit("message/reveal", { channelId: "ch-general", messageId: "m062" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m062");
    await frames(page, 10);
    const box = await page.$eval(".history", (list) => list.getBoundingClientRect().toJSON());
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -3000);
    await page.waitForFunction(() => {
      const row = document.querySelector(".message[data-message-id='m062']");
      const list = /** @type {Element} */ (document.querySelector(".history")).getBoundingClientRect();
      return !row || row.getBoundingClientRect().top > list.bottom;
    });
    await frames(page, 20);
    const top = await page.evaluate(() => {
      const row = document.querySelector(".message[data-message-id='m062']");
      return row ? row.getBoundingClientRect().top : Infinity;
    });
    assert.ok(top > box.y + box.height, `m062 stays below the viewport the user scrolled up from (its top at ${top})`);
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});
