// @ts-check
// Renaming and deleting a channel from its header, and channel names refused as they are typed (create and rename),
// in a 300 px sidebar. Screenshots: test-results/webview-channel-{rename,delete,name-taken}.png.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");

/**
 * A `ChannelSummary` for the fake host's `channels/list`.
 * @param {Partial<import("../../src/shared/protocol").ChannelSummary> & { name: string }} fields
 * @returns {import("../../src/shared/protocol").ChannelSummary}
 */
const summary = ({ name, kind = "channel", members = ["demo"], unread = 0, busy = false }) => ({ id: `ch-${name}`, name, kind, members, unread, busy });

const LIST = [
  summary({ name: "general", members: ["demo", "odie"] }),
  summary({ name: "design" }),
  summary({ name: "docs" }),
  summary({ name: "@odie", kind: "direct", members: ["odie"] }),
];
/** @type {import("../../src/shared/protocol").MemberView[]} */
const members = [{ name: "demo", state: "ready" }];

/** The host's own channel-name rule, read from its source (`CHANNEL_NAME` in src/shared/channelName.ts). */
function hostNameRule() {
  const source = readFileSync(path.join(root, "src/shared/channelName.ts"), "utf8");
  const literal = /export const CHANNEL_NAME = \/(.+)\/([a-z]*);/.exec(source);
  assert.ok(literal, "the host still declares CHANNEL_NAME as a regular expression literal");
  return new RegExp(literal[1], literal[2]);
}

/** @param {import("./harness.mjs").Page} page @param {string} name */
async function shoot(page, name) {
  await page.evaluate(() => document.fonts.ready);
  await frames(page, 3);
  await page.screenshot({ path: path.join(outDir, name) });
}

/**
 * Opens #design (or `name`) with the list above.
 * @param {import("playwright-core").Browser} browser
 * @param {string} origin
 * @param {{ name?: string, channels?: import("../../src/shared/protocol").ChannelSummary[], theme?: import("./harness.mjs").Theme }} [options]
 */
function openDesign(browser, origin, { name = "design", channels = LIST, theme = "dark" } = {}) {
  return openView(browser, origin, { open: openResult({ name, members, messages: [message({ id: "m1", channelId: `ch-${name}`, author: "user", text: "@demo sketch the logo" })] }), channels, width: 300, theme });
}

describe("renaming and deleting a channel", () => {
  const env = withBrowser();
  before(() => mkdirSync(outDir, { recursive: true }));

  it("renames the open channel from its header: Enter renames, and the header, the tab and the next reload follow", async () => {
    const view = await openDesign(env.browser, env.server.origin);
    const { page, host } = view;
    await page.waitForSelector(".channel-header .channel-rename");
    assert.equal(await page.getAttribute(".channel-rename", "aria-label"), "Rename #design");
    await page.focus(".channel-rename");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".channel-rename-name");
    assert.equal(await page.evaluate(() => document.activeElement?.className), "channel-rename-name", "the field takes the focus");
    assert.equal(await page.inputValue(".channel-rename-name"), "design");
    assert.equal(await page.getAttribute(".channel-rename-name", "aria-label"), "New name for #design");
    await page.keyboard.type("look-and-feel"); // the name was selected: typing replaces it
    await shoot(page, "webview-channel-rename.png");
    assert.equal(await page.innerText(".channel-name-problem"), "", "a free, valid name: nothing to say");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector(".channel-header .channel-name")?.textContent === "#look-and-feel");
    assert.deepEqual(await host.requests("channel/rename"), [{ id: "ch-design", name: "look-and-feel" }]);
    await page.waitForSelector(".channel-tab[data-channel='look-and-feel'][aria-current='page']");
    assert.equal(await page.$(".channel-rename-name"), null, "the field closes");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Rename #look-and-feel", "the focus is back on the rename button");
    assert.equal((await host.state()).channel, "look-and-feel", "the next load reopens it by its new name");
    assert.match((await page.getAttribute("#composer textarea", "placeholder")) ?? "", /Message #look-and-feel/);
    assert.deepEqual(await view.problems(), []);
  });

  it("Escape cancels a rename and a host refusal is shown in place", async () => {
    const { page, host } = await openDesign(env.browser, env.server.origin);
    await page.click(".channel-rename");
    await page.fill(".channel-rename-name", "something-else");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".channel-rename-name", { state: "detached" });
    assert.equal(await page.innerText(".channel-header .channel-name"), "#design");
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("channel-rename")), true, "focus goes back to the rename button");
    assert.deepEqual(await host.requests("channel/rename"), []);

    await page.evaluate(() => {
      window.__host.handlers["channel/rename"] = () => ({ error: { code: "channel/exists", message: "#late already exists." } });
    });
    await page.keyboard.press("Enter");
    await page.fill(".channel-rename-name", "late");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector(".channel-name-problem")?.textContent === "#late already exists.");
    assert.equal(await page.inputValue(".channel-rename-name"), "late", "the field stays open with what was typed");
  });

  it("refuses a taken name as it is typed, whatever its case, before Enter — in the rename field and the create form", async () => {
    const { page, host } = await openDesign(env.browser, env.server.origin);
    await page.click(".channel-rename");
    await page.fill(".channel-rename-name", "");
    await page.keyboard.type("Docs");
    await page.waitForFunction(() => document.querySelector(".channel-name-problem")?.textContent === "#docs already exists.");
    assert.equal(await page.getAttribute(".channel-rename-name", "aria-invalid"), "true");
    assert.equal(await page.getAttribute(".channel-rename-name", "aria-describedby"), "channel-rename-problem");
    assert.equal(await page.isDisabled(".channel-rename-ok"), true);
    await shoot(page, "webview-channel-name-taken.png");
    await page.keyboard.press("Enter");
    await frames(page, 2);
    assert.deepEqual(await host.requests("channel/rename"), [], "Enter sends nothing while the name is refused");
    for (const taken of ["#general", "GENERAL"]) {
      await page.fill(".channel-rename-name", taken);
      await page.waitForFunction(() => document.querySelector(".channel-name-problem")?.textContent === "#general already exists.");
    }
    await page.fill(".channel-rename-name", "design");
    await page.waitForFunction(() => document.querySelector(".channel-name-problem")?.textContent === "", null, { timeout: 2000 });
    assert.equal(await page.getAttribute(".channel-rename-name", "aria-invalid"), null, "its own name is not taken");
    await page.keyboard.press("Escape");

    await page.click(".channel-add");
    await page.keyboard.type("design");
    await page.waitForFunction(() => document.querySelector(".channel-create .channel-name-problem")?.textContent === "#design already exists.");
    assert.equal(await page.isDisabled(".channel-create-ok"), true);
    await page.keyboard.press("Enter");
    await page.keyboard.type("-review");
    await page.waitForFunction(() => document.querySelector(".channel-create .channel-name-problem")?.textContent === "");
    assert.deepEqual(await host.requests("channel/create"), [], "nothing was sent while the name was taken");
  });

  it("refuses exactly the names the host's rule refuses, and says which character is wrong", async () => {
    const rule = hostNameRule();
    const { page, host } = await openDesign(env.browser, env.server.origin);
    await page.click(".channel-add");
    const names = ["ideas", "a", "0day", "release_2-0", "x".repeat(80), "x".repeat(81), "Ideas", "bad name", "-dash", "_under", "naïve", "dots.are.out", "emoji🙂", "#hash-ok"];
    for (const name of names) {
      await page.fill(".channel-create-name", name);
      await frames(page, 1);
      const shown = await page.innerText(".channel-create .channel-name-problem");
      const clean = name.replace(/^#/, "");
      assert.equal(shown !== "", !rule.test(clean), `${JSON.stringify(name)}: the host ${rule.test(clean) ? "accepts" : "refuses"} it, the field says ${JSON.stringify(shown)}`);
    }
    /** @param {string} name */
    const said = async (name) => {
      await page.fill(".channel-create-name", name);
      await frames(page, 1);
      return page.innerText(".channel-create .channel-name-problem");
    };
    assert.equal(await said("bad name"), "A space is not allowed in a channel name: use lowercase letters, digits, - and _. Try #bad-name.");
    assert.equal(await said("Bad Name"), "A space is not allowed in a channel name: use lowercase letters, digits, - and _. Try #bad-name.", "the space, not the capitals");
    // A name to type instead, from what was typed (a tryout's "Review Work!" was told only about the space).
    assert.equal(await said("Review Work!"), "A space is not allowed in a channel name: use lowercase letters, digits, - and _. Try #review-work.");
    assert.equal(await said("Design?"), '"?" is not allowed in a channel name: use lowercase letters, digits, - and _.', "#design exists: not offered");
    assert.equal(await said("🙂"), 'A channel name cannot start with "🙂": use lowercase letters, digits, - and _, starting with a letter or a digit.', "nothing to offer");
    assert.equal(await said("Ideas"), "Channel names are lowercase: try #ideas.");
    assert.equal(await said("dots.are.out"), '"." is not allowed in a channel name: use lowercase letters, digits, - and _. Try #dots-are-out.');
    assert.equal(await said("-dash"), 'A channel name cannot start with "-": use lowercase letters, digits, - and _, starting with a letter or a digit. Try #dash.');
    assert.equal(await said("x".repeat(81)), "A channel name has at most 80 characters (this one has 81).");
    assert.deepEqual(await host.requests("channel/create"), []);
  });

  it("asks before deleting, naming the channel and its messages; Escape keeps it, Enter deletes and the view goes back to #general", async () => {
    const view = await openDesign(env.browser, env.server.origin);
    const { page, host } = view;
    await page.waitForSelector(".channel-delete");
    assert.equal(await page.getAttribute(".channel-delete", "aria-label"), "Delete #design…");
    await page.click(".channel-delete");
    await page.waitForSelector(".channel-delete-confirm[role='alertdialog']");
    assert.equal(await page.innerText(".channel-delete-title"), "Delete #design?");
    assert.equal(await page.innerText(".channel-delete-detail"), "Its messages are deleted too. This cannot be undone.");
    assert.equal(await page.getAttribute(".channel-delete-confirm", "aria-labelledby"), "channel-delete-title");
    assert.equal(await page.getAttribute(".channel-delete-confirm", "aria-describedby"), "channel-delete-detail");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Delete #design", "the Delete button has the focus: Enter confirms");
    await shoot(page, "webview-channel-delete.png");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".channel-delete-confirm", { state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("channel-delete")), true);
    assert.deepEqual(await host.requests("channel/delete"), [], "Escape deleted nothing");
    assert.ok(await page.isVisible(".message[data-message-id='m1']"));

    await page.click(".channel-delete");
    await page.click(".channel-delete-cancel");
    await page.waitForSelector(".channel-delete-confirm", { state: "detached" });
    assert.deepEqual(await host.requests("channel/delete"), [], "Cancel deleted nothing");

    await page.evaluate((general) => {
      window.__host.open = general;
    }, openResult({ members }));
    await page.keyboard.press("Enter"); // the focus is back on the delete button: Enter opens the confirmation again
    await page.waitForSelector(".channel-delete-confirm");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".channel-tab[data-channel='general'][aria-current='page']");
    assert.deepEqual(await host.requests("channel/delete"), [{ id: "ch-design" }]);
    assert.equal(await page.$(".channel-tab[data-channel='design']"), null, "its tab is gone");
    assert.equal(await page.innerText(".channel-header .channel-name"), "#general");
    assert.equal(await page.$(".message[data-message-id='m1']"), null, "its messages are gone from the view");
    assert.deepEqual(await view.problems(), []);
  });

  it("#general can be neither renamed nor deleted; a direct conversation can be deleted but not renamed", async () => {
    const general = await openView(env.browser, env.server.origin, { open: openResult({ members }), channels: LIST });
    await general.page.waitForSelector(".channel-tab[data-channel='design']");
    assert.equal(await general.page.$(".channel-rename, .channel-delete"), null, "the host refuses both for #general");

    const direct = await openView(env.browser, env.server.origin, { open: openResult({ name: "@odie", members: [{ name: "odie", state: "ready" }] }), channels: LIST });
    const { page, host } = direct;
    await page.waitForSelector(".channel-delete");
    assert.equal(await page.$(".channel-rename"), null, "the host refuses to rename a direct conversation");
    assert.equal(await page.getAttribute(".channel-delete", "aria-label"), "Delete @odie…");
    await page.click(".channel-delete");
    assert.equal(await page.innerText(".channel-delete-title"), "Delete the conversation @odie?");
    assert.equal(await page.innerText(".channel-delete-detail"), "Its messages are deleted too. This cannot be undone.");
    await page.keyboard.press("Enter");
    await host.waitForRequests("channel/delete");
    assert.deepEqual(await host.requests("channel/delete"), [{ id: "ch-@odie" }]);
  });

  it("while an agent answers in the channel, Delete waits and says why; a refusal from the host is shown in the confirmation", async () => {
    const busy = LIST.map((c) => (c.name === "design" ? { ...c, busy: true } : c));
    const { page, host } = await openDesign(env.browser, env.server.origin, { channels: busy });
    await page.click(".channel-delete");
    await page.waitForSelector(".channel-delete-busy");
    assert.equal(await page.innerText(".channel-delete-busy"), "An agent is still answering in #design: stop it first, then delete.");
    assert.equal(await page.isDisabled(".channel-delete-ok"), true);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel", "Enter cannot delete while the host would refuse");
    await host.emit("channels/changed", { channels: LIST });
    await page.waitForSelector(".channel-delete-busy", { state: "detached" });
    assert.equal(await page.isDisabled(".channel-delete-ok"), false, "the answer ended: Delete is offered");

    await page.evaluate(() => {
      window.__host.handlers["channel/delete"] = () => ({
        error: { code: "channel/busy", message: "An agent is still answering in #design: stop it first, then delete the channel." },
      });
    });
    await page.click(".channel-delete-ok");
    await page.waitForSelector(".channel-delete-error");
    assert.equal(await page.innerText(".channel-delete-error"), "An agent is still answering in #design: stop it first, then delete the channel.");
    assert.equal(await page.innerText(".channel-header .channel-name"), "#design", "the channel stays");
  });
});
