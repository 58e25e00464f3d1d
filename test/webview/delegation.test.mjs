// @ts-check
// Delegation as the user sees it: an agent answer started by another agent's mention says who delegated it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

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
});
