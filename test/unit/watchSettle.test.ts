/**
 * The watcher's proof for a turn's end (issue 19, `watchSettle.ts`): a sentinel in the repository's `.git` folder whose
 * event, once it arrives, means the events before it have been handed on; no proof without a `.git` folder, when the
 * event does not come, or when the user's watcher exclusions may hide files.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, watch } from "node:fs";
import path from "node:path";
import test from "node:test";
import { exclusionsAllowSettle, WatchSettle } from "../../src/workspace/watchSettle";
import { tempDir } from "./helpers";

test("the proof comes once the watcher reports the sentinel, after the events gathered before it were handed on; the sentinel is gone after", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, ".git"));
    const handed: string[] = [];
    let pending: string[] = [];
    const settle = new WatchSettle(async () => {
      handed.push(...pending);
      pending = [];
    });
    // A real watcher (inotify on Linux) on the folder's .git, standing in for the editor's.
    const watcher = watch(path.join(dir, ".git"), (_kind, name) => {
      const file = path.join(dir, ".git", String(name));
      if (!settle.seen(file)) pending.push(file);
    });
    try {
      pending.push(path.join(dir, "a.ts")); // an event that arrived before the proof was asked for
      assert.equal(await settle.settle(dir), true);
      assert.deepEqual(handed, [path.join(dir, "a.ts")]);
      assert.deepEqual(readdirSync(path.join(dir, ".git")), []);
    } finally {
      watcher.close();
    }
  } finally {
    cleanup();
  }
});

test("no proof without a .git folder, nor when the sentinel's event never comes (and the sentinel is removed)", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const settle = new WatchSettle(async () => undefined, 50);
    assert.equal(await settle.settle(dir), false, "no .git folder");
    mkdirSync(path.join(dir, ".git"));
    assert.equal(await settle.settle(dir), false, "no watcher reported it");
    // Not asked again: even a watcher that now reports every sentinel gets none.
    const watcher = watch(path.join(dir, ".git"), (_kind, name) => settle.seen(path.join(dir, ".git", String(name))) && assert.fail("a sentinel was written"));
    try {
      assert.equal(await settle.settle(dir), false, "not asked again");
    } finally {
      watcher.close();
    }
    assert.deepEqual(readdirSync(path.join(dir, ".git")), []);
    assert.equal(existsSync(path.join(dir, ".git")), true);
  } finally {
    cleanup();
  }
});

test("watcher exclusions: git's object store and folders turns never list allow the proof; a user's own exclusion does not", () => {
  assert.equal(exclusionsAllowSettle(["**/.git/objects/**", "**/.git/subtree-cache/**", "**/.hg/store/**", "**/node_modules/*/**"]), true);
  assert.equal(exclusionsAllowSettle([]), true);
  assert.equal(exclusionsAllowSettle(["**/.git/**"]), false);
  assert.equal(exclusionsAllowSettle(["**/generated/**"]), false);
});
