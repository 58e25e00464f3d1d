// @ts-check
// Accessibility of the history: a log of focusable articles named by their author, keyboard navigation between
// messages (Up/Down, j/k, Home, End), and one polite announcement per settled answer, never per streamed chunk.
// Also the author line's roster look (icon and colour), which is part of what names an agent's message.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

/** @param {import("./harness.mjs").Page} page */
const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-message-id") ?? document.activeElement?.className ?? null);
/** @param {import("./harness.mjs").Page} page */
const distance = (page) => page.$eval(".history", (el) => el.scrollHeight - el.scrollTop - el.clientHeight);
/** @param {import("./harness.mjs").Page} page */
const status = (page) => page.$eval(".app > [role='status']", (el) => el.textContent ?? "");

describe("history accessibility", () => {
  const env = withBrowser();

  it("is a log of articles labelled by author and time; arrows, j/k, Home and End move focus between messages", async () => {
    const messages = Array.from({ length: 300 }, (_, i) => message({ id: `m${i}`, author: i % 2 ? "agent" : "user", text: `message ${i}` }));
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages }), height: 500 });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='m299']");
    assert.equal(await page.getAttribute(".history", "role"), "log");
    assert.equal(await page.getAttribute(".history", "aria-live"), "off", "announcements come from the status region, not the growing log");
    assert.ok((await page.getByRole("article", { name: /^demo \d/ }).count()) > 3, "agent messages are articles named by their author and time");
    assert.ok((await page.getByRole("article", { name: /^You \d/ }).count()) > 3);

    await page.focus(".history");
    await page.keyboard.press("ArrowUp");
    assert.equal(await focused(page), "m299", "Up from the list focuses the last message in view");
    await page.keyboard.press("k");
    assert.equal(await focused(page), "m298");
    await page.keyboard.press("j");
    assert.equal(await focused(page), "m299");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowUp");
    assert.equal(await focused(page), "m296");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(page), "m297");

    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m0");
    assert.equal(await page.$eval(".history", (el) => el.scrollTop <= 10), true, "Home scrolls to the first message");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(page), "m1");
    await page.keyboard.press("End");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m299");
    await frames(page, 2);
    assert.ok((await distance(page)) < 40, "End returns to the bottom");
    assert.ok((await page.$$eval(".history .message", (els) => els.length)) < 100, "windowed throughout");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("Ctrl+Up in the composer goes to the latest message (after the caret reached the draft's start); Ctrl+Down or Escape comes back", async () => {
    // A fresh-user trial needed 61 Shift+Tab presses through the messages' buttons to reach the history.
    const messages = Array.from({ length: 40 }, (_, i) => message({ id: `m${i}`, author: i % 2 ? "agent" : "user", text: `message ${i}` }));
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages }), height: 500 });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='m39']");
    const box = "#composer textarea";
    await page.fill(box, "first line\nsecond line");
    await page.focus(box);
    await page.keyboard.press("Control+ArrowUp");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "a draft's caret not at its start: the key is the textarea's");
    await page.$eval(box, (el) => /** @type {HTMLTextAreaElement} */ (el).setSelectionRange(0, 0));
    await page.keyboard.press("Control+ArrowUp");
    assert.equal(await focused(page), "m39", "the latest message");
    await page.keyboard.press("k");
    assert.equal(await focused(page), "m38", "and the history's own keys go on from there");
    await page.keyboard.press("Control+ArrowDown");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
    assert.equal(await page.inputValue(box), "first line\nsecond line", "the draft is as it was");
    await page.$eval(box, (el) => /** @type {HTMLTextAreaElement} */ (el).setSelectionRange(0, 0));
    await page.keyboard.press("Meta+ArrowUp");
    assert.equal(await focused(page), "m39", "Cmd+Up on macOS");
    await page.keyboard.press("Escape");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "Escape on a message comes back to the composer");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("announces an answer once when it settles, and a permission request, never the streamed chunks", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await page.evaluate(() => {
      const w = window;
      w.__said = [];
      const region = document.querySelector(".app > [role='status']");
      // What a screen reader would read: each new non-empty text of the region.
      new MutationObserver(() => {
        const text = region?.textContent ?? "";
        if (text && text !== w.__said[w.__said.length - 1]) w.__said.push(text);
      }).observe(/** @type {Node} */ (region), { subtree: true, childList: true, characterData: true });
    });
    assert.equal(await page.getAttribute(".app > [role='status']", "aria-live"), "polite");
    await host.emit("message/started", message({ id: "s1", status: "streaming" }));
    for (let i = 0; i < 60; i++) await host.emit("message/delta", { channelId: "ch-general", messageId: "s1", appendText: `chunk ${i}\n\n` });
    await page.waitForFunction(() => document.querySelector(".message[data-message-id='s1']")?.textContent?.includes("chunk 59"));
    await frames(page, 2);
    assert.doesNotMatch(await status(page), /chunk/, "streamed text is not announced");
    assert.deepEqual(await page.evaluate(() => window.__said), [], "nothing is said while the answer streams");

    await host.emit("message/delta", {
      channelId: "ch-general",
      messageId: "s1",
      part: { type: "permission", requestId: "r1", toolCallId: "c1", title: "Run tests", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] },
    });
    await page.waitForFunction(() => document.querySelector(".app > [role='status']")?.textContent === "demo asks permission");
    await host.emit("message/finished", message({ id: "s1", text: "done", stopReason: "end_turn" }));
    await page.waitForFunction(() => document.querySelector(".app > [role='status']")?.textContent === "demo answered: done");
    assert.deepEqual(await page.evaluate(() => window.__said), ["demo asks permission", "demo answered: done"], "one sentence each, the answer's text included");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("reads a Markdown answer's words, not its marks: no fences, # or *, link text without its address", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await host.emit("message/started", message({ id: "md1", status: "streaming" }));
    const text = "## Fixed\n\nSHA: **done** in [the PR](https://example.com/pr/1) &amp; `npm test`:\n\n```text\nabc123\n```\n\n- one\n- two";
    await host.emit("message/finished", message({ id: "md1", text, stopReason: "end_turn" }));
    await page.waitForFunction(() => /answered/.test(document.querySelector(".app > [role='status']")?.textContent ?? ""));
    assert.equal(await status(page), "demo answered: Fixed SHA: done in the PR & npm test: abc123 one two");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });

  it("marks an agent's author line with its roster icon and colour (theme colour id or #rrggbb)", async () => {
    const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    /** @type {import("../../src/shared/protocol").MemberView[]} */
    const members = [
      { name: "demo", state: "ready", icon: { codicon: "sparkle" }, color: "#ff0000" },
      { name: "odie", state: "ready", icon: { uri: png }, color: "charts.blue" },
      { name: "plain", state: "ready" },
    ];
    const messages = [message({ id: "a", agentName: "demo", text: "hi" }), message({ id: "b", agentName: "odie", text: "hello" }), message({ id: "c", agentName: "plain", text: "hey" })];
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members, messages }) });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='c']");
    /** @param {string} id */
    const look = (id) =>
      page.$eval(`.message[data-message-id='${id}'] .message-meta`, (meta) => ({
        color: getComputedStyle(/** @type {Element} */ (meta.querySelector(".message-author"))).color,
        codicon: meta.querySelector(".agent-icon.codicon")?.getAttribute("data-codicon") ?? null,
        image: meta.querySelector("img.agent-icon")?.getAttribute("src") ?? null,
      }));
    const chartsBlue = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--vscode-charts-blue)";
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    assert.deepEqual(await look("a"), { color: "rgb(255, 0, 0)", codicon: "sparkle", image: null });
    assert.deepEqual(await look("b"), { color: chartsBlue, codicon: null, image: png });
    // The codicon is drawn: the bundled font loaded (under the CSP's font-src), and the glyph is in the agent's colour.
    const glyph = await page.$eval(".message[data-message-id='a'] .agent-icon.codicon", async (icon) => {
      await document.fonts.ready;
      const before = getComputedStyle(icon, "::before");
      const box = icon.getBoundingClientRect();
      return {
        loaded: [...document.fonts].some((f) => f.family.replace(/"/g, "") === "codicon" && f.status === "loaded"),
        content: before.content,
        font: before.fontFamily,
        color: before.color,
        visible: box.width > 0 && box.height > 0 && getComputedStyle(icon).display !== "none",
      };
    });
    const { content, ...shown } = glyph;
    assert.deepEqual(shown, { loaded: true, font: "codicon", color: "rgb(255, 0, 0)", visible: true });
    assert.match(content, /^"[\uE000-\uF8FF]"$/, "the sparkle glyph (a private-use code point of the codicon font)");
    const plain = await look("c");
    assert.equal(plain.codicon, null);
    assert.equal(plain.image, null, "no roster look: no icon, a colour from the palette");
    assert.deepEqual(await view.problems(), []);
    await page.close();
  });
});
