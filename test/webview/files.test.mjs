// @ts-check
// The files an agent changed during a turn (issue 7): listed on its answer, each with a Diff that asks the host, or a
// note when its earlier text is not known.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("files changed", () => {
  const env = withBrowser();

  it("lists the files with what happened to each; Diff asks the host for that message and file", async () => {
    /** @type {import("../../src/shared/protocol").Part} */
    const files = {
      type: "files",
      files: [
        { path: "/work/project/src/parser.ts", kind: "modified", beforeKnown: true },
        { path: "/work/project/NOTES.md", kind: "created", beforeKnown: true },
        { path: "/work/project/big.log", kind: "modified", beforeKnown: false },
        { path: "/work/project/old.txt", kind: "deleted", beforeKnown: true },
      ],
    };
    const answer = message({ id: "f1", parts: [{ type: "text", text: "Done: parser fixed." }, files] });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [answer] }), width: 320 });
    const { page, host } = view;
    await page.waitForSelector(".files.card");
    assert.match(await page.innerText(".files .files-title"), /4 files changed/);
    assert.deepEqual(
      await page.$$eval(".files-item", (items) => items.map((i) => [i.getAttribute("data-kind"), i.querySelector(".files-kind")?.textContent, !!i.querySelector("button.diff-open")])),
      [["modified", "changed", true], ["created", "new", true], ["modified", "changed", false], ["deleted", "deleted", true]],
    );
    assert.match(await page.innerText(".files-item[data-path='/work/project/big.log']"), /no earlier text/);
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results", "webview-files-changed.png") });
    await page.click(".files-item[data-path='/work/project/src/parser.ts'] button.diff-open");
    assert.deepEqual(await host.waitForRequests("turn/fileDiff"), [{ messageId: "f1", path: "/work/project/src/parser.ts" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("shows what the user kept or undid; Keep / Undo / Redo per file and for the answer, and Review changes, ask the host", async () => {
    /** @type {import("../../src/shared/protocol").Part} */
    const files = {
      type: "files",
      files: [
        { path: "/work/project/src/parser.ts", kind: "modified", beforeKnown: true, restorable: true },
        { path: "/work/project/NOTES.md", kind: "created", beforeKnown: true, restorable: true, state: "undone" },
        { path: "/work/project/old.txt", kind: "deleted", beforeKnown: true, restorable: true, state: "kept" },
        { path: "/work/project/big.log", kind: "modified", beforeKnown: false },
      ],
    };
    const answer = message({ id: "f2", parts: [{ type: "text", text: "Done: parser fixed." }, files] });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [answer] }), width: 420 });
    const { page, host } = view;
    await page.waitForSelector(".files.card");
    assert.deepEqual(
      await page.$$eval(".files-item", (items) => items.map((i) => [i.getAttribute("data-state"), i.querySelector(".files-state")?.textContent ?? "", [...i.querySelectorAll("button")].map((b) => b.textContent)])),
      [
        ["", "", ["Diff", "Keep", "Undo"]],
        ["undone", "undone", ["Diff", "Redo"]],
        ["kept", "kept", ["Diff", "Undo"]],
        ["", "", []],
      ],
    );
    assert.match(await page.innerText(".files .files-summary"), /1 undone · 1 kept/);
    assert.equal(await page.getAttribute(".files-item[data-path='/work/project/NOTES.md'] button.files-redo", "aria-label"), "Redo the agent's change of /work/project/NOTES.md: write its text from after the answer again");
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results", "webview-files-undo.png") });
    await page.click(".files-item[data-path='/work/project/src/parser.ts'] button.files-undo");
    assert.deepEqual(await host.waitForRequests("turn/restore"), [{ messageId: "f2", action: "undo", paths: ["/work/project/src/parser.ts"] }]);
    await page.click(".files-item[data-path='/work/project/NOTES.md'] button.files-redo");
    await page.click("button.files-keep-all");
    await page.click("button.files-review");
    await page.click("button.files-review-since");
    assert.deepEqual((await host.waitForRequests("turn/restore", 3)).slice(1), [{ messageId: "f2", action: "redo", paths: ["/work/project/NOTES.md"] }, { messageId: "f2", action: "keep" }]);
    assert.deepEqual(await host.waitForRequests("turn/review", 2), [{ messageId: "f2" }, { messageId: "f2", since: true }]);
    assert.deepEqual(await view.problems(), []);

    // A narrow side bar: each file's name stays readable and no label breaks inside a word (a tryout saw "…/wo…" and
    // "un / do / ne" one syllable a line at the default width).
    await page.setViewportSize({ width: 240, height: 700 });
    const shown = await page.$$eval(".files-item", (items) =>
      items.map((i) => ({
        name: i.querySelector(".diff-file")?.getBoundingClientRect().width ?? 0,
        labels: [...i.querySelectorAll(".files-state, .files-kind")].map((l) => Math.round(l.getBoundingClientRect().height)),
        line: parseFloat(getComputedStyle(i).fontSize) * 2,
      })),
    );
    for (const item of shown) {
      assert.ok(item.name >= 60, `a file name shown ${item.name} px wide`);
      for (const h of item.labels) assert.ok(h < item.line, `a label ${h} px high: broken over lines`);
    }
    await page.screenshot({ path: path.join(root, "test-results", "webview-files-narrow.png") });
  });

  it("after Undo then Redo the card is as right after the turn: no file marked kept, Keep and Undo offered again", async () => {
    /** @param {"undone" | undefined} state */
    const card = (state) => message({
      id: "f3",
      parts: [
        { type: "text", text: "Done: parser fixed." },
        { type: "files", files: ["/work/project/src/parser.ts", "/work/project/NOTES.md"].map((p) => ({ path: p, kind: "modified", beforeKnown: true, restorable: true, ...(state ? { state } : {}) })) },
      ],
    });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [card(undefined)] }), width: 420 });
    const { page, host } = view;
    await page.waitForSelector(".files.card");
    const rows = () => page.$$eval(".files-item", (items) => items.map((i) => [i.getAttribute("data-state") ?? "", i.querySelector(".files-state")?.textContent ?? "", [...i.querySelectorAll("button")].map((b) => b.textContent)]));
    const afterTurn = await rows();
    assert.deepEqual(afterTurn, Array(2).fill(["", "", ["Diff", "Keep", "Undo"]]));
    await host.emit("message/finished", card("undone"));
    await page.waitForSelector(".files-item[data-state='undone']");
    await page.click("button.files-redo-all");
    assert.equal((await host.waitForRequests("turn/restore"))[0].action, "redo");
    // The host's answer to the redo (the reducer's fileStates: the rows' decisions cleared, issue 19).
    await host.emit("message/finished", card(undefined));
    await page.waitForFunction(() => !document.querySelector(".files-item[data-state='undone']"));
    assert.deepEqual(await rows(), afterTurn, "the same card as right after the turn");
    assert.doesNotMatch(await page.innerText(".files.card"), /kept|undone/);
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results", "webview-files-redone.png") });
    assert.deepEqual(await view.problems(), []);
  });

  it("an answer of an agent in its own worktree offers Apply to my folder; the host's count of files left as they are is said", async () => {
    /** @param {boolean} worktree */
    const card = (worktree) => message({
      id: "f4",
      parts: [
        { type: "text", text: "Added my line." },
        { type: "files", ...(worktree ? { worktree: true } : {}), files: [{ path: "/tmp/worktrees/alpha/shared.txt", kind: "modified", beforeKnown: true, restorable: true }] },
      ],
    });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [card(false)] }), width: 420 });
    const { page, host } = view;
    await page.waitForSelector(".files.card");
    assert.equal(await page.$("button.files-apply-folder"), null, "not offered for an agent in the user's folder");
    await host.emit("message/finished", card(true));
    await page.waitForSelector("button.files-apply-folder");
    assert.equal(await page.innerText("button.files-apply-folder"), "Apply to my folder");
    await page.click("button.files-apply-folder");
    assert.deepEqual(await host.waitForRequests("turn/applyToFolder"), [{ messageId: "f4" }]);
    // The fake host answers: 1 applied, 1 conflict skipped.
    await page.waitForSelector(".action-note");
    assert.match(await page.innerText(".action-note"), /1 applied, 1 left as they are: they conflict with your folder/);
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results", "webview-files-apply-folder.png") });
    assert.deepEqual(await view.problems(), []);
  });
});
