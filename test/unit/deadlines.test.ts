/**
 * Every request Sidekicks sends an agent has a deadline (issue 18): an agent that never answers `authenticate`,
 * `session/new`, `session/load`, `session/set_mode`, `session/set_config_option`, `session/set_model`, or the cancelled
 * `session/prompt` after `session/cancel`, is given up on with an error that names the request and how long Sidekicks
 * waited; meanwhile the agent's state says what it waits for, never "ready". The fake agent (a real subprocess) is told
 * never to answer the method; time moves only on a manual clock, so no test waits for a deadline in real time.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentManager } from "../../src/agents/AgentManager";
import { SidekicksError } from "../../src/shared/errors";
import type { AgentWait } from "../../src/shared/protocol";
import { describeAgent } from "../../src/shared/stateLabel";
import { composeChannels } from "../../src/app/compose";
import { Store } from "../../src/store/Store";
import type { MessageView } from "../../src/shared/protocol";
import { fakeAgent, harness, textSink } from "./agentManagerHarness";
import { tempDir, waitFor } from "./helpers";

const MODES = { currentModeId: "code", availableModes: [{ id: "code", name: "Code" }, { id: "plan", name: "Plan" }] };
const CONFIG = [{ id: "effort", name: "Effort", type: "select", currentValue: "low", options: [{ value: "low", name: "Low" }, { value: "high", name: "High" }] }];
const MODELS = { currentModelId: "m1", availableModels: [{ modelId: "m1", name: "M1" }, { modelId: "m2", name: "M2" }] };
const BASE = { modes: MODES, configOptions: CONFIG, models: MODELS, loadSession: true, authMethods: [{ id: "login", name: "Log in" }] };

interface Case {
  method: AgentWait;
  /** The label the Agents view shows while Sidekicks waits. */
  label: string;
  /** The deadline the error names. */
  seconds: string;
  /** What the user (or a channel) does that sends the request. */
  act: (m: AgentManager) => Promise<unknown>;
  /** Runs before `act` (a session to change settings of). */
  before?: (m: AgentManager) => Promise<unknown>;
  /** How far the clock moves: the deadline. */
  advanceMs: number;
}

const CASES: Case[] = [
  { method: "session/new", label: "starting session…", seconds: "60 s", advanceMs: 60_000, act: (m) => m.session("stuck", "c1", textSink()) },
  { method: "session/load", label: "loading session…", seconds: "60 s", advanceMs: 60_000, act: (m) => m.session("stuck", "c1", textSink(), { resumeSessionId: "s7" }) },
  { method: "authenticate", label: "signing in…", seconds: "5 min", advanceMs: 300_000, act: (m) => m.authenticate("stuck", "login") },
  { method: "session/set_mode", label: "changing session settings…", seconds: "60 s", advanceMs: 60_000, before: (m) => m.session("stuck", "c1", textSink()), act: (m) => m.configure("stuck", "c1", { kind: "mode", modeId: "plan" }) },
  {
    method: "session/set_config_option",
    label: "changing session settings…",
    seconds: "60 s",
    advanceMs: 60_000,
    before: (m) => m.session("stuck", "c1", textSink()),
    act: (m) => m.configure("stuck", "c1", { kind: "config", configId: "effort", value: "high" }),
  },
  { method: "session/set_model", label: "changing session settings…", seconds: "60 s", advanceMs: 60_000, before: (m) => m.session("stuck", "c1", textSink()), act: (m) => m.configure("stuck", "c1", { kind: "model", modelId: "m2" }) },
];

for (const c of CASES) {
  test(`${c.method} that never answers: "${c.label}" while waiting, then an agent/timeout error naming ${c.method} and ${c.seconds}`, async () => {
    const { events, clock, manager } = harness();
    manager.setRoster([fakeAgent("stuck", { ...BASE, neverAnswer: [c.method] })]);
    try {
      await c.before?.(manager);
      const settled = c.act(manager).then(
        () => undefined,
        (err: unknown) => err,
      );
      await events.waitForWait("stuck", c.method);
      assert.equal(describeAgent(manager.summaries()[0]!), c.label, "the Agents view says what Sidekicks waits for, not ready");
      clock.advance(c.advanceMs);
      const err = await settled;
      assert.ok(err instanceof SidekicksError, `rejected with ${String(err)}`);
      assert.equal(err.code, "agent/timeout");
      assert.match(err.message, new RegExp(`Agent "stuck" did not answer ${c.method.replace("/", "\\/")} within ${c.seconds}\\.`));
      assert.match(err.message, /restart it \(Sidekicks: Restart agent\), or raise limits\.requestTimeout in sidekicks\.yaml/);
      assert.equal(describeAgent(manager.summaries()[0]!), "ready", "the wait is over: the agent is shown as it is");
    } finally {
      await manager.stopAll();
    }
  });
}

test("session/prompt that never answers session/cancel: 'waiting for the agent to stop…', then the prompt ends with agent/timeout and the agent is free", async () => {
  const { events, clock, manager } = harness();
  manager.setRoster([fakeAgent("stuck", { neverAnswer: ["session/prompt"] })]);
  try {
    const session = await manager.session("stuck", "c1", textSink());
    const prompt = session.prompt("go").then(
      () => undefined,
      (err: unknown) => err,
    );
    await events.waitForState("stuck", "busy");
    clock.advance(24 * 3_600_000);
    assert.equal(describeAgent(manager.summaries()[0]!), "busy", "a turn itself has no deadline");
    await session.cancel();
    await events.waitForWait("stuck", "session/cancel");
    assert.equal(describeAgent(manager.summaries()[0]!), "waiting for the agent to stop…");
    clock.advance(10_000);
    const err = await prompt;
    assert.ok(err instanceof SidekicksError, `rejected with ${String(err)}`);
    assert.equal(err.code, "agent/timeout");
    assert.match(err.message, /Agent "stuck" did not stop within 10 s of session\/cancel: its turn was ended as cancelled/);
    assert.match(err.message, /raise limits\.cancelTimeout in sidekicks\.yaml/);
    await events.waitForState("stuck", "ready", 2);
    assert.equal(describeAgent(manager.summaries()[0]!), "ready");
  } finally {
    await manager.stopAll();
  }
});

test("the deadlines follow sidekicks.yaml's limits while the agent runs", async () => {
  const { events, clock, manager } = harness();
  manager.setRoster([fakeAgent("stuck", { ...BASE, neverAnswer: ["session/set_mode"] })]);
  try {
    await manager.session("stuck", "c1", textSink());
    manager.setLimits({ ...manager.currentLimits, requestTimeoutMs: 120_000 });
    const settled = manager.configure("stuck", "c1", { kind: "mode", modeId: "plan" }).catch((err: unknown) => err);
    await events.waitForWait("stuck", "session/set_mode");
    clock.advance(60_000);
    assert.equal(describeAgent(manager.summaries()[0]!), "changing session settings…", "still waiting at 60 s: the limit is now 2 min");
    clock.advance(60_000);
    const err = await settled;
    assert.ok(err instanceof SidekicksError);
    assert.match(err.message, /did not answer session\/set_mode within 2 min\./);
  } finally {
    await manager.stopAll();
  }
});

test("field case 20: an agent that answers initialize with protocol version 2 is stopped, and the error names both versions", async () => {
  const { events, manager } = harness();
  manager.setRoster([fakeAgent("future", { protocolVersion: 2 })]);
  try {
    await assert.rejects(manager.session("future", "c1", textSink()), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "agent/protocol");
      assert.equal(err.message, 'Agent "future" speaks ACP protocol version 2; Sidekicks speaks version 1. Update Sidekicks, or use a version of the agent that speaks 1.');
      return true;
    });
    const [summary] = manager.summaries();
    assert.equal(summary?.state, "error");
    assert.equal(summary?.pid, undefined, "the connection is closed: no process left running");
    assert.match(describeAgent(summary!), /^error: Agent "future" speaks ACP protocol version 2; Sidekicks speaks version 1\./);
    assert.ok(events.logs("future").every((line) => !line.includes("started: pid")), "never reported started");
  } finally {
    await manager.stopAll();
  }
});

/** A channel over a temp store and the manual-clock manager, its one member the fake agent "stuck" with `script`. */
async function channel(script: object) {
  const { dir, cleanup } = tempDir();
  const { events, clock, manager } = harness();
  manager.setRoster([fakeAgent("stuck", script)]);
  const store = await Store.open(dir);
  // The executor's own Stop grace is far away: what ends the turn here is the agent manager's cancel deadline.
  const channels = composeChannels({ store, agents: manager, emitter: events, cancelGraceMs: 3_600_000 });
  const general = await channels.directory.syncGeneral(manager.names());
  const finished = () => waitFor(() => events.of("message/finished").find((m: MessageView) => m.author.kind === "agent"), 15_000, "the agent's answer settled");
  const teardown = async () => {
    await channels.close();
    await store.close();
    await manager.stopAll();
    cleanup();
  };
  return { events, clock, manager, channels, general, finished, teardown };
}

test("a turn whose agent never answers session/new settles failed with the deadline's error in the message, no spinner left", async () => {
  const c = await channel({ neverAnswer: ["session/new"] });
  try {
    await c.channels.messages.send(c.general.id, "@stuck hello");
    await c.events.waitForWait("stuck", "session/new");
    c.clock.advance(60_000);
    const answer = await c.finished();
    assert.equal(answer.outcome, "failed");
    assert.equal(answer.status, "error");
    assert.match(answer.error?.message ?? "", /^Agent "stuck" did not answer session\/new within 60 s\. It may be waiting for a sign-in or be stuck: restart it \(Sidekicks: Restart agent\)/);
    assert.equal(answer.retryable, true, "the user can Retry it");
  } finally {
    await c.teardown();
  }
});

test("Stop of a turn whose agent never answers the cancelled prompt settles it cancelled with a note, and frees the agent", async () => {
  const c = await channel({ neverAnswer: ["session/prompt"] });
  try {
    await c.channels.messages.send(c.general.id, "@stuck go");
    await c.events.waitForState("stuck", "busy");
    const started = await waitFor(() => c.events.of("message/started").find((m: MessageView) => m.author.kind === "agent"));
    assert.equal(await c.channels.turns.cancel(started.id), true);
    await c.events.waitForWait("stuck", "session/cancel");
    assert.equal(describeAgent(c.manager.summaries()[0]!), "waiting for the agent to stop…");
    c.clock.advance(10_000);
    const answer = await c.finished();
    assert.equal(answer.outcome, "cancelled");
    assert.equal(answer.stopReason, "cancelled");
    assert.match(answer.error?.message ?? "", /^Agent "stuck" did not stop within 10 s of session\/cancel: its turn was ended as cancelled/);
    await c.events.waitForState("stuck", "ready", 2);
    assert.equal(describeAgent(c.manager.summaries()[0]!), "ready");
  } finally {
    await c.teardown();
  }
});
