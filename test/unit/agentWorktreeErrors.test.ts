/**
 * A git worktree per agent (issue 20): each bad input is a clear start failure saying what to do, shown where the
 * user sees the agent's failure (its state `error` in the Agents view, the turn's error), with nothing made or
 * deleted. Real git in temporary repositories; only "git too old" uses a stand-in (test/fixtures/old-git/git) that
 * answers `git --version`, since no git older than 2.5 is installed here.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import type { AgentConfig, WorktreeConfig } from "../../src/config/roster";
import { Recorder } from "../../src/events/events";
import { FAKE_AGENT, tempDir } from "./helpers";
import { git, makeRepo } from "./gitRepos";

function manager(folder: string, worktree: WorktreeConfig, gitProgram?: string) {
  const agents = new AgentManager(new Recorder(), { launch: { workspaceFolder: folder, nodePath: process.execPath, demoAgentPath: "", env: process.env, ...(gitProgram ? { git: gitProgram } : {}) }, workspace: {} });
  const agent: AgentConfig = { name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: "{}" }, worktree };
  agents.setRoster([agent]);
  return agents;
}

/** Starts agent `a` and returns the failure's message, checking it is the agent's shown error too. */
async function failure(agents: AgentManager): Promise<string> {
  const err = await agents.start("a").then(
    () => assert.fail("the agent started"),
    (e: Error & { code?: string }) => e,
  );
  assert.equal(err.code, "worktree/unavailable");
  const shown = agents.summaries()[0]!;
  assert.equal(shown.state, "error");
  assert.equal(shown.error?.message, err.message, "the Agents view shows the same sentence");
  await agents.stopAll();
  return err.message;
}

const cases: [string, (dir: string) => { folder: string; worktree?: WorktreeConfig; git?: string }, RegExp][] = [
  ["not a git repository", (dir) => ({ folder: dir }), /is not in a git repository.*Run "git init" and make a first commit, or remove worktree/],
  ["no commits yet", (dir) => ({ folder: makeRepo(dir, false) }), /has no commits yet.*Make a first commit/],
  ["a missing base", (dir) => ({ folder: makeRepo(dir), worktree: { base: "develop", branch: "sidekicks/a" } }), /The base "develop" .* is not a branch, tag or commit .*Change worktree\.base/],
  ["git missing", (dir) => ({ folder: makeRepo(dir), git: path.join(dir, "no-git-here") }), /Git was not found .*Install git, or remove worktree/],
  ["git too old", (dir) => ({ folder: makeRepo(dir), git: path.resolve(import.meta.dirname, "../fixtures/old-git/git") }), /git version 2\.4\.11 is too old .*git 2\.5 or later is needed/],
  ["a root inside the repository", (dir) => ({ folder: makeRepo(dir), worktree: { branch: "sidekicks/a", root: path.join(dir, "repo", "trees") } }), /would be inside the repository.*Set worktree\.root/],
  ["an invalid branch name", (dir) => ({ folder: makeRepo(dir), worktree: { branch: "sidekicks/a..b" } }), /is not a valid branch name.*Change worktree\.branch/],
  // A workspace folder its repository ignores (the demo's `.demo/real-agents` in a clone): a worktree of the
  // enclosing repository would not hold it (a tryout got the whole clone checked out, then a missing folder).
  ["a workspace folder the repository ignores", (dir) => ({ folder: ignoredFolder(dir) }), /The workspace folder .*scratch is not in main of the git repository .*git ignores it.*no worktree was made/],
];

/** A repository whose committed .gitignore ignores its folder `scratch`, which holds a file: that folder. */
function ignoredFolder(dir: string): string {
  const repo = makeRepo(dir);
  writeFileSync(path.join(repo, ".gitignore"), "scratch/\n");
  git(repo, "add", ".gitignore");
  git(repo, "commit", "-q", "-m", "ignore scratch");
  mkdirSync(path.join(repo, "scratch"));
  writeFileSync(path.join(repo, "scratch", "notes.txt"), "notes\n");
  return path.join(repo, "scratch");
}

for (const [name, make, expected] of cases) {
  test(`bad input, ${name}: the start fails saying what to do, and nothing is made`, async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { folder, worktree = { branch: "sidekicks/a" }, git: program } = make(dir);
      assert.match(await failure(manager(folder, worktree, program)), expected);
      assert.ok(!readdirSync(dir).includes(".sidekicks-worktrees"), "no worktree folder made");
    } finally {
      cleanup();
    }
  });
}

test("bad input, a branch checked out elsewhere (locked there, then not): said with the other worktree's folder", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    const other = path.join(dir, "mine");
    git(repo, "worktree", "add", "-q", "-b", "sidekicks/a", other);
    git(repo, "worktree", "lock", "--reason", "on a USB disk", other);
    assert.match(await failure(manager(repo, { branch: "sidekicks/a" })), new RegExp(`checked out in ${other}, a locked worktree \\(on a USB disk\\)\\. Unlock that worktree`));
    git(repo, "worktree", "unlock", other);
    assert.match(await failure(manager(repo, { branch: "sidekicks/a" })), new RegExp(`checked out in ${other}\\. Switch that worktree to another branch, or change worktree\\.branch`));
    git(other, "switch", "-q", "--detach");
    const agents = manager(repo, { branch: "sidekicks/a" });
    const made = await agents.ensureWorktree("a");
    assert.equal(made?.branch, "sidekicks/a", "once free, the existing branch is reused");
    assert.equal(git(repo, "log", "-1", "--format=%s", "sidekicks/a"), "first");
  } finally {
    cleanup();
  }
});

test("bad input, a worktree folder that vanished: said, and Remove Agent Worktree forgets it (branch kept) so the next start makes it again", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    const agents = manager(repo, { branch: "sidekicks/a" });
    const made = (await agents.ensureWorktree("a"))!;
    rmSync(made.path, { recursive: true, force: true });
    const others = path.join(dir, "others-gone");
    git(repo, "worktree", "add", "-q", "-b", "theirs", others);
    rmSync(others, { recursive: true, force: true });
    assert.match(await failure(agents), /worktree folder .* is gone, though git still lists it\. Run "Sidekicks: Remove Agent Worktree" \(its branch sidekicks\/a is kept\)/);
    assert.deepEqual(await agents.removeWorktree("a"), { path: made.path, branch: "sidekicks/a" });
    assert.match(git(repo, "worktree", "list", "--porcelain"), /others-gone/, "only the agent's record is forgotten, not another vanished worktree's");
    assert.equal((await agents.ensureWorktree("a"))?.created, true, "made again on the kept branch");
  } finally {
    cleanup();
  }
});

test("bad input, a locked worktree: removal is refused with how to unlock, and nothing is deleted", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    const agents = manager(repo, { branch: "sidekicks/a" });
    const made = (await agents.ensureWorktree("a"))!;
    git(repo, "worktree", "lock", made.path);
    await assert.rejects(agents.removeWorktree("a", true), (e: Error & { code?: string }) => e.code === "worktree/unavailable" && /is locked, so Sidekicks leaves it\. Unlock it \(git worktree unlock/.test(e.message));
    assert.ok(readdirSync(made.path).includes("README.md"), "the worktree is still there");
  } finally {
    cleanup();
  }
});
