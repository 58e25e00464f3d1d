// @ts-check
// The channel view as a user first sees it: header, members, config banner, history, state restore, CSP.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

describe("channel view", () => {
  const env = withBrowser();

  it("says ready first, opens #general and renders header, members and history without CSP violations", async () => {
    const open = openResult({
      members: [
        { name: "demo", state: "ready" },
        { name: "garfield", state: "busy" },
        { name: "odie", state: "error" },
      ],
      messages: [
        message({ id: "m1", author: "user", text: "@demo **hello**" }),
        message({ id: "m2", text: "Hi! Here is `code`." }),
        message({ id: "m3", author: "system", text: "garfield joined" }),
      ],
    });
    const view = await openView(env.browser, env.server.origin, { open });
    const { page, host } = view;
    const posted = await host.posted();
    assert.deepEqual(posted[0], { kind: "ready", protocolVersion: 2 });
    assert.deepEqual(posted[1], { kind: "request", id: 1, method: "channel/open", params: {} });

    const header = await page.innerText(".channel-header");
    assert.match(header, /#general/);
    assert.deepEqual(
      await page.$$eval(".channel-header .member", (els) => els.map((e) => [e.getAttribute("data-member"), e.getAttribute("data-state")])),
      [["demo", "ready"], ["garfield", "busy"], ["odie", "error"]],
    );
    assert.match(header, /garfield\s*busy/);

    const rows = await page.$$eval(".message", (els) =>
      els.map((e) => ({
        id: e.getAttribute("data-message-id"),
        author: e.getAttribute("data-author"),
        status: e.getAttribute("data-status"),
        name: e.querySelector(".message-author")?.textContent,
        body: e.querySelector(".message-body")?.innerHTML,
      })),
    );
    assert.deepEqual(rows.map((r) => [r.id, r.author, r.status, r.name]), [
      ["m1", "user", "done", "You"],
      ["m2", "agent", "done", "demo"],
      ["m3", "system", "done", "Sidekicks"],
    ]);
    assert.match(rows[0]?.body ?? "", /<strong>hello<\/strong>/, "user messages are Markdown too");
    assert.match(rows[1]?.body ?? "", /<code>code<\/code>/);
    assert.equal(await page.$(".config-banner"), null, "no banner when the config is ok");
    assert.equal(await page.getAttribute(".history", "role"), "log");
    assert.equal(await page.getAttribute("#composer textarea", "placeholder"), "Message #general — @agent to mention");
    // vscode-button is a custom element upgraded under the CSP (Lit adopts its styles as constructable sheets).
    assert.equal(await page.$eval("#composer .send", (el) => !!el.shadowRoot && getComputedStyle(el).display !== "none"), true);
    assert.deepEqual(await view.problems(), []);
  });

  it("shows a banner for a missing config whose button runs createConfig", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({ config: { state: "missing", path: "/w/sidekicks.yaml", problems: [] } }),
    });
    const { page, host } = view;
    assert.match(await page.innerText(".config-banner"), /No sidekicks\.yaml yet/);
    await page.click(".config-banner vscode-button");
    assert.deepEqual(await host.waitForRequests("command/run"), [{ command: "createConfig" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("follows config/changed: invalid lists each problem with an Open config button, untrusted explains, ok hides", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    const problems = ["/w/sidekicks.yaml:3:5: agents.demo.command must be a string", "/w/sidekicks.yaml:9:1: unknown key 'agnets'"];
    await host.emit("config/changed", { state: "invalid", path: "/w/sidekicks.yaml", problems });
    await page.waitForSelector(".config-banner");
    assert.match(await page.innerText(".config-banner .banner-title"), /sidekicks\.yaml has 2 problems/);
    await page.click(".config-banner .banner-more:has-text('1 more')");
    // Shown relative to the file the banner names (the full path stays in the tooltip), so they fit a sidebar.
    assert.deepEqual(await page.$$eval(".config-banner li", (els) => els.map((e) => e.textContent)), [
      "sidekicks.yaml:3:5: agents.demo.command must be a string",
      "sidekicks.yaml:9:1: unknown key 'agnets'",
    ]);
    assert.deepEqual(await page.$$eval(".config-banner li", (els) => els.map((e) => e.getAttribute("title"))), problems);
    await page.click(".config-banner vscode-button:has-text('Open config')");
    assert.deepEqual(await host.waitForRequests("command/run"), [{ command: "openConfig" }]);

    await host.emit("config/changed", { state: "untrusted", path: "/w/sidekicks.yaml", problems: [] });
    await page.waitForSelector(".config-banner.state-untrusted");
    assert.match(await page.innerText(".config-banner"), /don't start in an untrusted workspace/);

    await host.emit("config/changed", { state: "ok", path: "/w/sidekicks.yaml", problems: [] });
    await page.waitForSelector(".config-banner", { state: "detached" });
  });

  it("updates member badges on channel/changed", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("channel/changed", { id: "ch-general", name: "general", members: [{ name: "demo", state: "busy" }, { name: "odie", state: "starting" }] });
    await page.waitForSelector(".member[data-member='odie'][data-state='starting']");
    assert.equal(await page.getAttribute(".member[data-member='demo']", "data-state"), "busy");
    // Another channel's change is not ours.
    await host.emit("channel/changed", { id: "ch-other", name: "other", members: [] });
    await page.waitForTimeout(50);
    assert.equal(await page.$$eval(".member", (els) => els.length), 2);
  });

  it("re-opens on channel/reload, replaces everything and remembers the channel for the next load", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, {
      open: openResult({ messages: [message({ id: "old", text: "old history" })] }),
    });
    assert.equal(await page.getAttribute(".app", "data-snapshot"), "1");
    await page.evaluate((next) => {
      window.__host.open = next;
    }, openResult({ name: "random", members: [{ name: "odie", state: "stopped" }], messages: [message({ id: "new", channelId: "ch-random", text: "fresh" })] }));
    await host.emit("channel/reload", { name: "random" });
    await page.waitForSelector(".message[data-message-id='new']");
    assert.equal(await page.$(".message[data-message-id='old']"), null);
    assert.match(await page.innerText(".channel-header"), /#random/);
    assert.deepEqual(await host.requests("channel/open"), [{}, { name: "random" }]);
    assert.equal((await host.state()).channel, "random");
    const attribute = await host.request("test/attribute", { selector: ".app", name: "data-snapshot" });
    assert.deepEqual(attribute.result, { text: "2" }, "tests can tell the new snapshot from the old DOM");
  });

  it("keeps a message that starts right after the channel/open answer, in the same frame", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await page.evaluate((started) => {
      const h = window.__host;
      h.handlers["channel/open"] = () => {
        // The answer is delivered by a timer registered after this one; the inner timer fires after it.
        setTimeout(() => setTimeout(() => h.emit("message/started", started), 0), 0);
        return h.open;
      };
    }, message({ id: "early", status: "streaming", text: "right after the snapshot" }));
    await host.emit("channel/reload", { name: "general" });
    await page.waitForSelector(".message[data-message-id='early'][data-status='streaming']");
    assert.match(await page.innerText(".message[data-message-id='early']"), /right after the snapshot/);
  });

  it("restores the last channel from getState and reopens it", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, {
      state: { channel: "random", draft: "half-written" },
      open: openResult({ name: "random" }),
    });
    assert.deepEqual(await host.requests("channel/open"), [{ name: "random" }]);
    assert.equal(await page.inputValue("#composer textarea"), "half-written");
  });

  it("reloads the page when the host says reload (protocol version mismatch)", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await page.evaluate(() => {
      window.__beforeReload = true;
    });
    const navigated = page.waitForEvent("load");
    await host.deliver({ kind: "reload" });
    await navigated;
    assert.equal(await page.evaluate(() => window.__beforeReload), undefined);
  });
});

describe("drafts", () => {
  const env = withBrowser();

  it("each channel keeps its own draft: switching away and back restores it, and the other channel's box is empty", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await page.fill("#composer textarea", "typed for general");
    // Switch to another channel (as the switcher or a command does), before the save delay has even passed.
    await page.evaluate(() => {
      const h = window.__host;
      h.open = { ...h.open, channel: { id: "ch-random", name: "random", members: h.open.channel.members }, messages: [] };
    });
    await host.emit("channel/reload", { name: "random" });
    await page.waitForFunction(() => document.querySelector("#composer textarea")?.getAttribute("placeholder")?.includes("random"));
    assert.equal(await page.inputValue("#composer textarea"), "", "the other channel does not get #general's draft");
    await page.fill("#composer textarea", "typed for random");
    await page.waitForFunction(() => (/** @type {import("../../webview/viewState").PersistedState | undefined} */ (window.__host.state))?.drafts?.["ch-random"] === "typed for random");
    await page.evaluate(() => {
      const h = window.__host;
      h.open = { ...h.open, channel: { id: "ch-general", name: "general", members: h.open.channel.members }, messages: [] };
    });
    await host.emit("channel/reload", { name: "general" });
    await page.waitForFunction(() => document.querySelector("#composer textarea")?.getAttribute("placeholder")?.includes("general"));
    assert.equal(await page.inputValue("#composer textarea"), "typed for general");
    assert.deepEqual((await host.state()).drafts, { "ch-general": "typed for general", "ch-random": "typed for random" });
  });
});
