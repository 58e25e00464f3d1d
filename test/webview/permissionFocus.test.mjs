// @ts-check
// `Sidekicks: Go to next permission request` (permission/focus): the card's first option takes the focus, its message
// rendered first when the virtual list shows other messages, so Enter answers it. A new-user trial found the command
// showed the channel and left the focus elsewhere.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

/** @param {string} requestId @returns {import("../../src/shared/protocol").PermissionPart} */
const permission = (requestId) => ({
  type: "permission",
  requestId,
  toolCallId: `tc-${requestId}`,
  title: "rm -rf build/",
  options: [
    { optionId: "allow", name: "Allow once", kind: "allow_once" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ],
});

/** 150 messages; the 11th waits for a permission answer (far above the latest, outside the rendered window). */
function longHistory(channelId = "ch-general") {
  const messages = [];
  for (let i = 0; i < 150; i++) {
    if (i === 10) messages.push(message({ id: "asks", channelId, status: "streaming", parts: [{ type: "text", text: "I need to clean the build." }, permission("r-old")] }));
    else messages.push(message({ id: `m${i}`, channelId, author: i % 2 ? "agent" : "user", text: `message ${i}\n\nwith a second paragraph so rows have some height` }));
  }
  return messages;
}

/** @param {import("./harness.mjs").Page} page */
const focused = (page) => page.evaluate(() => ({ option: document.activeElement?.getAttribute("data-option-id"), request: document.activeElement?.closest(".permission")?.getAttribute("data-request-id") }));

describe("permission/focus", () => {
  const env = withBrowser();

  it("renders a card far up the history, focuses its first option, and Enter answers it", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: longHistory() }) });
    const { page, host } = view;
    assert.equal(await page.$(".message[data-message-id='asks']"), null, "the virtual list starts at the latest message");
    await host.emit("permission/focus", { channelId: "ch-general", messageId: "asks", requestId: "r-old" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-option-id") === "allow");
    assert.deepEqual(await focused(page), { option: "allow", request: "r-old" });
    const box = await page.$eval(".permission[data-request-id='r-old']", (card) => {
      const r = card.getBoundingClientRect();
      const h = /** @type {Element} */ (document.querySelector(".history")).getBoundingClientRect();
      return { inside: r.bottom > h.top && r.top < h.bottom };
    });
    assert.ok(box.inside, "the card is scrolled into view");
    // Arrows move between the options (a trial found only Tab did), round the ends; the history's own Up/Down do not
    // take them.
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await focused(page), { option: "reject", request: "r-old" });
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await focused(page), { option: "allow", request: "r-old" });
    await page.keyboard.press("ArrowUp");
    assert.deepEqual(await focused(page), { option: "reject", request: "r-old" });
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual(await focused(page), { option: "allow", request: "r-old" });
    // Home and End to the first and the last option (a tryout's Home on Reject stayed there; the history's own Home
    // would go to its first message).
    await page.keyboard.press("End");
    assert.deepEqual(await focused(page), { option: "reject", request: "r-old" });
    await page.keyboard.press("Home");
    assert.deepEqual(await focused(page), { option: "allow", request: "r-old" });
    await page.keyboard.press("Enter");
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r-old", optionId: "allow" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("after a channel/reload to the waiting channel, focuses the card once that channel opened; Space answers", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await page.evaluate((next) => void (window.__host.open = next), openResult({ name: "review", messages: longHistory("ch-review") }));
    await host.emit("channel/reload", { name: "review" });
    await host.emit("permission/focus", { channelId: "ch-review", messageId: "asks", requestId: "r-old" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-option-id") === "allow");
    assert.match(await page.innerText(".channel-header"), /#review/);
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { option: "reject", request: "r-old" });
    await page.keyboard.press("Space");
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r-old", optionId: "reject" }]);
    assert.deepEqual(await view.problems(), []);
  });
});
