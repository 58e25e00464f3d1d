/**
 * Keep, undo and redo a settled turn's file changes (issue 19): the earlier texts come back (a created file removed, a
 * deleted one recreated), an undo is undone, a file changed since is a conflict named with who changed it and is never
 * overwritten without the user's choice, and a crash in the middle leaves each file before or after with the record
 * saying which. Real agent subprocesses (the scripted fake agent), LevelDB in a temp folder, real files.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { TurnRestore, type RestoreConflict } from "../../src/channels/TurnRestore";
import type { MessageView } from "../../src/shared/protocol";
import { hashText } from "../../src/turns/intents";
import { writeWhole } from "../../src/workspace/atomicWrite";
import { channelSetup, fakeAgent } from "./channelHarness";
import { tempDir, waitFor } from "./helpers";

const filesOf = (m: MessageView | undefined) => {
  const part = m?.parts.find((p) => p.type === "files");
  return part?.type === "files" ? part.files : undefined;
};
const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : null);

/** A workspace with notes.md and old.txt, and agent `a` whose turn edits notes.md, creates new.txt and removes old.txt. */
async function setup(extra: { second?: boolean } = {}) {
  const { dir, cleanup } = tempDir();
  const folder = path.join(dir, "project");
  mkdirSync(folder);
  const notes = path.join(folder, "notes.md");
  const created = path.join(folder, "new.txt");
  const old = path.join(folder, "old.txt");
  writeFileSync(notes, "# notes\n");
  writeFileSync(old, "old\n");
  const roster = [fakeAgent("a", { prompt: [{ appendFile: { path: notes, text: "by a\n" } }, { appendFile: { path: created, text: "new\n" } }, { removeFile: { path: old } }, { chunk: "Done" }] })];
  if (extra.second) roster.push(fakeAgent("b", { prompt: [{ appendFile: { path: notes, text: "by b\n" } }, { chunk: "Done too" }] }));
  const s = await channelSetup(roster, { workspaceFolder: folder });
  await s.channels.messages.send(s.general.id, "@a edit");
  const answer = await s.finished((m) => m.author.kind === "agent" && m.author.agentName === "a" && filesOf(m) !== undefined);
  return { s, answer, notes, created, old, done: async () => (await s.teardown(), cleanup()) };
}

const turnIdOf = async (s: Awaited<ReturnType<typeof setup>>["s"], id: string) => (await s.store.message(s.general.id, id))!.turnId!;
const stored = async (s: Awaited<ReturnType<typeof setup>>["s"], id: string) => (await s.channels.messages.open("general")).messages.find((m) => m.id === id);

test("undo of a turn restores its files (edited, created, deleted), the card says undone after a reload; redo brings the agent's change back", async () => {
  const t = await setup();
  try {
    assert.deepEqual(filesOf(t.answer)?.map((f) => [path.basename(f.path), f.restorable]), [["new.txt", true], ["notes.md", true], ["old.txt", true]]);
    const undo = await t.s.channels.restore.restore(t.answer.id, "undo", undefined);
    assert.deepEqual([undo.done.length, undo.conflicts], [3, []]);
    assert.deepEqual([read(t.notes), read(t.created), read(t.old)], ["# notes\n", null, "old\n"]);
    await t.s.reopen();
    assert.deepEqual(filesOf(await stored(t.s, t.answer.id))?.map((f) => f.state), ["undone", "undone", "undone"], "kept with the answer");
    const written = await t.s.store.intentsOf(await turnIdOf(t.s, t.answer.id));
    assert.deepEqual(written.map((i) => [i.phase, i.result, i.restore]), Array(3).fill(["settled", "applied", "undo"]), "each write recorded and settled");
    const redo = await t.s.channels.restore.restore(t.answer.id, "redo", [t.notes]);
    assert.deepEqual(redo.done, [t.notes], "one file redone");
    assert.deepEqual([read(t.notes), read(t.created)], ["# notes\nby a\n", null]);
    // Redone: as right after the turn, not "kept" (a fresh-user tryout expected the agent's change back unmarked).
    assert.deepEqual(filesOf(await stored(t.s, t.answer.id))?.map((f) => [path.basename(f.path), f.state]), [["new.txt", "undone"], ["notes.md", undefined], ["old.txt", "undone"]]);
    const again = await t.s.channels.restore.restore(t.answer.id, "redo", undefined);
    assert.deepEqual([read(t.created), read(t.old)], ["new\n", null], "a created file comes back, a deleted one goes again");
    assert.equal(again.done.length, 2);
    await t.s.reopen();
    assert.deepEqual(filesOf(await stored(t.s, t.answer.id)), filesOf(t.answer), "after a reload the card is as right after the turn");
    const undoAgain = await t.s.channels.restore.restore(t.answer.id, "undo", undefined);
    assert.equal(undoAgain.done.length, 3, "every file can be undone again");
  } finally {
    await t.done();
  }
});

test("Keep marks files kept without writing them; a kept file can still be undone", async () => {
  const t = await setup();
  try {
    const keep = await t.s.channels.restore.restore(t.answer.id, "keep", undefined);
    assert.equal(keep.done.length, 3);
    assert.equal(read(t.notes), "# notes\nby a\n");
    assert.deepEqual(filesOf(await stored(t.s, t.answer.id))?.map((f) => f.state), ["kept", "kept", "kept"]);
    await t.s.channels.restore.restore(t.answer.id, "undo", [t.notes]);
    assert.equal(read(t.notes), "# notes\n");
  } finally {
    await t.done();
  }
});

test("a file changed on disk since, or with unsaved edits, is a conflict: skipped unless the user chooses to overwrite it", async () => {
  const t = await setup();
  try {
    writeFileSync(t.notes, "# notes\nby a\nby the user\n");
    const asked: RestoreConflict[][] = [];
    const skip = await t.s.channels.restore.restore(t.answer.id, "undo", undefined, { resolve: async (c) => (asked.push(c), {}) });
    assert.deepEqual(skip.conflicts.map((c) => [path.basename(c.path), c.changedBy]), [["notes.md", [{ kind: "unknown" }]]]);
    assert.equal(read(t.notes), "# notes\nby a\nby the user\n", "never overwritten silently");
    assert.deepEqual([skip.done.length, skip.skipped], [2, [t.notes]], "the other files are undone");
    const noAsk = await t.s.channels.restore.restore(t.answer.id, "undo", undefined);
    assert.deepEqual([noAsk.done, read(t.notes)], [[], "# notes\nby a\nby the user\n"], "without a way to ask, a conflict is skipped");
    writeFileSync(t.notes, "# notes\nby a\n");
    const unsaved = await t.s.channels.restore.restore(t.answer.id, "undo", undefined, { documents: { openText: () => "# notes\nby a\ntyping…", applyEdit: async () => true }, resolve: async () => ({}) });
    assert.deepEqual(unsaved.conflicts.map((c) => c.changedBy), [[{ kind: "unsaved" }]], "the user's unsaved edit is named");
    const overwrite = await t.s.channels.restore.restore(t.answer.id, "undo", undefined, { isDirty: () => true, resolve: async (c) => Object.fromEntries(c.map((x) => [x.path, "overwrite" as const])) });
    assert.deepEqual([overwrite.done, read(t.notes)], [[t.notes], "# notes\n"]);
  } finally {
    await t.done();
  }
});

test("a conflict whose change since does not overlap the answer's offers a merge: the undo keeps the user's lines and removes the agent's; a redo merges back", async () => {
  const t = await setup();
  try {
    writeFileSync(t.notes, "intro\n\n# notes\nby a\n");
    const offered: RestoreConflict[] = [];
    const undo = await t.s.channels.restore.restore(t.answer.id, "undo", [t.notes], { resolve: async (c) => (offered.push(...c), { [t.notes]: "merge" }) });
    assert.equal(offered[0]?.merged, "intro\n\n# notes\n", "the merge offered keeps the user's lines");
    assert.deepEqual([undo.done, read(t.notes)], [[t.notes], "intro\n\n# notes\n"], "the agent's line is gone, the user's stay");
    assert.deepEqual(filesOf(await stored(t.s, t.answer.id))?.find((f) => f.path === t.notes)?.state, "undone");
    const written = (await t.s.store.intentsOf(await turnIdOf(t.s, t.answer.id))).filter((i) => i.path === t.notes);
    assert.deepEqual(written.map((i) => [i.result, i.afterHash]), [["applied", hashText("intro\n\n# notes\n")]], "the merged text is what the intent recorded");
    const redo = await t.s.channels.restore.restore(t.answer.id, "redo", [t.notes], { resolve: async (c) => Object.fromEntries(c.map((x) => [x.path, "merge" as const])) });
    assert.deepEqual([redo.done, read(t.notes)], [[t.notes], "intro\n\n# notes\nby a\n"]);
  } finally {
    await t.done();
  }
});

test("a merge is never offered for overlapping changes or an unsaved edit, and choosing it there skips the file", async () => {
  const t = await setup();
  try {
    writeFileSync(t.notes, "# notes\nby a, edited by the user\n");
    const overlap = await t.s.channels.restore.restore(t.answer.id, "undo", [t.notes], { resolve: async (c) => Object.fromEntries(c.map((x) => [x.path, "merge" as const])) });
    assert.deepEqual([overlap.conflicts[0]?.merged, overlap.skipped, read(t.notes)], [undefined, [t.notes], "# notes\nby a, edited by the user\n"]);
    writeFileSync(t.notes, "intro\n\n# notes\nby a\n");
    const unsaved = await t.s.channels.restore.restore(t.answer.id, "undo", [t.notes], { isDirty: () => true, resolve: async (c) => Object.fromEntries(c.map((x) => [x.path, "merge" as const])) });
    assert.deepEqual([unsaved.conflicts[0]?.merged, unsaved.skipped, read(t.notes)], [undefined, [t.notes], "intro\n\n# notes\nby a\n"], "the editor's unsaved text is not the disk's: no merge");
  } finally {
    await t.done();
  }
});

test("undoing a turn whose file another agent changed in a later turn names that agent", async () => {
  const t = await setup({ second: true });
  try {
    await t.s.channels.messages.send(t.s.general.id, "@b edit too");
    const later = await t.s.finished((m) => m.author.kind === "agent" && m.author.agentName === "b" && filesOf(m) !== undefined);
    const result = await t.s.channels.restore.restore(t.answer.id, "undo", [t.notes], { resolve: async () => ({}) });
    assert.deepEqual(result.conflicts.map((c) => c.changedBy), [[{ kind: "turn", agent: "b", messageId: later.id }]]);
    assert.equal(read(t.notes), "# notes\nby a\nby b\n");
    // "Review changes since this message": both agents' turns, each file with its earliest text.
    const review = await t.s.channels.restore.review(t.answer.id, true);
    assert.deepEqual([review.agents, review.files.map((f) => [path.basename(f.path), f.before])], [["a", "b"], [["new.txt", null], ["notes.md", "# notes\n"], ["old.txt", "old\n"]]]);
    const own = await t.s.channels.restore.review(later.id);
    assert.deepEqual([own.agents, own.files.map((f) => [path.basename(f.path), f.before])], [["b"], [["notes.md", "# notes\nby a\n"]]]);
  } finally {
    await t.done();
  }
});

test("Edit and resend's undo: every answer to the edited message (a regeneration too) is undone, newest first, back to before the first; answers to other messages are left alone", async () => {
  const { dir, cleanup } = tempDir();
  const folder = path.join(dir, "project");
  mkdirSync(folder);
  const notes = path.join(folder, "notes.md");
  writeFileSync(notes, "# notes\n");
  const s = await channelSetup([fakeAgent("a", { prompt: [{ appendFile: { path: notes, text: "by a\n" } }, { chunk: "Done" }] })], { workspaceFolder: folder });
  try {
    const answered = async (n: number) => {
      await waitFor(() => (s.events.of("message/finished").filter((m) => m.author.kind === "agent" && filesOf(m) !== undefined).length >= n ? true : undefined), 10_000, `answer ${n}`);
      return s.events.of("message/finished").filter((m) => m.author.kind === "agent" && filesOf(m) !== undefined)[n - 1]!;
    };
    await s.channels.messages.send(s.general.id, "@a first");
    await answered(1);
    const { messageId: request } = await s.channels.messages.send(s.general.id, "@a second");
    const first = await answered(2);
    await s.channels.messages.regenerate(first.id);
    const again = await answered(3);
    assert.equal(read(notes), "# notes\nby a\nby a\nby a\n");
    const answers = await s.channels.restore.answersTo(request);
    assert.deepEqual(answers.map((a) => [a.messageId, a.agent, a.undoable]), [[first.id, "a", 1], [again.id, "a", 1]], "the first answer to 'second' and its regeneration, not the answer to 'first'");

    const result = await s.channels.restore.undoAnswers(request, { resolve: async () => ({}) });
    assert.deepEqual([result.done.length, result.conflicts], [2, []], "newest first: each undo finds the file as its answer left it");
    assert.equal(read(notes), "# notes\nby a\n", "back to before the first answer to the edited message; the earlier request's change stays");
    assert.deepEqual((await s.channels.restore.answersTo(request)).map((a) => a.undoable), [0, 0], "nothing left to undo");
  } finally {
    await s.teardown();
    cleanup();
  }
});

test("Edit and resend's undo never overwrites a file changed since: the conflict names the later agent and the user's choice decides", async () => {
  const t = await setup({ second: true });
  try {
    await t.s.channels.messages.send(t.s.general.id, "@b edit too");
    const later = await t.s.finished((m) => m.author.kind === "agent" && m.author.agentName === "b" && filesOf(m) !== undefined);
    const request = (await t.s.store.turn(await turnIdOf(t.s, t.answer.id)))!.requestMessageId;
    assert.deepEqual((await t.s.channels.restore.answersTo(request)).map((a) => a.messageId), [t.answer.id], "b answered another message");
    const result = await t.s.channels.restore.undoAnswers(request, { resolve: async () => ({}) });
    assert.deepEqual(result.conflicts.map((c) => [path.basename(c.path), c.changedBy]), [["notes.md", [{ kind: "turn", agent: "b", messageId: later.id }]]]);
    assert.deepEqual([read(t.notes), read(t.created), read(t.old)], ["# notes\nby a\nby b\n", null, "old\n"], "the conflicting file skipped, the others undone");
  } finally {
    await t.done();
  }
});

test("a crash during an undo leaves each file before or after, and recovery writes on the card which", async () => {
  const t = await setup();
  try {
    // The undo recorded its intents and wrote one of two files when the window died (no settling batch).
    const turnId = await turnIdOf(t.s, t.answer.id);
    const intents = await t.s.channels.intents.intendAll([t.notes, t.created].map((file) => ({ turnId, attempt: 1, agent: "a", kind: "write" as const, path: file, beforeHash: hashText(read(t.notes === file ? t.notes : t.created)!), afterHash: t.notes === file ? hashText("# notes\n") : null, restore: "undo" as const })));
    assert.equal(intents.length, 2);
    await writeWhole(t.notes, "# notes\n");
    await t.s.reopen();
    await t.s.channels.ready;
    const after = await stored(t.s, t.answer.id);
    assert.deepEqual(filesOf(after)?.map((f) => [path.basename(f.path), f.state]), [["new.txt", undefined], ["notes.md", "undone"], ["old.txt", undefined]]);
    assert.deepEqual((await t.s.store.intentsOf(turnId)).map((i) => [path.basename(i.path!), i.result]), [["notes.md", "applied"], ["new.txt", "not_applied"]]);
    // The restore goes on from where the record says: the file not undone yet can be undone, the undone one redone.
    const rest = await new TurnRestore({ store: t.s.store, intents: t.s.channels.intents, fileStates: async () => undefined }).checkpoint(t.answer.id);
    assert.deepEqual(rest.states, { [t.notes]: "undone" });
  } finally {
    await t.done();
  }
});
