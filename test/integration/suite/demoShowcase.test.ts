/**
 * The demo shows the headline features offline (issue 15, item 6), in a real editor: the roster `npm start` writes
 * (two demo agents, `demo` and `odie`, both `command: sidekicks:demo`) and its `demo-notes.md`.
 * - `@demo edit a file`: a permission card, Allow once, then the file changed on disk, the tool card's diff and the
 *   answer's "1 file changed" card, whose Diff opens the editor's diff view (screenshot `demo-edit`);
 * - `@demo delegate to odie`: demo's answer mentions @odie, and odie answers under it, "delegated by @demo"
 *   (screenshot `demo-delegation`).
 * Replaces the roster and puts the previous one back afterwards; removes demo-notes.md.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
// The harness's own requests: a picture taken before the test goes on (a printed marker line does not wait for it).
import { webview as harness } from "./vsixBridge";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

/** What `npm start` writes (scripts/demoWorkspace.mjs), kept short here. */
const ROSTER = ["agents:", "  - name: demo", "    command: sidekicks:demo", "  - name: odie", "    command: sidekicks:demo", ""].join("\n");
const NOTES = "# Demo notes\n\nA file for the demo agents to change.\n\nEdits so far: 0\n";

describe("the demo shows files changed and delegation without an account", () => {
  let api: SidekicksTestApi;
  let roster: vscode.Uri;
  let notes: vscode.Uri;
  let original: string | undefined;
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await api.webview("test/attribute", { selector, name })).text;
  const last = ".history > .message:nth-last-child(1)";

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    roster = vscode.Uri.joinPath(folder, "sidekicks.yaml");
    notes = vscode.Uri.joinPath(folder, "demo-notes.md");
    original = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode(NOTES));
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(ROSTER));
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show demo and odie as members", async () => {
      const header = await text(".channel-header");
      return header?.includes("demo") && header.includes("odie") ? true : undefined;
    });
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    if (original !== undefined) await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(original));
    if (notes) await vscode.workspace.fs.delete(notes).then(undefined, () => undefined);
  });

  it("@demo edit a file: allowed, the file changes, and the answer's files card opens its diff in the editor", async () => {
    assert.equal((await api.webview("test/compose", { text: "@demo edit a file" })).sent, true, "the composer did not send");
    const allow = `${last} .permission.card[data-state='pending'] button.permission-option[data-option-id='allow']`;
    await poll("demo's permission request", async () => ((await text(allow)) !== null ? true : undefined), 30_000);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(notes)), NOTES, "nothing written before Allow");
    assert.equal((await api.webview("test/click", { selector: allow })).clicked, true);
    await poll("demo's answer, finished", async () => ((await attribute(last, "data-author")) === "agent" && (await attribute(last, "data-status")) === "done" ? true : undefined), 30_000);
    const edited = new TextDecoder().decode(await vscode.workspace.fs.readFile(notes));
    assert.equal(edited, `${NOTES.replace("Edits so far: 0", "Edits so far: 1")}- Edit 1, by demo\n`, "the file on disk");
    assert.match((await text(`${last} .message-body`)) ?? "", /I changed demo-notes\.md: edit 1\./);

    // The tool card shows the change: one line replaced, one added.
    const toolDiff = `${last} .tool-diff[data-path=${JSON.stringify(notes.fsPath)}]`;
    assert.equal(await text(`${toolDiff} .diff-added`), "+2");
    assert.equal(await text(`${toolDiff} .diff-removed`), "−1");

    // The answer's files card lists the file, and its Diff opens the editor's diff view: before the turn vs now.
    const item = `${last} .files-item[data-path=${JSON.stringify(notes.fsPath)}]`;
    await poll("demo-notes.md in the answer's files changed", async () => ((await attribute(item, "data-kind")) === "modified" ? true : undefined), 15_000);
    assert.match((await text(`${last} .files-title`)) ?? "", /1 file changed/);
    assert.equal((await api.webview("test/click", { selector: `${item} button.diff-open` })).clicked, true);
    const diff = await poll("the diff editor on demo-notes.md", () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.modified.fsPath === notes.fsPath ? input : undefined;
    }, 15_000);
    const before = await vscode.workspace.openTextDocument(diff.original);
    assert.equal(before.getText(), NOTES, "the left side: the file before the answer");

    await vscode.commands.executeCommand("sidekicks.focus");
    await harness("workbench/visible", { selector: ".monaco-diff-editor .editor.modified .view-line" }); // the diff editor is drawn
    assert.equal((await harness("vsix/screenshot", { name: "demo-edit" })).taken, true, "the picture demo-edit");
  });

  it("@demo delegate to odie: demo's answer mentions @odie, and odie answers under it, delegated by @demo", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("sidekicks.focus");
    assert.equal((await api.webview("test/compose", { text: "@demo delegate to odie" })).sent, true, "the composer did not send");
    const demoAnswer = ".history > .message:nth-last-child(2)";
    await poll("odie's answer, finished", async () => ((await text(`${last} .message-author`)) === "odie" && (await attribute(last, "data-status")) === "done" ? true : undefined), 45_000);
    assert.equal(await text(`${demoAnswer} .message-author`), "demo");
    assert.match((await text(`${demoAnswer} .message-body`)) ?? "", /@odie, over to you: say hello\./);
    assert.equal(await text(`${last} .message-delegated`), "delegated by @demo");
    assert.match((await text(`${last} .message-body`)) ?? "", /demo handed this to me:\s+say hello\./);
    assert.equal((await harness("vsix/screenshot", { name: "demo-delegation", part: "sidebar" })).taken, true, "the picture demo-delegation");
  });
});
