// @ts-check
// A channel in an editor tab (issue 6): the same webview app, pinned to one channel by its page (`data-channel`),
// saving that channel with setState so that the tab's serializer restores it after a window reload.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, webviewDocument, withBrowser } from "./harness.mjs";

describe("channel in an editor tab", () => {
  const env = withBrowser();

  it("a new tab opens the channel its page is pinned to, shows its history and saves it for the serializer", async () => {
    const open = openResult({ name: "tabs", messages: [message({ id: "m1", author: "user", text: "hello from a tab" })] });
    const { page, host, problems } = await openView(env.browser, env.server.origin, { channel: "tabs", open, width: 900 });
    assert.deepEqual(await host.requests("channel/open"), [{ name: "tabs" }], "not #general, not the side view's channel");
    assert.match(await page.innerText(".channel-header"), /#tabs/);
    assert.match(await page.innerText(".message[data-message-id='m1']"), /hello from a tab/);
    assert.equal(/** @type {{ channel?: string }} */ (await host.state()).channel, "tabs", "saved with setState: what the serializer gets back");
    assert.deepEqual(await problems(), []);
  });

  it("a restored tab that had switched channel reopens the channel it showed last", async () => {
    const { host } = await openView(env.browser, env.server.origin, {
      channel: "tabs",
      state: { channel: "random" },
      open: openResult({ name: "random" }),
    });
    assert.deepEqual(await host.requests("channel/open"), [{ name: "random" }]);
  });

  it("a tab pinned to #work whose history is locked by another window names #work, not #general", async () => {
    const LOCKED = { code: "store/locked", message: "The Sidekicks history is open in another window. Close it, or wait: this window retries." };
    const { page } = await openView(env.browser, env.server.origin, { channel: "work", open: openResult({ name: "work" }), refuse: { methods: ["channel/open", "channels/list"], error: LOCKED } });
    await page.waitForSelector(".open-error");
    assert.match(await page.innerText(".open-error"), /^Could not open #work: The Sidekicks history is open in another window/);
    assert.match(await page.innerText(".channel-header"), /#work/);
    assert.equal(await page.getAttribute("#composer textarea", "placeholder"), "Message #work — @agent to mention");
  });

  it("escapes the pinned channel in the page, so a name cannot add markup", () => {
    const html = webviewDocument({ cspSource: "https://x", nonce: "n", styleUri: "s", scriptUri: "j", channel: `a"><script>alert(1)</script>` });
    assert.match(html, /<div id="root" data-channel="a&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"><\/div>/);
    assert.equal(html.match(/<script/g)?.length, 1, "only the bundle's script tag");
  });
});
