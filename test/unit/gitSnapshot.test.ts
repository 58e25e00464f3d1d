/**
 * A turn's snapshot in a git work tree (issue 19, "Snapshots that scale"): real `git` in temporary repositories —
 * which files a turn changed and their text from before it, with ignored files ignored, a commit made during the turn
 * seen through, and an earlier text never guessed when the prompt started before the snapshot read it.
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { gitRoot, StatusRuns } from "../../src/workspace/gitSnapshot";
import { SNAPSHOT_FILE_BYTES, TurnFiles } from "../../src/workspace/turnFiles";
import { keptFiles, TURN_FILES_BYTES, withFilesPart } from "../../src/turns/changedFiles";
import { git, repo, rows } from "./gitTurnRepos";
import { tempDir } from "./helpers";


test("in a git repository: changes on disk, a rename, a deletion and a commit during the turn are listed with their text from before; ignored files are not", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { ".gitignore": "ignored/\n*.log\n", "a.ts": "a1\n", "b.ts": "b1\n", "c.ts": "c1\n", "dirty.ts": "d1\n", "gone.ts": "gone\n", "old.ts": "old\n", "src/deep/e.ts": "e1\n" });
    // Before the turn: the user's own uncommitted edit, an untracked file, an ignored file.
    writeFileSync(path.join(dir, "dirty.ts"), "dirty before the turn\n");
    writeFileSync(path.join(dir, "untracked.txt"), "u1\n");
    writeFileSync(path.join(dir, "build.log"), "log1\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    // The agent's turn: no watcher event for most of it (they come late).
    writeFileSync(path.join(dir, "a.ts"), "a2\n");
    rmSync(path.join(dir, "gone.ts"));
    git(dir, "mv", "old.ts", "new.ts");
    appendFileSync(path.join(dir, "dirty.ts"), "and the agent's line\n");
    writeFileSync(path.join(dir, "untracked.txt"), "u2\n");
    writeFileSync(path.join(dir, "src", "deep", "e.ts"), "e2\n");
    git(dir, "commit", "-q", "-m", "the agent commits e.ts", "--", "src/deep/e.ts");
    writeFileSync(path.join(dir, "fresh.ts"), "fresh\n");
    mkdirSync(path.join(dir, "ignored"));
    writeFileSync(path.join(dir, "ignored", "x.txt"), "x\n");
    writeFileSync(path.join(dir, "build.log"), "log2\n");
    writeFileSync(path.join(dir, "c.ts"), "c1\n"); // rewritten with the same text: not a change
    await files.changed(["ignored/x.txt", "build.log", "c.ts", "a.ts"].map((f) => ({ path: path.join(dir, f), kind: "changed" as const })));
    assert.deepEqual(rows(dir, await files.end("T1")), [
      ["a.ts", "modified", "a1\n"],
      ["dirty.ts", "modified", "dirty before the turn\n"],
      ["fresh.ts", "created", null],
      ["gone.ts", "deleted", "gone\n"],
      ["new.ts", "created", null],
      ["old.ts", "deleted", "old\n"],
      ["src/deep/e.ts", "modified", "e1\n"],
      ["untracked.txt", "modified", "u1\n"],
    ]);
  } finally {
    cleanup();
  }
});

test("in a git repository: a workspace that is a subfolder lists only its own files; an ACP write that left the disk alone is listed", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "app/main.ts": "m1\n", "app/open.ts": "o1\n", "other/x.ts": "x1\n" });
    const files = new TurnFiles();
    const folder = path.join(dir, "app");
    await files.begin("T1", folder, Infinity);
    writeFileSync(path.join(dir, "app", "main.ts"), "m2\n");
    writeFileSync(path.join(dir, "other", "x.ts"), "x2\n");
    await files.wrote("T1", path.join(folder, "open.ts"));
    assert.deepEqual(rows(folder, await files.end("T1")), [
      ["main.ts", "modified", "m1\n"],
      ["open.ts", "modified", "o1\n"],
    ]);
  } finally {
    cleanup();
  }
});

test("in a git repository: large and binary files are listed with why their earlier text is unknown", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const big = "y".repeat(SNAPSHOT_FILE_BYTES + 1);
    repo(dir, { "big.txt": big, "data.bin": Buffer.from([1, 0, 2, 0]), "small.txt": "s1\n" });
    writeFileSync(path.join(dir, "untracked-big.txt"), big);
    writeFileSync(path.join(dir, "picture.png"), "not really a picture");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    for (const f of ["big.txt", "data.bin", "small.txt", "untracked-big.txt", "picture.png"]) appendFileSync(path.join(dir, f), "more");
    assert.deepEqual(rows(dir, await files.end("T1")), [
      ["big.txt", "modified", undefined, "tooLarge"],
      ["data.bin", "modified", undefined, "binary"],
      ["picture.png", "modified", undefined, "binary"],
      ["small.txt", "modified", "s1\n"],
      ["untracked-big.txt", "modified", undefined, "tooLarge"],
    ]);
  } finally {
    cleanup();
  }
});

test("in a git repository that converts line endings, a clean file's earlier text is the one its work tree held", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "a.txt": "one\ntwo\n" });
    git(dir, "config", "core.autocrlf", "true");
    rmSync(path.join(dir, "a.txt"));
    git(dir, "checkout", "--", "a.txt"); // now with CRLF on disk, LF in git's objects
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    appendFileSync(path.join(dir, "a.txt"), "three\r\n");
    assert.deepEqual(rows(dir, await files.end("T1")), [["a.txt", "modified", "one\r\ntwo\r\n"]]);
  } finally {
    cleanup();
  }
});

test("the prompt does not wait for the snapshot: a dirty file the agent changed before the snapshot read it has no earlier text, never the agent's", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "clean.ts": "c1\n", "dirty.ts": "d0\n" });
    writeFileSync(path.join(dir, "dirty.ts"), "d1\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, 0);
    writeFileSync(path.join(dir, "dirty.ts"), "the agent's\n");
    writeFileSync(path.join(dir, "clean.ts"), "the agent's\n");
    await files.snapshotted("T1");
    const [clean, dirty] = await files.end("T1");
    assert.deepEqual([dirty?.kind, dirty?.before, dirty?.beforeUnknown], ["modified", undefined, "late"]);
    // Whether git's status saw clean.ts before or after the agent changed it, its earlier text is right or unknown.
    assert.equal(clean?.kind, "modified");
    assert.ok(clean?.before === "c1\n" || (clean?.before === undefined && clean.beforeUnknown === "late"), JSON.stringify(clean));
  } finally {
    cleanup();
  }
});

test("turns starting at once in one folder share one git status; a turn's end asks again", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "a.ts": "a1\n" });
    const runs = new StatusRuns();
    const first = runs.current(dir, dir);
    assert.equal(runs.current(dir, dir), first, "a second turn takes the status under way");
    const fresh = runs.fresh(dir, dir);
    assert.notEqual(fresh, first);
    assert.equal(runs.fresh(dir, dir), fresh, "ends at once share the next status too");
    assert.deepEqual([...(await first)!.dirty], []);
    await fresh;
    const files = new TurnFiles();
    await Promise.all([files.begin("A", dir, Infinity), files.begin("B", dir, Infinity)]);
    writeFileSync(path.join(dir, "b.ts"), "b\n");
    assert.deepEqual(rows(dir, await files.end("A")), [["b.ts", "created", null]]);
    assert.deepEqual(rows(dir, await files.end("B")), [["b.ts", "created", null]]);
  } finally {
    cleanup();
  }
});

test("a turn's earlier texts over the kept budget are dropped and say so, on the files card too", () => {
  const text = "z".repeat(TURN_FILES_BYTES / 2 + 1);
  const kept = keptFiles([
    { path: "/w/a", kind: "modified", before: text },
    { path: "/w/b", kind: "modified", before: text },
  ]);
  assert.deepEqual(kept.map((f) => [f.path, f.before === text, f.beforeUnknown]), [
    ["/w/a", true, undefined],
    ["/w/b", false, "overBudget"],
  ]);
  const part = withFilesPart({ parts: [] } as never, kept).parts[0];
  assert.ok(part?.type === "files");
  assert.deepEqual(part.files.map((f) => [f.path, f.beforeKnown, f.beforeUnknown]), [
    ["/w/a", true, undefined],
    ["/w/b", false, "overBudget"],
  ], "the files card is told why");
});

test("a workspace folder its repository ignores as a whole (the demo's .demo/workspace) is snapshotted by the walk: its changes are listed", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { ".gitignore": ".demo/\n", "README.md": "r\n" });
    const folder = path.join(dir, ".demo", "workspace");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "demo-notes.md"), "# Notes\n");
    const files = new TurnFiles();
    await files.begin("T1", folder, Infinity);
    writeFileSync(path.join(folder, "demo-notes.md"), "# Notes\nedited\n");
    writeFileSync(path.join(folder, "new.md"), "new\n");
    await files.wrote("T1", path.join(folder, "demo-notes.md"));
    assert.deepEqual(rows(folder, await files.end("T1")), [
      ["demo-notes.md", "modified", "# Notes\n"],
      ["new.md", "created", null],
    ]);
  } finally {
    cleanup();
  }
});

test("an empty .git folder above the workspace (an agent sandbox's mount point) is not a repository: the walk snapshots the folder before the prompt and the agent's changes are listed with their earlier texts", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, ".git"));
    const folder = path.join(dir, "project");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "notes.md"), "# notes\n");
    writeFileSync(path.join(folder, "old.txt"), "old\n");
    assert.equal(gitRoot(folder), undefined, "an empty .git is no work tree");
    const files = new TurnFiles();
    await files.begin("T1", folder);
    // The agent writes the moment its prompt starts, before any watcher event or second look.
    appendFileSync(path.join(folder, "notes.md"), "by a\n");
    writeFileSync(path.join(folder, "new.txt"), "new\n");
    rmSync(path.join(folder, "old.txt"));
    assert.deepEqual(rows(folder, await files.end("T1")), [
      ["new.txt", "created", null],
      ["notes.md", "modified", "# notes\n"],
      ["old.txt", "deleted", "old\n"],
    ]);
  } finally {
    cleanup();
  }
});

test("gitRoot: a .git folder with HEAD or a linked work tree's gitdir: file marks a work tree; an empty .git file or folder does not", () => {
  const { dir, cleanup } = tempDir();
  try {
    const main = path.join(dir, "main");
    mkdirSync(path.join(main, "src"), { recursive: true });
    repo(main, { "a.txt": "a\n" });
    assert.equal(gitRoot(path.join(main, "src")), main);
    const linked = path.join(dir, "linked");
    git(main, "worktree", "add", "-q", linked);
    assert.equal(gitRoot(linked), linked, "a linked work tree's .git is a file");
    const emptyFile = path.join(dir, "emptyfile");
    mkdirSync(emptyFile);
    writeFileSync(path.join(emptyFile, ".git"), "");
    assert.equal(gitRoot(emptyFile), undefined);
  } finally {
    cleanup();
  }
});
