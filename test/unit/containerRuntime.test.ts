/**
 * The container runtime end to end, with a stand-in `docker` (test/fixtures/docker/docker), so it runs where no Docker
 * engine does: the agent starts through `docker exec -i` with only the roster's variables inside, its
 * session `cwd` is the container folder, its file paths are container paths mapped to the host through the bind mount
 * (and confined to it), its commands run through `docker exec -i -t`; a stopped or unknown container, or no docker at
 * all, says so. The real-container tests are in workspaceContainer.test.ts and containerEngine.test.ts (they run
 * where `docker info` succeeds and the test image is built: `scripts/container-engine.sh`, run by `.ci/run`).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import type { AgentConfig } from "../../src/config/roster";
import { composeChannels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { textOf } from "./channelHarness";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

const DOCKER_DIR = path.resolve(__dirname, "../fixtures/docker");

async function setup(steps: object[], options: { container?: string; stopped?: boolean; noDocker?: boolean } = {}) {
  const { dir, cleanup } = tempDir();
  const mount = path.join(dir, "project");
  mkdirSync(mount);
  const log = path.join(dir, "docker.log");
  const env = {
    ...process.env,
    PATH: options.noDocker ? "/nonexistent" : `${DOCKER_DIR}${path.delimiter}${process.env.PATH}`,
    FAKE_DOCKER_CONTAINER: "devbox",
    FAKE_DOCKER_MOUNT: mount,
    FAKE_DOCKER_LOG: log,
    ...(options.stopped ? { FAKE_DOCKER_STOPPED: "1" } : {}),
    SECRET_OF_THE_EDITOR: "not for the container",
  };
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: mount, nodePath: process.execPath, demoAgentPath: "", env }, workspace: {} });
  const agent: AgentConfig = {
    name: "boxed",
    command: process.execPath,
    args: [FAKE_AGENT],
    env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) },
    runtime: { type: "container", container: options.container ?? "devbox", workdir: "/workspace" },
  } as AgentConfig;
  agents.setRoster([agent]);
  const store = await Store.open(path.join(dir, "store"));
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(["boxed"]);
  const answer = async (): Promise<MessageView> => {
    await channels.messages.send(general.id, "@boxed go");
    return waitFor(() => events.of("message/finished").find((m) => m.author.kind === "agent"), 15_000, "the answer");
  };
  return {
    dir, mount, answer,
    calls: () => readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[]),
    async teardown() {
      await channels.close();
      await store.close();
      await agents.stopAll();
      cleanup();
    },
  };
}

test("a container agent starts with docker exec -i, only the roster's variables inside, and its session in the container folder", async () => {
  const s = await setup([{ reportSession: true }, { chunk: "\n" }, { terminal: { command: "node", args: ["-e", "process.stdout.write(String(process.env.SECRET_OF_THE_EDITOR) + ' ' + process.cwd())"] } }]);
  try {
    const said = textOf(await s.answer()).split("\n");
    assert.equal(JSON.parse(said[0]!).cwd, "/workspace", "session/new cwd is the container path");
    const exec = s.calls().find((c) => c[0] === "exec" && c.includes(process.execPath))!;
    assert.deepEqual(exec.slice(0, 2), ["exec", "-i"]);
    assert.ok(exec.includes("--workdir=/workspace"), "the session folder is the container's /workspace (one argument: it cannot read as an option)");
    assert.ok(exec.includes("--env=FAKE_AGENT_SCRIPT") && !exec.some((a) => a.includes("SECRET_OF_THE_EDITOR")), "the roster's variable goes in by name (its value stays out of ps); the editor's do not go in");
    const terminal = s.calls().find((c) => c[0] === "exec" && c.includes("-t"))!;
    assert.ok(terminal, "the command ran through docker exec -i -t");
    assert.match(said[1]!, /"exitCode":0/);
    assert.match(said[1]!, new RegExp(`"output":"undefined ${s.mount.replace(/[/\\]/g, ".")}"`), "inside: no editor variables, in the mounted folder");
  } finally {
    await s.teardown();
  }
});

test("a container agent's file paths are container paths, mapped through the bind mount and confined to it", async () => {
  const s = await setup([
    { readFile: { path: "/workspace/notes.md" } },
    { chunk: "\n" },
    { writeFile: { path: "/workspace/out/result.txt", content: "from the container\n" } },
    { chunk: "\n" },
    { readFile: { path: "/etc/passwd" } },
    { chunk: "\n" },
    { readFile: { path: "/workspace/../etc/passwd" } },
  ]);
  try {
    writeFileSync(path.join(s.mount, "notes.md"), "host notes\n");
    const said = textOf(await s.answer()).split("\n");
    assert.deepEqual(JSON.parse(said[0]!.slice("read: ".length)), { content: "host notes\n" });
    assert.equal(readFileSync(path.join(s.mount, "out", "result.txt"), "utf8"), "from the container\n");
    for (const refused of [said[2]!, said[3]!]) assert.match(JSON.parse(refused.slice("read: ".length)).error, /not inside a folder mounted from this machine \(.*project → \/workspace\)/);
  } finally {
    await s.teardown();
  }
});

for (const [what, options, pattern] of [
  ["a stopped container", { stopped: true }, /Container "devbox" of agent "boxed" is not running\. Start it \(docker start devbox\)/],
  ["an unknown container", { container: "nobox" }, /runs in container "nobox", which docker cannot find: Error: No such container: nobox/],
  ["no docker at all", { noDocker: true }, /the docker command was not found\. Install Docker/],
] as const) {
  test(`${what}: the answer says what to do`, async () => {
    const s = await setup([{ chunk: "never" }], options);
    try {
      const answer = await s.answer();
      assert.equal(answer.outcome, "failed");
      assert.match(answer.error!.message, pattern);
    } finally {
      await s.teardown();
    }
  });
}
