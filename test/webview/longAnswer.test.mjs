// @ts-check
// A long streamed answer: every block shows, in order, while older parts are kept as final chunks (webview/markdown.ts,
// components/Markdown.tsx); an answer arriving in large deltas ends at the bottom with the chunks off screen skipped by
// the browser, and each part shows when scrolled to; colour codes split across deltas never show raw.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, markdownSections, message, openView, withBrowser } from "./harness.mjs";

/** `count` sections of Markdown: a heading, a paragraph, a list and a code fence each, and a closing paragraph. @param {number} count */
function answer(count) {
  return markdownSections(count, "Then it runs the tests again.\n\n");
}

describe("long streamed answer", () => {
  const env = withBrowser();

  it("shows all 400 sections of a 120 KB answer in order while it streams and after it is committed", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 600, height: 700 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "L", status: "streaming" }));
    const text = answer(400);
    // 1 KB deltas, a pause every 8 so the answer is rendered over many frames (many kept chunks and groups).
    await page.evaluate(async (all) => {
      for (let at = 0, n = 0; at < all.length; at += 1000, n++) {
        window.__host.emit("message/delta", { channelId: "ch-general", messageId: "L", appendText: all.slice(at, at + 1000) });
        if (n % 8 === 7) await new Promise((r) => requestAnimationFrame(r));
      }
    }, text);
    const body = ".message[data-message-id='L'] .message-body";
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("const value399"), body);
    await frames(page, 2);
    const expected = Array.from({ length: 400 }, (_, i) => `Step ${i}`);
    const read = () => page.$eval(body, (el) => ({
      headings: [...el.querySelectorAll("h2")].map((h) => h.textContent),
      codeBlocks: el.querySelectorAll(".code-block").length,
      items: el.querySelectorAll("li").length,
    }));
    const streamed = await read();
    assert.deepEqual(streamed.headings, expected, "every heading, once, in order, while streaming");
    assert.equal(streamed.codeBlocks, 400, "every code fence is a code block with its actions");
    assert.equal(streamed.items, 800);

    await host.emit("message/finished", message({ id: "L", text, stopReason: "end_turn" }));
    await page.waitForSelector(".message[data-message-id='L'][data-status='done']");
    const committed = await read();
    assert.deepEqual(committed.headings, expected, "the committed answer shows the same headings");
    assert.equal(committed.codeBlocks, 400);
    assert.deepEqual(await view.problems(), []);
  });

  it("a 600 KB answer in large deltas (a fast agent): ends at the bottom, whole in the page, each part shown when scrolled to", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 600, height: 700 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "B", status: "streaming" }));
    const text = answer(2000) + "The last line of the answer.";
    // 40 KB per delta, one delta a frame: more text per frame than the view can lay out and stay smooth.
    await page.evaluate(async (all) => {
      for (let at = 0; at < all.length; at += 40_000) {
        window.__host.emit("message/delta", { channelId: "ch-general", messageId: "B", appendText: all.slice(at, at + 40_000) });
        await new Promise((r) => requestAnimationFrame(r));
      }
    }, text);
    const body = ".message[data-message-id='B'] .message-body";
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("The last line of the answer."), body);
    await frames(page, 3);
    /** Where the history is, whether the answer's last paragraph is on screen, and how many chunks are skipped. */
    const state = () =>
      page.$eval(".history", (list) => {
        const box = list.getBoundingClientRect();
        const paragraphs = list.querySelectorAll(".message[data-message-id='B'] .message-body p");
        const last = paragraphs[paragraphs.length - 1]?.getBoundingClientRect();
        const chunks = [...list.querySelectorAll(".message[data-message-id='B'] .md-chunk")];
        return {
          fromBottom: list.scrollHeight - list.scrollTop - list.clientHeight,
          lastOnScreen: !!last && last.height > 0 && last.top >= box.top && last.bottom <= box.bottom + 1,
          headings: list.querySelectorAll(".message[data-message-id='B'] h2").length,
          chunks: chunks.length,
          skipped: chunks.filter((c) => !c.checkVisibility({ contentVisibilityAuto: true })).length,
        };
      });
    const streamed = await state();
    assert.ok(streamed.fromBottom < 40, `the view follows the answer to its end (${streamed.fromBottom} px from the bottom)`);
    assert.ok(streamed.lastOnScreen, "the answer's last line is on screen");
    assert.equal(streamed.headings, 2000, "every section is in the page");
    assert.ok(streamed.skipped > streamed.chunks / 2, `the browser skips the chunks off screen (${streamed.skipped} of ${streamed.chunks})`);

    await host.emit("message/finished", message({ id: "B", text, stopReason: "end_turn" }));
    await page.waitForSelector(".message[data-message-id='B'][data-status='done']");
    await frames(page, 3);
    const done = await state();
    assert.ok(done.fromBottom < 40 && done.lastOnScreen, "still at the end once committed");
    assert.equal(done.headings, 2000);

    // Scrolled to the start, then to the middle: what comes on screen is laid out and shown, in order.
    for (const [fraction, step] of /** @type {[number, number | null][]} */ ([[0, 0], [0.5, null]])) {
      await page.$eval(".history", (list, f) => {
        list.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
        list.scrollTop = f * list.scrollHeight;
      }, fraction);
      await frames(page, 4);
      const shown = await page.$eval(".history", (list) => {
        const box = list.getBoundingClientRect();
        return [...list.querySelectorAll(".message[data-message-id='B'] h2")]
          .filter((h) => {
            const r = h.getBoundingClientRect();
            return r.height > 0 && r.bottom > box.top && r.top < box.bottom;
          })
          .map((h) => Number(h.textContent?.replace("Step ", "")));
      });
      assert.ok(shown.length > 0, `headings are shown at ${fraction * 100} % of the answer`);
      assert.deepEqual(shown, [...shown].sort((a, b) => a - b), "in order");
      if (step !== null) assert.equal(shown[0], step, "the start of the answer is its first section");
    }
    assert.deepEqual(await view.problems(), []);
  });

  it("strips a colour code split across deltas and lines, at the start and the end of a long answer", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("message/started", message({ id: "A", status: "streaming" }));
    const deltas = ["\u001b[3", "1mred\u001b[0m start\n\n", answer(30), "tail \u001b", "[32mgreen\u001b[0", "m end"];
    for (const d of deltas) {
      await host.emit("message/delta", { channelId: "ch-general", messageId: "A", appendText: d });
      await frames(page, 1);
    }
    const body = ".message[data-message-id='A'] .message-body";
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("green end"), body);
    const shown = await page.$eval(body, (el) => el.textContent ?? "");
    assert.ok(shown.includes("red start"), shown.slice(0, 80));
    assert.ok(!/\u001b|\[3[12]m|\[0m/.test(shown), "no escape sequence shows raw");
  });
});
