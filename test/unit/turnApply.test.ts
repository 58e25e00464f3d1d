/**
 * One turn of an agent in its own worktree applied to the user's folder (issue 20, "Per turn too"), with real git in
 * temporary repositories: the turn's checkpoint is taken by `TurnFiles` in the agent's worktree as in a real turn, then
 * merged file by file into the main worktree with `git merge-file`. Clean merges are written; conflicts, unsaved files
 * and files without kept texts are never written.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { mergeFile } from "../../src/workspace/threeWayMerge";
import { applyTurn } from "../../src/workspace/turnApply";
import { TurnFiles, type ChangedFile } from "../../src/workspace/turnFiles";
import { git, makeRepo } from "./gitRepos";
import { tempDir } from "./helpers";

const LINES = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

/** A repository with a.txt, b.txt, gone.txt on main, and the agent's worktree on `sidekicks/a` beside it. */
function setup() {
  const { dir, cleanup } = tempDir();
  const repo = makeRepo(dir);
  for (const f of ["a.txt", "b.txt", "gone.txt"]) writeFileSync(path.join(repo, f), LINES);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "files");
  const tree = path.join(dir, "wt", "a");
  git(repo, "worktree", "add", "-q", "-b", "sidekicks/a", tree, "main");
  return { repo, tree, cleanup };
}

/** Runs `agentWork` in the worktree as one turn and returns its checkpoint (the files with their texts before and after). */
async function turn(tree: string, agentWork: () => void): Promise<ChangedFile[]> {
  const files = new TurnFiles();
  await files.begin("t1", tree, Infinity);
  await files.snapshotted("t1");
  agentWork();
  return files.end("t1");
}

const read = (file: string) => readFileSync(file, "utf8");

test("a turn's clean changes come into the user's folder: modified, created and deleted files, merged with the user's own edits elsewhere in the file", async () => {
  const s = setup();
  try {
    const files = await turn(s.tree, () => {
      writeFileSync(path.join(s.tree, "a.txt"), LINES.replace("two", "two by the agent"));
      writeFileSync(path.join(s.tree, "new.txt"), "made by the agent\n");
      rmSync(path.join(s.tree, "gone.txt"));
    });
    assert.deepEqual(files.map((f) => [path.basename(f.path), f.kind]), [["a.txt", "modified"], ["gone.txt", "deleted"], ["new.txt", "created"]]);
    // The user edited a.txt far from the agent's line meanwhile (uncommitted).
    writeFileSync(path.join(s.repo, "a.txt"), LINES.replace("six", "six by the user"));

    const result = await applyTurn({ files, worktree: s.tree, into: s.repo });
    assert.deepEqual(result.applied.map((f) => path.basename(f)).sort(), ["a.txt", "gone.txt", "new.txt"]);
    assert.deepEqual(result.conflicts, []);
    assert.equal(read(path.join(s.repo, "a.txt")), LINES.replace("two", "two by the agent").replace("six", "six by the user"), "both changes kept");
    assert.equal(read(path.join(s.repo, "new.txt")), "made by the agent\n");
    assert.equal(existsSync(path.join(s.repo, "gone.txt")), false);
    assert.equal(read(path.join(s.repo, "b.txt")), LINES, "a file the turn did not change is untouched");

    // Applying the same turn again finds every file already as the turn left it.
    const again = await applyTurn({ files, worktree: s.tree, into: s.repo });
    assert.deepEqual(again.applied, []);
    assert.equal(again.same.length, 3);
  } finally {
    s.cleanup();
  }
});

test("overlapping changes are conflicts, never written: the user's file keeps its text, git's marked merge and the three texts come back", async () => {
  const s = setup();
  try {
    const files = await turn(s.tree, () => {
      writeFileSync(path.join(s.tree, "a.txt"), LINES.replace("two", "two by the agent"));
      writeFileSync(path.join(s.tree, "b.txt"), LINES.replace("three", "three by the agent"));
      writeFileSync(path.join(s.tree, "new.txt"), "made by the agent\n");
      rmSync(path.join(s.tree, "gone.txt"));
    });
    const mine = LINES.replace("two", "two by the user");
    writeFileSync(path.join(s.repo, "a.txt"), mine);
    writeFileSync(path.join(s.repo, "new.txt"), "made by the user\n");
    writeFileSync(path.join(s.repo, "gone.txt"), LINES + "eight by the user\n");

    const result = await applyTurn({ files, worktree: s.tree, into: s.repo, labels: ["your folder", "before the answer", "@a"] });
    assert.deepEqual(result.applied.map((f) => path.basename(f)), ["b.txt"], "the clean file still comes");
    assert.equal(read(path.join(s.repo, "b.txt")), LINES.replace("three", "three by the agent"));
    const byName = Object.fromEntries(result.conflicts.map((c) => [c.relative, c]));
    assert.deepEqual(Object.keys(byName).sort(), ["a.txt", "gone.txt", "new.txt"]);
    assert.equal(byName["a.txt"]!.kind, "content");
    assert.equal(byName["a.txt"]!.path, path.join(s.repo, "a.txt"));
    assert.equal(byName["a.txt"]!.base, LINES);
    assert.equal(byName["a.txt"]!.ours, mine);
    assert.equal(byName["a.txt"]!.theirs, LINES.replace("two", "two by the agent"));
    assert.match(byName["a.txt"]!.marked!, /<<<<<<< your folder\ntwo by the user\n=======\ntwo by the agent\n>>>>>>> @a/);
    assert.equal(byName["new.txt"]!.kind, "bothCreated");
    assert.equal(byName["gone.txt"]!.kind, "deletedByAgent");
    // Nothing written to the conflicting files.
    assert.equal(read(path.join(s.repo, "a.txt")), mine);
    assert.equal(read(path.join(s.repo, "new.txt")), "made by the user\n");
    assert.equal(read(path.join(s.repo, "gone.txt")), LINES + "eight by the user\n");
  } finally {
    s.cleanup();
  }
});

test("a file the user deleted but the agent changed is a conflict; a file the editor holds unsaved edits of is left alone", async () => {
  const s = setup();
  try {
    const files = await turn(s.tree, () => {
      writeFileSync(path.join(s.tree, "a.txt"), LINES.replace("two", "two by the agent"));
      writeFileSync(path.join(s.tree, "b.txt"), LINES.replace("three", "three by the agent"));
    });
    rmSync(path.join(s.repo, "a.txt"));
    const unsaved = path.join(s.repo, "b.txt");
    const result = await applyTurn({ files, worktree: s.tree, into: s.repo, isUnsaved: (f) => f === unsaved });
    assert.deepEqual(result.applied, []);
    assert.deepEqual(result.conflicts.map((c) => [c.relative, c.kind, c.ours]), [["a.txt", "deletedByYou", null]]);
    assert.deepEqual(result.skipped, [{ path: unsaved, reason: "unsaved" }]);
    assert.equal(existsSync(path.join(s.repo, "a.txt")), false, "not recreated");
    assert.equal(read(unsaved), LINES, "the disk text under the unsaved edits is not touched either");
  } finally {
    s.cleanup();
  }
});

test("a file whose texts were not kept, or outside the worktree, is skipped and said so", async () => {
  const s = setup();
  try {
    const files: ChangedFile[] = [
      { path: path.join(s.tree, "a.txt"), kind: "modified", beforeUnknown: "tooLarge", after: "x\n" },
      { path: path.join(s.repo, "b.txt"), kind: "modified", before: LINES, after: "y\n" },
    ];
    const result = await applyTurn({ files, worktree: s.tree, into: s.repo });
    assert.deepEqual(result.skipped, [
      { path: path.join(s.repo, "a.txt"), reason: "unknown" },
      { path: path.join(s.repo, "b.txt"), reason: "outside" },
    ]);
    assert.equal(read(path.join(s.repo, "a.txt")), LINES);
    assert.equal(read(path.join(s.repo, "b.txt")), LINES);
  } finally {
    s.cleanup();
  }
});

test("the worktree named through a symbolic link is the same worktree (macOS's /tmp is one)", async () => {
  const s = setup();
  try {
    const files = await turn(s.tree, () => writeFileSync(path.join(s.tree, "a.txt"), LINES.replace("two", "two by the agent")));
    const link = path.join(path.dirname(s.repo), "link-to-a");
    symlinkSync(s.tree, link);
    const result = await applyTurn({ files, worktree: link, into: s.repo });
    assert.deepEqual(result.applied, [path.join(s.repo, "a.txt")]);
    assert.equal(read(path.join(s.repo, "a.txt")), LINES.replace("two", "two by the agent"));
  } finally {
    s.cleanup();
  }
});

test("git merge-file counts the conflicts and names the sides in its markers", async () => {
  const clean = await mergeFile("a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n");
  assert.deepEqual(clean, { text: "A\nb\nc\nd\nE\n", conflicts: 0 });
  const base = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
  const two = await mergeFile(base, base.replace("a", "A").replace("j", "J1"), base.replace("a", "a2").replace("j", "J2"), ["mine", "base", "theirs"]);
  assert.equal(two?.conflicts, 2);
  assert.match(two!.text, /<<<<<<< mine\nA\n=======\na2\n>>>>>>> theirs/);
});
