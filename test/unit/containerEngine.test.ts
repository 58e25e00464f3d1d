/**
 * The container runtime against a real Docker engine (`scripts/container-engine.sh` sets one up; without it these
 * tests skip, saying why): the fake ACP agent runs inside a real container through `docker exec -i`, its node being
 * the image's and its script read through a read-only bind mount of this checkout at the same path.
 * - Issue 19: files the agent changes inside the container's bind mount, by its own hand and through a terminal run
 *   in the container, are in the turn's checkpoint with their text before and after, and Undo puts them back (seen
 *   from inside the container).
 * - Issue 20: an agent with a git worktree and a container runtime works in its worktree when the worktree root is
 *   under one of the container's bind mounts: the agent's session and commands are in the worktree's container folder,
 *   its changes land on its branch's folder and not in the user's checkout.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import test, { type TestContext } from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels } from "../../src/app/compose";
import type { AgentConfig, WorktreeConfig } from "../../src/config/roster";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { textOf } from "./channelHarness";
import { git, makeRepo } from "./gitRepos";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";
import { dockerTestImage, runTestContainer } from "./realDocker";

/** This checkout: the fake agent and its node_modules, mounted read-only at the same path in the container. */
const CHECKOUT = path.resolve(__dirname, "../..");

/** Output of `docker exec <container> sh -c <script>`. */
function inContainer(container: string, script: string): string {
  return execFileSync("docker", ["exec", container, "sh", "-c", script], { encoding: "utf8", timeout: 30_000 });
}

/**
 * A channel with one agent, `boxed`, running the fake agent's `steps` in a real container that mounts `mounts`
 * (`host:container`) besides the checkout; `project` is the editor's workspace folder.
 */
async function setup(t: TestContext, o: { project: string; dir: string; mounts: string[]; steps: object[]; worktree?: WorktreeConfig; workdir?: string }) {
  const { image, why } = dockerTestImage();
  if (why) {
    t.skip(why);
    return undefined;
  }
  const box = runTestContainer(image, [...o.mounts, `${CHECKOUT}:${CHECKOUT}:ro`]);
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: o.project, nodePath: process.execPath, demoAgentPath: "", env: process.env }, workspace: {} });
  const agent: AgentConfig = {
    name: "boxed",
    command: "node",
    args: [FAKE_AGENT],
    env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: o.steps }) },
    runtime: { type: "container", container: box.name, ...(o.workdir ? { workdir: o.workdir } : {}) },
    ...(o.worktree ? { worktree: o.worktree } : {}),
  } as AgentConfig;
  agents.setRoster([agent]);
  const store = await Store.open(path.join(o.dir, "store"));
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(["boxed"]);
  return {
    box,
    agents,
    channels,
    /**
     * Sends "@boxed go" and waits for the answer. With `go` (a host path), once the agent has begun (its first chunk)
     * and the turn's start-of-turn snapshot is done, writes "go" there, for a step `untilFile` that holds the agent's
     * file changes back: in git the prompt does not wait for the snapshot, and a change made before it is done has
     * no earlier text ("late"), as a loaded machine showed.
     */
    answer: async (go?: string): Promise<MessageView> => {
      await channels.messages.send(general.id, "@boxed go");
      if (go) {
        await waitFor(() => events.of("message/delta").find((d) => d.appendText !== undefined), 30_000, "the agent at work");
        const [turn] = await store.openTurns();
        const turnFiles = (channels.files as unknown as { ports: { files: { snapshotted(turnId: string): Promise<void> } } }).ports.files;
        await turnFiles.snapshotted(turn!.id);
        writeFileSync(go, "go");
      }
      return waitFor(() => events.of("message/finished").find((m) => m.author.kind === "agent"), 30_000, "the answer");
    },
    /** The answer's "files changed" card, as shown once the turn's checkpoint is kept (after the answer settles). */
    filesShown: (id: string) =>
      waitFor(() => events.of("message/finished").filter((m) => m.id === id).map((m) => m.parts.find((p) => p.type === "files")).find(Boolean), 15_000, "the files part"),
    async teardown() {
      await channels.close();
      await store.close();
      await agents.stopAll();
      box.remove();
    },
  };
}

test("issue 19: files a container agent changes in its bind mount are in the turn's checkpoint, before and after, and Undo puts them back", async (t) => {
  const { dir, cleanup } = tempDir("sidekicks-engine-");
  const project = path.join(realpathSync(dir), "project");
  mkdirSync(project);
  writeFileSync(path.join(project, "notes.md"), "one\n");
  writeFileSync(path.join(project, "old.txt"), "old\n");
  const s = await setup(t, {
    project,
    dir,
    mounts: [`${project}:/workspace`],
    workdir: "/workspace",
    steps: [
      { appendFile: { path: "/workspace/notes.md", text: "two\n" } },
      { terminal: { command: "sh", args: ["-c", "printf 'made in the container\\n' > new.txt && rm old.txt && pwd"], cwd: "/workspace" } },
    ],
  });
  if (!s) return cleanup();
  try {
    const answer = await s.answer();
    assert.equal(answer.outcome, "completed", answer.error?.message);
    assert.match(textOf(answer), /terminal: \{"exitCode":0.*\/workspace/, "the terminal ran inside the container, in /workspace");
    const card = await s.filesShown(answer.id);
    assert.ok(card?.type === "files");
    assert.deepEqual(card.files.map((f) => path.basename(f.path)).sort(), ["new.txt", "notes.md", "old.txt"], "the answer's card lists them");
    const { files } = await s.channels.restore.checkpoint(answer.id);
    assert.deepEqual(
      files.map((f) => [path.relative(project, f.path), f.kind, f.before, f.after]),
      [
        ["new.txt", "created", null, "made in the container\n"],
        ["notes.md", "modified", "one\n", "one\ntwo\n"],
        ["old.txt", "deleted", "old\n", null],
      ],
    );
    const undone = await s.channels.restore.restore(answer.id, "undo", undefined);
    assert.equal(undone.done.length, 3, `undo wrote every file (skipped: ${undone.skipped.join(", ")})`);
    assert.equal(inContainer(s.box.name, "cat /workspace/notes.md /workspace/old.txt; test -e /workspace/new.txt || echo no new.txt"), "one\nold\nno new.txt\n");
  } finally {
    await s.teardown();
    cleanup();
  }
});

test("issue 20: a container agent with a git worktree under the container's mount works in its worktree, on its branch, never in the user's checkout", async (t) => {
  const { dir: made, cleanup } = tempDir("sidekicks-engine-");
  const dir = realpathSync(made);
  const repo = makeRepo(dir);
  const tree = path.join(dir, "trees", "boxed");
  const s = await setup(t, {
    project: repo,
    dir,
    mounts: [`${dir}:/src`],
    worktree: { branch: "sidekicks/boxed", root: path.join(dir, "trees") },
    steps: [
      { reportSession: true },
      { chunk: "\n" },
      { untilFile: { path: "/src/go", includes: "go" } },
      { appendFile: { path: "/src/trees/boxed/README.md", text: "from the box\n" } },
      { terminal: { command: "sh", args: ["-c", "printf 'made\\n' > made.txt && pwd"] } },
    ],
  });
  if (!s) return cleanup();
  try {
    const answer = await s.answer(path.join(dir, "go"));
    assert.equal(answer.outcome, "completed", answer.error?.message);
    const said = textOf(answer).split("\n");
    assert.equal(JSON.parse(said[0]!).cwd, "/src/trees/boxed", "the session is in the worktree, as the container names it");
    assert.match(said[1]!, /terminal: \{"exitCode":0.*"output":"\/src\/trees\/boxed\\r?\\n"/, "a terminal starts in the worktree inside the container");
    assert.equal(readFileSync(path.join(tree, "README.md"), "utf8"), "hello\nfrom the box\n");
    assert.equal(readFileSync(path.join(tree, "made.txt"), "utf8"), "made\n");
    assert.equal(git(tree, "branch", "--show-current"), "sidekicks/boxed");
    assert.equal(readFileSync(path.join(repo, "README.md"), "utf8"), "hello\n", "the user's checkout is untouched");
    assert.equal(existsSync(path.join(repo, "made.txt")), false);
    const card = await s.filesShown(answer.id);
    assert.ok(card?.type === "files");
    assert.deepEqual(card.files.map((f) => path.basename(f.path)).sort(), ["README.md", "made.txt"], "the answer's card lists them");
    const { files } = await s.channels.restore.checkpoint(answer.id);
    assert.deepEqual(
      files.map((f) => [path.relative(tree, f.path), f.kind, f.before, f.after]),
      [
        ["README.md", "modified", "hello\n", "hello\nfrom the box\n"],
        ["made.txt", "created", null, "made\n"],
      ],
    );
  } finally {
    await s.teardown();
    cleanup();
  }
});

test("issue 20: a worktree root a real container does not mount fails the start, naming the folder, before any worktree is made", async (t) => {
  const { dir: made, cleanup } = tempDir("sidekicks-engine-");
  const dir = realpathSync(made);
  const repo = makeRepo(dir);
  const s = await setup(t, { project: repo, dir, mounts: [`${repo}:/workspace`], worktree: { branch: "sidekicks/boxed" }, steps: [{ chunk: "never" }] });
  if (!s) return cleanup();
  try {
    const answer = await s.answer();
    assert.equal(answer.outcome, "failed");
    const root = path.join(dir, ".sidekicks-worktrees", "repo");
    assert.ok(answer.error!.message.includes(`does not mount its git worktree ${path.join(root, "boxed")} (`), answer.error!.message);
    assert.ok(answer.error!.message.includes(`${repo} → /workspace`), "the sentence lists the container's mounts");
    assert.ok(answer.error!.message.includes(`docker run -v "${root}:${root}"`), answer.error!.message);
    assert.equal(existsSync(root), false, "no worktree folder was made");
    assert.equal(git(repo, "branch", "--list", "sidekicks/boxed"), "", "no branch was made");
  } finally {
    await s.teardown();
    cleanup();
  }
});
