/**
 * The end of a turn's git snapshot when the editor proves its watcher's events have all arrived (issue 19, "Snapshots
 * that scale"): real `git` in temporary repositories. With the proof, the end asks git only about the files reported,
 * dirty at the start or committed; it gives the same list and earlier texts as a full `git status`, and falls back to
 * the full status whenever it could not be sure — no proof, a folder moved or deleted as a whole, an index that hides
 * changes — so an earlier text is never taken from HEAD where the user's own text was.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { indexHidesChanges, sameIndexEntries } from "../../src/workspace/gitIndexFlags";
import { StatusRuns } from "../../src/workspace/gitSnapshot";
import { TurnFiles, type ChangedFile } from "../../src/workspace/turnFiles";
import { git, repo, rows } from "./gitTurnRepos";
import { tempDir } from "./helpers";

const changed = (dir: string, ...files: string[]) => files.map((f) => ({ path: path.join(dir, f), kind: "changed" as const }));

/** A turn in `dir` whose end gets `proof` from the watcher; `work` is the agent's turn. */
async function turn(dir: string, proof: boolean, work: (files: TurnFiles) => Promise<void>): Promise<ChangedFile[]> {
  let asked = 0;
  const files = new TurnFiles([], async () => (asked++, proof));
  await files.begin("T1", dir, Infinity);
  await work(files);
  const list = await files.end("T1");
  assert.equal(asked, 1, "the end asks the watcher for its proof once");
  return list;
}

test("with the watcher's proof: the same files and earlier texts as a full git status, ignored files and a nested repository's left out", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { ".gitignore": "ignored/\n*.log\n", "a.ts": "a1\n", "c.ts": "c1\n", "dirty.ts": "d1\n", "gone.ts": "gone\n", "src/deep/e.ts": "e1\n" });
    writeFileSync(path.join(dir, "dirty.ts"), "dirty before the turn\n");
    writeFileSync(path.join(dir, "untracked.txt"), "u1\n");
    writeFileSync(path.join(dir, "build.log"), "log1\n");
    mkdirSync(path.join(dir, "nested"));
    git(path.join(dir, "nested"), "init", "-q");
    const work = async (files: TurnFiles) => {
      writeFileSync(path.join(dir, "a.ts"), "a2\n");
      rmSync(path.join(dir, "gone.ts"));
      appendFileSync(path.join(dir, "dirty.ts"), "and the agent's line\n");
      writeFileSync(path.join(dir, "untracked.txt"), "u2\n");
      writeFileSync(path.join(dir, "src", "deep", "e.ts"), "e2\n");
      git(dir, "commit", "-q", "-m", "the agent commits e.ts", "--", "src/deep/e.ts");
      writeFileSync(path.join(dir, "fresh.ts"), "fresh\n");
      mkdirSync(path.join(dir, "ignored"), { recursive: true });
      writeFileSync(path.join(dir, "ignored", "x.txt"), "x\n");
      writeFileSync(path.join(dir, "build.log"), "log2\n");
      writeFileSync(path.join(dir, "nested", "n.ts"), "n\n");
      writeFileSync(path.join(dir, "c.ts"), "c1\n"); // rewritten with the same text: not a change
      await files.changed([...changed(dir, "a.ts", "dirty.ts", "untracked.txt", "fresh.ts", "ignored/x.txt", "build.log", "nested/n.ts", "c.ts"), { path: path.join(dir, "gone.ts"), kind: "deleted" }]);
    };
    const expected = [
      ["a.ts", "modified", "a1\n"],
      ["dirty.ts", "modified", "dirty before the turn\n"],
      ["fresh.ts", "created", null],
      ["gone.ts", "deleted", "gone\n"],
      ["src/deep/e.ts", "modified", "e1\n"],
      ["untracked.txt", "modified", "u1\n"],
    ];
    assert.deepEqual(rows(dir, await turn(dir, true, work)), expected);
    // The same turn again, without the proof (the full status), from the same starting point.
    git(dir, "reset", "-q", "--hard", "HEAD~1");
    writeFileSync(path.join(dir, "gone.ts"), "gone\n");
    writeFileSync(path.join(dir, "dirty.ts"), "dirty before the turn\n");
    writeFileSync(path.join(dir, "untracked.txt"), "u1\n");
    rmSync(path.join(dir, "fresh.ts"));
    assert.deepEqual(rows(dir, await turn(dir, false, work)), expected);
  } finally {
    cleanup();
  }
});

test("without the watcher's proof, a change whose event never came is still listed (the full git status)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "a.ts": "a1\n", "b.ts": "b1\n" });
    const list = await turn(dir, false, async () => {
      writeFileSync(path.join(dir, "a.ts"), "a2\n"); // no event
      writeFileSync(path.join(dir, "new.ts"), "n\n"); // no event
    });
    assert.deepEqual(rows(dir, list), [
      ["a.ts", "modified", "a1\n"],
      ["new.ts", "created", null],
    ]);
  } finally {
    cleanup();
  }
});

test("with the proof, a folder moved or deleted as a whole (one event for the folder) still has all its files listed", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "lib/a.ts": "a1\n", "lib/b.ts": "b1\n", "old/c.ts": "c1\n" });
    const list = await turn(dir, true, async (files) => {
      rmSync(path.join(dir, "lib"), { recursive: true });
      await files.changed([{ path: path.join(dir, "lib"), kind: "deleted" }]);
    });
    assert.deepEqual(rows(dir, list), [
      ["lib/a.ts", "deleted", "a1\n"],
      ["lib/b.ts", "deleted", "b1\n"],
    ]);
    const moved = await turn(dir, true, async (files) => {
      renameSync(path.join(dir, "old"), path.join(dir, "moved"));
      await files.changed([
        { path: path.join(dir, "old"), kind: "deleted" },
        { path: path.join(dir, "moved"), kind: "created" },
      ]);
    });
    assert.deepEqual(rows(dir, moved), [
      ["moved/c.ts", "created", null],
      ["old/c.ts", "deleted", "c1\n"],
    ]);
  } finally {
    cleanup();
  }
});

test("with the proof, a file git was told to keep quiet about (assume-unchanged) never gets HEAD's text as its earlier text", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "settings.json": '{ "committed": true }\n' });
    writeFileSync(path.join(dir, "settings.json"), '{ "mine": true }\n');
    git(dir, "update-index", "--assume-unchanged", "settings.json");
    const list = await turn(dir, true, async (files) => {
      writeFileSync(path.join(dir, "settings.json"), '{ "agent": true }\n');
      await files.changed(changed(dir, "settings.json"));
    });
    assert.ok(!list.some((f) => f.before === '{ "committed": true }\n'), JSON.stringify(rows(dir, list)));
  } finally {
    cleanup();
  }
});

test("a file ignored before the turn that the turn un-ignores is not 'created': its earlier text is unknown, so an undo cannot delete it", async () => {
  for (const proof of [true, false]) {
    const { dir, cleanup } = tempDir();
    try {
      repo(dir, { ".gitignore": ".env\n", "a.ts": "a1\n" });
      writeFileSync(path.join(dir, ".env"), "SECRET=1\n");
      const old = new Date(Date.now() - 60_000);
      utimesSync(path.join(dir, ".env"), old, old);
      const list = await turn(dir, proof, async (files) => {
        writeFileSync(path.join(dir, ".gitignore"), "");
        await files.changed(changed(dir, ".gitignore", ".env"));
      });
      assert.deepEqual(rows(dir, list), [
        [".env", "modified", undefined, "late"],
        [".gitignore", "modified", ".env\n"],
      ]);
    } finally {
      cleanup();
    }
  }
});

test("the index's flags: assume-unchanged and skip-worktree entries are seen in index versions 2, 3 and 4; a split index is not vouched for", () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "a.ts": "a\n", "deep/folder/with-a-longer-name.ts": "b\n", "c.ts": "c\n" });
    const index = path.join(dir, ".git", "index");
    const check = () => indexHidesChanges(index, 20);
    for (const version of ["2", "3", "4"]) {
      git(dir, "update-index", "--index-version", version);
      assert.equal(check(), false, `version ${version}, no flags`);
      git(dir, "update-index", "--assume-unchanged", "c.ts");
      assert.equal(check(), true, `version ${version}, assume-unchanged`);
      git(dir, "update-index", "--no-assume-unchanged", "c.ts");
      if (version !== "2") {
        git(dir, "update-index", "--skip-worktree", "a.ts");
        assert.equal(check(), true, `version ${version}, skip-worktree`);
        git(dir, "update-index", "--no-skip-worktree", "a.ts");
      }
      assert.equal(check(), false, `version ${version}, flags cleared`);
    }
    git(dir, "update-index", "--split-index");
    assert.equal(check(), true, "split index");
    assert.equal(indexHidesChanges(path.join(dir, "no-such-index"), 20), false, "no index yet");
  } finally {
    cleanup();
  }
});

test("the private index copy: between turns the user's staging and new files are seen, and the user's index and .git are never written", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { ".gitignore": "*.local\n", "a.ts": "a1\n", "src/b.ts": "b1\n", "src/c.ts": "c1\n" });
    const gitFiles = () => execFileSync("find", [".git", "-newer", ".git/HEAD", "-type", "f"], { cwd: dir }).toString();
    const indexBytes = () => execFileSync("git", ["hash-object", ".git/index"], { cwd: dir }).toString();
    const files = new TurnFiles([], async () => true);
    const oneTurn = async (file: string, text: string) => {
      await files.begin("T", dir, Infinity);
      writeFileSync(path.join(dir, file), text);
      await files.changed(changed(dir, file));
      return rows(dir, await files.end("T"));
    };
    git(dir, "status"); // the user's own status (writes their index as usual)
    const before = { index: indexBytes(), git: gitFiles() };
    assert.deepEqual(await oneTurn("a.ts", "a2\n"), [["a.ts", "modified", "a1\n"]]);
    assert.deepEqual(await oneTurn("a.ts", "a3\n"), [["a.ts", "modified", "a2\n"]]);
    assert.equal(indexBytes(), before.index, "the user's index is not written");
    assert.equal(gitFiles(), before.git, "nothing new in .git");
    // Between turns the user writes a new file in a folder git has cached, and stages a file their .gitignore matches.
    writeFileSync(path.join(dir, "src", "mine.ts"), "the user's new file\n");
    writeFileSync(path.join(dir, "src", "keys.local"), "the user's keys\n");
    git(dir, "add", "-f", "src/keys.local");
    assert.deepEqual(await oneTurn("src/mine.ts", "agent\n"), [["src/mine.ts", "modified", "the user's new file\n"]]);
    assert.deepEqual(await oneTurn("src/keys.local", "agent\n"), [["src/keys.local", "modified", "the user's keys\n"]]);
  } finally {
    cleanup();
  }
});

test("two indexes hold the same entries whatever their stat data, and not once a file is staged or its mode changed (index versions 2 to 4)", async () => {
  for (const version of ["2", "3", "4"]) {
    const { dir, cleanup } = tempDir();
    try {
      repo(dir, { "a.ts": "a\n", "b.ts": "b\n", "deep/er/c.ts": "c\n" });
      git(dir, "update-index", "--index-version", version);
      const index = path.join(dir, ".git", "index");
      const copy = path.join(dir, "copy");
      copyFileSync(index, copy);
      writeFileSync(path.join(dir, "a.ts"), "a\n"); // same text, new modification time
      git(dir, "update-index", "--refresh");
      assert.equal(await sameIndexEntries(index, copy, 20), true, `v${version}: stat data refreshed`);
      writeFileSync(path.join(dir, "a.ts"), "staged\n");
      git(dir, "add", "a.ts");
      assert.equal(await sameIndexEntries(index, copy, 20), false, `v${version}: a file staged`);
      copyFileSync(index, copy);
      git(dir, "update-index", "--chmod=+x", "deep/er/c.ts");
      assert.equal(await sameIndexEntries(index, copy, 20), false, `v${version}: a mode changed`);
    } finally {
      cleanup();
    }
  }
});

test("with the proof, a large or binary clean file rewritten with the same bytes is not listed; changed, it is, its earlier text unknown", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "logo.png": "PNG\0\u0001", "big.txt": "y".repeat(600 * 1024), "other.png": "PNG\0\u0002" });
    const list = await turn(dir, true, async (files) => {
      writeFileSync(path.join(dir, "logo.png"), "PNG\0\u0001"); // the same bytes again
      writeFileSync(path.join(dir, "big.txt"), "y".repeat(600 * 1024));
      writeFileSync(path.join(dir, "other.png"), "PNG\0\u0003");
      await files.changed(changed(dir, "logo.png", "big.txt", "other.png"));
    });
    assert.deepEqual(rows(dir, list), [["other.png", "modified", undefined, "binary"]]);
  } finally {
    cleanup();
  }
});

test("statuses that run at once while the user's index changes each see the repository as it is (a copy in use is never removed)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    repo(dir, { "a.ts": "a\n", "sub/b.ts": "b\n", "sub/c.ts": "c\n" });
    const runs = new StatusRuns();
    for (let i = 0; i < 4; i++) {
      writeFileSync(path.join(dir, `new${i}.ts`), "n\n");
      git(dir, "add", `new${i}.ts`); // the user's index holds other entries each round
      const [top, sub] = await Promise.all([runs.current(dir, dir), runs.current(dir, path.join(dir, "sub"))]);
      assert.deepEqual([...(top?.dirty ?? [])].sort(), Array.from({ length: i + 1 }, (_, k) => `new${k}.ts`));
      assert.deepEqual([...(sub?.dirty ?? [])], []);
    }
  } finally {
    cleanup();
  }
});
