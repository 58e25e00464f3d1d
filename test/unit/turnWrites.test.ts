/**
 * Writes that concern a turn after it was admitted — its "files changed" card, the agent's session id, the cards of
 * tool intents recovery settles — all go through the turn reducer (issue 16, "the reducer decides, the executor
 * applies"), so no later write of the same answer can erase them. Real agent subprocesses (the scripted fake agent),
 * LevelDB in a temp folder, a real workspace folder.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import type { MessageView } from "../../src/shared/protocol";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { tempDir } from "./helpers";

const filesOf = (m: MessageView | undefined) => m?.parts.find((p) => p.type === "files");

test("a session/update that arrives after the turn settled keeps the answer's files changed card (shown and stored)", async () => {
  const { dir, cleanup } = tempDir();
  const folder = path.join(dir, "project");
  mkdirSync(folder);
  const notes = path.join(folder, "notes.md");
  writeFileSync(notes, "# notes\n");
  const trigger = path.join(dir, "send-late-chunk");
  const s = await channelSetup(
    [fakeAgent("a", { prompt: [{ appendFile: { path: notes, text: "edited\n" } }, { chunk: "Done" }, { lateChunk: " (late)", when: { path: trigger, includes: "go" } }] })],
    { workspaceFolder: folder },
  );
  try {
    await s.channels.messages.send(s.general.id, "@a edit the notes");
    const carded = await s.finished((m) => m.author.kind === "agent" && filesOf(m) !== undefined);
    // The agent's late chunk (field case 1) comes only once the card is on screen.
    writeFileSync(trigger, "go");
    const late = await s.finished((m) => m.id === carded.id && textOf(m) === "Done (late)");
    const card = filesOf(late);
    assert.ok(card?.type === "files", "the answer still shows its files changed card after the late text");
    assert.deepEqual(card.files.map((f) => [path.basename(f.path), f.kind]), [["notes.md", "modified"]]);
    const stored = (await s.channels.messages.open("general")).messages.find((m) => m.id === carded.id);
    assert.equal(textOf(stored!), "Done (late)", "the late text is kept");
    assert.ok(filesOf(stored), "and the card too, after a reload");
    assert.deepEqual(await s.channels.files.fileDiff(carded.id, notes), { path: notes, oldText: "# notes\n", newText: "# notes\nedited\n" });
  } finally {
    await s.teardown();
    cleanup();
  }
});
