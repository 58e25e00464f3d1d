/**
 * A git worktree per agent (issue 20), end to end with real git in temporary repositories (no mock of git): the
 * agent's first turn makes its worktree on its own branch beside the repository, its session `cwd`, file writes and
 * terminals act there and never in the user's folder; a new manager (a reload) finds the same worktree; it is listed
 * with its branch and distance from the base; removing it keeps the branch and asks first when work is uncommitted.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels } from "../../src/app/compose";
import type { AgentConfig, WorktreeConfig } from "../../src/config/roster";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { textOf } from "./channelHarness";
import { git, makeRepo } from "./gitRepos";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

async function setup(steps: (tree: string, repo: string) => object[], worktree: WorktreeConfig = { branch: "sidekicks/a" }) {
  const { dir, cleanup } = tempDir();
  const repo = makeRepo(dir);
  const tree = path.join(dir, ".sidekicks-worktrees", "repo", "a");
  const events = new Recorder();
  const agent: AgentConfig = { name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps(tree, repo) }) }, worktree };
  const store = await Store.open(path.join(dir, "store"));
  const open = () => {
    const agents = new AgentManager(events, { launch: { workspaceFolder: repo, nodePath: process.execPath, demoAgentPath: "", env: process.env }, workspace: {} });
    agents.setRoster([agent]);
    return agents;
  };
  let agents = open();
  let channels = composeChannels({ store, agents, emitter: events });
  const answer = async (): Promise<MessageView> => {
    const before = events.of("message/finished").length;
    const general = await channels.directory.syncGeneral(["a"]);
    await channels.messages.send(general.id, "@a go");
    return waitFor(() => events.of("message/finished").slice(before).find((m) => m.author.kind === "agent"), 15_000, "the answer");
  };
  return {
    dir, repo, tree, events, answer,
    agents: () => agents,
    /** A reload: a new manager and channels over the same store and repository. */
    async reload() {
      await channels.close();
      await agents.stopAll();
      agents = open();
      channels = composeChannels({ store, agents, emitter: events });
    },
    async teardown() {
      await channels.close();
      await agents.stopAll();
      await store.close();
      cleanup();
    },
  };
}

test("the first turn makes the agent's worktree on its branch beside the repository; its session, writes and commands act there, never in the user's folder", async () => {
  const s = await setup((tree, repo) => [
    { reportSession: true },
    { chunk: "\n" },
    { writeFile: { path: path.join(tree, "agent.txt"), content: "from the agent\n" } },
    { chunk: "\n" },
    { writeFile: { path: path.join(repo, "README.md"), content: "trampled\n" } },
    { chunk: "\n" },
    { terminal: { command: "git", args: ["branch", "--show-current"] } },
  ]);
  try {
    assert.equal(existsSync(s.tree), false, "nothing is made before the first turn");
    const said = textOf(await s.answer()).split("\n");
    assert.equal(JSON.parse(said[0]!).cwd, s.tree, "the session cwd is the worktree");
    assert.equal(readFileSync(path.join(s.tree, "agent.txt"), "utf8"), "from the agent\n", "the write landed in the worktree");
    assert.equal(existsSync(path.join(s.repo, "agent.txt")), false, "not in the user's folder");
    assert.match(said[2]!, /outside/i, "a write to the user's folder is refused");
    assert.equal(readFileSync(path.join(s.repo, "README.md"), "utf8"), "hello\n", "the user's file is untouched");
    assert.match(said[3]!, /sidekicks\/a/, "the agent's terminal runs in the worktree, on its branch");
    assert.equal(git(s.tree, "branch", "--show-current"), "sidekicks/a");
    assert.equal(git(s.repo, "branch", "--show-current"), "main", "the user's checkout is unchanged");
    const summary = s.agents().summaries()[0]!;
    assert.equal(summary.workspace, s.tree, "the Agents view and Open as folder name the worktree");
    assert.equal(summary.worktree?.branch, "sidekicks/a");
  } finally {
    await s.teardown();
  }
});

test("after a reload the agent finds its worktree again, with its work, and the Agents view counts it against the base", async () => {
  const s = await setup((tree) => [{ writeFile: { path: path.join(tree, "notes.txt"), content: "kept\n" } }]);
  try {
    await s.answer();
    git(s.tree, "add", ".");
    git(s.tree, "commit", "-q", "-m", "agent work");
    writeFileSync(path.join(s.repo, "base.txt"), "moved on\n");
    git(s.repo, "add", ".");
    git(s.repo, "commit", "-q", "-m", "base moves");
    writeFileSync(path.join(s.tree, "draft.txt"), "uncommitted\n");
    await s.reload();
    const status = await s.agents().worktreeStatus("a");
    assert.equal(status?.path, s.tree);
    assert.deepEqual([status?.ahead, status?.behind, status?.uncommitted], [1, 1, ["draft.txt"]], "one ahead, one behind main, one uncommitted file");
    assert.deepEqual(s.agents().summaries()[0]!.worktree, { path: s.tree, branch: "sidekicks/a", base: "main", ahead: 1, behind: 1, uncommitted: 1 });
    const again = await s.agents().ensureWorktree("a");
    assert.equal(again?.created, false, "reused, not made again");
    assert.equal(readFileSync(path.join(s.tree, "draft.txt"), "utf8"), "uncommitted\n", "the uncommitted work is still there");
  } finally {
    await s.teardown();
  }
});

test("removing a worktree with uncommitted work asks first (nothing removed); confirmed, it goes and its branch stays", async () => {
  const s = await setup((tree) => [{ writeFile: { path: path.join(tree, "wip.txt"), content: "work in progress\n" } }]);
  try {
    await s.answer();
    await assert.rejects(s.agents().removeWorktree("a"), (e: Error & { code?: string; detail?: string }) => e.code === "worktree/dirty" && /1 uncommitted/.test(e.message) && e.detail === "wip.txt");
    assert.equal(readFileSync(path.join(s.tree, "wip.txt"), "utf8"), "work in progress\n", "nothing deleted without asking");
    const removed = await s.agents().removeWorktree("a", true);
    assert.deepEqual(removed, { path: s.tree, branch: "sidekicks/a" });
    assert.equal(existsSync(s.tree), false);
    assert.equal(git(s.repo, "branch", "--list", "sidekicks/a"), "sidekicks/a", "the branch is kept");
    assert.equal(s.agents().state("a"), "stopped", "the agent was stopped first");
  } finally {
    await s.teardown();
  }
});

test("a clean worktree is removed without a question; the next turn makes it again on the kept branch", async () => {
  const s = await setup((tree) => [{ writeFile: { path: path.join(tree, "x.txt"), content: "x\n" } }]);
  try {
    await s.answer();
    git(s.tree, "add", ".");
    git(s.tree, "commit", "-q", "-m", "x");
    assert.deepEqual(await s.agents().removeWorktree("a"), { path: s.tree, branch: "sidekicks/a" });
    assert.equal(existsSync(s.tree), false);
    await s.answer();
    assert.equal(readFileSync(path.join(s.tree, "x.txt"), "utf8"), "x\n", "the branch's commit is back in the new worktree");
  } finally {
    await s.teardown();
  }
});
