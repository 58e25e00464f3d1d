import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels } from "../../src/app/compose";
import { SidekicksError } from "../../src/shared/errors";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { monotonicFactory } from "ulid";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

/** A channel service over a temp LevelDB and fake agents (real subprocesses), one per script. */
async function setup(scripts: Record<string, object>, cancelGraceMs?: number) {
  const { dir, cleanup } = tempDir();
  const events = new Recorder();
  const agents = new AgentManager(events, {
    launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env },
  });
  agents.setRoster(
    Object.entries(scripts).map(([name, script]) => ({
      name, command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify(script) },
    })),
  );
  const store = await Store.open(dir);
  const logs: string[] = [];
  const channels = composeChannels({ store, agents, emitter: events, log: (l) => logs.push(l), cancelGraceMs });
  const general = await channels.directory.syncGeneral(agents.names());
  const finished = (predicate: (m: MessageView) => boolean, timeoutMs = 5000) =>
    waitFor(() => events.of("message/finished").find(predicate), timeoutMs, "a finished message");
  const state = { dir, events, agents, store, channels, general, finished, logs, teardown: async () => {} };
  state.teardown = async () => {
    await state.channels.close();
    await state.store.close();
    await agents.stopAll();
    cleanup();
  };
  return state;
}

const agentText = (m: MessageView) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

test("@name routes to that member; the streamed answer is committed and shows again after the store reopens", async () => {
  const s = await setup({ demo: { prompt: [{ chunk: "Hello" }, { chunk: ", " }, { echo: true }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo hello");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(agentText(answer), "Hello, You said: hello");
    assert.equal(answer.stopReason, "end_turn");
    assert.equal(answer.status, "done");
    // deltas streamed before the commit, finished after
    const names = s.events.events.map((e) => e.name);
    assert.ok(names.indexOf("message/delta") < names.lastIndexOf("message/finished"));
    await s.channels.close();
    await s.store.close();
    s.store = await Store.open(s.dir);
    s.channels = composeChannels({ store: s.store, agents: s.agents, emitter: new Recorder() });
    const { messages } = await s.channels.messages.open("general");
    assert.deepEqual(messages.map((m) => [m.author.kind, agentText(m)]), [["user", "@demo hello"], ["agent", "Hello, You said: hello"]]);
    const member = (await s.store.members(s.general.id))[0];
    const question = messages.find((m) => m.author.kind === "user");
    assert.equal(member?.lastSeenMessageId, question?.id, "the agent has seen the channel up to the message it answered");
  } finally {
    await s.teardown();
  }
});

test("field case 7: an agent dying mid-turn saves the partial text, fails its tool call, and says why", async () => {
  const s = await setup({
    demo: { prompt: [{ chunk: "Working on it" }, { toolCall: { toolCallId: "t9", title: "Run tests", status: "in_progress" } }, { stderr: "panic: boom" }, { sleep: 30 }, { exit: 143 }] },
  });
  try {
    await s.channels.messages.send(s.general.id, "@demo go");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(answer.status, "error");
    assert.equal(agentText(answer), "Working on it");
    assert.equal(answer.error?.code, "agent/exited");
    assert.match(answer.error?.message ?? "", /exited \(code 143\)/);
    assert.match(answer.error?.detail ?? "", /panic: boom/);
    const tool = answer.parts.find((p) => p.type === "toolCall");
    assert.equal(tool?.type === "toolCall" && tool.status, "failed");
    assert.equal(s.agents.state("demo"), "error");
  } finally {
    await s.teardown();
  }
});

test("field case 2: a tool_call_update for an unknown id creates nothing and logs one warning", async () => {
  const s = await setup({ demo: { prompt: [{ toolCallUpdate: { toolCallId: "nope_1", status: "completed" } }, { chunk: "done" }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo go");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.deepEqual(answer.parts, [{ type: "text", text: "done" }]);
    assert.equal(s.logs.filter((l) => l.includes("nope_1")).length, 1);
  } finally {
    await s.teardown();
  }
});

test("a permission request is shown as a part and the user's choice reaches the agent", async () => {
  const s = await setup({ demo: { prompt: [{ permission: { toolCallId: "t1", title: "Edit config.json" } }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo edit");
    const requestId = await waitFor(() => {
      const delta = s.events.of("message/delta").find((d) => d.part?.type === "permission");
      return delta?.part?.type === "permission" ? delta.part.requestId : undefined;
    }, 5000, "the permission request");
    assert.equal(await s.channels.turns.answerPermission(requestId, "not-an-option"), false);
    assert.equal(await s.channels.turns.answerPermission(requestId, "ok"), true);
    assert.equal(await s.channels.turns.answerPermission(requestId, "ok"), false, "answered once only");
    const answer = await s.finished((m) => m.author.kind === "agent");
    const permission = answer.parts.find((p) => p.type === "permission");
    assert.equal(permission?.type === "permission" && permission.outcome, "ok");
    assert.equal(agentText(answer), " [chose ok]");
  } finally {
    await s.teardown();
  }
});

test("several mentions start parallel turns that stream into separate messages", async () => {
  const s = await setup({ a: { prompt: [{ chunk: "from a, " }, { sleep: 1500 }, { chunk: "done" }] }, b: { prompt: [{ chunk: "from b" }] } });
  try {
    await s.channels.messages.send(s.general.id, "@a @b compare");
    const a = await s.finished((m) => m.author.agentName === "a");
    const b = await s.finished((m) => m.author.agentName === "b");
    assert.equal(agentText(a), "from a, done");
    assert.equal(agentText(b), "from b");
    assert.notEqual(a.id, b.id);
    // a was mentioned first and pauses 1.5 s mid-turn; b finishing first shows the turns ran side by side (run one
    // after the other, b could only start once a had finished).
    const finishedOrder = s.events.of("message/finished").map((m) => m.author.agentName ?? "user");
    assert.deepEqual(finishedOrder, ["user", "b", "a"]);
  } finally {
    await s.teardown();
  }
});

test("an unknown @name is refused with the member list and nothing is stored", async () => {
  const s = await setup({ demo: {} });
  try {
    await assert.rejects(s.channels.messages.send(s.general.id, "@nobody hi"), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "channel/unknownMember");
      assert.match(err.message, /No member named @nobody .* Members: @demo/);
      return true;
    });
    assert.deepEqual((await s.channels.messages.open("general")).messages, []);
  } finally {
    await s.teardown();
  }
});

test("a command that does not exist ends the turn with a clear agent/spawn error, not a hang", async () => {
  const s = await setup({ demo: {} });
  try {
    s.agents.setRoster([{ name: "demo", command: "no-such-agent-binary", args: [], env: {} }]);
    await s.channels.messages.send(s.general.id, "@demo hi");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(answer.error?.code, "agent/spawn");
    assert.match(answer.error?.message ?? "", /command not found: "no-such-agent-binary"/);
  } finally {
    await s.teardown();
  }
});

test("field case 1: a chunk after the prompt result joins the finished message; no phantom turn", async () => {
  // The late chunk is sent once the test saw the answer settle (a trigger file): after the settling commit, always.
  const { dir: triggers, cleanup } = tempDir();
  const trigger = path.join(triggers, "go");
  const s = await setup({ demo: { prompt: [{ chunk: "Hello" }, { lateChunk: ", world.", when: { path: trigger, includes: "go" } }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo hi");
    await s.finished((m) => m.author.kind === "agent" && agentText(m) === "Hello");
    writeFileSync(trigger, "go");
    const late = await s.finished((m) => m.author.kind === "agent" && agentText(m) === "Hello, world.");
    const agentIds = new Set(s.events.of("message/finished").filter((m) => m.author.kind === "agent").map((m) => m.id));
    assert.deepEqual([...agentIds], [late.id], "the same message, not a new one");
    assert.equal(new Set(s.events.of("message/started").map((m) => m.id)).size, 1, "no phantom turn");
    assert.equal(s.agents.state("demo"), "ready");
    const stored = (await s.channels.messages.open("general")).messages.filter((m) => m.author.kind === "agent");
    assert.deepEqual(stored.map(agentText), ["Hello, world."]);
    assert.ok(s.logs.some((l) => l.includes("after the prompt ended")));
  } finally {
    await s.teardown();
    cleanup();
  }
});


test("Stop sends session/cancel; the answer keeps its text and settles cancelled", async () => {
  const s = await setup({ demo: { prompt: [{ chunk: "Working" }, { sleep: 300 }, { chunk: " never sent" }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo go");
    const started = await waitFor(() => s.events.of("message/started").find((m) => m.status === "streaming"));
    await waitFor(() => s.events.of("message/delta").find((d) => d.messageId === started.id));
    assert.equal(await s.channels.turns.cancel(started.id), true);
    const answer = await s.finished((m) => m.id === started.id);
    assert.equal(answer.stopReason, "cancelled");
    assert.equal(answer.status, "done");
    assert.equal(agentText(answer), "Working");
    assert.equal(await s.channels.turns.cancel(started.id), false, "nothing left to stop");
  } finally {
    await s.teardown();
  }
});

test("field case 4: Stop answers the pending permission cancelled, and one asked after it is answered without being shown", async () => {
  const s = await setup({
    demo: { honorCancel: false, prompt: [{ permission: { toolCallId: "t2" } }, { permission: { toolCallId: "t3" } }, { chunk: " after" }] },
  });
  try {
    await s.channels.messages.send(s.general.id, "@demo edit");
    const delta = await waitFor(() => s.events.of("message/delta").find((d) => d.part?.type === "permission"));
    await s.channels.turns.cancel(delta.messageId);
    const answer = await s.finished((m) => m.id === delta.messageId);
    assert.equal(answer.stopReason, "cancelled");
    const permissions = answer.parts.filter((p) => p.type === "permission");
    assert.equal(permissions.length, 1, "the request asked after Stop is never shown");
    assert.equal(permissions[0]?.type === "permission" && permissions[0].outcome, "cancelled");
    assert.equal(agentText(answer), " [cancelled] [cancelled] after", "both requests were answered cancelled");
  } finally {
    await s.teardown();
  }
});

test("Stop does not wait forever for an agent that ignores session/cancel", async () => {
  const s = await setup({ demo: { ignoreCancel: true, prompt: [{ chunk: "Busy" }, { sleep: 20_000 }] } }, 300);
  try {
    await s.channels.messages.send(s.general.id, "@demo go");
    const delta = await waitFor(() => s.events.of("message/delta").find((d) => d.appendText));
    const stoppedAt = Date.now();
    await s.channels.turns.cancel(delta.messageId);
    const answer = await s.finished((m) => m.id === delta.messageId);
    assert.equal(answer.stopReason, "cancelled");
    assert.ok(Date.now() - stoppedAt < 3000, "settled after the grace period, not the agent's 20 s");
  } finally {
    await s.teardown();
  }
});

test("a message for a busy agent is shown queued, runs when the agent is free, and can be cancelled before it runs", async () => {
  const s = await setup({ demo: { prompt: [{ sleep: 400 }, { echo: true }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo first");
    await s.channels.messages.send(s.general.id, "@demo second");
    await s.channels.messages.send(s.general.id, "@demo third");
    const queued = s.events.of("message/started").filter((m) => m.status === "queued");
    assert.equal(queued.length, 2, "second and third wait");
    assert.equal(await s.channels.turns.cancel(queued[1]!.id), true);
    const second = await s.finished((m) => m.id === queued[0]!.id);
    assert.equal(agentText(second), "You said: second");
    const third = await s.finished((m) => m.id === queued[1]!.id);
    assert.equal(third.stopReason, "cancelled");
    assert.deepEqual(third.parts, [], "the cancelled one never reached the agent");
    const answers = (await s.channels.messages.open("general")).messages.filter((m) => m.author.kind === "agent").map(agentText);
    assert.deepEqual(answers, ["You said: first", "You said: second", ""]);
  } finally {
    await s.teardown();
  }
});

test("closing mid-answer: the running answer is interrupted with what arrived; the queued one stays queued and runs after reopening", async () => {
  const s = await setup({ demo: { prompt: [{ chunk: "Working" }, { sleep: 2000 }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo first");
    await s.channels.messages.send(s.general.id, "@demo second");
    await waitFor(() => s.events.of("message/delta").find((d) => d.appendText));
    await s.channels.close();
    await s.store.close();
    s.store = await Store.open(s.dir);
    const events = new Recorder();
    s.channels = composeChannels({ store: s.store, agents: s.agents, emitter: events });
    const opened = (await s.channels.messages.open("general")).messages.filter((m) => m.author.kind === "agent");
    assert.deepEqual(opened.map((m) => [agentText(m), m.error?.code, m.retryable ?? false]), [["Working", "turn/interrupted", true], ["", undefined, false]]);
    assert.equal(opened[1]!.status, "streaming", "the queued message was never claimed: it is dispatched at activation");
    const second = await waitFor(() => events.of("message/finished").find((m) => m.id === opened[1]!.id), 10_000, "the queued answer");
    assert.equal(agentText(second), "Working");
    assert.equal(second.outcome, "completed");
  } finally {
    await s.teardown();
  }
});

test("the user message records who it went to; the default agent is remembered across a reopen", async () => {
  const s = await setup({ a: {}, b: {} });
  try {
    await s.channels.messages.send(s.general.id, "@b hello");
    const user = s.events.of("message/finished").find((m) => m.author.kind === "user");
    assert.deepEqual(user?.to, ["b"]);
    await s.finished((m) => m.author.agentName === "b");
    await s.channels.close();
    s.channels = composeChannels({ store: s.store, agents: s.agents, emitter: s.events });
    await s.channels.messages.send(s.general.id, "and again, no mention");
    const second = s.events.of("message/finished").filter((m) => m.author.kind === "user")[1];
    assert.deepEqual(second?.to, ["b"], "routed to b, the agent addressed last, read back from the store");
  } finally {
    await s.teardown();
  }
});

test("stopping a busy agent (Agents view) ends its answer as cancelled, not as a crash", async () => {
  const s = await setup({ demo: { prompt: [{ chunk: "Working" }, { sleep: 5000 }] } });
  try {
    await s.channels.messages.send(s.general.id, "@demo go");
    const delta = await waitFor(() => s.events.of("message/delta").find((d) => d.appendText));
    await s.agents.stop("demo");
    const answer = await s.finished((m) => m.id === delta.messageId);
    assert.equal(answer.stopReason, "cancelled");
    assert.equal(answer.error, undefined);
    assert.equal(agentText(answer), "Working");
  } finally {
    await s.teardown();
  }
});

test("a long history scrolls back page by page: 120 messages open as the latest 50, then 50 older, then the first 20", async () => {
  const s = await setup({});
  try {
    const id = monotonicFactory();
    const written = Array.from({ length: 120 }, (_, i) => ({
      version: 1 as const, id: id(), channelId: s.general.id, author: { kind: "user" as const }, parts: [{ type: "text" as const, text: `message ${i}` }], createdAt: 1_000 + i,
    }));
    await s.store.commit({ messages: written });
    const texts = (ms: readonly MessageView[]) => ms.map((m) => (m.parts[0]?.type === "text" ? m.parts[0].text : ""));

    const latest = await s.channels.messages.open("general");
    assert.deepEqual(texts(latest.messages), written.slice(70).map((_, i) => `message ${70 + i}`));
    assert.equal(latest.more, true, "older messages are announced");

    const middle = await s.channels.messages.older(s.general.id, latest.messages[0]!.id);
    assert.deepEqual(texts(middle.messages), written.slice(20, 70).map((_, i) => `message ${20 + i}`));
    assert.equal(middle.more, true);

    const first = await s.channels.messages.older(s.general.id, middle.messages[0]!.id);
    assert.deepEqual(texts(first.messages), written.slice(0, 20).map((_, i) => `message ${i}`));
    assert.equal(first.more, false, "the start of the channel is reached");

    const none = await s.channels.messages.older(s.general.id, first.messages[0]!.id);
    assert.deepEqual(none, { messages: [], more: false });

    const small = await s.channels.messages.older(s.general.id, latest.messages[0]!.id, 5);
    assert.deepEqual(texts(small.messages), ["message 65", "message 66", "message 67", "message 68", "message 69"]);
    await assert.rejects(s.channels.messages.older("no-such-channel", latest.messages[0]!.id), (e: unknown) => e instanceof SidekicksError && e.code === "channel/notFound");
  } finally {
    await s.teardown();
  }
});
