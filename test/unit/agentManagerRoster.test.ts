/**
 * Agent manager, roster changes and refusals with scripted fake agents (real subprocesses): new agents appear
 * stopped, removed ones stop after their turn, changed ones restart when idle, unchanged ones keep their process;
 * sbx (and the demo agent in a container) is refused; "authentication required" carries the agent's auth methods.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { AuthRequiredError } from "../../src/acp/auth";
import type { AuthRequired } from "../../src/acp/types";
import { SidekicksError } from "../../src/shared/errors";
import { fakeAgent, gone, harness, textSink } from "./agentManagerHarness";
import { tempDir } from "./helpers";

const busyScript = { prompt: [{ chunk: "working" }, { untilCancelled: true }] };

test("a roster change: new agents appear stopped, unchanged keep their process, removed and changed wait for the turn", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  const keep = fakeAgent("keep");
  const gone1 = fakeAgent("leaving", busyScript);
  const changing = fakeAgent("changing", busyScript);
  manager.setRoster([keep, gone1, changing]);
  await manager.start("keep");
  const leaving = await manager.session("leaving", "ch", textSink());
  const change = await manager.session("changing", "ch", textSink());
  const leavingTurn = leaving.prompt("job");
  const changingTurn = change.prompt("job");
  const pids = { keep: manager.processId("keep")!, leaving: manager.processId("leaving")!, changing: manager.processId("changing")! };

  manager.setRoster([{ ...keep }, { ...changing, env: { ...changing.env, MODEL: "bigger" } }, fakeAgent("newcomer")]);
  assert.deepEqual(manager.names(), ["keep", "changing", "newcomer"]);
  assert.equal(manager.state("newcomer"), "stopped");
  assert.equal(events.states("newcomer").at(-1), "stopped", "the newcomer was announced");
  assert.equal(manager.processId("keep"), pids.keep, "unchanged: same process");
  assert.equal(manager.processId("leaving"), pids.leaving, "removed: still finishing its turn");
  assert.equal(manager.processId("changing"), pids.changing, "changed: not restarted mid-turn");
  assert.deepEqual(
    manager.summaries().map((s) => [s.name, s.state, s.pending]),
    [["keep", "ready", undefined], ["changing", "busy", "restart"], ["newcomer", "stopped", undefined], ["leaving", "busy", "remove"]],
  );
  await assert.rejects(manager.session("leaving", "other", textSink()), /No agent named "leaving"/);

  await leaving.cancel();
  assert.equal(await leavingTurn, "cancelled", "the removed agent's turn ran to its end");
  await events.waitForState("leaving", "stopped", 2);
  assert.ok(await gone(pids.leaving));
  assert.ok(!manager.summaries().some((s) => s.name === "leaving"));

  await change.cancel();
  assert.equal(await changingTurn, "cancelled");
  await events.waitForState("changing", "ready", 3); // ready after start, after the turn, after the restart
  assert.notEqual(manager.processId("changing"), pids.changing, "changed: restarted at its idle moment");
  assert.ok(await gone(pids.changing));
  assert.equal(manager.processId("keep"), pids.keep);
  assert.ok(events.logs("changing").some((l) => l.includes("definition changed in sidekicks.yaml: restarts at its next idle moment")));
});

test("an idle agent whose definition changed restarts at once; keys that do not affect the process do not restart it", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  const agent = fakeAgent("garfield");
  manager.setRoster([agent]);
  await manager.start("garfield");
  const pid = manager.processId("garfield")!;
  manager.setRoster([{ ...agent, title: "Garfield the cat", permissions: "allow-reads" }]);
  assert.equal(manager.processId("garfield"), pid);
  manager.setRoster([{ ...agent, args: [...agent.args, "--verbose"] }]);
  await events.waitForState("garfield", "ready", 2);
  assert.notEqual(manager.processId("garfield"), pid);
});

test("an agent in error whose definition is fixed becomes stopped and starts without waiting for a backoff", async (t) => {
  const { manager } = harness();
  t.after(() => manager.stopAll());
  const broken = { ...fakeAgent("fixme"), command: "no-such-acp-agent-xyz" };
  manager.setRoster([broken]);
  for (let i = 0; i < 2; i++) await assert.rejects(manager.session("fixme", "ch", textSink()), /command not found/);
  await assert.rejects(manager.session("fixme", "ch", textSink()), (err: SidekicksError) => err.code === "agent/backoff");
  assert.equal(manager.state("fixme"), "error");
  manager.setRoster([fakeAgent("fixme", { prompt: [{ echo: true }] })]);
  assert.equal(manager.state("fixme"), "stopped");
  const sink = textSink();
  await (await manager.session("fixme", "ch", sink)).prompt("fixed");
  assert.equal(sink.text(), "You said: fixed");
});

test("runtime sbx is refused at start with agent/unsupported; so is the demo agent in a container", async (t) => {
  const { manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([
    { ...fakeAgent("sandboxed"), runtime: { type: "sbx" } },
    { ...fakeAgent("boxed"), command: "sidekicks:demo", runtime: { type: "container", container: "dev" } },
  ]);
  await assert.rejects(manager.session("sandboxed", "ch", textSink()), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/unsupported");
    assert.match(err.message, /runtime "sbx", which Sidekicks does not support/);
    return true;
  });
  assert.equal(manager.state("sandboxed"), "error");
  assert.equal(manager.processId("sandboxed"), undefined);
  await assert.rejects(manager.start("boxed"), /is the demo agent \(sidekicks:demo\), which runs in VS Code, not in a container/);
});

test("authentication required: the error and the listener carry the agent's auth methods; sign-in then works", async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const { manager } = harness();
  t.after(() => manager.stopAll());
  const authFile = path.join(dir, "signed-in");
  manager.setRoster([
    fakeAgent("claude", {
      authRequired: true,
      authFile,
      prompt: [{ echo: true }],
      authMethods: [
        { id: "claude-login", name: "Log in with Claude", type: "terminal", args: ["--login"], env: { CLAUDE_LOGIN: "1" } },
        { id: "api-key", name: "Anthropic API key", type: "env_var", vars: [{ name: "ANTHROPIC_API_KEY" }], link: "https://console.anthropic.com" },
        { id: "codex-api-key", name: "Use CODEX_API_KEY", description: "Requires setting the `CODEX_API_KEY` environment variable." },
        { id: "oauth", name: "Sign in with a browser" },
      ],
    }),
  ]);
  const seen: AuthRequired[] = [];
  manager.onAuthRequired((auth) => seen.push(auth));

  await assert.rejects(manager.session("claude", "ch", textSink()), (err: unknown) => {
    assert.ok(err instanceof AuthRequiredError);
    assert.equal(err.code, "agent/request");
    assert.match(err.message, /needs you to sign in first/);
    assert.deepEqual(err.auth.methods, [
      { kind: "terminal", id: "claude-login", name: "Log in with Claude", description: undefined, args: ["--login"], env: { CLAUDE_LOGIN: "1" } },
      { kind: "envVar", id: "api-key", name: "Anthropic API key", description: undefined, vars: ["ANTHROPIC_API_KEY"], link: "https://console.anthropic.com" },
      { kind: "envVar", id: "codex-api-key", name: "Use CODEX_API_KEY", description: "Requires setting the `CODEX_API_KEY` environment variable.", vars: ["CODEX_API_KEY"] },
      { kind: "agent", id: "oauth", name: "Sign in with a browser", description: undefined },
    ]);
    assert.equal(err.auth.launch.command, process.execPath, "a terminal login runs the agent's own command");
    return true;
  });
  assert.equal(seen.length, 1);
  assert.equal(seen[0]?.agent, "claude");
  assert.equal(manager.state("claude"), "ready", "the process is fine; only the session was refused");

  await assert.rejects(manager.probeSession("claude"), AuthRequiredError);
  await manager.authenticate("claude", "oauth"); // ACP authenticate: the fake agent "signs in"
  assert.ok(existsSync(authFile));
  await manager.probeSession("claude");
  const sink = textSink();
  await (await manager.session("claude", "ch", sink)).prompt("hi");
  assert.equal(sink.text(), "You said: hi");
});

test("an untrusted workspace starts nothing", async (t) => {
  const { manager } = harness({}, { canStart: () => new SidekicksError("agent/untrusted", "not trusted") });
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("a")]);
  await assert.rejects(manager.session("a", "ch", textSink()), (err: SidekicksError) => err.code === "agent/untrusted");
  assert.equal(manager.state("a"), "stopped");
});

test("a session opens in the agent's workspace with the agent's MCP servers (ACP session/new)", async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const { manager } = harness();
  t.after(() => manager.stopAll());
  const mcpServers = [
    { name: "files", command: "/usr/bin/mcp-files", args: ["--root", dir], env: [{ name: "LOG", value: "debug" }] },
    { type: "http" as const, name: "docs", url: "http://localhost:9000/mcp", headers: [] },
  ];
  manager.setRoster([{ ...fakeAgent("mcp", { prompt: [{ reportSession: true }] }), workspace: dir, mcpServers }]);
  const sink = textSink();
  await (await manager.session("mcp", "ch", sink)).prompt("which session?");
  assert.deepEqual(JSON.parse(sink.text()), { cwd: dir, mcpServers });
});
