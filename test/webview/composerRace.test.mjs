// @ts-check
// Typing right after Enter (issue 15, item 4): a trial's five quick messages became five growing repeats ("one",
// "onetwo", …), each answered, because a key that arrived before the composer cleared kept the sent text. Each Enter
// must send exactly what the box held at that moment, and the box then holds only what was typed after it — with a
// host that answers at once and with one that answers `channel/send` slowly. Sends keep their order.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, openView, withBrowser } from "./harness.mjs";

/** Waits until no send is in flight (the composer drops its `sending` class), then two frames more. @param {import("./harness.mjs").Page} page */
async function settled(page) {
  await page.waitForFunction(() => !document.querySelector("#composer")?.classList.contains("sending"));
  await frames(page, 2);
}

/** Makes the fake host answer `channel/send` after `ms` (a busy extension host), keeping what it answers. @param {import("./harness.mjs").Page} page @param {number} ms */
function slowSends(page, ms) {
  return page.evaluate((delay) => {
    const host = window.__host;
    const answer = host.handlers["channel/send"];
    if (!answer) throw new Error("the fake host has no channel/send handler");
    host.handlers["channel/send"] = (params) => new Promise((resolve) => setTimeout(() => resolve(answer(params)), delay));
  }, ms);
}

/**
 * Makes the fake host hold every `channel/send` answer until `release(page)`: a host busier than the user's typing, with
 * no clock in it (a 300 ms delay lost the race to the keyboard on a loaded machine). @param {import("./harness.mjs").Page} page
 */
function heldSends(page) {
  return page.evaluate(() => {
    const host = window.__host;
    const answer = host.handlers["channel/send"];
    if (!answer) throw new Error("the fake host has no channel/send handler");
    /** @type {(() => void)[]} */
    const held = [];
    Object.assign(window, { __releaseSends: () => held.splice(0).forEach((go) => go()) });
    host.handlers["channel/send"] = (params) => new Promise((resolve) => held.push(() => resolve(answer(params))));
  });
}

/** Answers the sends `heldSends` holds. @param {import("./harness.mjs").Page} page */
const release = (page) => page.evaluate(() => /** @type {any} */ (window).__releaseSends());

/** @param {import("./harness.mjs").HostDriver} host */
const sentTexts = async (host) => (await host.requests("channel/send")).map((p) => p.text);

describe("the composer under fast typing", () => {
  const env = withBrowser();

  it("five messages typed as fast as the keyboard goes are five sends, one to five, each once", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("one\ntwo\nthree\nfour\nfive\n");
    await settled(page);
    assert.deepEqual(await sentTexts(host), ["one", "two", "three", "four", "five"]);
    assert.equal(await page.inputValue("#composer textarea"), "", "nothing is left in the box");
    await page.waitForFunction(() => document.querySelectorAll(".message[data-author='user']").length === 5);
    assert.deepEqual(await view.problems(), []);
  });

  it("with a host that answers slowly: each Enter sends what the box held, the box keeps only what came after", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await slowSends(page, 300);
    await page.click("#composer textarea");
    await page.keyboard.type("one\ntwo");
    assert.equal(await page.inputValue("#composer textarea"), "two", "the sent text left the box at Enter, before the host answered");
    await page.keyboard.type("\nthree\nfour\nfive\n");
    await settled(page);
    assert.deepEqual(await sentTexts(host), ["one", "two", "three", "four", "five"], "in order, each once");
    assert.equal(await page.inputValue("#composer textarea"), "");
    assert.equal((await host.state())?.drafts?.["ch-general"], undefined, "no saved draft holds a sent text");
    assert.deepEqual(await view.problems(), []);
  });

  it("a send the slow host refuses comes back into the box, before what was typed after it", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await heldSends(page);
    await page.click("#composer textarea");
    await page.keyboard.type("@foo one\nstill typing");
    await release(page);
    await page.waitForSelector(".send-error");
    assert.equal(await page.inputValue("#composer textarea"), "@foo one\nstill typing", "nothing is lost");
    assert.deepEqual(await sentTexts(host), ["@foo one"]);
    assert.deepEqual(await view.problems(), []);
  });
  it("Select All: the host's late selectAll (VS Code posts it back after the key) never selects what was typed since", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("draft to replace");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("@od");
    // What the workbench does for a webview's Select All, late: the pre script runs it on the page's document.
    await page.evaluate(() => document.execCommand("selectAll"));
    await page.keyboard.type("ie hi");
    assert.equal(await page.inputValue("#composer textarea"), "@odie hi", "the '@' and what was typed are kept");
    // A Select All the composer did not handle (from the Edit menu, say) still selects.
    await page.evaluate(() => document.execCommand("selectAll"));
    const selected = await page.evaluate(() => {
      const t = /** @type {HTMLTextAreaElement} */ (document.querySelector("#composer textarea"));
      return t.value.slice(t.selectionStart, t.selectionEnd);
    });
    assert.equal(selected, "@odie hi");
    assert.deepEqual(await view.problems(), []);
  });
});
