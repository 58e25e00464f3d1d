// A long streamed answer: every block shows, in order, while older parts are kept as final chunks (webview/markdown.ts,
// components/Markdown.tsx); colour codes split across deltas never show raw.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, message, openView, withBrowser } from "./harness.mjs";

/** `count` sections of Markdown: a heading, a paragraph, a list and a code fence each. */
function answer(count) {
  const parts = [];
  for (let i = 0; i < count; i++) {
    parts.push(
      `## Step ${i}\n\nThe agent reads \`file${i}.ts\` and updates the handler so that each request is validated before it reaches the store.\n\n` +
        `- first item of step ${i}\n- second item of step ${i}\n\n` +
        "```ts\n" + `const value${i} = store.get("key${i}");\n` + "```\n\nThen it runs the tests again.\n\n",
    );
  }
  return parts.join("");
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
        /** @type {any} */ (window).__host.emit("message/delta", { channelId: "ch-general", messageId: "L", appendText: all.slice(at, at + 1000) });
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
