// @ts-check
// A message's actions (issue 19) as the user meets them: each message's header offers Copy as Markdown, Quote in
// composer and Open in editor, plus Edit (the user's messages) or Regenerate (an agent's answers), reachable with
// Tab and named for screen readers. Quote inserts at the caret and keeps the draft; Edit sets the draft aside under
// an "Editing message…" banner (Esc gives it back), and Send sends a new message linked to the original, whose link
// reveals it. Screenshots: test-results/webview-message-actions-{dark,light}.png, webview-message-edit-{dark,light}.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { ulid } from "ulid";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");
const U1 = ulid(Date.UTC(2025, 0, 15, 9, 31));
const A1 = ulid(Date.UTC(2025, 0, 15, 9, 32));
const A2 = ulid(Date.UTC(2025, 0, 15, 9, 33));

const channel = () =>
  openResult({
    messages: [
      { ...message({ id: U1, author: "user", text: "@demo which package manager?", to: ["demo"] }) },
      message({ id: A1, text: "Use **pnpm**.\n\nThen run `pnpm install`." }),
      { ...message({ id: A2, text: "Trying again: " , status: "streaming" }), regenerates: A1 },
    ],
  });

const action = (/** @type {string} */ id, /** @type {string} */ name) => `.message[data-message-id='${id}'] .message-action[data-action='${name}']`;

describe("message actions", () => {
  const env = withBrowser();

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`every message offers its actions, with names, in Tab order (${theme}); Regenerate waits while the answer runs`, async () => {
      const view = await openView(env.browser, env.server.origin, { open: channel(), theme, width: 420 });
      const { page, host } = view;
      await page.waitForSelector(action(A1, "copy"));
      const names = async (/** @type {string} */ id) => page.$$eval(`.message[data-message-id='${id}'] .message-action`, (els) => els.map((e) => e.getAttribute("aria-label")));
      assert.deepEqual(await names(U1), ["Copy as Markdown", "Quote in composer", "Open in editor", "Edit and send again"]);
      assert.deepEqual(await names(A1), ["Copy as Markdown", "Quote in composer", "Open in editor", "Regenerate: ask @demo the same request again"]);
      assert.equal(await page.getAttribute(`.message[data-message-id='${A1}'] .message-actions`, "role"), "group");
      assert.equal(await page.isDisabled(action(A2, "regenerate")), true, "not while the answer is streaming");
      assert.equal(await page.isDisabled(action(A1, "regenerate")), false);
      // The regenerated answer links to the one it regenerates.
      assert.match(await page.innerText(`.message[data-message-id='${A2}'] .message-origin`), /^regenerated from \d\d:\d\d/);

      // Keyboard: from the message, Tab reaches its buttons, which show once focused.
      await page.focus(`.message[data-message-id='${A1}']`);
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-action")), "copy");
      assert.equal(await page.$eval(`.message[data-message-id='${A1}'] .message-actions`, (el) => getComputedStyle(el).opacity), "1");
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-message-actions-${theme}.png`) });

      // A running answer's actions sit before its Stop, which stays clickable.
      await page.hover(`.message[data-message-id='${A2}'] .message-body`);
      await page.screenshot({ path: path.join(outDir, `webview-message-actions-running-${theme}.png`) });
      await page.click(`.message[data-message-id='${A2}'] .message-stop`);
      assert.deepEqual(await host.waitForRequests("turn/cancel"), [{ messageId: A2 }]);
      await page.focus(`.message[data-message-id='${A1}']`);
      await page.keyboard.press("Tab");

      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.origin });
      await page.keyboard.press("Enter");
      await page.waitForSelector(`${action(A1, "copy")}[aria-label='Copied']`);
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "## @demo · 2026-11-01 10:00 UTC\n\nUse **pnpm**.\n\nThen run `pnpm install`.\n");
      await page.click(action(A1, "open"));
      assert.deepEqual(await host.waitForRequests("message/openInEditor"), [{ messageId: A1 }]);
      await page.click(action(A1, "regenerate"));
      assert.deepEqual(await host.waitForRequests("turn/regenerate"), [{ messageId: A1 }]);
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("Quote in composer inserts the message as a quote at the caret, keeping the draft around it", async () => {
    const view = await openView(env.browser, env.server.origin, { open: channel(), width: 420 });
    const { page } = view;
    const box = "#composer textarea";
    await page.fill(box, "@demo compare this with yarn please");
    // The caret after "this " (the user clicked there), then the Quote button.
    await page.$eval(box, (el) => /** @type {HTMLTextAreaElement} */ (el).setSelectionRange(19, 19));
    await page.click(action(A1, "quote"));
    await page.waitForFunction((sel) => /** @type {HTMLTextAreaElement} */ (document.querySelector(sel)).value.includes(">"), box);
    assert.equal(await page.inputValue(box), "@demo compare this \n\n> Use **pnpm**.\n>\n> Then run `pnpm install`.\n\nwith yarn please");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "the focus is back in the composer");
    assert.equal(await page.$eval(box, (el) => /** @type {HTMLTextAreaElement} */ (el).selectionStart), "@demo compare this \n\n> Use **pnpm**.\n>\n> Then run `pnpm install`.\n\n".length, "the caret after the quote");
    assert.deepEqual(await view.problems(), []);
  });

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`Edit (${theme}): the text in the composer under a banner, Esc gives the draft back; Send sends a new message linked to the original`, async () => {
      const view = await openView(env.browser, env.server.origin, { open: channel(), theme, width: 420 });
      const { page, host } = view;
      const box = "#composer textarea";
      await page.fill(box, "my unsent draft");
      await page.click(action(U1, "edit"));
      await page.waitForSelector(".composer-editing");
      assert.equal(await page.inputValue(box), "@demo which package manager?");
      assert.match(await page.innerText(".composer-editing"), /Editing message… Esc to cancel/);
      assert.equal(await page.getAttribute(box, "aria-label"), "Edit your message to #general");
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-message-edit-${theme}.png`) });

      await page.press(box, "Escape");
      await page.waitForSelector(".composer-editing", { state: "detached" });
      assert.equal(await page.inputValue(box), "my unsent draft", "Esc gives the draft back");

      await page.click(action(U1, "edit"));
      await page.waitForSelector(".composer-editing");
      await page.fill(box, "@demo which package manager for a monorepo?");
      await page.press(box, "Enter");
      assert.deepEqual(await host.waitForRequests("channel/send"), [{ channelId: "ch-general", text: "@demo which package manager for a monorepo?", editOf: U1 }]);
      await page.waitForSelector(".composer-editing", { state: "detached" });
      assert.equal(await page.inputValue(box), "my unsent draft", "the draft comes back once the edited message is sent");
      assert.equal((await host.state()).drafts?.["ch-general"], "my unsent draft", "the saved draft was never the edited text");

      // The new message says where it came from; its link reveals the original, which is still there as it was.
      const link = ".message[data-author='user']:last-of-type .message-origin";
      await page.waitForSelector(link);
      assert.match(await page.innerText(link), /^edited from \d\d:\d\d/);
      await page.click(link);
      await page.waitForFunction((id) => document.activeElement?.getAttribute("data-message-id") === id, U1);
      assert.equal(await page.innerText(`.message[data-message-id='${U1}'] .message-body`), "@demo which package manager?");
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("Edit and resend offers to undo the files the answers changed first, off until ticked, and sends the choice", async () => {
    const view = await openView(env.browser, env.server.origin, { open: channel(), theme: "dark", width: 420 });
    const { page, host } = view;
    const box = "#composer textarea";
    await page.evaluate(() => {
      window.__host.handlers["message/answerFiles"] = () => ({ answers: 2, undoable: 3 });
    });
    await page.click(action(U1, "edit"));
    const undo = ".composer-editing vscode-checkbox.composer-editing-undo";
    await page.waitForSelector(undo);
    assert.deepEqual(await host.waitForRequests("message/answerFiles"), [{ messageId: U1 }]);
    assert.match(await page.innerText(".composer-editing"), /First undo the 3 files its answers changed/);
    assert.equal(await page.$eval(undo, (el) => /** @type {HTMLInputElement} */ (/** @type {unknown} */ (el)).checked), false, "never ticked for the user");
    await page.click(undo);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-message-edit-undo.png") });
    await page.fill(box, "@demo which package manager, again?");
    await page.press(box, "Enter");
    assert.deepEqual(await host.waitForRequests("channel/send"), [{ channelId: "ch-general", text: "@demo which package manager, again?", editOf: U1, undoAnswers: true }]);
    await page.waitForSelector(".composer-editing", { state: "detached" });

    // Edited again without ticking: nothing is undone.
    await page.click(action(U1, "edit"));
    await page.waitForSelector(undo);
    assert.equal(await page.$eval(undo, (el) => /** @type {HTMLInputElement} */ (/** @type {unknown} */ (el)).checked), false, "the earlier choice is not carried over");
    await page.press(box, "Enter");
    const sends = await host.waitForRequests("channel/send", 2);
    assert.deepEqual(sends[1], { channelId: "ch-general", text: "@demo which package manager?", editOf: U1 });
    assert.deepEqual(await view.problems(), []);
  });
});
