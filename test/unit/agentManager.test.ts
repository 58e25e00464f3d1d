/**
 * Agent manager with scripted fake agents (real subprocesses) and a manual clock: lazy start, LRU eviction,
 * refusal when every running agent is busy, idle stop, crash → error → restart with backoff, no orphan after stop.
 */
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { SidekicksError } from "../../src/shared/errors";
import { exists, fakeAgent, gone, harness, textSink } from "./agentManagerHarness";

const busyScript = { prompt: [{ chunk: "working" }, { untilCancelled: true }] };

test("an agent starts on first use, not before, and goes stopped → starting → ready → busy → ready", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("garfield", { prompt: [{ echo: true }] })]);
  assert.equal(manager.state("garfield"), "stopped");
  assert.equal(manager.processId("garfield"), undefined, "no process before first use");

  const sink = textSink();
  const session = await manager.session("garfield", "channel-1", sink);
  assert.equal(await session.prompt("Il pleut"), "end_turn");
  assert.equal(sink.text(), "You said: Il pleut");
  assert.deepEqual(events.states("garfield"), ["stopped", "starting", "ready", "busy", "ready"]);
  assert.ok(exists(manager.processId("garfield")!));
  assert.ok(events.logs("garfield").some((l) => /started: pid \d+/.test(l)));
});

test("starting one agent too many stops the least recently used idle agent, not the others", async (t) => {
  const { events, clock, manager } = harness({ maxRunningAgents: 2 });
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("a"), fakeAgent("b"), fakeAgent("c")]);
  await (await manager.session("a", "ch", textSink())).prompt("1");
  clock.advance(1_000);
  await (await manager.session("b", "ch", textSink())).prompt("2");
  clock.advance(1_000);
  await (await manager.session("a", "ch", textSink())).prompt("3"); // a is now more recent than b
  const [pidA, pidB] = [manager.processId("a")!, manager.processId("b")!];
  clock.advance(1_000);

  await (await manager.session("c", "ch", textSink())).prompt("4");
  assert.equal(manager.state("b"), "stopped", "b was the least recently used idle agent");
  assert.equal(manager.state("a"), "ready");
  assert.equal(manager.processId("a"), pidA, "a kept its process");
  assert.equal(manager.state("c"), "ready");
  assert.ok(await gone(pidB), "b's process is gone");
  assert.ok(events.logs("b").some((l) => l.includes('to make room for "c" (limits.maxRunningAgents is 2)')), events.logs("b").join("\n"));
});

test("when every running agent is busy, one more is refused with agent/limit naming them; it starts once one is idle", async (t) => {
  const { manager } = harness({ maxRunningAgents: 2 });
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("a", busyScript), fakeAgent("b", busyScript), fakeAgent("c")]);
  const a = await manager.session("a", "ch", textSink());
  const b = await manager.session("b", "ch", textSink());
  const turnA = a.prompt("long job");
  const turnB = b.prompt("long job");
  assert.equal(manager.state("a"), "busy");
  assert.equal(manager.state("b"), "busy");

  await assert.rejects(manager.session("c", "ch", textSink()), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/limit");
    assert.equal(err.message, "All 2 running agents are busy (a, b). Wait for one to finish, or raise limits.maxRunningAgents in sidekicks.yaml.");
    return true;
  });
  assert.equal(manager.state("c"), "stopped", "a refusal is not an error of c");
  assert.equal(manager.state("a"), "busy", "nobody was stopped");

  await a.cancel();
  assert.equal(await turnA, "cancelled");
  const sink = textSink();
  await (await manager.session("c", "ch", sink)).prompt("now");
  assert.equal(sink.text(), "You said: now");
  assert.equal(manager.state("a"), "stopped", "a, now idle, made room");
  assert.equal(manager.state("b"), "busy");
  await b.cancel();
  await turnB;
});

test("an agent idle for idleTimeoutMs stops; a busy one never does; its next use starts it again", async (t) => {
  const { events, clock, manager } = harness({ idleTimeoutMs: 60_000 });
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("idle", { prompt: [{ echo: true }] }), fakeAgent("busy", busyScript)]);
  const idle = await manager.session("idle", "ch", textSink());
  await idle.prompt("hello");
  const busy = await manager.session("busy", "ch", textSink());
  const turn = busy.prompt("long job");
  const pid = manager.processId("idle")!;

  clock.advance(59_999);
  assert.equal(manager.state("idle"), "ready");
  clock.advance(1);
  await events.waitForState("idle", "stopped", 2);
  assert.ok(await gone(pid));
  assert.ok(events.logs("idle").some((l) => l.includes("idle for 1 min")));

  clock.advance(3_600_000);
  assert.equal(manager.state("busy"), "busy", "a running prompt is never idle-stopped");

  // The channel's session survives the idle stop: its next prompt opens a new process and session.
  const sink = textSink();
  const again = await manager.session("idle", "ch", sink);
  assert.equal(await again.prompt("back"), "end_turn");
  assert.equal(sink.text(), "You said: back");
  assert.notEqual(manager.processId("idle"), pid);

  await busy.cancel();
  await turn;
  clock.advance(60_000);
  await events.waitForState("busy", "stopped", 2);
});

test("a session handle kept across an idle stop prompts on a fresh process", async (t) => {
  const { events, clock, manager } = harness({ idleTimeoutMs: 1_000 });
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("odie", { prompt: [{ echo: true }] })]);
  const sink = textSink();
  const session = await manager.session("odie", "ch", sink);
  clock.advance(1_000);
  await events.waitForState("odie", "stopped", 2);
  assert.equal(await session.prompt("still there?"), "end_turn");
  assert.equal(sink.text(), "You said: still there?");
});

test("lowering maxRunningAgents stops the least recently used idle agents beyond it", async (t) => {
  const { events, clock, manager } = harness({ maxRunningAgents: 3 });
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("a"), fakeAgent("b"), fakeAgent("c")]);
  for (const name of ["b", "a", "c"]) {
    await manager.start(name);
    clock.advance(1_000);
  }
  manager.setLimits({ maxRunningAgents: 1, idleTimeoutMs: 600_000 });
  await events.waitForState("b", "stopped", 2);
  await events.waitForState("a", "stopped", 2);
  assert.equal(manager.state("c"), "ready", "the most recently used stays");
  assert.throws(() => manager.setLimits({ maxRunningAgents: 0, idleTimeoutMs: 1 }), RangeError);
});

test("a crash puts the agent in error with its exit code and stderr; the next use restarts it, with backoff", async (t) => {
  const { clock, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("crashy", { prompt: [{ chunk: "Working on it" }, { stderr: "fatal: out of memory" }, { sleep: 20 }, { exit: 3 }] })]);
  const crash = async () => {
    const session = await manager.session("crashy", "ch", textSink());
    await assert.rejects(session.prompt("go"), (err: unknown) => err instanceof SidekicksError && err.code === "agent/exited");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(manager.state("crashy"), "error");
  };

  await crash();
  const [summary] = manager.summaries();
  assert.equal(summary?.error?.message, 'Agent "crashy" exited with code 3.');
  assert.match(summary?.error?.detail ?? "", /fatal: out of memory/);

  await crash(); // first crash: restarted at once (0 s backoff)
  // Second crash in a row: the next start waits 1 s, and says so instead of hanging.
  await assert.rejects(manager.session("crashy", "ch", textSink()), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/backoff");
    assert.match(err.message, /crashed or failed to start 2 times in a row, so Sidekicks waits 1 s before starting it again/);
    assert.match(err.detail ?? "", /exited with code 3/);
    return true;
  });
  clock.advance(1_000);
  await crash(); // third crash: 2 s
  clock.advance(1_999);
  await assert.rejects(manager.session("crashy", "ch", textSink()), /waits 1 s/);
  clock.advance(1);
  await crash(); // fourth: 4 s
  await assert.rejects(manager.session("crashy", "ch", textSink()), /4 times in a row, so Sidekicks waits 4 s/);

  // An explicit restart does not wait and clears the count.
  await manager.restart("crashy");
  assert.equal(manager.state("crashy"), "ready");
  await crash();
  await crash(); // counted from zero again: the first crash after the restart needed no wait
});

test("the backoff grows to at most 30 s and resets once a process stayed up 60 s", async (t) => {
  const { clock, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("flaky", { prompt: [{ exit: 1 }] })]);
  const crash = async () => {
    const session = await manager.session("flaky", "ch", textSink());
    await assert.rejects(session.prompt("go"));
    await new Promise((resolve) => setImmediate(resolve));
  };
  const waits: string[] = [];
  for (let i = 0; i < 8; i++) {
    await crash();
    const err = await manager.session("flaky", "ch", textSink()).then(
      () => undefined,
      (e: SidekicksError) => e,
    );
    waits.push(err ? /waits (\d+) s/.exec(err.message)![1]! : "0");
    clock.advance(30_000);
  }
  assert.deepEqual(waits, ["0", "1", "2", "4", "8", "16", "30", "30"]);
  // Up for a minute, then a crash: counted as a first crash again, so the next use needs no wait.
  await manager.session("flaky", "ch", textSink());
  clock.advance(60_000);
  await crash();
  await crash();
});

/** A started fake wrapper agent that spawned a child ignoring SIGTERM: its manager, process group and child's pid. */
async function startedWrapper(t: TestContext) {
  const { manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("wrapper", { spawnChild: true })]);
  await manager.start("wrapper");
  const pgid = manager.processId("wrapper")!;
  const childPid = manager.agentInfo("wrapper")?.meta?.childPid as number;
  assert.ok(childPid > 0, "the fake wrapper reports its child");
  assert.ok(exists(childPid) && exists(-pgid));
  return { manager, pgid, childPid };
}

test("stopping a wrapper agent kills its whole process group: no orphan is left", async (t) => {
  const { manager, pgid, childPid } = await startedWrapper(t);

  await manager.stop("wrapper");
  assert.equal(manager.state("wrapper"), "stopped");
  assert.ok(await gone(-pgid), "the process group is gone (kill(-pgid, 0) → ESRCH)");
  assert.ok(await gone(childPid), "the child that ignores SIGTERM is gone too");
});

test("a wrapper agent killed from outside takes its process group with it: no orphan keeps working", async (t) => {
  // A tryout sent SIGKILL to claude-agent-acp mid-answer: its child, the claude CLI, and that one's command ran on,
  // re-parented to init, calling the model, while Retry ran the same command again beside them.
  const { pgid, childPid } = await startedWrapper(t);
  process.kill(pgid, "SIGKILL"); // the leader only, as `kill -9 <pid>` does
  assert.ok(await gone(childPid), "the child, which ignores SIGTERM, is gone too");
  assert.ok(await gone(-pgid), "the process group is gone");
});

test("a stop during starting ends the new process as soon as it answers", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("slow")]);
  const use = manager.session("slow", "ch", textSink());
  const stop = manager.stop("slow");
  await assert.rejects(use, /was stopped while it was starting/);
  await stop;
  assert.equal(manager.state("slow"), "stopped");
  assert.deepEqual(events.states("slow"), ["stopped", "starting", "stopped"]);
});

test("an agent that gives two channels the same session id: the second channel gets a clear error, the first keeps its answers", async (t) => {
  const { manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("twin", { sameSessionId: "s-same", prompt: [{ echo: true }] })]);
  const first = textSink();
  const session = await manager.session("twin", "channel-1", first);
  await assert.rejects(manager.session("twin", "channel-2", textSink()), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/protocol");
    assert.match(err.message, /Agent "twin" gave this channel the session id "s-same", which it already gave another channel/);
    return true;
  });
  assert.equal(await session.prompt("still mine"), "end_turn");
  assert.equal(first.text(), "You said: still mine", "the first channel's answers still reach it, and only it");
});
