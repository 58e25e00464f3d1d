// @ts-check
// Stop next to Send (issue 6, new-user trial): while answers run in the open channel, the composer offers a Stop
// that cancels all of them, however far the history has scrolled. Escape is a key people press out of habit (issue
// 15, item 4: a trial lost every answer in flight to one): in an empty composer it only shows what a second Escape
// would stop; the answers stop when that second Escape comes while the hint shows. With text in the composer, or to
// close a suggestion list, Escape stops nothing. Screenshots at 320 px.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { inPageContrast } from "./contrast.mjs";
import { frames, message, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");
const stop = "#composer vscode-button.stop";
const confirm = "#composer .composer-confirm";

describe("Stop in the composer", () => {
  const env = withBrowser();

  it("stops every running or queued answer of the channel, says how many, and goes when nothing runs", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    assert.equal(await page.$(stop), null, "no Stop while nothing runs");
    await host.emit("message/finished", message({ id: "u1", author: "user", text: "@demo go", to: ["demo"] }));
    await host.emit("message/started", message({ id: "a1", status: "streaming", text: "A long answer. ".repeat(400) }));
    await page.waitForSelector(stop);
    assert.equal((await page.innerText(stop)).trim(), "Stop");
    assert.equal(await page.getAttribute(stop, "aria-label"), "Stop the answer running in this channel (Escape twice in an empty composer)");
    await host.emit("message/started", message({ id: "a2", status: "queued" }));
    await page.waitForFunction((s) => document.querySelector(s)?.textContent?.trim() === "Stop 2 answers", stop);
    assert.match((await page.getAttribute(stop, "title")) ?? "", /Stop the 2 answers running or queued in this channel/);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-composer-stop-320.png") });
    const box = await page.$eval(stop, (el) => {
      const r = el.getBoundingClientRect();
      const send = /** @type {Element} */ (document.querySelector("#composer .send")).getBoundingClientRect();
      return { right: r.right, sendLeft: send.left, sendRight: send.right, width: window.innerWidth };
    });
    assert.ok(box.right <= box.sendLeft && box.sendRight <= box.width, `Stop sits before Send, both inside the 320 px view: ${JSON.stringify(box)}`);

    await page.focus(stop);
    await page.keyboard.press("Enter");
    // Queued first: stopping the running one first would let the host start the queued one.
    assert.deepEqual(await host.waitForRequests("turn/cancel", 2), [{ messageId: "a2" }, { messageId: "a1" }]);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "the focus goes back to the composer");

    await host.emit("message/finished", { ...message({ id: "a2", status: "done", stopReason: "cancelled" }) });
    await page.waitForFunction((s) => document.querySelector(s)?.textContent?.trim() === "Stop", stop);
    await host.emit("message/finished", message({ id: "a1", text: "A long answer.", stopReason: "cancelled" }));
    await page.waitForSelector(".message[data-message-id='a1'][data-status='done']");
    await frames(page, 2);
    assert.equal(await page.$(stop), null, "Stop goes once nothing runs");
    assert.deepEqual(await view.problems(), []);
  });

  it("Escape stops nothing by itself: with the composer empty it shows what a second Escape would stop, and any other key keeps the answers", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "a1", status: "streaming", text: "Working" }));
    await host.emit("message/started", message({ id: "a2", status: "queued" }));
    await page.waitForSelector(stop);
    await page.click("#composer textarea");

    // With text, or closing a suggestion list: Escape stops nothing and arms nothing.
    await page.keyboard.type("not yet");
    await page.keyboard.press("Escape");
    await page.keyboard.type(" @");
    await page.waitForSelector("#composer-suggestions");
    await page.keyboard.press("Escape");
    await page.waitForSelector("#composer-suggestions", { state: "detached" });
    await frames(page, 2);
    assert.equal(await page.innerText(confirm), "", "no confirmation asked while there is text");
    assert.equal(await page.inputValue("#composer textarea"), "not yet @", "the text is kept");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Backspace");

    // Empty: the first Escape only says what a second one would do.
    await page.keyboard.press("Escape");
    await page.waitForSelector(`${confirm}[data-ready='true']`);
    assert.equal(await page.innerText(confirm), "Press Escape again to stop the 2 answers running or queued in this channel; any other key keeps them.");
    assert.equal(await page.getAttribute(confirm, "role"), "status", "said to a screen reader too");
    assert.equal(await page.$eval(stop, (b) => b.classList.contains("armed")), true, "the Stop it would press is marked");
    // Another key keeps the answers, and a later Escape starts over.
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === "", confirm);
    await page.keyboard.press("Escape");
    await page.waitForSelector(`${confirm}[data-ready='true']`);
    await page.click(".history");
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === "", confirm);
    assert.deepEqual(await host.requests("turn/cancel"), [], "neither Escape stopped anything");

    // A second Escape once the hint has shown stops exactly those answers, queued first.
    await page.click("#composer textarea");
    await page.keyboard.press("Escape");
    await page.waitForSelector(`${confirm}[data-ready='true']`);
    await page.keyboard.press("Escape");
    assert.deepEqual(await host.waitForRequests("turn/cancel", 2), [{ messageId: "a2" }, { messageId: "a1" }]);
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === "", confirm);
    assert.deepEqual(await view.problems(), []);
  });

  for (const theme of /** @type {const} */ (["light", "dark", "high-contrast"])) {
    it(`the hint a first Escape shows is readable in the ${theme} theme`, async () => {
      const view = await openView(env.browser, env.server.origin, { width: 320, theme });
      const { page, host } = view;
      await host.emit("message/started", message({ id: "a1", status: "streaming", text: "Working" }));
      await host.emit("message/started", message({ id: "a2", status: "queued" }));
      await page.waitForSelector(stop);
      await page.click("#composer textarea");
      await page.keyboard.press("Escape");
      await page.waitForSelector(`${confirm}[data-ready='true']`);
      const [hint] = await page.evaluate(inPageContrast, [confirm]);
      assert.ok(hint.contrast >= 4.5, `contrast ${hint.contrast.toFixed(2)} of "${hint.text}"`);
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-composer-escape-confirm-${theme}.png`) });
      assert.deepEqual(await host.requests("turn/cancel"), []);
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("a quick double Escape, a held Escape or a wait past the hint stops nothing", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "a1", status: "streaming", text: "Working" }));
    await page.waitForSelector(stop);
    await page.click("#composer textarea");
    // Habit: Escape, Escape at once, before the hint could be read (both in one task of the page, so "at once" does
    // not depend on the machine's speed)…
    /** @param {boolean} repeat */
    const escape = (repeat) =>
      page.$eval("#composer textarea", (el, r) => el.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", code: "Escape", repeat: r, bubbles: true, cancelable: true })), repeat);
    await page.$eval("#composer textarea", (el) => {
      for (let i = 0; i < 2; i++) el.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", code: "Escape", bubbles: true, cancelable: true }));
    });
    await page.waitForSelector(`${confirm}[data-ready='true']`);
    assert.equal(await page.innerText(confirm), "Press Escape again to stop the answer running in this channel; any other key keeps it.");
    // …and Escape held down: its repeats decide nothing, even once the hint has shown.
    await escape(true);
    await frames(page, 2);
    assert.deepEqual(await host.requests("turn/cancel"), [], "neither the quick second Escape nor a repeat stopped the answer");
    assert.notEqual(await page.innerText(confirm), "", "the hint still shows");
    // Left alone, the hint goes by itself and nothing was stopped.
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === "", confirm, { timeout: 10_000 });
    await page.keyboard.press("Escape");
    await page.waitForSelector(`${confirm}[data-ready='true']`);
    // The answer ends while the hint shows: nothing is left to stop, the hint goes.
    await host.emit("message/finished", message({ id: "a1", text: "Working. Done." }));
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === "", confirm);
    await page.keyboard.press("Escape");
    await frames(page, 2);
    assert.deepEqual(await host.requests("turn/cancel"), [], "no Escape here stopped anything");
    assert.deepEqual(await view.problems(), []);
  });
});
