/**
 * Comparing two agents' attempts (issue 20, "Compare attempts") with real git in a temporary repository: two
 * worktrees from one base, each agent's changes (committed and not), and the files the two attempts leave different.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { branchChanges } from "../../src/workspace/worktreeApply";
import { compareAttempts } from "../../src/workspace/worktreeCompare";
import { git, makeRepo } from "./gitRepos";
import { tempDir } from "./helpers";

test("two attempts side by side: the files they leave different, each side as it is in its worktree; an identical change left out", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    for (const f of ["same.txt", "shared.txt", "gone.txt"]) writeFileSync(path.join(repo, f), `${f} at the base\n`);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    const [a, b] = [path.join(dir, "wt", "a"), path.join(dir, "wt", "b")];
    git(repo, "worktree", "add", "-q", "-b", "sidekicks/a", a, "main");
    git(repo, "worktree", "add", "-q", "-b", "sidekicks/b", b, "main");
    // Both answer the same request: one file edited differently (a committed, b not), one identically, one only by a.
    writeFileSync(path.join(a, "shared.txt"), "a's way\n");
    git(a, "commit", "-q", "-am", "a's attempt");
    writeFileSync(path.join(b, "shared.txt"), "b's way\n");
    for (const t of [a, b]) writeFileSync(path.join(t, "same.txt"), "both the same\n");
    writeFileSync(path.join(a, "only-a.txt"), "a added this\n");
    rmSync(path.join(b, "gone.txt"));

    const differences = await compareAttempts({ worktree: a, changes: await branchChanges(a, "main") }, { worktree: b, changes: await branchChanges(b, "main") });
    assert.deepEqual(differences, [
      { relative: "gone.txt", left: path.join(a, "gone.txt"), right: null },
      { relative: "only-a.txt", left: path.join(a, "only-a.txt"), right: null },
      { relative: "shared.txt", left: path.join(a, "shared.txt"), right: path.join(b, "shared.txt") },
    ]);
  } finally {
    cleanup();
  }
});

test("two attempts that end the same: nothing to compare", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    const [a, b] = [path.join(dir, "wt", "a"), path.join(dir, "wt", "b")];
    git(repo, "worktree", "add", "-q", "-b", "sidekicks/a", a, "main");
    git(repo, "worktree", "add", "-q", "-b", "sidekicks/b", b, "main");
    for (const t of [a, b]) writeFileSync(path.join(t, "new.txt"), "the same answer\n");
    assert.deepEqual(await compareAttempts({ worktree: a, changes: await branchChanges(a, "main") }, { worktree: b, changes: await branchChanges(b, "main") }), []);
  } finally {
    cleanup();
  }
});
