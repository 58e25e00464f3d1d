// @ts-check
// `@file` in the composer (issue 21): after the members, the workspace files the host finds for the typed word; by
// keyboard (arrows, Enter/Tab, Esc) as the members' list; accepting one removes the `@…` word and adds the file as a
// chip, with its lines for `@path:10-20`; the chip goes with the message.
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { openResult, openView, withBrowser } from "./harness.mjs";

/** @type {import("../../src/shared/protocol").MemberView[]} */
const members = [
  { name: "garfield", state: "ready" },
  { name: "odie", state: "ready" },
];
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");

/** @param {import("./harness.mjs").Page} page */
const labels = (page) => page.$$eval("#composer-suggestions .suggestion-label", (els) => els.map((e) => e.textContent));
/** @param {import("./harness.mjs").Page} page */
const value = (page) => page.$eval("#composer textarea", (t) => /** @type {HTMLTextAreaElement} */ (t).value);
/** @param {import("./harness.mjs").Page} page */
const chips = (page) => page.$$eval("#composer .chip .chip-label", (els) => els.map((e) => e.textContent));

describe("@file completion", () => {
  const env = withBrowser();

  it("offers workspace files after the members, and Enter makes the file a chip and writes its path over the typed word", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members }), width: 300 });
    const { page, host } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("look at @");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["@garfield", "@odie"], "a bare @ offers members only");
    await page.keyboard.type("comp");
    await page.waitForFunction(() => [...document.querySelectorAll("#composer-suggestions .suggestion-label")].some((e) => e.textContent === "src/app/compose.ts"));
    assert.deepEqual(await labels(page), ["src/app/compose.ts"]);
    assert.equal(await page.getAttribute("#composer-suggestions", "role"), "listbox");
    assert.equal(await page.getAttribute("#composer textarea", "aria-activedescendant"), "suggestion-0");
    await page.screenshot({ path: path.join(outDir, "webview-file-mention.png") });
    await page.keyboard.press("Enter");
    await page.waitForSelector("#composer .chip[data-kind='file']");
    assert.equal(await value(page), "look at `src/app/compose.ts` ", "the @word became the path, as code: the sentence still names the file");
    assert.deepEqual(await chips(page), ["compose.ts"]);
    assert.equal(await page.getAttribute("#composer .chip[data-kind='file']", "title"), "File /work/src/app/compose.ts");
    assert.deepEqual(await host.requests("channel/send"), [], "Enter accepted, did not send");
    assert.ok((await host.requests("files/find")).every((p) => /** @type {{query: string}} */ (p).query.length >= 2), "not asked for a bare @ or one letter");

    await page.keyboard.type("what is it?");
    await page.keyboard.press("Enter");
    const [sent] = /** @type {{ text: string, attachments: unknown[] }[]} */ (await host.waitForRequests("channel/send"));
    assert.equal(sent.text, "look at `src/app/compose.ts` what is it?");
    assert.deepEqual(sent.attachments, [{ kind: "file", path: "/work/src/app/compose.ts" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("attaches the lines @path:10-20 names, by Tab; arrows move; Esc closes and keeps the text", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members }), width: 300 });
    const { page, host } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("@s");
    await page.keyboard.type("rc/");
    await page.waitForFunction(() => document.querySelectorAll("#composer-suggestions .suggestion").length === 2);
    assert.deepEqual(await labels(page), ["src/app/compose.ts", "src/shared/attachments.ts"]);
    await page.keyboard.press("Escape");
    await page.waitForSelector("#composer-suggestions", { state: "detached" });
    assert.equal(await value(page), "@src/", "Esc keeps the text");

    await page.keyboard.type("shared/attachments.ts#L10-20");
    await page.waitForFunction(() => [...document.querySelectorAll("#composer-suggestions .suggestion-label")].some((e) => e.textContent === "src/shared/attachments.ts:10-20"));
    assert.match(await page.innerText("#composer-suggestions .suggestion.active"), /attach these lines/);
    await page.keyboard.press("Tab");
    await page.waitForSelector("#composer .chip[data-kind='file']");
    assert.equal(await value(page), "`src/shared/attachments.ts:10-20` ");
    assert.deepEqual(await chips(page), ["attachments.ts:10-20"]);
    await page.screenshot({ path: path.join(outDir, "webview-file-mention-lines.png") });

    await page.keyboard.type("@README");
    await page.waitForSelector("#composer-suggestions .suggestion:nth-child(1)");
    await page.waitForFunction(() => document.querySelector("#composer-suggestions .suggestion-label")?.textContent === "README.md");
    await page.keyboard.press("ArrowDown"); // one item: wraps to itself
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#composer .chip").length === 2);
    await page.keyboard.type("@readme");
    await page.waitForFunction(() => document.querySelector("#composer-suggestions .suggestion-label")?.textContent === "README.md");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#composer-suggestions", { state: "detached" });
    assert.deepEqual(await chips(page), ["attachments.ts:10-20", "README.md"], "a file already attached is not added twice");
    assert.deepEqual(await host.requests("channel/send"), []);
    assert.deepEqual(await view.problems(), []);
  });

  it("says under the composer which typed @path names no file of the workspace: it went as text", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members }), width: 300 });
    const { page, host } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("@garfield compare @src/nope.ts with @README.md");
    await page.keyboard.press("Escape"); // the file list offered for the last word closes
    await page.keyboard.press("Enter");
    const [sent] = /** @type {{ text: string }[]} */ (await host.waitForRequests("channel/send"));
    assert.equal(sent.text, "@garfield compare @src/nope.ts with @README.md");
    await page.waitForSelector(".action-note");
    assert.equal(await page.innerText(".action-note-text"), "@src/nope.ts: no such file in the workspace — sent as text");
    assert.equal(await page.getAttribute(".action-note", "role"), "status");
    await page.screenshot({ path: path.join(outDir, "webview-file-mention-unmatched.png") });
    // The next message that names only files the workspace has leaves no note.
    await page.keyboard.type("@garfield and @src/app/compose.ts?");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Enter");
    await host.waitForRequests("channel/send", 2);
    await page.waitForSelector(".action-note", { state: "detached" });
    assert.deepEqual(await view.problems(), []);
  });
});
