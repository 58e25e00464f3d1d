// @ts-check
// The channel switcher as a user sees it at the top of a 300 px sidebar: tabs, unread badges, busy dots, switching,
// creating a channel, starting a direct conversation, and following renames and deletions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

/** @typedef {import("../../src/shared/protocol").ChannelSummary} ChannelSummary */

/**
 * A `ChannelSummary` for the fake host's `channels/list`.
 * @param {Partial<ChannelSummary> & { name: string }} fields
 * @returns {ChannelSummary}
 */
const summary = ({ name, kind = "channel", members = ["demo"], unread = 0, busy = false, description }) => ({
  id: `ch-${name}`, name, kind, members, unread, busy, ...(description ? { description } : {}),
});

const LIST = [
  summary({ name: "general", members: ["demo", "odie"], description: "Where demo and odie meet" }),
  summary({ name: "design", unread: 3, description: "Look and feel" }),
  summary({ name: "panel", busy: true, unread: 250 }),
  summary({ name: "@odie", kind: "direct", members: ["odie"], unread: 1 }),
];

/** Each tab as `[name, kind, current, unread badge text, busy]`. @param {import("./harness.mjs").Page} page */
const tabs = (page) =>
  page.$$eval(".channel-tab", (els) =>
    els.map((e) => [e.getAttribute("data-channel"), e.getAttribute("data-kind"), e.getAttribute("aria-current") === "page", e.querySelector(".unread-badge")?.textContent ?? "", !!e.querySelector(".busy-dot")]),
  );

describe("channel switcher", () => {
  const env = withBrowser();
  /** @type {import("../../src/shared/protocol").MemberView[]} */
  const members = [{ name: "demo", state: "ready" }, { name: "odie", state: "ready" }];

  it("shows the open channel's description under its name (a tryout found it only in a tab's tooltip)", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST, width: 300 });
    const { page } = view;
    await page.waitForSelector(".channel-header .channel-description");
    assert.equal((await page.innerText(".channel-header .channel-description")).trim(), "Where demo and odie meet");
    assert.equal(await page.getAttribute(".channel-header .channel-description", "title"), "Where demo and odie meet");
    assert.deepEqual(await view.problems(), []);
  });

  it("lists channels then directs with unread badges (99+ past the cap) and a busy dot, on one line of a 300 px sidebar", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST, width: 300 });
    const { page } = view;
    await page.waitForSelector(".channel-tab[data-channel='@odie']");
    assert.deepEqual(await tabs(page), [
      ["general", "channel", true, "", false],
      ["design", "channel", false, "3", false],
      ["panel", "channel", false, "99+", true],
      ["@odie", "direct", false, "1", false],
    ]);
    assert.deepEqual(await page.$$eval(".tab-name", (els) => els.map((e) => e.textContent)), ["#general", "#design", "#panel", "@odie"]);
    assert.match((await page.getAttribute(".channel-tab[data-channel='design']", "title")) ?? "", /#design — Look and feel — 3 unread/);
    const box = await page.$eval(".channel-tabs-row", (el) => ({ height: el.getBoundingClientRect().height, width: el.scrollWidth }));
    assert.ok(box.height < 30, `one line of tabs (${box.height} px)`);
    assert.ok(box.width <= 300, "the row itself never widens the view: the tabs scroll inside it");
    assert.ok(await page.isVisible(".channel-add"), "+ stays visible");
    assert.deepEqual(await view.problems(), []);
  });

  it("switching posts channel/open for the tab's channel and marks it current once its snapshot arrives", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST });
    await page.waitForSelector(".channel-tab[data-channel='design']");
    await page.evaluate((next) => {
      window.__host.open = next;
    }, openResult({ name: "design", members: [members[0]], messages: [message({ id: "d1", channelId: "ch-design", text: "the design history" })] }));
    await page.click(".channel-tab[data-channel='design']");
    await page.waitForSelector(".message[data-message-id='d1']");
    assert.deepEqual(await host.requests("channel/open"), [{}, { name: "design" }]);
    assert.match(await page.innerText(".channel-header"), /#design/);
    assert.equal(await page.getAttribute(".channel-tab[data-channel='design']", "aria-current"), "page");
    assert.deepEqual(await host.waitForRequests("channel/read", 1), [{ channelId: "ch-design", messageId: "d1" }], "seen: the visible channel is marked read");
    assert.equal(await page.$(".channel-tab[data-channel='design'] .unread-badge"), null);
    assert.equal((await host.state()).channel, "design", "the next load reopens it");
  });

  it("follows channels/changed: a new unread count, a busy dot, and a rename of the open channel", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST });
    await page.waitForSelector(".channel-tab[data-channel='design']");
    const renamed = { ...summary({ name: "general", members: ["demo", "odie"] }), name: "main" };
    await host.emit("channels/changed", { channels: [renamed, summary({ name: "design", unread: 7, busy: true })] });
    await page.waitForSelector(".channel-tab[data-channel='design'] .busy-dot");
    assert.deepEqual(await tabs(page), [["main", "channel", true, "", false], ["design", "channel", false, "7", true]]);
    assert.equal((await host.state()).channel, "main", "a renamed open channel is reopened by its new name next time");
  });

  it("follows channels/updated: only the lines it names change, the others and the order stay", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST });
    await page.waitForSelector(".channel-tab[data-channel='design']");
    await host.emit("channels/updated", { channels: [summary({ name: "design", unread: 12, busy: true })] });
    await page.waitForSelector(".channel-tab[data-channel='design'] .busy-dot");
    assert.deepEqual(await tabs(page), [
      ["general", "channel", true, "", false],
      ["design", "channel", false, "12", true],
      ["panel", "channel", false, "99+", true],
      ["@odie", "direct", false, "1", false],
    ]);
  });

  it("goes back to #general when the open channel is deleted", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: openResult({ name: "design", members }), channels: LIST });
    await page.waitForSelector(".channel-tab[data-channel='design'][aria-current='page']");
    await page.evaluate((next) => {
      window.__host.open = next;
    }, openResult({ members }));
    await host.emit("channels/changed", { channels: LIST.filter((c) => c.name !== "design") });
    await host.waitForRequests("channel/open", 2);
    assert.deepEqual((await host.requests("channel/open"))[1], { name: "general" });
    await page.waitForSelector(".channel-tab[data-channel='general'][aria-current='page']");
  });

  it("+ creates a channel: a name the host refuses shows why, an accepted one opens the new channel", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST });
    await page.evaluate(() => {
      const h = window.__host;
      h.handlers["channel/create"] = ({ name }) => {
        // created meanwhile from the command palette: the list the webview holds does not know it yet
        if (name !== "ideas") return { error: { code: "channel/exists", message: `#${name} already exists.` } };
        /** @type {ChannelSummary} */
        const created = { id: "ch-ideas", name: "ideas", kind: "channel", members: [], unread: 0, busy: false };
        h.channels = [...h.channels, created];
        h.open = { ...h.open, channel: { id: "ch-ideas", name: "ideas", members: [] }, messages: [] };
        setTimeout(() => h.emit("channels/changed", { channels: h.channels }), 0);
        return created;
      };
    });
    await page.click(".channel-add");
    await page.fill(".channel-create-name", "#meanwhile");
    await page.press(".channel-create-name", "Enter");
    await page.waitForSelector(".channel-create-error");
    assert.equal(await page.innerText(".channel-create-error"), "#meanwhile already exists.");
    await page.fill(".channel-create-name", "ideas");
    await page.waitForFunction(() => document.querySelector(".channel-create-error")?.textContent === "", null, { timeout: 2000 }); // typing again clears the refusal
    await page.click(".channel-create-ok");
    await page.waitForSelector(".channel-create", { state: "detached" });
    await page.waitForSelector(".channel-tab[data-channel='ideas'][aria-current='page']");
    assert.deepEqual(await host.requests("channel/create"), [{ name: "meanwhile" }, { name: "ideas" }]);
    assert.deepEqual((await host.requests("channel/open")).at(-1), { name: "ideas" });
    assert.match(await page.innerText(".channel-header"), /#ideas/);
  });

  it("+ offers a direct conversation with agents that have none yet, and opens it", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST });
    await page.evaluate(() => {
      const h = window.__host;
      h.handlers["channel/direct"] = ({ agent }) => {
        h.open = { ...h.open, channel: { id: `ch-@${agent}`, name: `@${agent}`, members: [{ name: agent, state: "ready" }] }, messages: [] };
        return { id: `ch-@${agent}`, name: `@${agent}`, kind: "direct", members: [agent], unread: 0, busy: false };
      };
    });
    await page.click(".channel-add");
    assert.deepEqual(await page.$$eval(".channel-direct", (els) => els.map((e) => e.textContent)), ["@demo"], "@odie already has one");
    await page.click(".channel-direct[data-agent='demo']");
    await page.waitForFunction(() => document.querySelector(".channel-header .channel-name")?.textContent === "@demo");
    assert.deepEqual(await host.requests("channel/direct"), [{ agent: "demo" }]);
    assert.deepEqual((await host.requests("channel/open")).at(-1), { name: "@demo" });
    assert.match(await page.innerText(".history"), /This is the start of @demo\./, "a direct conversation is named @agent, not #@agent");
  });

  it("an ordinary channel's header removes a member with × and adds one from the + member list; #general offers neither", async () => {
    const design = openResult({ name: "design", members: [members[0]] });
    const { page, host } = await openView(env.browser, env.server.origin, { open: design, channels: LIST, agents: ["demo", "odie"] });
    await page.waitForSelector(".member-add");
    await page.evaluate(() => {
      const h = window.__host;
      /** @param {string[]} names @returns {ChannelSummary} */
      const change = (names) => {
        const view = { id: "ch-design", name: "design", members: names.map((name) => ({ name, state: /** @type {const} */ ("ready") })) };
        setTimeout(() => h.emit("channel/changed", view), 0);
        return { id: "ch-design", name: "design", kind: "channel", members: names, unread: 0, busy: false };
      };
      h.handlers["channel/join"] = ({ agent }) => change(["demo", agent]);
      h.handlers["channel/leave"] = () => change([]);
    });
    assert.deepEqual(await page.$$eval(".member-add option", (els) => els.map((e) => e.textContent)), ["+ member", "@odie"]);
    await page.selectOption(".member-add", "odie");
    await page.waitForSelector(".member[data-member='odie']");
    assert.deepEqual(await host.requests("channel/join"), [{ id: "ch-design", agent: "odie" }]);
    assert.equal(await page.$(".member-add"), null, "every agent is a member now");
    await page.click(".member[data-member='demo'] .member-leave");
    await page.waitForSelector(".member-none");
    assert.deepEqual(await host.requests("channel/leave"), [{ id: "ch-design", agent: "demo" }]);

    const general = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST, agents: ["demo", "odie", "garfield"] });
    await general.page.waitForSelector(".channel-tab[data-channel='general']");
    assert.equal(await general.page.$(".member-add, .member-leave"), null, "#general follows the roster");
  });
});
