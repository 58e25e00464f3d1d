// @ts-check
// A history search result chosen (`Sidekicks: Search history…` → `message/reveal`): the view loads the pages before
// the latest one until the message is loaded, renders it, scrolls it into view and focuses it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

/** 200 messages `m000`…`m199`, oldest first (ids sort by time, as ULIDs do). */
const ALL = Array.from({ length: 200 }, (_, i) => {
  const id = `m${String(i).padStart(3, "0")}`;
  return message({ id, author: i % 2 ? "agent" : "user", text: `Message ${id}.\n\nwith a second paragraph so rows have some height` });
});

describe("message/reveal", () => {
  const env = withBrowser();

  it("loads older pages until a message far back is in, then shows and focuses it", async () => {
    const view = await openView(env.browser, env.server.origin, { open: { ...openResult({ messages: ALL.slice(150) }), more: true } });
    const { page, host } = view;
    await page.evaluate((messages) => {
      window.__host.handlers["channel/older"] = ({ beforeId, limit = 50 }) => {
        const end = messages.findIndex((m) => m.id === beforeId);
        const start = Math.max(0, end - limit);
        return { messages: messages.slice(start, end), more: start > 0 };
      };
    }, ALL);
    await host.emit("message/reveal", { channelId: "ch-general", messageId: "m020" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m020");
    const inside = await page.$eval(".message[data-message-id='m020']", (row) => {
      const r = row.getBoundingClientRect();
      const h = /** @type {Element} */ (document.querySelector(".history")).getBoundingClientRect();
      return r.bottom > h.top && r.top < h.bottom;
    });
    assert.ok(inside, "the message is scrolled into view");
    assert.match(await page.innerText(".message[data-message-id='m020']"), /Message m020\./);
    assert.deepEqual(await view.problems(), []);
  });

  it("after a channel/reload to the result's channel, reveals the message once that channel opened", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const review = ALL.map((m) => ({ ...m, channelId: "ch-review" }));
    await page.evaluate((messages) => {
      window.__host.open = { channel: { id: "ch-review", name: "review", members: [{ name: "demo", state: "ready" }] }, messages: messages.slice(150), config: { state: "ok", path: "/work/sidekicks.yaml", problems: [] }, more: true };
      window.__host.handlers["channel/older"] = ({ beforeId, limit = 50 }) => {
        const end = messages.findIndex((m) => m.id === beforeId);
        const start = Math.max(0, end - limit);
        return { messages: messages.slice(start, end), more: start > 0 };
      };
    }, review);
    await host.emit("channel/reload", { name: "review" });
    await host.emit("message/reveal", { channelId: "ch-review", messageId: "m120" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-message-id") === "m120");
    assert.match(await page.innerText(".channel-header"), /#review/);
    assert.deepEqual(await view.problems(), []);
  });
});
