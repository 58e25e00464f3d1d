/**
 * Bringing an agent's worktree back (issue 20, "Bring it back") with real git in temporary repositories (no mock of
 * git): the branch's changes against its base (added, modified, deleted, renamed; committed and uncommitted), then
 * applied to the user's branch by merge, squash or rebase; conflicts left in git's state with how to abort; the
 * user's uncommitted work never touched; the agent's uncommitted work committed first, never dropped.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { SidekicksError } from "../../src/shared/errors";
import { ApplyProblem, applyBranch, branchChanges, commitWorktree, conflictSides, type ApplyMode } from "../../src/workspace/worktreeApply";
import { git, makeRepo } from "./gitRepos";
import { tempDir } from "./helpers";

/** A repository with a.txt, b.txt, c.txt, old.txt on main, and the agent's worktree on `sidekicks/a` beside it. */
function setup() {
  const { dir, cleanup } = tempDir();
  const repo = makeRepo(dir);
  git(repo, "config", "user.name", "t");
  git(repo, "config", "user.email", "t@t");
  for (const f of ["a.txt", "b.txt", "c.txt"]) writeFileSync(path.join(repo, f), `${f} one\n${f} two\n${f} three\n`);
  writeFileSync(path.join(repo, "old.txt"), "a file long enough to be recognised after its rename\n".repeat(5));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "files");
  const tree = path.join(dir, "wt", "a");
  git(repo, "worktree", "add", "-q", "-b", "sidekicks/a", tree, "main");
  const commit = (folder: string, message: string) => {
    git(folder, "add", "-A");
    git(folder, "commit", "-q", "-m", message);
  };
  const apply = (mode: ApplyMode) => applyBranch({ repository: repo, worktree: tree, branch: "sidekicks/a", mode, message: "Merge agent a" });
  return { dir, repo, tree, commit, apply, cleanup };
}

/** Agent `a`'s bring-back through an agent manager whose roster gives it the setup's worktree. */
async function bringBackOf(s: ReturnType<typeof setup>) {
  const { AgentManager } = await import("../../src/agents/AgentManager");
  const { Recorder } = await import("../../src/events/events");
  const agents = new AgentManager(new Recorder(), { launch: { workspaceFolder: s.repo, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  agents.setRoster([{ name: "a", command: process.execPath, args: [], env: {}, worktree: { branch: "sidekicks/a", root: path.join(s.dir, "wt") } }]);
  return agents.worktreeBringBack("a")!;
}

test("the review lists the branch's changes from the merge-base: added, modified, deleted, renamed, committed and uncommitted, with the base's text", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "a.txt one\nchanged by the agent\na.txt three\n");
    rmSync(path.join(s.tree, "b.txt"));
    git(s.tree, "mv", "old.txt", "new.txt");
    writeFileSync(path.join(s.tree, "added.txt"), "new\n");
    s.commit(s.tree, "agent work");
    writeFileSync(path.join(s.tree, "c.txt"), "uncommitted edit\n");
    writeFileSync(path.join(s.tree, "untracked.txt"), "not added yet\n");
    // The base moved on since: its change is not the agent's and is not listed.
    writeFileSync(path.join(s.repo, "README.md"), "moved on\n");
    s.commit(s.repo, "base moved");

    const changes = await branchChanges(s.tree, "main");
    const byName = Object.fromEntries(changes.files.map((f) => [f.relative, f]));
    assert.deepEqual(Object.keys(byName).sort(), ["a.txt", "added.txt", "b.txt", "c.txt", "new.txt", "untracked.txt"]);
    assert.equal(byName["a.txt"]!.status, "modified");
    assert.equal(byName["a.txt"]!.before, "a.txt one\na.txt two\na.txt three\n", "the base's text at the merge-base");
    assert.equal(byName["a.txt"]!.uncommitted, false);
    assert.equal(byName["b.txt"]!.status, "deleted");
    assert.equal(byName["b.txt"]!.path, path.join(s.tree, "b.txt"));
    assert.equal(byName["new.txt"]!.status, "renamed");
    assert.equal(byName["new.txt"]!.oldRelative, "old.txt");
    assert.match(byName["new.txt"]!.before!, /long enough/);
    assert.equal(byName["added.txt"]!.status, "added");
    assert.equal(byName["added.txt"]!.before, null);
    assert.equal(byName["c.txt"]!.status, "modified");
    assert.equal(byName["c.txt"]!.uncommitted, true);
    assert.equal(byName["untracked.txt"]!.status, "added");
    assert.equal(byName["untracked.txt"]!.uncommitted, true);
    assert.equal(changes.committed, 4, "a, b, added, old→new");
    assert.equal(changes.uncommitted, 2);
    assert.equal(changes.mergeBase, git(s.repo, "rev-parse", "HEAD~1"));
  } finally {
    s.cleanup();
  }
});

test("merge: a merge commit on the user's branch with the agent's changes, after the base moved on", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "by the agent\n");
    s.commit(s.tree, "agent work");
    writeFileSync(path.join(s.repo, "README.md"), "moved on\n");
    s.commit(s.repo, "base moved");
    const out = await s.apply("merge");
    assert.equal(out.kind, "applied");
    assert.equal(out.kind === "applied" && out.into, "main");
    assert.deepEqual(out.kind === "applied" && out.files, [path.join(s.repo, "a.txt")]);
    assert.equal(readFileSync(path.join(s.repo, "a.txt"), "utf8"), "by the agent\n");
    assert.equal(readFileSync(path.join(s.repo, "README.md"), "utf8"), "moved on\n", "the base's own change is kept");
    assert.equal(git(s.repo, "log", "-1", "--format=%s%n%P").split("\n")[0], "Merge agent a");
    assert.equal(git(s.repo, "log", "-1", "--format=%P").split(" ").length, 2, "a merge commit, two parents");
    assert.equal(git(s.repo, "status", "--porcelain"), "");
    assert.equal((await s.apply("merge")).kind, "upToDate", "nothing more to bring");
  } finally {
    s.cleanup();
  }
});

test("squash: the agent's changes staged on the user's branch, not committed", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "by the agent\n");
    s.commit(s.tree, "one");
    writeFileSync(path.join(s.tree, "d.txt"), "two\n");
    s.commit(s.tree, "two");
    const head = git(s.repo, "rev-parse", "HEAD");
    const out = await s.apply("squash");
    assert.equal(out.kind, "applied");
    assert.equal(out.kind === "applied" && out.commit, undefined);
    assert.equal(git(s.repo, "rev-parse", "HEAD"), head, "no commit made");
    assert.deepEqual(git(s.repo, "diff", "--cached", "--name-only").split("\n"), ["a.txt", "d.txt"], "staged for the user to commit");
  } finally {
    s.cleanup();
  }
});

test("rebase: the agent's branch rebased on the user's branch, which then fast-forwards (no merge commit)", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "by the agent\n");
    s.commit(s.tree, "agent work");
    writeFileSync(path.join(s.repo, "README.md"), "moved on\n");
    s.commit(s.repo, "base moved");
    const out = await s.apply("rebase");
    assert.equal(out.kind, "applied");
    assert.equal(git(s.repo, "log", "--format=%s", "-2"), "agent work\nbase moved", "linear history");
    assert.equal(git(s.repo, "rev-parse", "HEAD"), git(s.tree, "rev-parse", "HEAD"), "the user's branch is the agent's");
  } finally {
    s.cleanup();
  }
});

test("a conflict is left in git's state with the conflicted files and how to abort; aborting brings the user's branch back", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "the agent's line\n");
    s.commit(s.tree, "agent work");
    writeFileSync(path.join(s.repo, "a.txt"), "the user's line\n");
    s.commit(s.repo, "user work");
    const head = git(s.repo, "rev-parse", "HEAD");
    const out = await s.apply("merge");
    assert.equal(out.kind, "conflicts");
    if (out.kind !== "conflicts") return;
    assert.deepEqual(out.files, [path.join(s.repo, "a.txt")]);
    assert.equal(out.folder, s.repo);
    assert.equal(out.abort, "git merge --abort");
    assert.match(readFileSync(path.join(s.repo, "a.txt"), "utf8"), /<<<<<<<[\s\S]*the user's line[\s\S]*the agent's line/);
    // The three sides the merge editor shows: the merge-base's, the user's, the agent's.
    assert.deepEqual(await conflictSides(out.folder, out.files[0]!), { base: "a.txt one\na.txt two\na.txt three\n", ours: "the user's line\n", theirs: "the agent's line\n" });
    await assert.rejects(s.apply("merge"), (e: unknown) => e instanceof ApplyProblem && e.kind === "inProgress" && e.facts.operation === "merge", "a second apply waits for the first");
    git(s.repo, "merge", "--abort");
    assert.equal(git(s.repo, "rev-parse", "HEAD"), head);
    assert.equal(readFileSync(path.join(s.repo, "a.txt"), "utf8"), "the user's line\n");

    const squash = await s.apply("squash");
    assert.equal(squash.kind === "conflicts" && squash.abort, "git reset --merge", "a squash has no MERGE_HEAD to abort");
    git(s.repo, "reset", "--merge");
    const rebase = await s.apply("rebase");
    assert.equal(rebase.kind === "conflicts" && rebase.folder, s.tree, "a rebase stops in the agent's worktree");
    assert.equal(rebase.kind === "conflicts" && rebase.abort, "git rebase --abort");
    assert.equal(git(s.repo, "rev-parse", "HEAD"), head, "the user's branch did not move");
  } finally {
    s.cleanup();
  }
});

test("the user's uncommitted work where the apply writes, or staged anywhere, refuses the apply and stays as it was", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "by the agent\n");
    s.commit(s.tree, "agent work");
    const head = git(s.repo, "rev-parse", "HEAD");
    writeFileSync(path.join(s.repo, "a.txt"), "the user's unsaved idea\n");
    await assert.rejects(s.apply("merge"), (e: unknown) => e instanceof ApplyProblem && e.kind === "mainDirty" && e.facts.paths === "a.txt" && e.code === "worktree/applyRefused");
    await assert.rejects(s.apply("squash"), (e: unknown) => e instanceof ApplyProblem && e.kind === "mainDirty");
    assert.equal(readFileSync(path.join(s.repo, "a.txt"), "utf8"), "the user's unsaved idea\n", "the user's work untouched");
    assert.equal(git(s.repo, "rev-parse", "HEAD"), head);
    git(s.repo, "checkout", "--", "a.txt");
    writeFileSync(path.join(s.repo, "c.txt"), "staged elsewhere\n");
    git(s.repo, "add", "c.txt");
    await assert.rejects(s.apply("squash"), (e: unknown) => e instanceof ApplyProblem && e.kind === "mainStaged" && e.facts.paths === "c.txt");
    git(s.repo, "reset", "-q");
    // Uncommitted work elsewhere is no obstacle, and is still there after the merge.
    const out = await s.apply("merge");
    assert.equal(out.kind, "applied");
    assert.equal(readFileSync(path.join(s.repo, "c.txt"), "utf8"), "staged elsewhere\n");
  } finally {
    s.cleanup();
  }
});

test("the agent's uncommitted work refuses the apply until committed on its branch; then it is applied with the rest", async () => {
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "committed\n");
    s.commit(s.tree, "agent work");
    writeFileSync(path.join(s.tree, "late.txt"), "not committed yet\n");
    await assert.rejects(s.apply("merge"), (e: unknown) => e instanceof SidekicksError && e.code === "worktree/dirty" && e.detail === "late.txt");
    assert.equal(existsSync(path.join(s.tree, "late.txt")), true, "never dropped");
    const commit = await commitWorktree(s.tree, "Work of agent a");
    assert.equal(git(s.tree, "log", "-1", "--format=%H %s"), `${commit} Work of agent a`);
    await assert.rejects(commitWorktree(s.tree, "again"), (e: unknown) => e instanceof ApplyProblem && e.kind === "nothingToCommit");
    const out = await s.apply("merge");
    assert.equal(out.kind, "applied");
    assert.equal(readFileSync(path.join(s.repo, "late.txt"), "utf8"), "not committed yet\n");
  } finally {
    s.cleanup();
  }
});

test("through the agent manager: the refusals are sentences saying what to do, and nothing is applied while the agent answers", async () => {
  const s = setup();
  try {
    const bringBack = await bringBackOf(s);
    writeFileSync(path.join(s.tree, "a.txt"), "by the agent\n");
    s.commit(s.tree, "agent work");
    const { status, changes } = await bringBack.changes();
    assert.equal(status.branch, "sidekicks/a");
    assert.deepEqual(changes.files.map((f) => f.relative), ["a.txt"]);
    writeFileSync(path.join(s.repo, "a.txt"), "the user's\n");
    await assert.rejects(bringBack.apply("merge"), (e: unknown) => e instanceof SidekicksError && e.code === "worktree/applyRefused" && /uncommitted changes in .* to files agent a's branch changes: a\.txt\. Commit or stash them/.test(e.message));
    git(s.repo, "checkout", "--", "a.txt");
    writeFileSync(path.join(s.tree, "b.txt"), "later\n");
    await assert.rejects(bringBack.apply("squash"), (e: unknown) => e instanceof SidekicksError && e.code === "worktree/dirty" && /has 1 uncommitted change\. Commit it on its branch first/.test(e.message));
    await bringBack.commitWork("Work of agent a");
    const out = await bringBack.apply("merge");
    assert.equal(out.kind, "applied");
    assert.match(git(s.repo, "log", "-1", "--format=%s"), /Merge branch 'sidekicks\/a' \(work of agent a\)/);
  } finally {
    s.cleanup();
  }
});

test("checkApply refuses before the agent's uncommitted work is committed: the user's edit of a file only that uncommitted work changes, or staged changes", async () => {
  // A tryout was asked "Commit Them First", got a commit on the agent's branch, and only then the refusal.
  const s = setup();
  try {
    const bringBack = await bringBackOf(s);
    const tip = () => git(s.tree, "rev-parse", "HEAD").trim();
    const before = tip();
    writeFileSync(path.join(s.tree, "c.txt"), "the agent's, not committed\n");
    writeFileSync(path.join(s.repo, "c.txt"), "the user's, not committed\n");
    await assert.rejects(bringBack.checkApply("merge"), (e: unknown) => e instanceof SidekicksError && e.code === "worktree/applyRefused" && /c\.txt/.test(e.message));
    git(s.repo, "checkout", "--", "c.txt");
    writeFileSync(path.join(s.repo, "README.md"), "staged by the user\n");
    git(s.repo, "add", "README.md");
    await assert.rejects(bringBack.checkApply("squash"), (e: unknown) => e instanceof SidekicksError && e.code === "worktree/applyRefused");
    assert.equal(tip(), before, "nothing was committed on the agent's branch");
    git(s.repo, "reset", "-q", "HEAD", "README.md");
    await bringBack.checkApply("merge"); // the user's README.md edit is unstaged and not where the apply writes
    assert.equal(readFileSync(path.join(s.tree, "c.txt"), "utf8"), "the agent's, not committed\n", "the agent's work is as it was");
  } finally {
    s.cleanup();
  }
});

test("rebase of a branch whose change the user's branch already has: said up to date, not 'files changed'", async () => {
  // A tryout applied claude's work by squash, then codex's identical change by rebase: the rebase dropped codex's
  // commit, main did not move, and the message said "applied to main: 2 files changed".
  const s = setup();
  try {
    writeFileSync(path.join(s.tree, "a.txt"), "the same change\n");
    s.commit(s.tree, "agent work");
    writeFileSync(path.join(s.repo, "a.txt"), "the same change\n");
    s.commit(s.repo, "the user made it too");
    const head = git(s.repo, "rev-parse", "HEAD").trim();
    const out = await s.apply("rebase");
    assert.equal(out.kind, "upToDate");
    assert.equal(git(s.repo, "rev-parse", "HEAD").trim(), head, "the user's branch did not move");
  } finally {
    s.cleanup();
  }
});
