/**
 * Agents' files and terminals through the editor (issue 7), in a real editor: the scripted fake agent
 * (test/fixtures/fake-agent.mjs, a real ACP subprocess run by the extension host's Node) reads a file that is open
 * and modified but not saved, writes it, and runs a command.
 * - `fs/read_text_file` returns the editor's unsaved text, not the disk's;
 * - `fs/write_text_file` shows up in the open editor (a `WorkspaceEdit`, then saved) and Undo brings the text back;
 * - `terminal/create` appears in VS Code's terminal list as "<agent>: <command>", and the agent gets its output;
 * - the answer's "files changed" lists the agent's write, not a file the user saved in the editor meanwhile.
 * Screenshot `agent-workspace`: the channel, the edited file and the terminal panel. Replaces the roster and puts the
 * previous one back afterwards.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { poll } from "./poll";
import { screenshot, workbenchVisible } from "./harness";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

const ON_DISK = "the saved line, on disk\n";
const UNSAVED = "a line typed in the editor and not saved yet\n";
const WRITTEN = "a line the agent wrote through fs/write_text_file\n";

describe("an agent's files and terminals through the editor", () => {
  let api: SidekicksTestApi;
  let roster: vscode.Uri;
  let original: string | undefined;
  let file: vscode.Uri;
  let mine: vscode.Uri;
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await api.webview("test/attribute", { selector, name })).text;

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    roster = vscode.Uri.joinPath(folder, "sidekicks.yaml");
    original = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    file = vscode.Uri.joinPath(folder, "notes.txt");
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(ON_DISK));
    mine = vscode.Uri.joinPath(folder, "mine.txt");
    await vscode.workspace.fs.writeFile(mine, new TextEncoder().encode("the user's file\n"));

    const script = {
      prompt: [
        { readFile: { path: file.fsPath } },
        { chunk: "\n\n" },
        { writeFile: { path: file.fsPath, content: WRITTEN } },
        { chunk: "\n\n" },
        // The user saves a file of their own while the agent works (the test does it once the write is shown).
        { untilFile: { path: mine.fsPath, includes: "my own line" } },
        // As a real agent takes its time: the editor's file watcher reports the write while the turn still runs.
        { sleep: 1500 },
        { terminal: { command: "echo", args: ["sidekicks-terminal-output", "42"] } },
      ],
    };
    const worker = [
      "# The scripted fake agent: reads and writes notes.txt, then runs echo in a terminal.",
      "agents:",
      ...fakeAgentEntry("worker", script, extension.extensionPath),
    ].join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(worker));
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show worker as a member", async () => ((await text(".channel-header"))?.includes("worker") ? true : undefined));
  });

  after(async () => {
    // Leave no modified editor behind (closing it would ask to save) and no terminal.
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.uri.toString() === file?.toString() || d.uri.toString() === mine?.toString())) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand("workbench.action.files.revert");
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    }
    for (const terminal of vscode.window.terminals) if (terminal.name.startsWith("worker:")) terminal.dispose();
    if (original !== undefined) await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(original));
  });

  it("reads the unsaved editor text, writes into the open editor (undoable), and runs a command in a VS Code terminal", async () => {
    // An open file, modified and not saved.
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), UNSAVED)));
    assert.equal(doc.isDirty, true);
    assert.equal(doc.getText(), UNSAVED);

    await vscode.commands.executeCommand("sidekicks.focus");
    assert.equal((await api.webview("test/compose", { text: "@worker read notes.txt, rewrite it and run echo" })).sent, true);
    const answer = ".history > .message:nth-last-child(1)";
    // While the agent works (it waits for this save), the user edits and saves a file of their own.
    await poll("the agent's write", async () => ((await text(`${answer} .message-body`))?.includes("write: {}") ? true : undefined), 30_000);
    const mineDoc = await vscode.workspace.openTextDocument(mine);
    const mineEditor = await vscode.window.showTextDocument(mineDoc, { preview: false });
    assert.ok(await mineEditor.edit((e) => e.insert(mineDoc.positionAt(mineDoc.getText().length), "my own line\n")));
    assert.ok(await mineDoc.save(), "the user's file saved");
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("worker's answer, finished", async () => ((await attribute(answer, "data-author")) === "agent" && (await attribute(answer, "data-status")) === "done" ? true : undefined), 30_000);
    const body = (await text(`${answer} .message-body`)) ?? "";

    // fs/read_text_file: the editor's buffer, unsaved changes included; not the disk.
    assert.ok(body.includes(`read: ${JSON.stringify({ content: UNSAVED })}`), `the agent read the unsaved text: ${body}`);
    assert.ok(!body.includes("the saved line, on disk"), "not the file on disk");

    // fs/write_text_file: in the open editor at once, then saved.
    assert.ok(body.includes("write: {}"), `the write succeeded: ${body}`);
    assert.equal(doc.getText(), WRITTEN, "the open document shows the agent's write");
    assert.equal(doc.isDirty, false, "and it was saved");
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), WRITTEN, "the file on disk too");

    // The editor's file watcher saw the write during the turn: the answer lists the file, with a diff to open.
    const changed = `${answer} .files-item[data-path=${JSON.stringify(file.fsPath)}]`;
    await poll("notes.txt in the answer's files changed", async () => ((await attribute(changed, "data-kind")) === "modified" ? true : undefined), 10_000);
    assert.ok((await text(`${changed} button.diff-open`))?.includes("Diff"), "with its diff");
    // The file the user saved meanwhile is the user's change, not the agent's.
    assert.equal(await attribute(`${answer} .files-item[data-path=${JSON.stringify(mine.fsPath)}]`, "data-kind"), null, "mine.txt is not the agent's change");

    // terminal/create: a VS Code terminal named after the agent and the command; the agent got its exit and output.
    const name = "worker: echo sidekicks-terminal-output 42";
    const terminal = await poll(`a terminal named ${JSON.stringify(name)}`, () => vscode.window.terminals.find((t) => t.name === name));
    const terminalLine = /terminal: (\{.*?\}) (\{.*\})/.exec(body);
    assert.ok(terminalLine, `the agent's answer quotes terminal/wait_for_exit and terminal/output: ${body}`);
    assert.equal((JSON.parse(terminalLine[1]!) as { exitCode?: number }).exitCode, 0, "the command exited with 0");
    const output = JSON.parse(terminalLine[2]!) as { output: string; truncated: boolean };
    assert.equal(output.output.trim(), "sidekicks-terminal-output 42");
    assert.equal(output.truncated, false);

    // The picture: the channel, the file as the agent wrote it, the terminal panel with the command's output.
    await vscode.window.showTextDocument(doc, { preview: false });
    terminal.show(true);
    await workbenchVisible(".integrated-terminal .xterm-screen"); // the terminal panel is drawn
    await screenshot("agent-workspace");

    // Undo in the editor brings back the text from before the agent's write.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand("undo");
    await poll("undo to bring the unsaved text back", () => (doc.getText() === UNSAVED ? true : undefined), 5_000);
    assert.equal(doc.isDirty, true, "the undone text is a change again, not on disk");
  });
});
