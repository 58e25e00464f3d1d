// @ts-check
// Errors that no longer hold go away: a refused send's reason once the draft is edited or the channel's members or
// the roster change (a new-user trial kept "no agent named @slow" after adding @slow).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, openResult, openView, withBrowser } from "./harness.mjs";

/** Sends "@slow hi" to #general (members: demo); resolves once the refusal shows. @param {import("./harness.mjs").Page} page */
async function refusedSend(page) {
  await page.click("#composer textarea");
  await page.keyboard.type("@slow hi");
  await page.keyboard.press("Enter");
  await page.waitForSelector(".send-error");
  assert.match(await page.innerText(".send-error"), /No agent named @slow/);
}

describe("stale send errors", () => {
  const env = withBrowser();

  it("editing the draft clears the send error and keeps the text", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page } = view;
    await refusedSend(page);
    await page.keyboard.press("End");
    await page.keyboard.type("!");
    await page.waitForSelector(".send-error", { state: "detached" });
    assert.equal(await page.inputValue("#composer textarea"), "@slow hi!");
    assert.equal(await page.getAttribute("#composer textarea", "aria-invalid"), null, "the field is no longer marked invalid");
    assert.deepEqual(await view.problems(), []);
  });

  it("a member joining the channel clears it; an unrelated change of the channel does not", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await refusedSend(page);
    await host.emit("channel/changed", openResult({ members: [{ name: "demo", state: "busy" }] }).channel);
    await frames(page, 3);
    assert.match(await page.innerText(".send-error"), /No agent named @slow/, "the members did not change: the reason holds");
    await host.emit("channel/changed", openResult({ members: [{ name: "demo", state: "ready" }, { name: "slow", state: "ready" }] }).channel);
    await page.waitForSelector(".send-error", { state: "detached" });
    assert.equal(await page.inputValue("#composer textarea"), "@slow hi", "the draft stays, ready to send again");
    assert.deepEqual(await view.problems(), []);
  });

  it("the roster being read again clears it", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await refusedSend(page);
    await host.emit("config/changed", { state: "ok", path: "/work/sidekicks.yaml", problems: [] });
    await page.waitForSelector(".send-error", { state: "detached" });
    assert.deepEqual(await view.problems(), []);
  });
});

describe("the history held by another window, then released", () => {
  const env = withBrowser();
  const LOCKED = { code: "store/locked", message: "The Sidekicks history is open in another window. Close it, or wait: this window retries." };

  it("on channel/reload the tabs come back, the stale errors go and the text typed meanwhile is kept", async () => {
    // This window starts while the other holds the history: the channel and the list are refused.
    const view = await openView(env.browser, env.server.origin, { refuse: { methods: ["channel/open", "channels/list", "channel/create"], error: LOCKED } });
    const { page, host } = view;
    await page.waitForSelector(".open-error");
    assert.equal(await page.$$eval(".channel-tab", (tabs) => tabs.length), 0, "no tab while the history is locked");
    await page.click(".channel-add");
    await page.fill(".channel-create-name", "later");
    await page.click(".channel-create-ok");
    await page.waitForFunction(() => /another window/.test(document.querySelector(".channel-create-error")?.textContent ?? ""));
    await page.click("#composer textarea");
    await page.keyboard.type("@demo typed while locked");
    await page.waitForFunction(() => (/** @type {import("../../webview/viewState").PersistedState | undefined} */ (window.__host.state))?.draft === "@demo typed while locked");
    // Send cannot be done here yet, and says why (a trial found it blue and ready, then refused).
    assert.equal(await page.getAttribute("#composer vscode-button.send", "disabled"), "");
    assert.match((await page.getAttribute("#composer vscode-button.send", "title")) ?? "", /kept, and can be sent once the channel opens/);

    // The other window closed: the host opened the store and says so.
    await page.evaluate(() => void (window.__host.refuse = undefined));
    await host.emit("channel/reload", { name: "general" });
    await page.waitForSelector(".channel-tab[data-channel='general'][aria-current='page']");
    await page.waitForSelector(".open-error", { state: "detached" });
    assert.equal(await page.innerText(".channel-create-error"), "", "the locked-store error is gone from the new-channel form");
    assert.equal(await page.inputValue("#composer textarea"), "@demo typed while locked", "the text typed meanwhile is in #general's composer");
    assert.equal(await page.getAttribute("#composer vscode-button.send", "disabled"), null, "and can be sent now");
    const state = await host.state();
    assert.equal(state.drafts?.["ch-general"], "@demo typed while locked", "and saved as #general's draft");
    assert.equal(state.draft, undefined);
    assert.deepEqual(await view.problems(), []);
  });
});
