/**
 * Field cases 9, 11, 12, 13, 16 and 22 (`../shared/cases/field-cases.md`) replayed in a real editor: what the real
 * webview shows for a heavy turn (and again after the store is reopened), streamed Markdown and its Copy, escape
 * sequences in tool output and a real terminal, a change of line endings only, a command whose path and folder have
 * spaces, and odd command names. Screenshot `field-cases-shown`. Replaces the roster and puts it back after; the files
 * it makes in the workspace are removed after.
 */
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { fieldCaseChannel, type FieldCaseApi } from "./fieldCaseChannel";
import { clipboardText, screenshot } from "./harness";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";

const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const node = { name: "ELECTRON_RUN_AS_NODE", value: "1" };
const LF = "first line\nsecond line\n";
const CRLF = LF.replace(/\n/g, "\r\n");

/** Field case 9: 60 tool calls (each announced, then completed), 2,000 chunks of 100 characters, one 1 MB line. */
const heavy = [
  ...Array.from({ length: 60 }, (_, i) => [
    { toolCall: { toolCallId: `h${i}`, title: `Step ${i}`, kind: "read", status: "in_progress" } },
    { toolCallUpdate: { toolCallId: `h${i}`, status: "completed", content: [{ type: "content", content: { type: "text", text: `done ${i}` } }] } },
  ]).flat(),
  { chunks: { count: 2_000, size: 100 } },
  { chunks: { count: 1, size: 1_000_000 } },
];
const HEAVY_TEXT = ("x".repeat(99) + "\n").repeat(2_000) + "x".repeat(999_999) + "\n";

function agents(): Record<string, object> {
  const spaced = path.join(folder(), "with space", "node");
  return {
    heavy: { prompt: heavy },
    streams: { prompt: [{ chunk: "Run:\n```bash\nkill $1\n" }, { chunk: "echo \\(x\\)\n" }, { chunk: "```\nDone." }] },
    sha: { prompt: [{ chunk: "SHA:\n\n```text\nabc123\n```" }] },
    colours: {
      prompt: [
        { toolCall: { toolCallId: "json", title: "Show the config", kind: "read", status: "completed", content: [{ type: "content", content: { type: "text", text: '\u001b[1;37m{\u001b[0m"a": 1\u001b[1;37m}\u001b[0m' } }] } },
        { terminal: { command: process.execPath, args: ["-e", "process.stdout.write('\\u001b[?9001h\\u001b[?1004hbuild ok\\r\\n')"], env: [node] }, embed: "build" },
      ],
    },
    eol: {
      prompt: [
        { toolCall: { toolCallId: "crlf", title: "Convert eol.txt", kind: "edit", status: "completed", content: [{ type: "diff", path: path.join(folder(), "eol.txt"), oldText: LF, newText: CRLF }] } },
        { writeFile: { path: path.join(folder(), "eol.txt"), content: CRLF } },
      ],
    },
    spaces: { prompt: [{ terminal: { command: spaced, args: ["-e", "console.log('a b')"], cwd: path.join(folder(), "Test User", "my repo"), env: [node] } }] },
    odd: {
      afterNew: [
        {
          sessionUpdate: "available_commands_update",
          availableCommands: [
            { name: "/help", description: "Help" },
            { name: "review", description: "Review" },
            { name: "review", description: "Review again" },
            { name: "has space", description: "Cannot be typed" },
            { name: "", description: "Nameless" },
            { name: "<img src=x onerror=alert(1)>", description: "Markup with spaces" },
            { name: "<svg:onload=alert(1)>", description: "Markup" },
          ],
        },
      ],
      prompt: [{ chunk: "Commands announced." }],
    },
  };
}

describe("field cases in the real editor: what the view shows", () => {
  const kept = keptRoster<FieldCaseApi>();
  const ch = fieldCaseChannel(() => kept.api);
  const made = ["with space", "Test User", "eol.txt"];

  before(async () => {
    mkdirSync(path.join(folder(), "with space"), { recursive: true });
    symlinkSync(process.execPath, path.join(folder(), "with space", "node"));
    mkdirSync(path.join(folder(), "Test User", "my repo"), { recursive: true });
    await vscode.workspace.fs.writeFile(vscode.Uri.file(path.join(folder(), "eol.txt")), new TextEncoder().encode(LF));
    const entries = Object.entries(agents()).flatMap(([name, script]) => fakeAgentEntry(name, script, kept.extensionPath));
    await kept.write(["# One scripted fake agent per field case.", "agents:", ...entries]);
    await vscode.commands.executeCommand("sidekicks.focus");
    // Many members: the header folds them behind "+N more", so the badge is looked for, not its text.
    await poll("#general to list every case's agent", async () => ((await ch.attribute(".channel-header .member[data-member='odd']", "data-state")) ? true : undefined));
  });

  after(() => {
    for (const name of made) rmSync(path.join(folder(), name), { recursive: true, force: true });
  });

  it("case 9: a heavy turn ends at its prompt result, and the reopened store shows the same answer", async () => {
    const { answer, id } = await ch.ask("@heavy go", 60_000);
    assert.equal(await ch.attribute(answer, "data-status"), "done");
    assert.equal(await ch.count(`${answer} .typing`), 0, "no typing dots left");
    assert.equal(await ch.count(`${answer} .tool-call[data-status='completed']`), 60);
    assert.equal(await kept.api.savedText("general", id), HEAVY_TEXT);
    await kept.api.reopenStore();
    await poll("the answer back from the store", async () => ((await ch.count(`${answer} .tool-call[data-status='completed']`)) === 60 ? true : undefined), 30_000);
    assert.equal(await ch.attribute(answer, "data-status"), "done");
    assert.equal(await kept.api.savedText("general", id), HEAVY_TEXT, "identical after the reopen");
  });

  it("case 11: a fence streamed open is literal code followed by a paragraph; Copy yields exactly the code", async () => {
    const { answer } = await ch.ask("@streams go");
    assert.equal((await ch.text(`${answer} .code-block pre code`))?.replace(/\n$/, ""), "kill $1\necho \\(x\\)");
    const body = (await ch.text(`${answer} .message-body`))?.trim() ?? "";
    assert.match(body, /^Run:[\s\S]*kill \$1\s+echo \\\(x\\\)\s+Done\.$/, "the code literal, then the paragraph");
    assert.equal(await ch.count(`${answer} .code-block`), 1);
    const sha = await ch.ask("@sha go");
    const copy = `${sha.answer} .code-block button[data-code-action='copy']`;
    assert.equal(await ch.click(copy), true);
    await poll("the button to say it copied", async () => ((await ch.text(copy))?.trim() === "Copied" ? true : undefined), 10_000);
    assert.equal(await clipboardText(), "abc123", "exactly the code, without the fence's last newline");
  });

  it("case 12: escape sequences in tool output and in a real terminal's output are never shown as text", async () => {
    const { answer } = await ch.ask("@colours go");
    const json = (await ch.text(`${answer} .tool-call[data-tool-call-id='json']`)) ?? "";
    assert.match(json, /\{"a": 1\}/);
    const built = (await ch.text(`${answer} .tool-call[data-tool-call-id='build']`)) ?? "";
    assert.match(built, /build ok/);
    for (const raw of ["\u001b", "[1;37m", "[0m", "[?9001h", "[?1004h"]) {
      assert.equal(json.includes(raw), false, `no ${JSON.stringify(raw)} in the tool's output ${JSON.stringify(json)}`);
      assert.equal(built.includes(raw), false, `no ${JSON.stringify(raw)} in the terminal's output ${JSON.stringify(built)}`);
    }
  });

  it("case 13: a change that only turns LF into CRLF says so on the tool's diff and on the files card", async () => {
    const { answer } = await ch.ask("@eol convert");
    assert.equal((await ch.text(`${answer} .tool-call[data-tool-call-id='crlf'] .diff-eol`))?.trim(), "line endings only: LF → CRLF");
    const file = `${answer} .files-item[data-path=${JSON.stringify(path.join(folder(), "eol.txt"))}]`;
    await poll("eol.txt on the files card", async () => ((await ch.attribute(file, "data-kind")) === "modified" ? true : undefined), 15_000);
    assert.equal((await ch.text(`${file} .files-eol`))?.trim(), "line endings only: LF → CRLF");
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path.join(folder(), "eol.txt")))), CRLF, "the file holds what the agent wrote");
  });

  it("case 16: a command whose path and folder have spaces runs as given", async () => {
    const { answer } = await ch.ask("@spaces run it", 45_000);
    // The agent's own report of terminal/wait_for_exit and terminal/output: exit 0, and the two words as one argument.
    assert.match((await ch.text(`${answer} .message-body`)) ?? "", /terminal: \{"exitCode":0,"signal":null\} \{"output":"a b\\r\\n"/);
  });

  it("case 22: odd command names are offered as text: /help once, review once, no empty name; a name typing cannot call is greyed, saying why", async () => {
    await ch.ask("@odd hi");
    assert.equal((await kept.api.webview("test/type", { text: "@odd /" })).typed, true);
    const labels = await poll("the command suggestions", async () => {
      const n = await ch.count(".suggestions .suggestion-label");
      if (n === 0) return undefined;
      const out: string[] = [];
      for (let i = 1; i <= n; i++) out.push((await ch.text(`.suggestions li:nth-child(${i}) .suggestion-label`)) ?? "");
      return out;
    });
    assert.deepEqual(labels, ["/help", "/review", "/has space", "/<img src=x onerror=alert(1)>", "/<svg:onload=alert(1)>"]);
    assert.equal(await ch.count(".suggestions svg, .suggestions img"), 0, "the markup is text, not an element");
    assert.equal(await ch.count(".suggestions .suggestion.not-callable"), 2, "the spaced names are greyed");
    assert.equal(await ch.attribute(".suggestions li:nth-child(3)", "aria-disabled"), "true");
    assert.match((await ch.attribute(".suggestions li:nth-child(3)", "title")) ?? "", /holds a space/);
    assert.equal(await ch.attribute(".suggestions li:nth-child(2)", "aria-disabled"), null, "a callable command is not greyed");
    await screenshot("field-cases-shown", "sidebar");
    await kept.api.webview("test/type", { text: "" });
  });
});
