/**
 * Files a turn changed (issue 7, "File watching"): which files, how, and their text from before the turn — what the
 * "Files changed" list and its diffs show. Real folders; the watcher's events are fed as the editor would.
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { SNAPSHOT_FILE_BYTES, TurnFiles, isTracked } from "../../src/workspace/turnFiles";
import { walkBaseline } from "../../src/workspace/snapshotFiles";
import { makeRepo } from "./gitRepos";
import { tempDir } from "./helpers";

test("created, modified and deleted files are listed with their text from before the turn; build output and dependencies are not", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, "src"));
    mkdirSync(path.join(dir, "node_modules", "x"), { recursive: true });
    writeFileSync(path.join(dir, "src", "a.ts"), "export const a = 1;\n");
    writeFileSync(path.join(dir, "old.txt"), "to be removed\n");
    writeFileSync(path.join(dir, "big.log"), "x".repeat(SNAPSHOT_FILE_BYTES + 1));
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    writeFileSync(path.join(dir, "src", "a.ts"), "export const a = 2;\n");
    writeFileSync(path.join(dir, "src", "new.ts"), "new\n");
    rmSync(path.join(dir, "old.txt"));
    writeFileSync(path.join(dir, "big.log"), "y");
    writeFileSync(path.join(dir, "temp.txt"), "t");
    rmSync(path.join(dir, "temp.txt"));
    await files.changed([
      { path: path.join(dir, "src", "a.ts"), kind: "changed" },
      { path: path.join(dir, "src", "new.ts"), kind: "created" },
      { path: path.join(dir, "old.txt"), kind: "deleted" },
      { path: path.join(dir, "big.log"), kind: "changed" },
      { path: path.join(dir, "temp.txt"), kind: "created" },
      { path: path.join(dir, "temp.txt"), kind: "deleted" },
      { path: path.join(dir, "node_modules", "x", "index.js"), kind: "created" },
      { path: path.join(path.dirname(dir), "elsewhere.txt"), kind: "created" },
    ]);
    const changed = (await files.end("T1")).map((f) => [path.relative(dir, f.path), f.kind, f.before]);
    assert.deepEqual(changed, [
      ["big.log", "modified", undefined],
      ["old.txt", "deleted", "to be removed\n"],
      [path.join("src", "a.ts"), "modified", "export const a = 1;\n"],
      [path.join("src", "new.ts"), "created", null],
    ]);
    assert.deepEqual(await files.end("T1"), [], "a turn is tracked once");
  } finally {
    cleanup();
  }
});

test("two turns in the same folder both list a change; a turn elsewhere does not", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, "one"));
    mkdirSync(path.join(dir, "two"));
    const files = new TurnFiles();
    await Promise.all([files.begin("A", path.join(dir, "one"), Infinity), files.begin("B", path.join(dir, "one"), Infinity), files.begin("C", path.join(dir, "two"), Infinity)]);
    writeFileSync(path.join(dir, "one", "f.txt"), "f");
    await files.changed([{ path: path.join(dir, "one", "f.txt"), kind: "created" }]);
    assert.equal((await files.end("A")).length, 1);
    assert.equal((await files.end("B")).length, 1);
    assert.equal((await files.end("C")).length, 0);
  } finally {
    cleanup();
  }
});

test("isTracked: inside the folder, not under .git or node_modules, not the folder itself", () => {
  const root = path.join(path.sep, "work", "p");
  const cases: [string, boolean][] = [
    [path.join(root, "a.ts"), true],
    [path.join(root, "src", "deep", "b.ts"), true],
    [path.join(root, ".git", "HEAD"), false],
    [path.join(root, "packages", "x", "node_modules", "y.js"), false],
    [root, false],
    [path.join(root, "..", "q", "a.ts"), false],
    [path.join(path.sep, "work", "pp", "a.ts"), false],
  ];
  for (const [file, expected] of cases) assert.equal(isTracked(root, file), expected, file);
});

test("a folder created during the turn is not listed as a changed file (its files are)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    mkdirSync(path.join(dir, "with space"));
    writeFileSync(path.join(dir, "with space", "a b.txt"), "x");
    await files.changed([
      { path: path.join(dir, "with space"), kind: "created" },
      { path: path.join(dir, "with space"), kind: "changed" },
      { path: path.join(dir, "with space", "a b.txt"), kind: "created" },
    ]);
    assert.deepEqual((await files.end("T1")).map((f) => [path.relative(dir, f.path), f.kind]), [[path.join("with space", "a b.txt"), "created"]]);
  } finally {
    cleanup();
  }
});

test("changes whose watcher events have not arrived when the turn ends are listed; a file only touched is not", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "README.md"), "# p\n");
    writeFileSync(path.join(dir, "src", "gone.ts"), "x\n");
    writeFileSync(path.join(dir, "same.txt"), "same\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    // No watcher event at all: the agent ends its turn right after these.
    appendFileSync(path.join(dir, "README.md"), "appended\n");
    writeFileSync(path.join(dir, "src", "new.ts"), "new\n");
    rmSync(path.join(dir, "src", "gone.ts"));
    utimesSync(path.join(dir, "same.txt"), new Date(), new Date(Date.now() + 5_000));
    mkdirSync(path.join(dir, "node_modules"));
    writeFileSync(path.join(dir, "node_modules", "dep.js"), "dep");
    assert.deepEqual((await files.end("T1")).map((f) => [path.relative(dir, f.path), f.kind, f.before]), [
      ["README.md", "modified", "# p\n"],
      [path.join("src", "gone.ts"), "deleted", "x\n"],
      [path.join("src", "new.ts"), "created", null],
    ]);
  } finally {
    cleanup();
  }
});

test("a watcher event that arrives during the turn for a file written just before it is not the turn's change", async () => {
  const { dir, cleanup } = tempDir();
  try {
    // The user saves notes.txt (same text as before, or new text) and sends a prompt at once: the watcher reports
    // the save late, after the turn's snapshot has read the saved text.
    writeFileSync(path.join(dir, "notes.txt"), "alpha\n");
    writeFileSync(path.join(dir, "draft.md"), "# saved just before\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    await files.changed([
      { path: path.join(dir, "notes.txt"), kind: "changed" },
      { path: path.join(dir, "draft.md"), kind: "changed" },
    ]);
    // The agent then changes draft.md and puts it back: the net result is no change either.
    writeFileSync(path.join(dir, "draft.md"), "# changed\n");
    await files.changed([{ path: path.join(dir, "draft.md"), kind: "changed" }]);
    writeFileSync(path.join(dir, "draft.md"), "# saved just before\n");
    writeFileSync(path.join(dir, "real.txt"), "made by the agent\n");
    await files.changed([{ path: path.join(dir, "real.txt"), kind: "created" }]);
    assert.deepEqual((await files.end("T1")).map((f) => [path.relative(dir, f.path), f.kind]), [["real.txt", "created"]]);
  } finally {
    cleanup();
  }
});

test("a file written through ACP is listed though the disk never changed (an open editor buffer)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    writeFileSync(path.join(dir, "open.ts"), "before\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    await files.wrote("T1", path.join(dir, "open.ts"));
    await files.wrote("T1", path.join(path.dirname(dir), "outside.ts"));
    assert.deepEqual((await files.end("T1")).map((f) => [path.basename(f.path), f.kind, f.before]), [["open.ts", "modified", "before\n"]]);
  } finally {
    cleanup();
  }
});

test("Sidekicks' own history store inside the workspace is never listed as changed", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, ".history"));
    writeFileSync(path.join(dir, ".history", "000001.log"), "a");
    const files = new TurnFiles([path.join(dir, ".history")]);
    await files.begin("T1", dir, Infinity);
    appendFileSync(path.join(dir, ".history", "000001.log"), "b");
    writeFileSync(path.join(dir, ".history", "000002.ldb"), "c");
    writeFileSync(path.join(dir, "agent.txt"), "d");
    await files.changed([{ path: path.join(dir, ".history", "000002.ldb"), kind: "created" }]);
    assert.deepEqual((await files.end("T1")).map((f) => path.relative(dir, f.path)), ["agent.txt"]);
  } finally {
    cleanup();
  }
});

test("a file the user saved in the editor during the turn is not the agent's change, unless the agent changes it too", async () => {
  const { dir, cleanup } = tempDir();
  try {
    for (const name of ["README.md", "both.md", "written.ts", "earlier.md"]) writeFileSync(path.join(dir, name), `${name} before\n`);
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    const save = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      files.saved(path.join(dir, name), text);
    };
    // The user's own edits, saved twice; the watcher's event comes after the save.
    save("README.md", "mine\n");
    await files.changed([{ path: path.join(dir, "README.md"), kind: "changed" }]);
    save("README.md", "mine, again\n");
    // The user saves, then the agent appends on disk (its event has not arrived when the turn ends).
    save("both.md", "mine\n");
    appendFileSync(path.join(dir, "both.md"), "the agent's line\n");
    // The agent's write to an open document: the editor saves it, and it is an ACP write.
    save("written.ts", "the agent's text\n");
    await files.wrote("T1", path.join(dir, "written.ts"));
    // The agent changed it first (its event arrived), then the user saved.
    writeFileSync(path.join(dir, "earlier.md"), "the agent's\n");
    await files.changed([{ path: path.join(dir, "earlier.md"), kind: "changed" }]);
    save("earlier.md", "the agent's, and mine\n");
    assert.deepEqual((await files.end("T1")).map((f) => [path.basename(f.path), f.kind]), [
      ["both.md", "modified"],
      ["earlier.md", "modified"],
      ["written.ts", "modified"],
    ]);
  } finally {
    cleanup();
  }
});

test("a walk that reaches files after the prompt started lists what the agent changed before it got there, earlier texts unknown (never missed, never guessed)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    writeFileSync(path.join(dir, "old.txt"), "old\n");
    writeFileSync(path.join(dir, "untouched.txt"), "u\n");
    utimesSync(path.join(dir, "untouched.txt"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const promptStarted = Date.now();
    // The agent is quicker than a walk slowed down (a large folder, a busy machine, git failing first).
    appendFileSync(path.join(dir, "a.txt"), "by the agent\n");
    writeFileSync(path.join(dir, "new.txt"), "new\n");
    rmSync(path.join(dir, "old.txt"));
    const baseline = walkBaseline(dir, () => promptStarted);
    await baseline.ready;
    const reported = new Set([path.join(dir, "old.txt")]); // the watcher's event for the removal
    const ends = [...(await baseline.end(reported, new Set()))].map(([file, before]) => [path.basename(file), before]).sort();
    assert.deepEqual(ends, [
      ["a.txt", { existed: true, unknown: "late" }],
      ["new.txt", { existed: true, unknown: "late" }],
      ["old.txt", { existed: true, unknown: "late" }],
    ]);
  } finally {
    cleanup();
  }
});

/**
 * A folder its repository ignores (as `npm start -- --real-agents` makes), holding notes.txt ("alpha"), whose turn
 * T1 has begun without waiting: walked, from after the prompt started.
 */
async function walkedFromPrompt(dir: string): Promise<{ folder: string; files: TurnFiles }> {
  const repo = makeRepo(dir);
  writeFileSync(path.join(repo, ".gitignore"), "scratch/\n");
  const folder = path.join(repo, "scratch");
  mkdirSync(folder);
  writeFileSync(path.join(folder, "notes.txt"), "alpha\n");
  const files = new TurnFiles();
  await files.begin("T1", folder, 0);
  return { folder, files };
}

test("a file the agent made and removed within the turn is not listed, even when the walk was not done before the prompt (Codex's sandbox files)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const { folder, files } = await walkedFromPrompt(dir);
    const made = path.join(folder, ".codex");
    writeFileSync(made, "");
    rmSync(made);
    writeFileSync(path.join(folder, "notes.txt"), "beta\n");
    await files.changed([
      { path: made, kind: "created" },
      { path: made, kind: "deleted" },
      { path: path.join(folder, "notes.txt"), kind: "changed" },
    ]);
    assert.deepEqual((await files.end("T1")).map((f) => path.basename(f.path)), ["notes.txt"]);
  } finally {
    cleanup();
  }
});

test("a folder the agent made and removed within the turn is not listed as a deleted file (Codex's sandbox mount points)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const { folder, files } = await walkedFromPrompt(dir);
    // The sandbox makes its mount points as folders; the watcher's "created" events are handled while they exist,
    // their "deleted" ones after they are gone (a tryout saw .agents, .aws and .codex listed "deleted, no earlier text").
    const points = [".agents", ".aws", ".codex"].map((name) => path.join(folder, name));
    for (const p of points) mkdirSync(p);
    await files.changed(points.map((p) => ({ path: p, kind: "created" as const })));
    for (const p of points) rmSync(p, { recursive: true });
    writeFileSync(path.join(folder, "notes.txt"), "beta\n");
    await files.changed([...points.map((p) => ({ path: p, kind: "deleted" as const })), { path: path.join(folder, "notes.txt"), kind: "changed" }]);
    assert.deepEqual((await files.end("T1")).map((f) => [path.basename(f.path), f.kind]), [["notes.txt", "modified"]]);
  } finally {
    cleanup();
  }
});

test("an ACP write of the text the file already had is no change; one of other text stays listed though the disk never changed", async () => {
  const { dir, cleanup } = tempDir();
  try {
    writeFileSync(path.join(dir, "same.txt"), "as it was\n");
    writeFileSync(path.join(dir, "open.ts"), "before\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    writeFileSync(path.join(dir, "same.txt"), "as it was\n");
    await files.wrote("T1", path.join(dir, "same.txt"), "as it was\n");
    await files.wrote("T1", path.join(dir, "open.ts"), "after, in the editor's buffer\n");
    assert.deepEqual((await files.end("T1")).map((f) => [path.basename(f.path), f.kind]), [["open.ts", "modified"]]);
  } finally {
    cleanup();
  }
});
