/**
 * "Apply to my folder" end to end (issue 20, "Per turn too"): a scripted fake agent (a real subprocess) answers in its
 * own git worktree (real git, a temporary repository); its answer's files card says so, the answer is listed among the
 * agent's answers with files, and applying it merges its files into the user's folder — cleanly, or with the conflict
 * put to the editor and nothing written, and never over a file with unsaved edits.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import type { EditorPort } from "../../src/app/EditorPort";
import type { StoreLifecycle } from "../../src/app/StoreLifecycle";
import { applyAnswer } from "../../src/app/turnApply";
import { composeChannels } from "../../src/app/compose";
import type { AgentConfig } from "../../src/config/roster";
import { Recorder } from "../../src/events/events";
import type { FilesPart, MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import type { TurnConflict } from "../../src/workspace/turnApply";
import { git, makeRepo } from "./gitRepos";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

const NOTES = "# notes\none\ntwo\nthree\nfour\nfive\nsix\n";

/**
 * A repository with notes.md and other.md; agent `a` in its worktree appends a line to each in one answer. The agent
 * first says it is working, then waits for a go file the test writes once the turn's start-of-turn snapshot is done
 * (`TurnFiles.snapshotted`): an agent faster than the snapshot would leave its files' earlier texts unknown ("late").
 */
async function setup() {
  const { dir, cleanup } = tempDir();
  const repo = makeRepo(dir);
  writeFileSync(path.join(repo, "notes.md"), NOTES);
  writeFileSync(path.join(repo, "other.md"), "other\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "notes");
  const tree = path.join(dir, ".sidekicks-worktrees", "repo", "a");
  const go = path.join(dir, "go");
  const steps = [{ chunk: "Working on it. " }, { untilFile: { path: go, includes: "go" } }, { appendFile: { path: path.join(tree, "notes.md"), text: "by a\n" } }, { appendFile: { path: path.join(tree, "other.md"), text: "other by a\n" } }, { chunk: "Done" }];
  const agent: AgentConfig = { name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) }, worktree: { branch: "sidekicks/a" } };
  const events = new Recorder();
  const store = await Store.open(path.join(dir, "store"));
  const agents = new AgentManager(events, { launch: { workspaceFolder: repo, nodePath: process.execPath, demoAgentPath: "", env: process.env }, workspace: {} });
  agents.setRoster([agent]);
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(["a"]);
  await channels.messages.send(general.id, "@a go");
  // The prompt has started (its first chunk arrived), so the turn's snapshot has begun: wait for it, then let the agent on.
  await waitFor(() => events.of("message/delta").find((d) => d.appendText?.includes("Working on it")), 15_000, "the agent at work");
  const [turn] = await store.openTurns();
  // The channels' own TurnFiles (composeChannels makes it; ChangedFiles holds it): the one sync point a test has.
  const turnFiles = (channels.files as unknown as { ports: { files: { snapshotted(turnId: string): Promise<void> } } }).ports.files;
  await turnFiles.snapshotted(turn!.id);
  writeFileSync(go, "go");
  const filesOf = (m: MessageView) => m.parts.find((p): p is FilesPart => p.type === "files");
  const answer = await waitFor(() => events.of("message/finished").find((m) => m.author.kind === "agent" && filesOf(m) !== undefined), 15_000, "the answer with its files");
  const asked: TurnConflict[][] = [];
  const editor = (choice: "opened" | "agent" | "skip", dirty: string[] = []): EditorPort =>
    ({
      log: () => undefined,
      documents: { openText: () => undefined, applyEdit: async () => false, isDirty: (file: string) => dirty.includes(file) },
      resolveTurnConflicts: async (_agent: string, conflicts: TurnConflict[]) => (asked.push(conflicts), Object.fromEntries(conflicts.map((c) => [c.path, choice]))),
    }) as unknown as EditorPort;
  const history = { require: () => channels } as unknown as StoreLifecycle;
  return {
    repo, tree, answer, part: filesOf(answer)!, channels, asked,
    apply: (choice: "opened" | "agent" | "skip" = "skip", dirty: string[] = []) => applyAnswer({ history, agents, editor: editor(choice, dirty) }, answer.id),
    async teardown() {
      await channels.close();
      await agents.stopAll();
      await store.close();
      cleanup();
    },
  };
}

test("an answer in the agent's worktree says so on its card, is listed among its answers with files, and applies cleanly to the user's folder", async () => {
  const s = await setup();
  try {
    assert.equal(s.part.worktree, true, "the card offers Apply to my folder");
    assert.deepEqual(s.part.files.map((f) => [path.relative(s.tree, f.path), f.kind, f.restorable]), [["notes.md", "modified", true], ["other.md", "modified", true]]);
    assert.equal(readFileSync(path.join(s.repo, "notes.md"), "utf8"), NOTES, "the user's folder untouched by the turn");
    assert.deepEqual((await s.channels.restore.answersWithFiles("a")).map((a) => [a.messageId, a.channel, a.files, a.preview]), [[s.answer.id, "general", 2, "Working on it. Done"]]);
    // The user edited the top of notes.md meanwhile: the agent's line at the end merges in beside it.
    writeFileSync(path.join(s.repo, "notes.md"), NOTES.replace("one", "one by the user"));
    const counts = await s.apply();
    assert.deepEqual(counts, { agent: "a", applied: 2, same: 0, conflicts: 0, opened: 0, skipped: 0, unsaved: 0 });
    assert.equal(readFileSync(path.join(s.repo, "notes.md"), "utf8"), NOTES.replace("one", "one by the user") + "by a\n");
    assert.equal(readFileSync(path.join(s.repo, "other.md"), "utf8"), "other\nother by a\n");
    assert.deepEqual(s.asked, [], "no question without a conflict");
    const again = await s.apply();
    assert.deepEqual([again.applied, again.same], [0, 2], "applied twice: nothing more to do");
  } finally {
    await s.teardown();
  }
});

test("a conflicting file is put to the editor and not written; a file with unsaved edits is left alone; a deletion the user takes on purpose is written", async () => {
  const s = await setup();
  try {
    const mine = NOTES + "by the user\n";
    writeFileSync(path.join(s.repo, "notes.md"), mine);
    const other = path.join(s.repo, "other.md");
    const counts = await s.apply("skip", [other]);
    assert.deepEqual(counts, { agent: "a", applied: 0, same: 0, conflicts: 1, opened: 0, skipped: 2, unsaved: 1 });
    assert.deepEqual(s.asked.flat().map((c) => [path.basename(c.path), c.kind, c.ours, c.theirs]), [["notes.md", "content", mine, NOTES + "by a\n"]]);
    assert.equal(readFileSync(path.join(s.repo, "notes.md"), "utf8"), mine, "the conflict is not written");
    assert.equal(readFileSync(other, "utf8"), "other\n", "the file with unsaved edits is not written");
    // Opened in the merge editor: counted so, still nothing written by Sidekicks.
    const opened = await s.apply("opened");
    assert.deepEqual([opened.applied, opened.opened, opened.skipped], [1, 1, 0]);
    assert.equal(readFileSync(path.join(s.repo, "notes.md"), "utf8"), mine);
    // The user deleted notes.md: recreating it with the agent's text is the user's explicit choice.
    rmSync(path.join(s.repo, "notes.md"));
    const taken = await s.apply("agent");
    assert.deepEqual(s.asked.at(-1)!.map((c) => c.kind), ["deletedByYou"]);
    assert.deepEqual([taken.applied, taken.skipped], [1, 0]);
    assert.equal(readFileSync(path.join(s.repo, "notes.md"), "utf8"), NOTES + "by a\n");
  } finally {
    await s.teardown();
  }
});
