// @ts-check
// Field case 13 in the view: a tool call's diff and a files card entry that only turn LF into CRLF say so ("line endings
// only: LF → CRLF"), not "+2 −2"; a real change still shows its line counts.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
const LF = "export const a = 1;\nexport const b = 2;\n";
const CRLF = LF.replace(/\n/g, "\r\n");

/** @type {import("../../src/shared/protocol").Part[]} */
const PARTS = [
  {
    type: "toolCall",
    toolCallId: "t1",
    kind: "edit",
    title: "Edit src/a.ts",
    status: "completed",
    diffs: [
      { path: "/w/src/a.ts", oldText: LF, newText: CRLF },
      { path: "/w/src/b.ts", oldText: "x\n", newText: "y\n" },
    ],
  },
  { type: "text", text: "Saved with Windows line endings." },
  {
    type: "files",
    files: [
      { path: "/w/src/a.ts", kind: "modified", beforeKnown: true, lineEndings: { from: "LF", to: "CRLF" } },
      { path: "/w/src/b.ts", kind: "modified", beforeKnown: true },
    ],
  },
];
const body = ".message[data-message-id='e1'] .message-body";

describe("line endings only", () => {
  const env = withBrowser();

  it("are said so on the tool call's diff and on the files card; a real change keeps its counts", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "e1", parts: PARTS, stopReason: "end_turn" })] }), width: 420 });
    const { page } = view;
    await page.waitForSelector(`${body} .tool-diff`);
    assert.equal((await page.innerText(`${body} .tool-diff[data-path='/w/src/a.ts'] .diff-eol`)).trim(), "line endings only: LF → CRLF");
    assert.equal(await page.$$eval(`${body} .tool-diff[data-path='/w/src/a.ts'] .diff-stat`, (els) => els.length), 0, "no +2 −2");
    assert.equal((await page.innerText(`${body} .tool-diff[data-path='/w/src/b.ts'] .diff-stat`)).replace(/\s+/g, " ").trim(), "+1 −1");
    assert.equal((await page.innerText(`${body} .files-item[data-path='/w/src/a.ts'] .files-eol`)).trim(), "line endings only: LF → CRLF");
    assert.equal(await page.$$eval(`${body} .files-item[data-path='/w/src/b.ts'] .files-eol`, (els) => els.length), 0);
    await page.evaluate(() => document.fonts.ready);
    await frames(page, 3);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-line-endings.png") });
    assert.deepEqual(await view.problems(), []);
  });
});
