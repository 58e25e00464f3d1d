// @ts-check
// Attachments in the composer (issue 21): an editor command's context arrives as chips (`composer/attach`), the draft
// starts with the agent picked, a chip can be removed before sending, the rest go with the message and show on it;
// a refused send puts them back; a pasted image becomes a chip, an image of a type agents do not take is refused with
// a note. Screenshots at 320 px.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAACAAAB4iG8MwAAAABJRU5ErkJggg==";

/** @type {import("../../src/shared/protocol").AttachmentRequest[]} */
const CONTEXT = [
  { kind: "selection", path: "/work/src/app/compose.ts", range: { start: 12, end: 30 }, text: "export function compose() {}\n" },
  { kind: "problems", path: "/work/src/app/compose.ts", range: { start: 14, end: 14 }, problems: [{ severity: "error", message: "Cannot find name 'x'.", range: { start: 14, end: 14 }, source: "ts", code: "2304" }] },
  { kind: "file", path: "/work/README.md" },
];

describe("attachments in the composer", () => {
  const env = withBrowser();

  it("shows an editor command's context as chips, removable, sent with the message and shown on it", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("composer/attach", { channelId: "ch-general", attachments: CONTEXT, mention: "demo" });
    await page.waitForSelector("#composer .composer-chips .chip[data-kind='file']");
    assert.deepEqual(await page.$$eval("#composer .chip .chip-label", (els) => els.map((e) => e.textContent)), ["compose.ts:12-30", "1 problem · compose.ts:14", "README.md"]);
    assert.equal(await page.inputValue("#composer textarea"), "@demo ", "the draft starts with the agent picked");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "the composer has the focus");
    assert.equal(await page.getAttribute("#composer .chip[data-kind='selection']", "title"), "Selection from /work/src/app/compose.ts:12-30");
    // The same context again is not added twice.
    await host.emit("composer/attach", { channelId: "ch-general", attachments: [CONTEXT[2]] });
    await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
    assert.equal((await page.$$("#composer .chip")).length, 3);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-attachments-composer-320.png") });

    await page.click("#composer .chip[data-kind='file'] .chip-remove");
    // Preact renders the removal on its next tick: wait for it, then check which chips are left.
    await page.waitForFunction(() => document.querySelectorAll("#composer .chip").length !== 3);
    assert.deepEqual(await page.$$eval("#composer .chip", (els) => els.map((e) => e.getAttribute("data-kind"))), ["selection", "problems"], "a removed chip is gone");
    await page.type("#composer textarea", "why does this fail?");
    await page.keyboard.press("Enter");
    const [sent] = await host.waitForRequests("channel/send");
    assert.equal(sent?.text, "@demo why does this fail?");
    assert.deepEqual(sent?.attachments, CONTEXT.slice(0, 2), "the chips left go with the message");
    await page.waitForSelector(".message[data-author='user'] .message-chips .chip[data-kind='problems']");
    assert.equal((await page.$$("#composer .chip")).length, 0, "the composer's chips went with it");
    assert.equal(await page.$(".message[data-author='user'] .chip-remove"), null, "a sent message's chips cannot be removed");
    await page.screenshot({ path: path.join(outDir, "webview-attachments-sent-320.png") });
    assert.deepEqual(await view.problems(), []);
  });

  it("a refused send puts the chips back with the text", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("composer/attach", { channelId: "ch-general", attachments: [CONTEXT[0]] });
    await page.waitForSelector("#composer .chip");
    await page.type("#composer textarea", "@nobody look");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".send-error");
    await page.waitForSelector("#composer .chip[data-kind='selection']");
    assert.equal(await page.inputValue("#composer textarea"), "@nobody look");
    assert.deepEqual(await view.problems(), []);
  });

  it("chips not sent are kept across a reload of the webview, with the draft; a saved chip of another shape is left out", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("composer/attach", { channelId: "ch-general", attachments: CONTEXT, mention: "demo" });
    await page.waitForSelector("#composer .composer-chips .chip[data-kind='file']");
    await page.click("#composer .chip[data-kind='problems'] .chip-remove");
    await page.waitForFunction(() => document.querySelectorAll("#composer .chip").length === 2);
    const saved = /** @type {{ chips?: Record<string, unknown[]> }} */ (await page.evaluate(() => window.__host.state));
    assert.deepEqual(saved.chips, { "ch-general": [CONTEXT[0], CONTEXT[2]] }, "saved as they are now: the removed one is gone");

    // The webview is made again from that state (the view hidden and shown), plus a chip an older version saved wrong.
    const again = await openView(env.browser, env.server.origin, { width: 320, state: { ...saved, chips: { ...saved.chips, "ch-other": [{ kind: "file" }] } } });
    await again.page.waitForSelector("#composer .composer-chips .chip[data-kind='file']");
    assert.deepEqual(await again.page.$$eval("#composer .chip .chip-label", (els) => els.map((e) => e.textContent)), ["compose.ts:12-30", "README.md"]);
    await again.page.fill("#composer textarea", "@demo look");
    await again.page.press("#composer textarea", "Enter");
    const [sent] = /** @type {{ attachments: unknown[] }[]} */ (await again.host.waitForRequests("channel/send"));
    assert.deepEqual(sent.attachments, [CONTEXT[0], CONTEXT[2]], "the kept chips go with the message");
    await again.page.waitForFunction(() => document.querySelectorAll("#composer .chip").length === 0);
    const after = /** @type {{ chips?: Record<string, unknown[]> }} */ (await again.page.evaluate(() => window.__host.state));
    assert.deepEqual(after.chips, {}, "sent: no longer saved");
    assert.deepEqual(await view.problems(), []);
    assert.deepEqual(await again.problems(), []);
  });

  it("context for a channel not open yet waits for it to open", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await page.evaluate(() => {
      window.__host.open = { channel: { id: "ch-review", name: "review", members: [{ name: "demo", state: "ready" }] }, messages: [], config: { state: "ok", path: "/work/sidekicks.yaml", problems: [] } };
    });
    await host.emit("composer/attach", { channelId: "ch-review", attachments: [CONTEXT[2]], mention: "demo" });
    await host.emit("channel/reload", { name: "review" });
    await page.waitForSelector("#composer .chip[data-kind='file']");
    assert.match(await page.innerText(".channel-header"), /#review/);
    assert.equal(await page.inputValue("#composer textarea"), "@demo ");
  });

  it("the agent picked for context starts that one draft only: sent, switching channels brings it back nowhere", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    await host.emit("composer/attach", { channelId: "ch-general", attachments: [CONTEXT[2]], mention: "demo" });
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement | null} */ (document.querySelector("#composer textarea"))?.value === "@demo ");
    await page.keyboard.type("explain this");
    await page.keyboard.press("Enter");
    await host.waitForRequests("channel/send");
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement | null} */ (document.querySelector("#composer textarea"))?.value === "");
    // Another channel (a new one, with no member), then back: both drafts stay empty.
    await page.evaluate(() => {
      window.__host.open = { channel: { id: "ch-review", name: "review", members: [] }, messages: [], config: { state: "ok", path: "/work/sidekicks.yaml", problems: [] } };
    });
    await host.emit("channel/reload", { name: "review" });
    await page.waitForFunction(() => document.querySelector(".channel-header")?.textContent?.includes("#review"));
    assert.equal(await page.inputValue("#composer textarea"), "", "a trial found '@demo ' here, and Enter then named a member the channel does not have");
    await page.evaluate(() => {
      window.__host.open = { channel: { id: "ch-general", name: "general", members: [{ name: "demo", state: "ready" }] }, messages: [], config: { state: "ok", path: "/work/sidekicks.yaml", problems: [] } };
    });
    await host.emit("channel/reload", { name: "general" });
    await page.waitForFunction(() => document.querySelector(".channel-header")?.textContent?.includes("#general"));
    assert.equal(await page.inputValue("#composer textarea"), "");
    assert.deepEqual(await view.problems(), []);
  });

  it("a pasted image becomes a chip with its thumbnail; an image of a type agents do not take is refused with a note", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page, host } = view;
    const paste = (/** @type {string} */ type, /** @type {string} */ name) =>
      page.evaluate(
        ({ data, type, name }) => {
          const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], name, { type }));
          const event = new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true });
          document.querySelector("#composer textarea")?.dispatchEvent(event);
        },
        { data: PNG, type, name },
      );
    await paste("image/png", "shot.png");
    await page.waitForSelector("#composer .chip[data-kind='image'] img.chip-thumb");
    assert.equal(await page.innerText("#composer .chip[data-kind='image'] .chip-label"), "shot.png");
    await paste("image/svg+xml", "logo.svg");
    await page.waitForSelector(".attach-note");
    assert.equal(await page.innerText(".attach-note"), "logo.svg was not attached: images of type image/svg+xml are not taken; attach a PNG, JPEG, GIF or WebP image.");
    assert.equal((await page.$$("#composer .chip")).length, 1);
    await page.type("#composer textarea", "@demo what is this?");
    await page.keyboard.press("Enter");
    const [sent] = await host.waitForRequests("channel/send");
    assert.deepEqual(sent?.attachments, [{ kind: "image", name: "shot.png", mimeType: "image/png", data: PNG }], "the image's bytes, base64");
    assert.deepEqual(await view.problems(), []);
  });

  it("a file dropped from outside VS Code (no path) is said not attached, not ignored; one from the Explorer (its URI) is a chip", async () => {
    const view = await openView(env.browser, env.server.origin, { width: 320 });
    const { page } = view;
    const drop = (/** @type {{ file?: string, uri?: string }} */ what) =>
      page.evaluate(({ file, uri }) => {
        const transfer = new DataTransfer();
        if (file) transfer.items.add(new File(["notes\n"], file, { type: "text/plain" }));
        if (uri) transfer.setData("text/uri-list", uri);
        const target = document.querySelector("#composer textarea");
        target?.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        target?.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, what);
    await drop({ file: "dropped.txt" });
    await page.waitForSelector(".attach-note");
    assert.equal(await page.innerText(".attach-note"), "dropped.txt was not attached: a file from outside VS Code comes without its path. Drag it from the Explorer, or type @ and its name.");
    assert.equal((await page.$$("#composer .chip")).length, 0);
    await drop({ file: "a.ts", uri: "file:///work/src/a.ts" });
    await page.waitForSelector("#composer .chip[data-kind='file']");
    assert.equal((await page.$$("#composer .chip")).length, 1, "the URI's chip is the file");
    assert.deepEqual(await view.problems(), []);
  });
});
