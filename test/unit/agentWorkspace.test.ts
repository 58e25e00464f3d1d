/**
 * The agent's workspace through ACP client methods, end to end: a fake agent (a real subprocess) reads and writes
 * files and runs commands through Sidekicks; what the user would notice — the unsaved buffer is what the agent reads,
 * a write to an open file goes through the editor, a path outside the workspace is refused with a sentence, the
 * command shows up as a terminal — and the tool intents recorded around the effects.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import type { Terminal } from "../../src/workspace/terminals";
import { hashText } from "../../src/turns/intents";
import { textOf } from "./channelHarness";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

async function setup(steps: (folder: string) => object[], withWorkspace = true) {
  const { dir, cleanup } = tempDir();
  const folder = path.join(dir, "my project");
  mkdirSync(folder);
  const open = new Map<string, string>();
  const edits: [string, string][] = [];
  const terminals: { agent: string; terminal: Terminal; seen: string[] }[] = [];
  const events = new Recorder();
  const agents = new AgentManager(events, {
    launch: { workspaceFolder: folder, nodePath: process.execPath, demoAgentPath: "", env: process.env },
    ...(withWorkspace
      ? {
          workspace: {
            documents: {
              openText: (p: string) => open.get(p),
              applyEdit: async (p: string, text: string) => {
                edits.push([p, text]);
                open.set(p, text);
                return true;
              },
            },
            onTerminal: (agent: string, terminal: Terminal) => {
              const seen: string[] = [];
              terminal.onData((t) => seen.push(t));
              terminals.push({ agent, terminal, seen });
            },
          },
        }
      : {}),
  });
  agents.setRoster([{ name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps(folder) }) } } as never]);
  const store = await Store.open(path.join(dir, "store"));
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(["a"]);
  const answer = async (text = "@a go"): Promise<MessageView> => {
    const before = events.of("message/finished").filter((m) => m.author.kind === "agent").length;
    await channels.messages.send(general.id, text);
    return waitFor(() => events.of("message/finished").filter((m) => m.author.kind === "agent")[before], 15_000, "the answer");
  };
  return {
    dir, folder, open, edits, terminals, store, answer, channels, events,
    async teardown() {
      await channels.close();
      await store.close();
      await agents.stopAll();
      cleanup();
    },
  };
}

test("initialize advertises files and terminals only when Sidekicks serves them", async () => {
  for (const served of [true, false]) {
    const s = await setup(() => [{ capabilities: true }], served);
    try {
      const caps = JSON.parse(textOf(await s.answer()));
      assert.deepEqual([caps.fs.readTextFile, caps.fs.writeTextFile, caps.terminal], [served, served, served]);
    } finally {
      await s.teardown();
    }
  }
});

test("fs/read_text_file: the open editor's unsaved text wins over the disk; line and limit; paths outside the workspace are refused with a sentence", async () => {
  const s = await setup((folder) => [
    { readFile: { path: path.join(folder, "notes.md") } },
    { chunk: "\n" },
    { readFile: { path: path.join(folder, "lines.txt"), line: 2, limit: 2 } },
    { chunk: "\n" },
    { readFile: { path: path.join(folder, "..", "secret.txt") } },
    { chunk: "\n" },
    { readFile: { path: "/etc/passwd" } },
  ]);
  try {
    const notes = path.join(s.folder, "notes.md");
    writeFileSync(notes, "on disk\n");
    s.open.set(notes, "one\ntwo (unsaved)\n");
    writeFileSync(path.join(s.folder, "lines.txt"), "1\n2\n3\n4\n");
    writeFileSync(path.join(s.dir, "secret.txt"), "TOP-SECRET-CONTENT");
    const said = textOf(await s.answer());
    assert.doesNotMatch(said, /TOP-SECRET-CONTENT/, "nothing outside the workspace was read");
    const lines = said.split("\n");
    assert.deepEqual(JSON.parse(lines[0]!.slice("read: ".length)), { content: "one\ntwo (unsaved)\n" });
    assert.deepEqual(JSON.parse(lines[1]!.slice("read: ".length)), { content: "2\n3\n" });
    for (const refused of [lines[2]!, lines[3]!]) {
      const { error } = JSON.parse(refused.slice("read: ".length));
      assert.match(error, /outside the agent's workspace/, refused);
    }
  } finally {
    await s.teardown();
  }
});

test("fs/read_text_file of a file that does not exist is ACP's Resource not found (-32002), so an agent can go on and create it", async () => {
  // Gemini CLI reads a file before writing it and takes only "Resource not found" for a missing file: with another
  // answer it reported the write failed and never created the file (a fresh-user trial).
  const s = await setup((folder) => [
    { readFile: { path: path.join(folder, "created.txt") } },
    { chunk: "\n" },
    { writeFile: { path: path.join(folder, "created.txt"), content: "made\n" } },
  ]);
  try {
    const lines = textOf(await s.answer()).split("\n");
    const created = path.join(s.folder, "created.txt");
    assert.deepEqual(JSON.parse(lines[0]!.slice("read: ".length)), { error: `Resource not found: ${created}`, code: -32002 });
    assert.equal(readFileSync(created, "utf8"), "made\n", "the write that follows creates it");
  } finally {
    await s.teardown();
  }
});

test("fs/write_text_file: an open file is edited through the editor, a closed one on disk; each is a settled write intent with before and after hashes", async () => {
  const s = await setup((folder) => [
    { writeFile: { path: path.join(folder, "open.ts"), content: "export const v = 2;\n" } },
    { writeFile: { path: path.join(folder, "new dir", "fresh.ts"), content: "fresh\n" } },
    { writeFile: { path: path.join(folder, "..", "escape.ts"), content: "no" } },
  ]);
  try {
    const opened = path.join(s.folder, "open.ts");
    writeFileSync(opened, "export const v = 1;\n");
    s.open.set(opened, "export const v = 1; // unsaved\n");
    const answer = await s.answer();
    const said = textOf(answer);
    assert.deepEqual(s.edits, [[opened, "export const v = 2;\n"]], "through the editor (undoable)");
    assert.equal(readFileSync(path.join(s.folder, "new dir", "fresh.ts"), "utf8"), "fresh\n", "a closed file is written to disk, folders created");
    assert.match(said, /write: \{"error":".*outside the agent's workspace/);
    const turnId = (await s.store.message(answer.channelId, answer.id))!.turnId!;
    const intents = await s.store.intentsOf(turnId);
    assert.deepEqual(
      intents.map((i) => [i.kind, path.basename(i.path!), i.phase, i.result, i.beforeHash, i.afterHash]),
      [
        ["write", "open.ts", "settled", "done", hashText("export const v = 1; // unsaved\n"), hashText("export const v = 2;\n")],
        ["write", "fresh.ts", "settled", "done", null, hashText("fresh\n")],
      ],
      "the refused write was never intended",
    );
    assert.deepEqual(await s.store.openIntents(), []);
  } finally {
    await s.teardown();
  }
});

test("terminal/*: a command with spaces in its arguments runs in the workspace, shows as an editor terminal, its output and exit reach the agent; recorded as a command intent", async () => {
  const script = "process.stdout.write(process.argv[1] + ' ' + process.cwd() + ' é✓'); process.exit(3)";
  const s = await setup(() => [{ terminal: { command: process.execPath, args: ["-e", script, "two words"] } }]);
  try {
    const answer = await s.answer();
    const said = textOf(answer);
    const [, exit, output] = /^terminal: (\{.*?\}) (\{.*\})$/s.exec(said) ?? [];
    assert.deepEqual(JSON.parse(exit!), { exitCode: 3, signal: null });
    const out = JSON.parse(output!);
    assert.equal(out.output, `two words ${s.folder} é✓`);
    assert.equal(out.truncated, false);
    assert.equal(s.terminals.length, 1);
    assert.equal(s.terminals[0]!.agent, "a");
    assert.match(s.terminals[0]!.terminal.title, /two words/);
    const turnId = (await s.store.message(answer.channelId, answer.id))!.turnId!;
    let found = await s.store.intentsOf(turnId);
    for (let i = 0; i < 100 && found[0]?.phase !== "settled"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      found = await s.store.intentsOf(turnId);
    }
    const [intent] = found;
    assert.deepEqual([intent!.kind, intent!.command, intent!.args?.[2], intent!.result, intent!.detail], ["terminal", process.execPath, "two words", "failed", "exit code 3"]);
  } finally {
    await s.teardown();
  }
});

test("files the agent changed during a turn are listed on its answer, and each diff is its text before the turn against the file now", async () => {
  const s = await setup((folder) => [{ writeFile: { path: path.join(folder, "main.ts"), content: "export const v = 2;\n" } }, { sleep: 600 }, { chunk: "done" }]);
  try {
    const main = path.join(s.folder, "main.ts");
    writeFileSync(main, "export const v = 1;\n");
    const answering = s.answer();
    // The editor's watcher: the agent's write, and a file its own tool created.
    for (let i = 0; i < 100 && readFileSync(main, "utf8") !== "export const v = 2;\n"; i++) await new Promise((r) => setTimeout(r, 20));
    writeFileSync(path.join(s.folder, "NOTES.md"), "made by a tool\n");
    await s.channels.files.filesChanged([
      { path: main, kind: "changed" },
      { path: path.join(s.folder, "NOTES.md"), kind: "created" },
      { path: path.join(s.folder, "node_modules", "x.js"), kind: "created" },
    ]);
    const answer = await answering;
    const withFiles = await waitFor(() => s.events.of("message/finished").filter((m) => m.id === answer.id).map((m) => m.parts.find((p) => p.type === "files")).find(Boolean), 5_000, "the files part");
    assert.ok(withFiles?.type === "files");
    assert.deepEqual(withFiles.files.map((f) => [path.basename(f.path), f.kind, f.beforeKnown]), [["NOTES.md", "created", true], ["main.ts", "modified", true]], "sorted by path; node_modules never listed");
    assert.deepEqual(await s.channels.files.fileDiff(answer.id, main), { path: main, oldText: "export const v = 1;\n", newText: "export const v = 2;\n" });
    assert.deepEqual(await s.channels.files.fileDiff(answer.id, path.join(s.folder, "NOTES.md")), { path: path.join(s.folder, "NOTES.md"), oldText: null, newText: "made by a tool\n" });
    assert.equal(await s.channels.files.fileDiff(answer.id, path.join(s.folder, "other.ts")), undefined);
    const reopened = (await s.channels.messages.open("general")).messages.find((m) => m.id === answer.id)!;
    assert.ok(reopened.parts.some((p) => p.type === "files"), "kept in the store");
  } finally {
    await s.teardown();
  }
});

test("an edit made on disk or through ACP just before the agent ends its turn is in its files changed list", async () => {
  const s = await setup((folder) => [
    { appendFile: { path: path.join(folder, "README.md"), text: "appended\n" } },
    { writeFile: { path: path.join(folder, "open.ts"), content: "after\n" } },
    { writeFile: { path: path.join(folder, "new.ts"), content: "new\n" } },
    { chunk: "done" },
  ]);
  try {
    writeFileSync(path.join(s.folder, "README.md"), "# p\n");
    writeFileSync(path.join(s.folder, "open.ts"), "before\n");
    s.open.set(path.join(s.folder, "open.ts"), "before\n"); // open in the editor: the write changes only its buffer
    // No watcher event reaches the turn: it ends before the editor's batch would.
    const answer = await s.answer();
    const withFiles = await waitFor(() => s.events.of("message/finished").filter((m) => m.id === answer.id).map((m) => m.parts.find((p) => p.type === "files")).find(Boolean), 5_000, "the files part");
    assert.ok(withFiles?.type === "files");
    assert.deepEqual(withFiles.files.map((f) => [path.basename(f.path), f.kind, f.beforeKnown]), [["README.md", "modified", true], ["new.ts", "created", true], ["open.ts", "modified", true]]);
    assert.deepEqual(await s.channels.files.fileDiff(answer.id, path.join(s.folder, "README.md")), { path: path.join(s.folder, "README.md"), oldText: "# p\n", newText: "# p\nappended\n" });
  } finally {
    await s.teardown();
  }
});

test("a file the user saves in the editor while the agent works is not listed as the agent's change", async () => {
  const s = await setup((folder) => [{ chunk: "working" }, { sleep: 800 }, { appendFile: { path: path.join(folder, "agent.md"), text: "the agent's\n" } }, { chunk: "done" }]);
  try {
    writeFileSync(path.join(s.folder, "README.md"), "# p\n");
    writeFileSync(path.join(s.folder, "agent.md"), "# a\n");
    const answering = s.answer();
    // The agent's first words: its prompt has started, so the turn's snapshot is taken.
    await waitFor(() => s.events.of("message/delta").find((d) => d.appendText?.includes("working")), 5_000, "the agent working");
    writeFileSync(path.join(s.folder, "README.md"), "# p, edited by me\n");
    s.channels.files.documentSaved(path.join(s.folder, "README.md"), "# p, edited by me\n");
    const answer = await answering;
    const withFiles = await waitFor(() => s.events.of("message/finished").filter((m) => m.id === answer.id).map((m) => m.parts.find((p) => p.type === "files")).find(Boolean), 5_000, "the files part");
    assert.ok(withFiles?.type === "files");
    assert.deepEqual(withFiles.files.map((f) => path.basename(f.path)), ["agent.md"]);
  } finally {
    await s.teardown();
  }
});
