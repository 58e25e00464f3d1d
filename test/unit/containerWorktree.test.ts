/**
 * A git worktree per agent with the container runtime (issue 20), with the stand-in `docker`
 * (test/fixtures/docker/docker: one container mounting a host folder at /workspace) and real git: a running container
 * cannot gain mounts, so the agent works in its worktree when the worktree root lies under one of the container's bind
 * mounts — its session, terminals and files in the worktree's container folder, its files confined to the worktree —
 * and otherwise its start fails before any worktree is made, naming the folder to mount. The same with a real
 * engine: containerEngine.test.ts.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
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

const DOCKER_DIR = path.resolve(__dirname, "../fixtures/docker");

/** `dir/repo` (one commit) in a container that mounts `mounted(dir, repo)` at /workspace; the agent `boxed` has `worktree`. */
async function setup(steps: object[], worktree: (dir: string) => WorktreeConfig, mounted: (dir: string, repo: string) => string, workdir?: string) {
  const t = tempDir();
  const dir = realpathSync(t.dir);
  const repo = makeRepo(dir);
  const env = { ...process.env, PATH: `${DOCKER_DIR}${path.delimiter}${process.env.PATH}`, FAKE_DOCKER_CONTAINER: "devbox", FAKE_DOCKER_MOUNT: mounted(dir, repo) };
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: repo, nodePath: process.execPath, demoAgentPath: "", env }, workspace: {} });
  const agent: AgentConfig = {
    name: "boxed",
    command: process.execPath,
    args: [FAKE_AGENT],
    env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) },
    runtime: { type: "container", container: "devbox", ...(workdir ? { workdir } : {}) },
    worktree: worktree(dir),
  } as AgentConfig;
  agents.setRoster([agent]);
  const store = await Store.open(path.join(dir, "store"));
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(["boxed"]);
  return {
    dir,
    repo,
    agents,
    answer: async (): Promise<MessageView> => {
      const before = events.of("message/finished").length;
      await channels.messages.send(general.id, "@boxed go");
      return waitFor(() => events.of("message/finished").slice(before).find((m) => m.author.kind === "agent"), 15_000, "the answer");
    },
    async teardown() {
      await channels.close();
      await store.close();
      await agents.stopAll();
      t.cleanup();
    },
  };
}

test("a worktree root under the container's mount: the agent's session, terminals and files are in its worktree, as the container names it", async () => {
  const s = await setup(
    [
      { reportSession: true },
      { chunk: "\n" },
      { writeFile: { path: "/workspace/trees/boxed/out.txt", content: "on the agent's branch\n" } },
      { chunk: "\n" },
      { writeFile: { path: "/workspace/repo/README.md", content: "not the user's file\n" } },
      { chunk: "\n" },
      { terminal: { command: "node", args: ["-e", "process.stdout.write(process.cwd())"] } },
    ],
    (dir) => ({ branch: "sidekicks/boxed", root: path.join(dir, "trees") }),
    (dir) => dir,
  );
  try {
    const answer = await s.answer();
    assert.equal(answer.outcome, "completed", answer.error?.message);
    const said = textOf(answer).split("\n");
    const tree = path.join(s.dir, "trees", "boxed");
    assert.equal(JSON.parse(said[0]!).cwd, "/workspace/trees/boxed", "session/new cwd is the worktree's folder in the container");
    assert.equal(readFileSync(path.join(tree, "out.txt"), "utf8"), "on the agent's branch\n");
    assert.equal(git(tree, "branch", "--show-current"), "sidekicks/boxed");
    assert.match(said[2]!, /Refused .*README\.md.*: it is outside the agent's workspace .*trees.boxed\./, "the user's checkout, mounted too, is outside the agent's worktree");
    assert.equal(readFileSync(path.join(s.repo, "README.md"), "utf8"), "hello\n");
    assert.match(said[3]!, new RegExp(`"output":"${tree.replace(/[/\\]/g, ".")}"`), "a terminal starts in the worktree (its host folder, for the stand-in docker)");
    // Started again (the worktree is found, checked and reused): the same place.
    await s.agents.stopAll();
    const again = await s.answer();
    assert.equal(again.outcome, "completed", again.error?.message);
    assert.equal(JSON.parse(textOf(again).split("\n")[0]!).cwd, "/workspace/trees/boxed");
  } finally {
    await s.teardown();
  }
});

test("a worktree root the container does not mount: the start fails naming the folder to mount, and no worktree is made", async () => {
  const s = await setup(
    [{ chunk: "never" }],
    () => ({ branch: "sidekicks/boxed" }),
    (_dir, repo) => repo,
  );
  try {
    const answer = await s.answer();
    assert.equal(answer.outcome, "failed");
    const root = path.join(s.dir, ".sidekicks-worktrees", "repo");
    assert.equal(
      answer.error!.message,
      `Agent "boxed" runs in container "devbox", which does not mount its git worktree ${path.join(root, "boxed")} (${s.repo} → /workspace). A running container cannot gain mounts: create it again with the worktree root mounted at the same path (docker run -v "${root}:${root}" …), or set worktree.root in sidekicks.yaml to a folder under one of its mounts.`,
    );
    assert.equal(existsSync(root), false, "no worktree folder was made");
    assert.equal(git(s.repo, "worktree", "list").split("\n").length, 1, "git lists only the user's checkout");
    assert.equal(git(s.repo, "branch", "--list", "sidekicks/boxed"), "", "no branch was made");
  } finally {
    await s.teardown();
  }
});

test("a worktree beside runtime.workdir: the start fails saying to remove one, rather than replace the folder the user chose", async () => {
  const s = await setup([{ chunk: "never" }], (dir) => ({ branch: "sidekicks/boxed", root: path.join(dir, "trees") }), (dir) => dir, "/workspace");
  try {
    const answer = await s.answer();
    assert.equal(answer.outcome, "failed");
    assert.equal(
      answer.error!.message,
      `Agent "boxed" has a git worktree and runtime.workdir (/workspace): with a worktree it works in the worktree's folder, as the container names it. Remove runtime.workdir from sidekicks.yaml, or the worktree.`,
    );
    assert.equal(existsSync(path.join(s.dir, "trees")), false, "no worktree folder was made");
    assert.equal(git(s.repo, "branch", "--list", "sidekicks/boxed"), "", "no branch was made");
  } finally {
    await s.teardown();
  }
});
