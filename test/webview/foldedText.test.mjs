// @ts-check
// A long text the user wrote (a pasted log) shows folded: its first lines, fading, and "Show all (N lines, size)";
// the button shows the whole text and folds it again. The text itself is never cut: Copy as Markdown copies all of
// it while folded. A short message and an agent's long answer are not folded. Screenshots:
// test-results/webview-folded-{dark,light}.png.
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
const U2 = ulid(Date.UTC(2025, 0, 15, 9, 33));

const log = Array.from({ length: 300 }, (_, i) => `2025-01-15T09:30:${String(i % 60).padStart(2, "0")} worker-${i} ready`).join("\n");
const pasted = `@demo why does this fail?\n\`\`\`\n${log}\n\`\`\`\nThe last line of what I wrote.`;
const answer = Array.from({ length: 80 }, (_, i) => `Answer line ${i + 1}.`).join("\n\n");

const channel = () =>
  openResult({
    messages: [
      message({ id: U1, author: "user", text: pasted, to: ["demo"] }),
      message({ id: A1, text: answer }),
      message({ id: U2, author: "user", text: "@demo thanks", to: ["demo"] }),
    ],
  });

const body = (/** @type {string} */ id) => `.message[data-message-id='${id}'] .message-body`;

describe("a long message of the user's, folded", () => {
  const env = withBrowser();

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`shows its first lines and Show all; the button unfolds and folds it again (${theme})`, async () => {
      const view = await openView(env.browser, env.server.origin, { open: channel(), theme, width: 420 });
      const { page } = view;
      const toggle = `${body(U1)} .fold-toggle`;
      await page.waitForSelector(toggle);
      assert.equal(await page.innerText(toggle), "Show all (304 lines, 11 KB)");
      assert.equal(await page.getAttribute(toggle, "aria-expanded"), "false");
      const folded = await page.innerText(body(U1));
      assert.match(folded, /why does this fail\?/);
      assert.match(folded, /worker-0 ready/, "the log's first lines show");
      assert.doesNotMatch(folded, /worker-299 ready|The last line of what I wrote/, "the rest is folded away");
      // The cut fell inside the code fence: the head closes it, so the lines shown are code, not raw backticks.
      assert.equal(await page.$$eval(`${body(U1)} pre`, (els) => els.length), 1);
      assert.doesNotMatch(folded, /```/);
      mkdirSync(outDir, { recursive: true });
      // The user scrolls up to it (the view opens at the latest message).
      await page.hover(".history");
      await page.mouse.wheel(0, -4000);
      await page.waitForFunction((sel) => { const el = document.querySelector(sel); const h = document.querySelector(".history"); return !!el && !!h && el.getBoundingClientRect().top >= h.getBoundingClientRect().top; }, `.message[data-message-id='${U1}']`);
      await page.screenshot({ path: path.join(outDir, `webview-folded-${theme}.png`) });

      await page.click(toggle);
      await page.waitForSelector(`${toggle}[aria-expanded='true']`);
      assert.equal(await page.innerText(toggle), "Show less");
      const whole = await page.innerText(body(U1));
      assert.match(whole, /worker-299 ready/);
      assert.match(whole, /The last line of what I wrote/);

      await page.click(toggle);
      await page.waitForSelector(`${toggle}[aria-expanded='false']`);
      assert.doesNotMatch(await page.innerText(body(U1)), /worker-299 ready/);
      // Folded again after reading to its end: the button, at the text's end, is where the user is.
      assert.equal(await page.$eval(toggle, (el) => { const r = el.getBoundingClientRect(); const h = el.closest(".history")?.getBoundingClientRect(); return !!h && r.top >= h.top && r.bottom <= h.bottom; }), true);
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("is never cut: Copy as Markdown copies the whole text while it is folded; short messages and answers do not fold", async () => {
    const view = await openView(env.browser, env.server.origin, { open: channel(), width: 420 });
    const { page } = view;
    await page.waitForSelector(`${body(U1)} .fold-toggle`);
    assert.equal(await page.$(`${body(U2)} .fold-toggle`), null, "a short message");
    assert.equal(await page.$(`${body(A1)} .fold-toggle`), null, "an agent's answer is read whole");
    assert.match(await page.innerText(body(A1)), /Answer line 80\./);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.origin });
    await page.hover(body(U1));
    await page.click(`.message[data-message-id='${U1}'] .message-action[data-action='copy']`);
    await page.waitForSelector(`.message[data-message-id='${U1}'] .message-action[data-action='copy'][aria-label='Copied']`);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(copied.includes(log), "the whole log");
    assert.ok(copied.includes("The last line of what I wrote."));
  });
});
