// @ts-check
// Durable turns as the user sees them: an interrupted answer keeps what arrived, says "interrupted" (a warning, not an
// error), marks the agent's unfinished tool call "outcome unknown" and offers Retry; a retried answer shows where the
// new attempt begins; a queued message offers Send now; a stopped answer or a cancelled queued message offers Run
// again (issue 15, item 4). Screenshots in light and dark.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");

/** @returns {import("../../src/shared/protocol").MessageView} */
function interrupted() {
  return {
    ...message({
      id: "a1",
      agentName: "demo",
      parts: [
        { type: "text", text: "I am halfway through the **refactor**:" },
        { type: "toolCall", toolCallId: "t1", title: "Edit src/main.ts", kind: "edit", status: "in_progress", outcomeUnknown: true },
      ],
      status: "error",
      error: { code: "turn/interrupted", message: "Interrupted: the window closed or Sidekicks restarted while @demo was answering (attempt 1). What arrived before is kept; Retry runs it again." },
    }),
    outcome: "interrupted",
    retryable: true,
  };
}

describe("durable turns in the view", () => {
  const env = withBrowser();

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`an interrupted answer (${theme}): its text, "outcome unknown" on the unfinished tool call, and Retry, which asks the host`, async () => {
      const user = message({ id: "u1", author: "user", text: "@demo refactor main.ts", to: ["demo"] });
      const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [user, interrupted()] }), theme, width: 360 });
      const { page, host } = view;
      const card = ".message[data-message-id='a1'] .tool-call";
      await page.waitForSelector(card);
      assert.equal(await page.getAttribute(card, "data-outcome-unknown"), "true");
      assert.equal((await page.innerText(`${card} .status-badge`)).trim(), "outcome unknown");
      assert.match(await page.innerText(".message[data-message-id='a1'] .message-interrupted"), /Interrupted: .*Retry runs it again/);
      assert.equal(await page.getAttribute(".message[data-message-id='a1']", "data-outcome"), "interrupted");
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-interrupted-${theme}.png`) });
      await page.click(".message[data-message-id='a1'] .message-retry");
      assert.deepEqual(await host.waitForRequests("turn/retry"), [{ messageId: "a1" }]);
      assert.deepEqual(await view.problems(), []);
    });
  }

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`a stopped answer and a cancelled queued message (${theme}) say Cancelled and offer Run again, which asks the host`, async () => {
      const user = message({ id: "u1", author: "user", text: "@demo run the tests", to: ["demo"] });
      /** @type {import("../../src/shared/protocol").MessageView} */
      const stopped = {
        ...message({ id: "a5", parts: [{ type: "text", text: "Running the test suite:" }, { type: "toolCall", toolCallId: "t1", title: "npm test", kind: "execute", status: "in_progress", cancelled: true }] }),
        stopReason: "cancelled",
        outcome: "cancelled",
        retryable: true,
      };
      const later = message({ id: "u2", author: "user", text: "@demo then fix the lint", to: ["demo"] });
      /** @type {import("../../src/shared/protocol").MessageView} */
      const dropped = { ...message({ id: "a6" }), stopReason: "cancelled", outcome: "cancelled", retryable: true };
      const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [user, stopped, later, dropped] }), theme, width: 360 });
      const { page, host } = view;
      for (const id of ["a5", "a6"]) {
        const again = `.message[data-message-id='${id}'] .message-retry`;
        await page.waitForSelector(again);
        assert.equal((await page.innerText(again)).trim(), "Run again");
        assert.match((await page.getAttribute(again, "title")) ?? "", /^Run this request again in this message/);
        assert.equal((await page.innerText(`.message[data-message-id='${id}'] .message-note`)).trim(), "Cancelled");
      }
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-cancelled-run-again-${theme}.png`) });
      await page.click(".message[data-message-id='a6'] .message-retry");
      await page.click(".message[data-message-id='a5'] .message-retry");
      assert.deepEqual(await host.waitForRequests("turn/retry", 2), [{ messageId: "a6" }, { messageId: "a5" }]);
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("a tool call the user stopped while it ran says \"cancelled\" (with why), not its last status", async () => {
    const stopped = message({
      id: "a2",
      agentName: "demo",
      parts: [
        { type: "toolCall", toolCallId: "t1", title: "Run the tests", kind: "execute", status: "in_progress", cancelled: true },
        { type: "toolCall", toolCallId: "t2", title: "Read src/main.ts", kind: "read", status: "completed" },
        // Codex ran its command on after Stop and reported its end later (a late update): not "cancelled".
        { type: "toolCall", toolCallId: "t3", title: "sleep 30", kind: "execute", status: "completed", cancelled: true },
        { type: "toolCall", toolCallId: "t4", title: "Search the docs", kind: "search", status: "in_progress", cancelled: true },
      ],
      status: "done",
    });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [{ ...stopped, stopReason: "cancelled", outcome: "cancelled" }] }), width: 360 });
    const { page } = view;
    /** @param {string} id */
    const card = (id) => `.message[data-message-id='a2'] .tool-call[data-tool-call-id='${id}']`;
    await page.waitForSelector(card("t1"));
    assert.equal(await page.getAttribute(card("t1"), "data-cancelled"), "true");
    assert.equal((await page.innerText(`${card("t1")} .status-badge`)).trim(), "cancelled");
    assert.equal(
      await page.getAttribute(`${card("t1")} .status-badge`, "title"),
      "Stopped before the agent reported its end. Stop asks the agent to end its command; a command the agent runs itself may go on until it ends (Codex lets it).",
    );
    assert.equal(await page.getAttribute(`${card("t4")} .status-badge`, "title"), "Stopped before the agent reported its end");
    assert.equal((await page.innerText(`${card("t3")} .status-badge`)).trim(), "done after Stop");
    assert.equal(await page.getAttribute(`${card("t3")} .status-badge`, "title"), "You stopped the answer, but this went on running: the agent reported its end afterwards.");
    assert.equal(await page.$(`${card("t1")} .status-in_progress`), null, "the last status (running) is not shown");
    assert.equal((await page.innerText(`${card("t2")} .status-badge`)).trim(), "done", "a finished tool call keeps its status");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-toolcall-cancelled.png") });
    assert.deepEqual(await view.problems(), []);
  });

  it("a tool call the agent never finished when it ended its turn: the spinner goes, the card says \"no result\" (not done, not failed)", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 360 });
    const { page, host } = view;
    /** @param {string} id */
    const card = (id) => `.message[data-message-id='a3'] .tool-call[data-tool-call-id='${id}']`;
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const running = { type: "toolCall", toolCallId: "t1", title: "Run the tests", kind: "execute", status: "in_progress" };
    await host.emit("message/started", message({ id: "a3", status: "streaming", parts: [running] }));
    await page.waitForSelector(`${card("t1")} .status-badge.live.status-in_progress`);
    assert.equal(await page.$eval(`${card("t1")} .status-badge`, (el) => getComputedStyle(el, "::before").content), '""', "while it streams, the spinner dot shows");

    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const done = { type: "toolCall", toolCallId: "t2", title: "Read src/main.ts", kind: "read", status: "completed" };
    await host.emit("message/finished", { ...message({ id: "a3", parts: [{ ...running, noResult: true }, done], stopReason: "end_turn" }), outcome: "completed" });
    await page.waitForSelector(`${card("t1")}[data-no-result='true']`);
    assert.equal((await page.innerText(`${card("t1")} .status-badge`)).trim(), "no result");
    assert.match((await page.getAttribute(`${card("t1")} .status-badge`, "title")) ?? "", /ended its turn without reporting this tool call's outcome \(its last status: running\)/);
    assert.equal(await page.$(`${card("t1")} .status-badge.live`), null, "no spinner once the turn ended");
    assert.equal(await page.$eval(`${card("t1")} .status-badge`, (el) => getComputedStyle(el, "::before").content), "none", "no spinner dot");
    assert.equal(await page.$(`${card("t1")} .status-in_progress, ${card("t1")} .status-completed, ${card("t1")} .status-failed`), null, "neither running, done nor failed");
    assert.equal((await page.innerText(`${card("t2")} .status-badge`)).trim(), "done", "a finished tool call keeps its status");
    assert.equal(await page.getAttribute(card("t2"), "data-no-result"), null);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-toolcall-no-result.png") });
    assert.deepEqual(await view.problems(), []);
  });

  it("an answer saved before \"no result\" existed, with a tool call still pending, shows \"no result\" too", async () => {
    const old = message({ id: "a4", parts: [{ type: "toolCall", toolCallId: "t1", title: "Search", kind: "search", status: "pending" }], stopReason: "end_turn" });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [old] }), width: 360 });
    const { page } = view;
    const card = ".message[data-message-id='a4'] .tool-call";
    await page.waitForSelector(card);
    assert.equal(await page.getAttribute(card, "data-no-result"), "true");
    assert.equal((await page.innerText(`${card} .status-badge`)).trim(), "no result");
    assert.deepEqual(await view.problems(), []);
  });

  it("a retry streams into the same message below a divider; the earlier attempt stays above it", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [interrupted()] }), width: 360 });
    const { page, host } = view;
    await page.waitForSelector(".message-retry");
    const note = "[Sidekicks: this is attempt 2 of this request. …]";
    /** @type {import("../../src/shared/protocol").MessageView} */
    const restarted = { ...interrupted(), status: "streaming", error: undefined, outcome: undefined, retryable: undefined, attempt: 2, parts: [...interrupted().parts, { type: "retry", attempt: 2, note }] };
    await host.emit("message/started", restarted);
    await host.emit("message/delta", { channelId: "ch-general", messageId: "a1", appendText: "Starting again: the edit was not applied." });
    // The divider comes with the start, the text with the delta, rendered in a frame of its own: wait for both.
    await page.waitForSelector(".message[data-message-id='a1'] .retry-divider ~ .markdown");
    assert.equal(await page.$(".message[data-message-id='a1'] .message-retry"), null, "no Retry while it runs");
    const order = await page.$$eval(".message[data-message-id='a1'] .message-body > *", (els) => els.map((e) => e.className.split(" ")[0]));
    assert.deepEqual(order.slice(0, 4), ["markdown", "tool-call", "retry-divider", "markdown"]);
    assert.equal(await page.getAttribute(".message[data-message-id='a1'] .retry-divider", "title"), note);
    assert.match(await page.innerText(".message[data-message-id='a1'] .message-attempt"), /attempt 2/);
    await host.emit("message/finished", { ...restarted, status: "done", outcome: "completed", stopReason: "end_turn", parts: [...restarted.parts, { type: "text", text: "Starting again: the edit was not applied." }] });
    await page.waitForSelector(".message[data-message-id='a1'][data-status='done']");
    assert.equal(await page.$(".message[data-message-id='a1'] .message-interrupted"), null);
    await page.screenshot({ path: path.join(outDir, "webview-retried.png") });
    assert.deepEqual(await view.problems(), []);
  });

  it("a new attempt's tool call with an id the earlier attempt used gets its own card below the divider; the earlier card stays as it ended", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [interrupted()] }), width: 360 });
    const { page, host } = view;
    await page.waitForSelector(".message-retry");
    /** @type {import("../../src/shared/protocol").MessageView} */
    const restarted = { ...interrupted(), status: "streaming", error: undefined, outcome: undefined, retryable: undefined, attempt: 2, parts: [...interrupted().parts, { type: "retry", attempt: 2, note: "…" }] };
    await host.emit("message/started", restarted);
    await host.emit("message/delta", { channelId: "ch-general", messageId: "a1", part: { type: "toolCall", toolCallId: "t1", title: "Edit src/main.ts", kind: "edit", status: "completed" } });
    await page.waitForSelector(".message[data-message-id='a1'] .retry-divider + .tool-call");
    const cards = await page.$$eval(".message[data-message-id='a1'] .message-body > *", (els) => els.map((e) => `${e.className.split(" ")[0]}${e.getAttribute("data-outcome-unknown") === "true" ? ":unknown" : ""}`));
    assert.deepEqual(cards.slice(0, 4), ["markdown", "tool-call:unknown", "retry-divider", "tool-call"]);
    assert.deepEqual(await view.problems(), []);
  });

  it("a queued message offers Send now and Cancel; Send now asks the host", async () => {
    const running = message({ id: "r1", agentName: "demo", text: "Working on the first one", status: "streaming" });
    const queued = message({ id: "q1", agentName: "demo", status: "queued" });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [running, queued] }), width: 300 });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='q1'] .message-send-now");
    assert.equal(await page.$(".message[data-message-id='r1'] .message-send-now"), null, "only queued messages can be sent now");
    assert.equal((await page.innerText(".message[data-message-id='q1'] .message-stop")).trim(), "Cancel");
    await page.click(".message[data-message-id='q1'] .message-send-now");
    assert.deepEqual(await host.waitForRequests("turn/sendNow"), [{ messageId: "q1" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("each queued message says how many to the same agent are queued before it; the count follows the queue", async () => {
    const running = message({ id: "r1", agentName: "demo", text: "Working on the first one", status: "streaming" });
    const queued = ["q1", "q2", "q3"].map((id) => message({ id, agentName: "demo", status: "queued" }));
    const other = message({ id: "o1", agentName: "odie", status: "queued" });
    const open = openResult({ members: [{ name: "demo", state: "busy" }, { name: "odie", state: "busy" }], messages: [running, queued[0], other, queued[1], queued[2]] });
    const view = await openView(env.browser, env.server.origin, { open, width: 300 });
    const { page, host } = view;
    /** @param {string} id */
    const note = (id) => page.innerText(`.message[data-message-id='${id}'] .message-queued`);
    await page.waitForSelector(".message[data-message-id='q3'] .message-queued");
    assert.equal(await note("q1"), "Queued: demo answers after its current message.");
    assert.equal(await note("o1"), "Queued: odie answers after its current message.", "another agent's queue is its own");
    assert.equal(await note("q2"), "Queued: demo answers after its current message and the 1 queued before this one.");
    assert.equal(await note("q3"), "Queued: demo answers after its current message and the 2 queued before this one.");
    // q1 starts: the others move up.
    await host.emit("message/started", { ...queued[0], status: "streaming" });
    await page.waitForFunction(() => document.querySelector(".message[data-message-id='q3'] .message-queued")?.textContent?.includes("the 1 queued"));
    assert.equal(await note("q2"), "Queued: demo answers after its current message.");
    assert.deepEqual(await view.problems(), []);
  });
});
