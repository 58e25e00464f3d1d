// Stop next to Send (issue 6, new-user trial): while answers run in the open channel, the composer offers a Stop
// that cancels all of them, however far the history has scrolled; Escape in an empty composer does the same, after
// closing an open suggestion list; with text in the composer Escape stops nothing. Screenshot at 320 px.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");
const stop = "#composer vscode-button.stop";

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
    assert.equal(await page.getAttribute(stop, "aria-label"), "Stop the answer running in this channel (Escape in an empty composer)");
    await host.emit("message/started", message({ id: "a2", status: "queued" }));
    await page.waitForFunction((s) => document.querySelector(s)?.textContent?.trim() === "Stop 2 answers", stop);
    assert.match(await page.getAttribute(stop, "title"), /Stop the 2 answers running or queued in this channel/);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-composer-stop-320.png") });
    const box = await page.$eval(stop, (el) => {
      const r = el.getBoundingClientRect();
      const send = document.querySelector("#composer .send").getBoundingClientRect();
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

  it("Escape stops only when the composer is empty and no suggestion list is open", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "a1", status: "streaming", text: "Working" }));
    await page.waitForSelector(stop);
    await page.click("#composer textarea");

    await page.keyboard.type("not yet");
    await page.keyboard.press("Escape");
    await page.keyboard.type(" @");
    await page.waitForSelector("#composer-suggestions");
    await page.keyboard.press("Escape");
    await page.waitForSelector("#composer-suggestions", { state: "detached" });
    await frames(page, 2);
    assert.deepEqual(await host.requests("turn/cancel"), [], "Escape with text in the composer (or closing suggestions) stops nothing");
    assert.equal(await page.inputValue("#composer textarea"), "not yet @", "the text is kept");

    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Backspace");
    assert.equal(await page.inputValue("#composer textarea"), "");
    await page.keyboard.press("Escape");
    assert.deepEqual(await host.waitForRequests("turn/cancel"), [{ messageId: "a1" }], "Escape in the empty composer stops the answer");
    assert.deepEqual(await view.problems(), []);
  });
});
