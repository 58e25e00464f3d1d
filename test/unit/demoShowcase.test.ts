/**
 * The demo agent shows Sidekicks' headline features offline (issue 15, item 6): the demo agent as the extension runs
 * it (`command: sidekicks:demo`, its esbuild bundle as a real subprocess) through the real channel code, LevelDB in a
 * temp folder and a real workspace folder on disk.
 * - `delegate to odie`: the demo's final answer @mentions odie, and Sidekicks runs odie's turn, linked to it;
 * - `edit a file`: the demo changes `demo-notes.md` through ACP `fs/write_text_file` (after the user allowed it), and
 *   the answer lists the file under "files changed", with its diff.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AgentConfig } from "../../src/config/roster";
import type { MessageView } from "../../src/shared/protocol";
import { channelSetup, demoAgentBundle, textOf } from "./channelHarness";
import { tempDir, waitFor } from "./helpers";

/** A `command: sidekicks:demo` roster entry, streaming without pauses. */
const demo = (name: string): AgentConfig => ({ name, command: "sidekicks:demo", args: [], env: { SIDEKICKS_DEMO_DELAY_MS: "0" } }) as AgentConfig;

const NOTES = "# Demo notes\n\nA file for the demo agent to change.\n\nEdits so far: 0\n";

/** Two demo agents (garfield, odie) over a fresh workspace folder holding `demo-notes.md`. */
async function setup() {
  const { dir, cleanup } = tempDir("sidekicks-demo-");
  const folder = path.join(dir, "workspace");
  mkdirSync(folder);
  writeFileSync(path.join(folder, "demo-notes.md"), NOTES);
  const demoAgentPath = await demoAgentBundle(dir);
  const s = await channelSetup([demo("garfield"), demo("odie")], { workspaceFolder: folder, demoAgentPath, workspace: {} });
  return {
    ...s,
    folder,
    async teardown() {
      await s.teardown();
      cleanup();
    },
  };
}

/** Resolves with the id of the first permission request shown for `agent`'s answer. */
const permissionAsked = (s: Awaited<ReturnType<typeof setup>>) =>
  waitFor(
    () => {
      const delta = s.events.of("message/delta").find((d) => d.part?.type === "permission");
      return delta?.part?.type === "permission" ? delta.part.requestId : undefined;
    },
    20_000,
    "a permission request",
  );

test("the demo's delegation prompt: garfield's final answer mentions odie, and odie answers in a child turn linked to it", async () => {
  const s = await setup();
  try {
    const { messageId } = await s.channels.messages.send(s.general.id, "@garfield delegate to odie");
    const parent = await s.finished((m) => m.author.agentName === "garfield", 20_000);
    assert.equal(parent.status, "done");
    assert.match(textOf(parent), /I am handing this to odie/);
    assert.match(textOf(parent), /^@odie, over to you: say hello\.$/m, "a line that mentions odie, outside any quote");
    const child = await s.finished((m) => m.author.agentName === "odie", 20_000);
    assert.equal(child.status, "done");
    assert.equal(child.delegatedBy, "garfield", "odie's answer says garfield handed it the work");
    assert.equal(child.parentMessageId, parent.id);
    assert.match(textOf(child), /garfield handed this to me:\n\n> say hello\./);
    assert.match(textOf(child), /^Hello from \*\*odie\*\*, a demo agent\./, "odie says who it is, not 'the demo agent'");
    assert.doesNotMatch(textOf(child), /over to you/, "odie does not hand it on again");

    const { messages } = await s.channels.messages.open("general");
    assert.deepEqual(
      messages.map((m: MessageView) => [m.author.agentName ?? m.author.kind, m.delegatedBy ?? null]),
      [["user", null], ["garfield", null], ["odie", "garfield"]],
      "no refusal note, no further hop",
    );
    assert.equal(messages[0]!.id, messageId);
  } finally {
    await s.teardown();
  }
});

test("the demo's edit prompt: allowed, it changes demo-notes.md through fs/write_text_file and the answer lists it with its diff", async () => {
  const s = await setup();
  const notes = path.join(s.folder, "demo-notes.md");
  try {
    await s.channels.messages.send(s.general.id, "@garfield edit a file");
    // The Ask mode (the demo's default): a permission card first, with the change it would make.
    const requestId = await permissionAsked(s);
    assert.equal(readFileSync(notes, "utf8"), NOTES, "nothing written before the user allowed it");
    assert.equal(await s.channels.turns.answerPermission(requestId, "allow"), true);
    const answer = await waitFor(
      () => s.events.of("message/finished").find((m) => m.author.agentName === "garfield" && m.parts.some((p) => p.type === "files")),
      20_000,
      "garfield's answer with its files changed",
    );
    assert.equal(answer.status, "done");
    const edited = "# Demo notes\n\nA file for the demo agent to change.\n\nEdits so far: 1\n- Edit 1, by garfield\n";
    assert.equal(readFileSync(notes, "utf8"), edited, "the file on disk is changed");
    assert.match(textOf(answer), /I changed `demo-notes\.md`: edit 1\. The card under this answer lists it \(\*\*1 file changed\*\*\)/);

    const files = answer.parts.find((p) => p.type === "files");
    assert.ok(files?.type === "files");
    assert.deepEqual(files.files.map((f) => [path.basename(f.path), f.kind, f.beforeKnown]), [["demo-notes.md", "modified", true]]);
    assert.deepEqual(await s.channels.files.fileDiff(answer.id, notes), { path: notes, oldText: NOTES, newText: edited }, "its diff: the text before the turn against now");
    const tool = answer.parts.find((p) => p.type === "toolCall");
    assert.ok(tool?.type === "toolCall");
    assert.deepEqual([tool.title, tool.kind, tool.status], ["Edit demo-notes.md", "edit", "completed"]);
    assert.deepEqual(tool.diffs?.map((d) => [d.path, d.oldText, d.newText]), [[notes, NOTES, edited]], "the tool card shows the diff too");
  } finally {
    await s.teardown();
  }
});

test("the demo's edit prompt: rejected, nothing is written and no file is listed", async () => {
  const s = await setup();
  const notes = path.join(s.folder, "demo-notes.md");
  try {
    await s.channels.messages.send(s.general.id, "@odie edit a file");
    assert.equal(await s.channels.turns.answerPermission(await permissionAsked(s), "reject"), true);
    const answer = await s.finished((m) => m.author.agentName === "odie", 20_000);
    assert.match(textOf(answer), /No edit made: `demo-notes\.md` is as it was\./);
    assert.equal(readFileSync(notes, "utf8"), NOTES);
    assert.equal(answer.parts.some((p) => p.type === "files"), false);
  } finally {
    await s.teardown();
  }
});

test("delegation and an edit together: garfield hands odie the edit, and odie's answer lists the changed file", async () => {
  const s = await setup();
  const notes = path.join(s.folder, "demo-notes.md");
  try {
    await s.channels.messages.send(s.general.id, "@garfield delegate to odie: edit a file");
    const parent = await s.finished((m) => m.author.agentName === "garfield", 20_000);
    assert.match(textOf(parent), /^@odie, over to you: edit a file$/m);
    assert.equal(parent.parts.some((p) => p.type === "toolCall"), false, "garfield only hands it on");
    assert.equal(await s.channels.turns.answerPermission(await permissionAsked(s), "allow"), true);
    const child = await waitFor(
      () => s.events.of("message/finished").find((m) => m.author.agentName === "odie" && m.parts.some((p) => p.type === "files")),
      20_000,
      "odie's answer with its files changed",
    );
    assert.equal(child.delegatedBy, "garfield");
    assert.match(readFileSync(notes, "utf8"), /Edits so far: 1\n- Edit 1, by odie\n$/);
  } finally {
    await s.teardown();
  }
});

test("the demo's edit prompt in the Code mode: no permission asked, the file is changed and listed", async () => {
  const s = await setup();
  const notes = path.join(s.folder, "demo-notes.md");
  try {
    await s.channels.messages.send(s.general.id, "@garfield hello");
    await s.finished((m) => m.author.agentName === "garfield", 20_000);
    await s.channels.sessions.configure(s.general.id, "garfield", { kind: "mode", modeId: "code" });
    await s.channels.messages.send(s.general.id, "@garfield edit a file");
    const answer = await waitFor(
      () => s.events.of("message/finished").find((m) => m.author.agentName === "garfield" && m.parts.some((p) => p.type === "files")),
      20_000,
      "garfield's answer with its files changed",
    );
    assert.equal(answer.parts.some((p) => p.type === "permission"), false, "the Code mode changes files without asking");
    assert.match(textOf(answer), /I changed `demo-notes\.md` \(Code mode: without asking\): edit 1\./);
    assert.match(readFileSync(notes, "utf8"), /Edits so far: 1\n- Edit 1, by garfield\n$/);
  } finally {
    await s.teardown();
  }
});
