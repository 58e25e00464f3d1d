// @ts-check
// Following a streaming answer (webview/components/History.tsx, webview/virtualWindow.ts): at the bottom, the view
// stays pinned to the bottom while a long answer arrives in big deltas over many frames, and ends showing the answer's
// last line; scrolled up by the user, the view does not move while the answer streams below.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, markdownSections, message, openResult, openView, withBrowser } from "./harness.mjs";

const CH = "ch-general";

/** `count` sections of Markdown (a heading, a paragraph, a list, a code fence), then a last line `marker`. @param {number} count @param {string} marker */
function answer(count, marker) {
  return markdownSections(count) + marker;
}

/** Earlier messages, so the list is taller than the view and virtualised before the answer starts. @param {number} n */
function earlier(n) {
  return Array.from({ length: n }, (_, i) => message({ id: `e${i}`, author: i % 2 ? "agent" : "user", text: `Earlier message ${i}: ${"words ".repeat(20 + (i % 5) * 10)}` }));
}

/**
 * Streams `text` to message `id` in `size`-character deltas, waiting one frame every `perFrame` deltas.
 * @param {import("./harness.mjs").Page} page
 * @param {string} id
 * @param {string} text
 * @param {number} size
 * @param {number} perFrame
 */
async function stream(page, id, text, size, perFrame) {
  await page.evaluate(
    async ({ all, messageId, step, burst, channelId }) => {
      for (let at = 0, n = 0; at < all.length; at += step, n++) {
        window.__host.emit("message/delta", { channelId, messageId, appendText: all.slice(at, at + step) });
        if (n % burst === burst - 1) await new Promise((r) => requestAnimationFrame(r));
      }
    },
    { all: text, messageId: id, step: size, burst: perFrame, channelId: CH },
  );
}

/**
 * The list's distance from the bottom (px), and whether the element holding `marker` is inside the viewport.
 * @param {import("./harness.mjs").Page} page
 * @param {string} marker
 */
function position(page, marker) {
  return page.evaluate((text) => {
    const list = /** @type {HTMLElement} */ (document.querySelector(".history"));
    const box = list.getBoundingClientRect();
    let markerVisible = false;
    for (const el of list.querySelectorAll(".message-body p, .message-body li")) {
      if (!el.textContent?.includes(text)) continue;
      const r = el.getBoundingClientRect();
      markerVisible = r.bottom > box.top && r.top < box.bottom;
    }
    return { fromBottom: Math.round(list.scrollHeight - list.scrollTop - list.clientHeight), scrollTop: list.scrollTop, markerVisible };
  }, marker);
}

describe("following a streaming answer", () => {
  const env = withBrowser();

  it("stays at the bottom through a 120 KB answer in 1 KB deltas and ends showing its last line", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: earlier(60) }), width: 600, height: 700 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "L", status: "streaming" }));
    const marker = "LAST-LINE-OF-THE-ANSWER";
    const text = answer(560, marker);
    assert.ok(text.length > 120_000);
    // Check the position in the middle of the stream too: it must follow while it streams, not only at the end.
    const half = text.length / 2;
    await stream(page, "L", text.slice(0, half), 1000, 8);
    await frames(page, 3);
    const middle = await position(page, "Step 0");
    assert.ok(middle.fromBottom <= 40, `half way, the view is ${middle.fromBottom} px above the bottom`);
    await stream(page, "L", text.slice(half), 1000, 8);
    await page.waitForFunction((m) => document.querySelector(".message[data-message-id='L'] .message-body")?.textContent?.includes(m), marker);
    await frames(page, 3);
    const streamed = await position(page, marker);
    assert.ok(streamed.fromBottom <= 40, `after the last delta, the view is ${streamed.fromBottom} px above the bottom`);
    assert.ok(streamed.markerVisible, "the answer's last line is in view");

    await host.emit("message/finished", message({ id: "L", text, stopReason: "end_turn" }));
    await page.waitForSelector(".message[data-message-id='L'][data-status='done']");
    await frames(page, 3);
    const done = await position(page, marker);
    assert.ok(done.fromBottom <= 40, `once committed, the view is ${done.fromBottom} px above the bottom`);
    assert.ok(done.markerVisible, "the committed answer's last line is in view");
    assert.equal(await page.$$eval(".jump-latest", (els) => els.length), 0, "no Jump to latest button: the user never left");
    assert.deepEqual(await view.problems(), []);
  });

  it("stays at the bottom through an answer of 150 tool call cards between text deltas", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: earlier(30) }), width: 600, height: 700 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "T", status: "streaming" }));
    const marker = "ALL-TOOL-CALLS-DONE";
    await page.evaluate(async ([channelId, last]) => {
      /** @param {Omit<import("../../src/shared/protocol").HostEvents["message/delta"], "channelId" | "messageId">} d */
      const emit = (d) => window.__host.emit("message/delta", { channelId, messageId: "T", ...d });
      for (let i = 0; i < 150; i++) {
        emit({ appendText: `Now step ${i}: reading the handler and the tests it has.\n\n` });
        emit({ part: { type: "toolCall", toolCallId: `t${i}`, kind: "read", title: `Read src/handler${i}.ts`, status: "in_progress", locations: [{ path: `/home/me/project/src/handler${i}.ts`, line: i + 1 }] } });
        emit({ part: { type: "toolCall", toolCallId: `t${i}`, kind: "read", title: `Read src/handler${i}.ts`, status: "completed", locations: [{ path: `/home/me/project/src/handler${i}.ts`, line: i + 1 }] } });
        if (i % 3 === 2) await new Promise((r) => requestAnimationFrame(r));
      }
      emit({ appendText: `\n\n${last}` });
    }, [CH, marker]);
    await page.waitForFunction((m) => document.querySelector(".message[data-message-id='T'] .message-body")?.textContent?.includes(m), marker);
    await frames(page, 3);
    assert.equal(await page.$$eval(".message[data-message-id='T'] .tool-call", (els) => els.length), 150, "every tool call has its card");
    const end = await position(page, marker);
    assert.ok(end.fromBottom <= 40, `after the last card, the view is ${end.fromBottom} px above the bottom`);
    assert.ok(end.markerVisible, "the answer's last line is in view");
    assert.deepEqual(await view.problems(), []);
  });

  it("does not move while the answer streams when the user scrolled up", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: earlier(60) }), width: 600, height: 700 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "U", status: "streaming" }));
    const text = answer(200, "END-OF-U");
    await stream(page, "U", text.slice(0, 10_000), 1000, 4);
    await frames(page, 3);
    // The user scrolls up to an earlier message (a wheel, as a user would).
    await page.mouse.move(300, 300);
    await page.mouse.wheel(0, -2500);
    await page.waitForSelector(".jump-latest");
    // The wheel scrolls smoothly over several frames: read what the user sees once it has come to rest (the same
    // scroll position for 10 frames), not in the middle of the wheel's own animation.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const list = /** @type {HTMLElement} */ (document.querySelector(".history"));
          let last = -1;
          let still = 0;
          const check = () => {
            still = list.scrollTop === last ? still + 1 : 0;
            last = list.scrollTop;
            if (still >= 10) resolve(undefined);
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
    );
    const read = () =>
      page.evaluate(() => {
        const list = /** @type {HTMLElement} */ (document.querySelector(".history"));
        const box = list.getBoundingClientRect();
        // The first paragraph or heading at the top of the viewport: what the user reads.
        const first = [...list.querySelectorAll(".message p, .message h2")].find((a) => a.getBoundingClientRect().bottom > box.top);
        return { text: first?.textContent?.slice(0, 60), top: Math.round((first?.getBoundingClientRect().top ?? 0) - box.top) };
      });
    const before = await read();
    assert.ok(before.text, "a paragraph is at the top of the view");
    await stream(page, "U", text.slice(10_000), 1000, 4);
    await page.waitForFunction(() => document.querySelector(".message[data-message-id='U'] .message-body")?.textContent?.includes("END-OF-U") ?? true);
    await host.emit("message/finished", message({ id: "U", text, stopReason: "end_turn" }));
    await frames(page, 4);
    const after = await read();
    assert.equal(after.text, before.text, "the paragraph the user reads is still at the top");
    // Sub-pixel rounding of re-laid-out rows may shift it by a pixel; a moving view would be off by hundreds.
    assert.ok(Math.abs(after.top - before.top) <= 2, `it stays where it was (${before.top} px, then ${after.top} px)`);
    assert.equal(await page.$$eval(".jump-latest", (els) => els.length), 1, "Jump to latest is offered");
    assert.deepEqual(await view.problems(), []);
  });

  it("stays at the bottom when the layout, not the user, moves the view away (a long answer's rows laid out again)", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: earlier(60) }), width: 600, height: 700 });
    const { page, host } = view;
    const distance = () => page.$eval(".history", (el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await frames(page, 3);
    assert.ok((await distance()) < 40, "starts at the bottom");
    await host.emit("message/finished", message({ id: "mine", author: "user", text: "@demo go", to: ["demo"] }));
    await frames(page, 3);
    // The rows at the bottom collapse for one layout and come back (as re-created chunks of a 1 MB answer did in the
    // real editor, just after the user's message): the browser clamps the view upwards, a scroll no user caused.
    await page.$eval(".history", (list) => {
      const rows = [...list.querySelectorAll(":scope > .message")].slice(-10);
      for (const row of rows) /** @type {HTMLElement} */ (row).style.display = "none";
      void list.scrollTop; // the layout with the rows gone: the view is clamped
      for (const row of rows) /** @type {HTMLElement} */ (row).style.display = "";
    });
    await frames(page, 3);
    await host.emit("message/finished", message({ id: "answer", text: "The answer, in view." }));
    await frames(page, 3);
    assert.ok((await distance()) < 40, `still at the bottom (${await distance()} px away)`);
    assert.equal(await page.$$eval(".jump-latest", (els) => els.length), 0, "no Jump to latest: nothing was left behind");
    // The user's own wheel still takes the view away.
    await page.mouse.move(300, 300);
    await page.mouse.wheel(0, -1500);
    await page.waitForSelector(".jump-latest");
    assert.deepEqual(await view.problems(), []);
  });
});
