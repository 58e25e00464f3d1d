// @ts-check
// Streamed answers: batched rendering, Markdown while a code fence is open, typing indicator, committed message.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, message, openView, withBrowser } from "./harness.mjs";

describe("streaming", () => {
  const env = withBrowser();

  /**
   * Sends `chunks` as `message/delta` events, each as its own window message (as VS Code delivers them).
   * @param {import("./harness.mjs").Page} page
   * @param {string} messageId
   * @param {string[]} chunks
   * @param {{ pauseEvery?: number, pauseMs?: number }} [pauses] a pause of `pauseMs` (ms) after every `pauseEvery` chunks
   */
  async function stream(page, messageId, chunks, { pauseEvery = 0, pauseMs = 4 } = {}) {
    await page.evaluate(
      async ({ id, list, every, ms }) => {
        for (let i = 0; i < list.length; i++) {
          window.__host.emit("message/delta", { channelId: "ch-general", messageId: id, appendText: list[i] });
          if (every && (i + 1) % every === 0) await new Promise((r) => setTimeout(r, ms));
        }
      },
      { id: messageId, list: chunks, every: pauseEvery, ms: pauseMs },
    );
  }

  it("renders 500 deltas in full, at most once per animation frame", async (t) => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await host.emit("message/started", message({ id: "s1", status: "streaming" }));
    await page.waitForSelector(".message[data-message-id='s1'][data-status='streaming'] .typing");

    await page.evaluate(() => {
      const w = window;
      w.__frames = 0;
      w.__mutationBatches = 0;
      const tick = () => {
        w.__frames++;
        w.__raf = requestAnimationFrame(tick);
      };
      w.__raf = requestAnimationFrame(tick);
      w.__observer = new MutationObserver(() => w.__mutationBatches++);
      w.__observer.observe(/** @type {Element} */ (document.querySelector(".history")), { subtree: true, childList: true, characterData: true, attributes: true });
      w.__rendersBefore = w.__sidekicksStats.markdown.renders;
      w.__flushesBefore = w.__sidekicksStats.store.flushes;
    });
    const chunks = Array.from({ length: 500 }, (_, i) => `w${i}${i % 50 === 49 ? "\n\n" : " "}`);
    await stream(page, "s1", chunks, { pauseEvery: 25 });
    await page.waitForFunction(() => document.querySelector(".message[data-message-id='s1'] .message-body")?.textContent?.includes("w499"));
    await frames(page, 2);
    const counts = await page.evaluate(() => {
      const w = window;
      cancelAnimationFrame(w.__raf);
      w.__observer.disconnect();
      return {
        frames: w.__frames,
        mutationBatches: w.__mutationBatches,
        renders: w.__sidekicksStats.markdown.renders - w.__rendersBefore,
        flushes: w.__sidekicksStats.store.flushes - w.__flushesBefore,
      };
    });
    const words = (await page.innerText(".message[data-message-id='s1'] .message-body")).match(/w\d+/g);
    assert.deepEqual(words, chunks.map((_, i) => `w${i}`), "every chunk rendered, in order");
    assert.equal(await page.$$eval(".message[data-message-id='s1'] .markdown p", (ps) => ps.length), 10, "blank lines make paragraphs");
    t.diagnostic(`500 deltas: ${JSON.stringify(counts)}`);
    assert.ok(counts.flushes <= counts.frames + 1, `store flushes ${counts.flushes} <= frames ${counts.frames} + 1`);
    assert.ok(counts.renders <= counts.frames + 1, `markdown renders ${counts.renders} <= frames ${counts.frames} + 1`);
    assert.ok(counts.mutationBatches <= counts.frames + 1, `DOM mutation batches ${counts.mutationBatches} <= frames ${counts.frames} + 1`);
    assert.ok(counts.renders < 100 && counts.mutationBatches < 100, `far fewer renders than deltas: ${JSON.stringify(counts)}`);

    // message/finished replaces the streamed message by the committed one; the typing indicator goes away.
    await host.emit("message/finished", message({ id: "s1", text: chunks.join(""), stopReason: "end_turn" }));
    await page.waitForSelector(".message[data-message-id='s1'][data-status='done']");
    assert.equal(await page.$(".message[data-message-id='s1'] .typing"), null);
    assert.equal((await page.innerText(".message[data-message-id='s1'] .message-body")).match(/w\d+/g)?.length, 500);
    assert.deepEqual(await view.problems(), []);
  });

  it("renders field case 11 (a fence streamed open) as a literal code block, then a Done. paragraph", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("message/started", message({ id: "f1", status: "streaming" }));
    const chunks = ["Run:\n```bash\nkill $1\n", "echo \\(x\\)\n", "```\nDone."];
    const body = ".message[data-message-id='f1'] .message-body";
    const read = () =>
      page.$eval(body, (el) => ({
        code: [...el.querySelectorAll("pre code")].map((c) => c.textContent),
        paragraphs: [...el.querySelectorAll(".markdown p")].map((p) => p.textContent),
        text: el.textContent ?? "",
      }));

    await stream(page, "f1", chunks.slice(0, 1));
    await page.waitForSelector(`${body} pre code`);
    let seen = await read();
    assert.deepEqual(seen.code, ["kill $1\n"], "an open fence already shows as code");
    assert.deepEqual(seen.paragraphs, ["Run:"]);

    await stream(page, "f1", chunks.slice(1, 2));
    await page.waitForFunction((sel) => document.querySelector(`${sel} pre code`)?.textContent?.includes("echo"), body);
    seen = await read();
    assert.deepEqual(seen.code, ["kill $1\necho \\(x\\)\n"], "backslashes stay literal inside the fence");

    await stream(page, "f1", chunks.slice(2));
    await page.waitForFunction((sel) => [...document.querySelectorAll(`${sel} p`)].some((p) => p.textContent === "Done."), body);
    seen = await read();
    assert.deepEqual(seen.code, ["kill $1\necho \\(x\\)\n"]);
    assert.deepEqual(seen.paragraphs, ["Run:", "Done."]);
    assert.ok(!seen.text.includes("```"), "no fence markers leak into the text");
    assert.equal(await page.$eval(`${body} pre code`, (c) => c.className), "language-bash");

    await host.emit("message/finished", message({ id: "f1", text: chunks.join("") }));
    await page.waitForSelector(".message[data-message-id='f1'][data-status='done']");
    seen = await read();
    assert.deepEqual(seen.code, ["kill $1\necho \\(x\\)\n"]);
    assert.deepEqual(seen.paragraphs, ["Run:", "Done."]);
    const order = await page.$eval(body, (el) => [...el.querySelectorAll("pre, p")].map((n) => n.tagName));
    assert.deepEqual(order, ["P", "PRE", "P"], "code block between Run: and Done.");
  });

  it("streams tool calls and text parts in order, replacing a tool call by its id", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("message/started", message({ id: "t1", status: "streaming" }));
    /** @param {Omit<import("../../src/shared/protocol").HostEvents["message/delta"], "channelId" | "messageId">} d */
    const delta = (d) => host.emit("message/delta", { channelId: "ch-general", messageId: "t1", ...d });
    await delta({ appendText: "Looking at the tests." });
    await delta({ part: { type: "toolCall", toolCallId: "tc1", title: "npm test", kind: "execute", status: "in_progress" } });
    await delta({ appendText: "They pass." });
    await delta({ part: { type: "toolCall", toolCallId: "tc1", title: "npm test", kind: "execute", status: "completed", content: "42 passing" } });
    await page.waitForSelector(".tool-call[data-tool-call-id='tc1'][data-status='completed']");
    const kinds = await page.$$eval(".message[data-message-id='t1'] .message-body > *", (els) => els.map((e) => e.className.split(" ")[0]));
    assert.deepEqual(kinds.slice(0, 3), ["markdown", "tool-call", "markdown"]);
    assert.equal(await page.$$eval(".tool-call", (els) => els.length), 1);
    assert.match(await page.innerText(".tool-call"), /execute[\s\S]*npm test[\s\S]*done[\s\S]*42 passing/i);
    assert.equal((await page.innerText(".tool-call .tool-content")).trim(), "42 passing");
  });

  it("ignores deltas that arrive after message/finished, and events for other channels", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("message/started", message({ id: "l1", status: "streaming" }));
    await host.emit("message/finished", message({ id: "l1", text: "final" }));
    await host.emit("message/delta", { channelId: "ch-general", messageId: "l1", appendText: " LATE" });
    await host.emit("message/started", message({ id: "x1", channelId: "ch-other", status: "streaming" }));
    await page.waitForSelector(".message[data-message-id='l1'][data-status='done']");
    await frames(page, 3);
    assert.equal(await page.innerText(".message[data-message-id='l1'] .message-body"), "final");
    assert.equal(await page.$(".message[data-message-id='x1']"), null);
  });
  it("a committed answer whose text the host left out (streamedText) shows the text that streamed; a view that lacks it reopens the channel", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const tool = { type: "toolCall", toolCallId: "t1", title: "Read file", status: "completed" };
    await host.emit("message/started", message({ id: "s9", status: "streaming", text: "First " }));
    await stream(page, "s9", ["part, ", "then "]);
    await host.emit("message/delta", { channelId: "ch-general", messageId: "s9", part: tool });
    await stream(page, "s9", ["the second ", "part."]);
    /** @type {import("../../src/shared/protocol").HostEvents["message/finished"]} */
    const committed = { ...message({ id: "s9", stopReason: "end_turn" }), parts: [{ type: "text", text: "" }, tool, { type: "text", text: "" }], streamedText: [17, 16] };
    await host.emit("message/finished", committed);
    await page.waitForSelector(".message[data-message-id='s9'][data-status='done']");
    const body = ".message[data-message-id='s9'] .message-body";
    assert.match(await page.innerText(body), /First part, then[\s\S]*Read file[\s\S]*the second part\./, "both texts, around the tool call");
    assert.equal((await host.requests("channel/open")).length, 1, "no second channel/open");

    // A message this view never saw stream (or saw only in part) cannot be filled in: the channel is opened again,
    // and its snapshot shows the committed text.
    await page.evaluate(() => {
      const h = window.__host;
      /** @type {import("../../src/shared/protocol").MessageView} */
      const answer = { id: "s10", channelId: "ch-general", author: { kind: "agent", agentName: "demo" }, parts: [{ type: "text", text: "The whole committed answer." }], createdAt: Date.now(), status: "done", stopReason: "end_turn" };
      h.open = { ...h.open, messages: [...h.open.messages, answer] };
    });
    await host.emit("message/started", message({ id: "s10", status: "streaming" }));
    await stream(page, "s10", ["The whole"]);
    await host.emit("message/finished", { ...message({ id: "s10", stopReason: "end_turn" }), parts: [{ type: "text", text: "" }], streamedText: [27] });
    await host.waitForRequests("channel/open", 2);
    await page.waitForSelector(".message[data-message-id='s10'][data-status='done']");
    assert.equal(await page.innerText(".message[data-message-id='s10'] .message-body"), "The whole committed answer.");
    assert.deepEqual(await view.problems(), []);
  });
  it("field case 26: a new ACP message in the same answer (a notice after a link) renders apart, the link intact", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await host.emit("message/started", message({ id: "s11", status: "streaming" }));
    await host.emit("message/delta", { channelId: "ch-general", messageId: "s11", appendText: "See [the billing " });
    await host.emit("message/delta", { channelId: "ch-general", messageId: "s11", appendText: "page](https://example.com/billing)" });
    // What the host sends when the next chunk carries another messageId (or none after one): a new text part.
    await host.emit("message/delta", { channelId: "ch-general", messageId: "s11", part: { type: "text", text: "" }, appendText: "Here is a notice." });
    const body = ".message[data-message-id='s11'] .message-body";
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("notice"), body);
    await frames(page, 2);
    const links = await page.$$eval(`${body} a`, (as) => as.map((a) => ({ text: a.textContent, href: a.getAttribute("href") })));
    assert.deepEqual(links, [{ text: "the billing page", href: "https://example.com/billing" }], "the link ends where its message ends");
    assert.equal(await page.$$eval(`${body} .markdown`, (els) => els.length), 2, "two messages, two Markdown blocks");
    assert.deepEqual(await view.problems(), []);
  });
});
