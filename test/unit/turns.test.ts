/**
 * Durable turns end to end: the channel service over a temp LevelDB with real fake-agent subprocesses. What a user
 * notices after a crash (an interrupted answer with its checkpoint and a Retry that finishes it), fencing, Send now,
 * the panel's moderator, and how few batches a turn writes.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { composeChannels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import type { MessageRecord, TurnRecord } from "../../src/store/records";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { waitFor } from "./helpers";

test("after a crash mid-answer the message shows its checkpoint, interrupted and retryable; Retry finishes it in the same message, telling the agent what happened", async () => {
  const s = await channelSetup([fakeAgent("a", { prompt: [{ echo: true }] })]);
  try {
    // What a host that died mid-answer leaves in the store: a running turn of another owner, its last checkpoint.
    const user: MessageRecord = { version: 1, id: "01J0000000000000000000000A", channelId: s.general.id, author: { kind: "user" }, parts: [{ type: "text", text: "@a refactor" }], createdAt: 1, to: ["a"] };
    const turn: TurnRecord = { version: 1, id: "01J0000000000000000000000T", channelId: s.general.id, agent: "a", requestMessageId: user.id, messageId: "01J0000000000000000000000M", rootMessageId: user.id, prompt: "refactor", state: "running", attempt: 1, owner: "DEAD-HOST", heartbeatAt: 1, createdAt: 1, updatedAt: 1 };
    const answer: MessageRecord = {
      version: 1, id: turn.messageId, channelId: s.general.id, author: { kind: "agent", agentName: "a" }, createdAt: 1, turnId: turn.id,
      parts: [{ type: "text", text: "Halfway through" }, { type: "toolCall", toolCallId: "t1", title: "Edit main.ts", kind: "edit", status: "in_progress" }],
    };
    await s.store.commit({ messages: [user, answer], turns: [turn] });
    await s.reopen();
    await s.channels.ready;
    const opened = (await s.channels.messages.open("general")).messages.find((m) => m.id === answer.id)!;
    assert.equal(opened.outcome, "interrupted");
    assert.equal(opened.retryable, true);
    assert.equal(textOf(opened), "Halfway through", "the checkpoint is kept");
    const tool = opened.parts[1]!;
    assert.ok(tool.type === "toolCall" && tool.outcomeUnknown, "the agent's own tool call shows outcome unknown");
    assert.deepEqual(await s.store.openTurns(), [], "nothing stays running");

    assert.equal(await s.channels.turns.retryMessage(answer.id), true);
    const retried = await s.finished((m) => m.id === answer.id && m.outcome === "completed");
    assert.equal(retried.attempt, 2);
    assert.equal(retried.parts[2]!.type, "retry");
    const said = textOf(retried);
    assert.match(said, /^Halfway through/, "earlier text kept above the divider");
    assert.match(said, /attempt 2 of this request.*Edit main\.ts.*outcome unknown.*Halfway through.*refactor/s, "the agent was told what attempt 1 did, then the request");
    assert.equal(await s.channels.turns.retryMessage(answer.id), false, "a completed answer is not retried");
    assert.equal((await s.store.turn(turn.id))?.attempt, 2);
  } finally {
    await s.teardown();
  }
});

test("fencing: a write from an attempt that no longer owns the turn is refused and changes nothing", async () => {
  const s = await channelSetup([]);
  try {
    const turn: TurnRecord = { version: 1, id: "T1", channelId: "C", agent: "a", requestMessageId: "U", messageId: "M", rootMessageId: "U", prompt: "p", state: "running", attempt: 2, owner: "HOST-2", createdAt: 1, updatedAt: 1 };
    await s.store.commit({ turns: [turn] });
    const late = { ...turn, attempt: 1, owner: "HOST-1", state: "settled" as const, outcome: "completed" as const };
    await assert.rejects(s.store.commit({ turns: [late], fence: { turnId: "T1", attempt: 1, owner: "HOST-1" } }), (e: { code?: string }) => e.code === "store/staleAttempt");
    assert.equal((await s.store.turn("T1"))?.state, "running");
    assert.equal((await s.store.openTurns()).length, 1);
  } finally {
    await s.teardown();
  }
});

test("Send now: the queued message runs at once; the agent's running answer is stopped as cancelled", async () => {
  const s = await channelSetup([fakeAgent("a", { prompt: [{ chunk: "Working" }, { untilCancelled: true }] })]);
  try {
    await s.channels.messages.send(s.general.id, "@a first");
    await s.channels.messages.send(s.general.id, "@a second");
    await s.channels.messages.send(s.general.id, "@a urgent");
    const queued = s.events.of("message/started").filter((m) => m.status === "queued");
    assert.equal(queued.length, 2);
    await waitFor(() => s.events.of("message/delta").find((d) => d.appendText === "Working"));
    assert.equal(await s.channels.turns.sendNow(queued[1]!.id), true);
    const first = await s.finished((m) => m.author.kind === "agent");
    assert.equal(first.outcome, "cancelled");
    // The next answer to start streaming after the cancelled one (waiting for it, not reading whatever is last now).
    const next = await waitFor(() => s.events.of("message/started").find((m) => m.status === "streaming" && m.id !== first.id));
    assert.equal(next.id, queued[1]!.id, "the urgent one runs before the older queued one");
  } finally {
    await s.teardown();
  }
});

test("panel: the moderator wakes once after every turn of the round settled, with their answers as context", async () => {
  const s = await channelSetup([
    fakeAgent("a", { prompt: [{ chunk: "A thinks yes" }] }),
    fakeAgent("b", { prompt: [{ sleep: 200 }, { chunk: "B thinks no" }] }),
    fakeAgent("mod", { prompt: [{ echoWithoutMentions: true }] }),
  ]);
  try {
    await s.channels.close();
    const events = new Recorder();
    const channels = composeChannels({ store: s.store, agents: s.agents, emitter: events, log: () => undefined, moderatorOf: (c) => (c.name === "general" ? "mod" : undefined) });
    try {
      await channels.messages.send(s.general.id, "@a @b should we ship?");
      const summary = await waitFor(() => events.of("message/finished").find((m) => m.author.agentName === "mod"), 15_000, "the moderator's answer");
      const said = textOf(summary);
      assert.match(said, /A thinks yes/);
      assert.match(said, /B thinks no/);
      assert.match(said, /moderator/);
      const marks = events.of("message/finished").filter((m) => m.author.kind === "system").map(textOf);
      assert.deepEqual(marks.length, 1);
      assert.match(marks[0]!, /^Round complete \((@a, @b|@b, @a)\): @mod, the moderator, sums up\.$/);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(events.of("message/finished").filter((m) => m.author.agentName === "mod").length, 1, "woken once, not again by its own answer");

      await channels.messages.send(s.general.id, "@mod just you");
      await waitFor(() => events.of("message/finished").filter((m) => m.author.agentName === "mod").length === 2 || undefined);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(events.of("message/finished").filter((m) => m.author.kind === "system").length, 1, "a round addressed to the moderator alone wakes nothing");
    } finally {
      await channels.close();
    }
  } finally {
    await s.teardown();
  }
});

test("a turn with three tool calls streamed over about 3 s writes a handful of batches, not one per chunk", async () => {
  const steps = [];
  for (let i = 1; i <= 3; i++) {
    steps.push({ toolCall: { toolCallId: `t${i}`, title: `step ${i}`, kind: "read", status: "in_progress" } });
    for (let c = 0; c < 20; c++) steps.push({ chunk: "word " }, { sleep: 25 });
    steps.push({ toolCallUpdate: { toolCallId: `t${i}`, status: "completed" } });
  }
  const s = await channelSetup([fakeAgent("a", { prompt: steps })]);
  try {
    const before = s.store.batches;
    await s.channels.messages.send(s.general.id, "@a go");
    const done = await s.finished((m: MessageView) => m.author.kind === "agent", 20_000);
    assert.equal(done.outcome, "completed");
    const writes = s.store.batches - before;
    assert.ok(writes <= 10, `${writes} batches for 60 chunks and 3 tool calls`);
    assert.ok(writes >= 2, "admission and settlement at least");
  } finally {
    await s.teardown();
  }
});
