/**
 * Real-agents suite, phase 1 (issue 19, "Real editor, with the real Claude Code"): what a turn of Claude Code changed on
 * disk (it writes the files itself; Sidekicks never wrote them) is reviewed in VS Code's multi-file diff editor,
 * undone and redone from the answer's files card; an undo over the user's unsaved edit asks first, and Skip keeps the
 * user's text; then Claude and Codex edit one file in consecutive turns, and undoing Claude's turn asks about the file
 * Codex changed since, whose non-overlapping change a Merge keeps. Conflicts are answered in VS Code's own quick pick,
 * typed in the workbench page as a user would. Screenshots realagents-review, realagents-undone,
 * realagents-undo-conflict.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { typeInWorkbench, workbenchVisible } from "./harness";
import { poll } from "./poll";
import { attribute, click, exists, message, read, resetFiles, screenshot, send, settled, text, workspaceFile } from "./realAgentsUi";

/** The files card's row of `name` in answer `id`. */
const row = (id: string, name: string) => `${message(id)} .files-item[data-path$='/${name}']`;

/** Waits until the row of `name` in answer `id` shows `state` ("" for neither kept nor undone). */
const stateOf = (id: string, name: string, state: string) =>
  poll(`${name} to show ${state || "no state"}`, async () => ((await attribute(row(id, name), "data-state")) === state ? true : undefined), 30_000);

/** Waits until a tab labelled with `label` is open (the multi-file diff editor's tab is labelled with its title). */
const tabOpen = (label: string) =>
  poll(`a tab "${label}"`, () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.includes(label)), 30_000);

/**
 * Answers the conflict quick pick of `name` (its title) once it shows, its placeholder naming `who` changed the file,
 * with the item `choice` (typed into its filter, then Enter).
 */
async function answerConflict(name: string, who: string, choice: string): Promise<void> {
  await workbenchVisible(`.quick-input-widget:has-text(${JSON.stringify(`${name} changed since this answer`)})`);
  await workbenchVisible(`.quick-input-widget input[placeholder*=${JSON.stringify(who)}]`);
  await typeInWorkbench(choice);
}

/** Registers the tests (called inside phase 1's `describe`, after the tools turns). */
export function undoTests(): void {
  it("@claude's tools turn: Review changes opens its files in the multi-file diff editor; Undo puts them back, Redo the agent's change", async () => {
    resetFiles();
    const [id] = await send("@claude work on the notes script:tools", ["claude"]);
    assert.equal(await settled(id!), "completed");
    assert.equal(read("notes.txt"), "beta\n");
    await poll("the files card", async () => ((await attribute(row(id!, "created.txt"), "data-kind")) !== null ? true : undefined), 30_000);

    await click(`${message(id!)} .files-review`);
    const tab = await tabOpen("Changes by @claude");
    await workbenchVisible(".monaco-diff-editor");
    await screenshot("realagents-review");
    await vscode.window.tabGroups.close(tab);

    await click(`${message(id!)} .files-undo-all`);
    await stateOf(id!, "notes.txt", "undone");
    await stateOf(id!, "created.txt", "undone");
    assert.equal(read("notes.txt"), "alpha\n", "Claude's edit undone on disk");
    assert.equal(exists("created.txt"), false, "the file Claude created is gone");
    assert.match((await text(`${message(id!)} .files-summary`)) ?? "", /2 undone/);
    await screenshot("realagents-undone");

    await click(`${message(id!)} .files-redo-all`);
    // Redone: as right after the turn, neither kept nor undone (issue 19).
    await stateOf(id!, "notes.txt", "");
    assert.equal(read("notes.txt"), "beta\n", "the redo brings Claude's edit back");
    assert.equal(read("created.txt"), "created by the scripted model\n");

    // The user edits notes.txt in the editor without saving: the undo asks, and Skip keeps their text. (The browser
    // editor saves by itself after a second by default: turned off here, so the edit stays unsaved.)
    const files = vscode.workspace.getConfiguration("files");
    await files.update("autoSave", "off", vscode.ConfigurationTarget.Global);
    const doc = await vscode.workspace.openTextDocument(workspaceFile("notes.txt"));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(doc.lineAt(doc.lineCount - 1).range.end, "mine\n"));
    assert.equal(doc.isDirty, true);
    await click(`${row(id!, "notes.txt")} .files-undo`);
    await workbenchVisible(".quick-input-widget:has-text('notes.txt changed since this answer')");
    await screenshot("realagents-undo-conflict");
    await answerConflict("notes.txt", "you have unsaved edits of it in the editor", "Skip this file");
    await stateOf(id!, "notes.txt", "");
    assert.equal(doc.getText(), "beta\nmine\n", "the unsaved edit is still there");
    assert.equal(read("notes.txt"), "beta\n", "nothing was written");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    await files.update("autoSave", undefined, vscode.ConfigurationTarget.Global);
  });

  it("@claude then @codex edit notes.txt in consecutive turns; undoing Claude's turn names Codex and a Merge keeps Codex's line", async () => {
    resetFiles();
    writeFileSync(workspaceFile("notes.txt"), "alpha\n\nline 3\nline 4\n");
    const [first] = await send("@claude work on the notes script:tools", ["claude"]);
    assert.equal(await settled(first!), "completed");
    await poll("Claude's files card", async () => ((await attribute(row(first!, "notes.txt"), "data-kind")) !== null ? true : undefined), 30_000);
    const [second] = await send("@codex add a line script:append", ["codex"]);
    assert.equal(await settled(second!), "completed");
    assert.equal(read("notes.txt"), "beta\n\nline 3\nline 4\ngamma\n", "both agents' changes on disk");

    await click(`${message(first!)} .files-undo-all`);
    await answerConflict("notes.txt", "@codex changed it in a later answer", "Merge: undo the answer's change");
    await stateOf(first!, "notes.txt", "undone");
    assert.equal(read("notes.txt"), "alpha\n\nline 3\nline 4\ngamma\n", "Claude's change undone, Codex's line kept");
    assert.equal(exists("created.txt"), false, "Claude's other file, unchanged since, undone without asking");
    resetFiles();
  });
}
