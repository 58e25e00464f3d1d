// @ts-check
// Delegation as the user sees it: an agent answer started by another agent's mention says who delegated it.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."), "test-results");

describe("delegation", () => {
  const env = withBrowser();

  it("shows 'delegated by @agent' on a delegated answer, and nothing on the others", async () => {
    const parent = message({ id: "d1", agentName: "garfield", text: "@odie fetch the paper" });
    const child = { ...message({ id: "d2", agentName: "odie", text: "Fetched." }), delegatedBy: "garfield", parentMessageId: "d1" };
    /** @type {import("../../src/shared/protocol").MemberView[]} */
    const members = [{ name: "garfield", state: "ready" }, { name: "odie", state: "ready" }];
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members, messages: [parent, child] }), width: 300 });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='d2'] .message-delegated");
    assert.equal(await page.innerText(".message[data-message-id='d2'] .message-delegated"), "delegated by @garfield");
    assert.equal(await page.$(".message[data-message-id='d1'] .message-delegated"), null);
    assert.deepEqual(await view.problems(), []);
  });

  it("delegation through the delegate tool: the parent's card names the child and links to it; the child says 'via tool' and links back", async () => {
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const card = { type: "toolCall", toolCallId: "delegate-I1", title: "Delegated to @odie", kind: "other", status: "completed", content: "fetch the paper", delegation: { member: "odie", childMessageId: "t2" } };
    const parent = { ...message({ id: "t1", agentName: "garfield", text: "Asking odie." }), turnId: "T1" };
    parent.parts = [...parent.parts, card, { type: "text", text: "Odie fetched it." }];
    const child = { ...message({ id: "t2", agentName: "odie", text: "Fetched the paper." }), turnId: "T2", delegatedBy: "garfield", parentMessageId: "t1", delegatedVia: /** @type {"tool"} */ ("tool") };
    /** @type {import("../../src/shared/protocol").MemberView[]} */
    const members = [{ name: "garfield", state: "ready" }, { name: "odie", state: "ready" }];
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members, messages: [parent, child] }), width: 320 });
    const { page } = view;
    const link = ".message[data-message-id='t1'] .tool-call[data-tool-call-id='delegate-I1'] .tool-delegation";
    await page.waitForSelector(link);
    assert.equal(await page.innerText(link), "@odie's answer");
    assert.equal(await page.innerText(".message[data-message-id='t2'] .message-delegated"), "delegated by @garfield via tool");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-delegate-tool-320.png") });
    await page.click(link);
    await page.waitForFunction((id) => document.activeElement?.getAttribute("data-message-id") === id, "t2");
    await page.click(".message[data-message-id='t2'] .message-delegated");
    await page.waitForFunction((id) => document.activeElement?.getAttribute("data-message-id") === id, "t1");
    assert.deepEqual(await view.problems(), []);
  });
  it("the member's answer is nested under the delegate card while it runs: its state, the start of its text, its own Stop", async () => {
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const card = { type: "toolCall", toolCallId: "toolu_1", title: "mcp__sidekicks__delegate", kind: "other", status: "in_progress", delegation: { member: "odie", childMessageId: "n2" } };
    const parent = { ...message({ id: "n1", agentName: "garfield", text: "Asking odie.", status: "streaming" }), turnId: "T1" };
    parent.parts = [...parent.parts, card];
    const child = { ...message({ id: "n2", agentName: "odie", text: "Counting the tests in src/ and test/", status: "streaming" }), turnId: "T2", delegatedBy: "garfield", parentMessageId: "n1", delegatedVia: /** @type {"tool"} */ ("tool") };
    /** @type {import("../../src/shared/protocol").MemberView[]} */
    const members = [{ name: "garfield", state: "busy" }, { name: "odie", state: "busy" }];
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members, messages: [parent, child] }), width: 300 });
    const { page, host } = view;
    const nested = ".message[data-message-id='n1'] .tool-call[data-tool-call-id='toolu_1'] .delegate-child";
    await page.waitForSelector(`${nested}[data-child-status='streaming']`);
    assert.equal(await page.innerText(`${nested} .delegate-child-state`), "answering…");
    assert.equal(await page.innerText(`${nested} .delegate-child-preview`), "Counting the tests in src/ and test/");
    const cardSel = ".message[data-message-id='n1'] .tool-call[data-tool-call-id='toolu_1']";
    assert.equal(await page.innerText(`${cardSel} .tool-title`), "Delegated to @odie", "the agent's MCP tool name is said in words");
    assert.equal(await page.$(`${cardSel} .tool-kind`), null, "no 'other' kind label on a delegation");
    await host.emit("message/delta", { channelId: "ch-general", messageId: "n2", appendText: ": 42 so far" });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.endsWith("42 so far"), `${nested} .delegate-child-preview`);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-delegate-nested-300.png") });
    const author = await page.$eval(".message[data-message-id='n2'] .message-author", (el) => ({ text: el.textContent, whole: el.scrollWidth <= el.clientWidth }));
    assert.deepEqual(author, { text: "odie", whole: true }, "the member's name is whole; its 'delegated by' note gives way first");
    await page.click(`${nested} .delegate-child-stop`);
    assert.deepEqual(await host.waitForRequests("turn/cancel"), [{ messageId: "n2" }], "Stop stops the member's answer, not the parent's");
    await host.emit("message/finished", { ...child, status: "done", outcome: "completed", parts: [{ type: "text", text: "There are 42 tests." }] });
    await page.waitForSelector(`${nested}[data-child-status='done']`);
    assert.equal(await page.innerText(`${nested} .delegate-child-state`), "answered");
    assert.equal(await page.$(`${nested} .delegate-child-stop`), null, "no Stop once it answered");
    // The agent's tool result is the member's answer: shown once, nested, not again as the card's output.
    await host.emit("message/delta", { channelId: "ch-general", messageId: "n1", part: { ...card, status: "completed", content: "There are 42 tests.\n" } });
    await page.waitForSelector(`${cardSel}[data-status='completed']`);
    assert.equal(await page.$(`${cardSel} .tool-content`), null, "the result that repeats the member's answer is not shown twice");
    assert.equal(await page.innerText(`${nested} .delegate-child-preview`), "There are 42 tests.");
    await host.emit("message/delta", { channelId: "ch-general", messageId: "n1", part: { ...card, status: "completed", content: "odie did not answer in time" } });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "odie did not answer in time", `${cardSel} .tool-content`);
    assert.deepEqual(await view.problems(), []);
  });
});
