/**
 * Run again (issue 15, item 4), as rows of the durable-turn reducer's table: what the user started and then stopped
 * can run again in the same message — an answer they stopped gets a new attempt told what the stopped one did, a
 * queued message they removed before it started simply runs — and a window that closes stays an interruption, never
 * the user's Stop. Every state handed to the reducer is deep-frozen (as in turnReducer.test.ts).
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { MessageRecord, TurnRecord } from "../../src/store/records";
import { run } from "./reducerHarness";
import { initialState, type Admission, type EngineEffect, type EngineState } from "../../src/turns/reducer";

const OWNER = "HOST-B";
const T0 = 2_000_000;



let seq = 0;
const id = (prefix: string) => `${prefix}${String(++seq).padStart(4, "0")}`;

function admit(state: EngineState, agent = "a") {
  const message: MessageRecord = { version: 1, id: id("U"), channelId: "C1", author: { kind: "user" }, parts: [{ type: "text", text: "hi" }], createdAt: T0 };
  const turn: Admission = { turnId: id("T"), messageId: id("M"), channelId: "C1", agent, requestMessageId: message.id, rootMessageId: message.id, prompt: "hi" };
  return { ...run(state, { type: "admit", at: T0, message, turns: [turn] }), turn };
}

const of = <T extends EngineEffect["type"]>(effects: EngineEffect[], type: T) => effects.filter((e): e is Extract<EngineEffect, { type: T }> => e.type === type);
const finished = (effects: EngineEffect[]) => of(effects, "broadcast").filter((b) => b.name === "message/finished").map((b) => b.message);
const started = (effects: EngineEffect[]) => of(effects, "broadcast").filter((b) => b.name === "message/started").map((b) => b.message);
/** What the store would hold after `effects`: the last written record of each turn and message. */
function saved(effects: EngineEffect[]) {
  const turns = new Map<string, TurnRecord>();
  const messages = new Map<string, MessageRecord>();
  for (const p of of(effects, "persist")) {
    for (const t of p.turns ?? []) turns.set(t.id, t);
    for (const m of p.messages ?? []) messages.set(m.id, m);
  }
  return { turns, messages };
}

/** A running answer that streamed text and a tool call, which the user then stopped (the agent answered `cancelled`). */
function stoppedAnswer() {
  const a = admit(initialState(OWNER));
  const { turnId, messageId } = a.turn;
  const streamed = run(
    a.state,
    { type: "update", at: T0 + 10, turnId, attempt: 1, update: { kind: "text", text: "Working on it" } },
    { type: "update", at: T0 + 20, turnId, attempt: 1, update: { kind: "toolCall", isUpdate: false, toolCallId: "t1", title: "Run the tests", status: "in_progress" } },
    { type: "cancel", messageId, at: T0 + 30 },
    { type: "promptEnded", at: T0 + 40, turnId, attempt: 1, stopReason: "cancelled" },
  );
  const stored = saved(streamed.effects);
  return { state: streamed.state, effects: streamed.effects, turn: a.turn, record: stored.turns.get(turnId)!, message: stored.messages.get(messageId)! };
}

test("a stopped answer is saved cancelled and offers Run again; Run again is attempt 2 in the same message, persisted before it is shown and prompted, told what the stopped attempt did", () => {
  const s = stoppedAnswer();
  const [view] = finished(s.effects);
  assert.deepEqual([view!.outcome, view!.stopReason, view!.retryable], ["cancelled", "cancelled", true]);
  assert.deepEqual([s.record.state, s.record.outcome, s.record.attempt], ["settled", "cancelled", 1]);

  const again = run(s.state, { type: "retry", at: T0 + 100, record: s.record, message: s.message, known: [] });
  assert.equal(again.result, true);
  assert.deepEqual(again.effects.map((e) => e.type), ["persist", "broadcast", "prompt"], "persisted before shown, shown before prompted");
  const [persist] = of(again.effects, "persist");
  assert.deepEqual(persist!.turns!.map((t) => [t.id, t.state, t.attempt, t.owner, t.outcome]), [[s.turn.turnId, "running", 2, OWNER, undefined]]);
  const message = persist!.messages![0]!;
  assert.equal(message.id, s.turn.messageId, "the same message");
  assert.deepEqual(message.parts.map((p) => p.type), ["text", "toolCall", "retry"], "the stopped attempt's parts stay, then a divider");
  assert.equal(message.outcome, undefined);
  assert.deepEqual([started(again.effects)[0]!.status, started(again.effects)[0]!.retryable], ["streaming", undefined]);
  const [prompt] = of(again.effects, "prompt");
  assert.equal(prompt!.turn.attempt, 2);
  assert.match(prompt!.note!, /attempt 2 of this request\. Attempt 1 was stopped by the user before it finished/);
  assert.match(prompt!.note!, /"Run the tests": cancelled by the user \(last seen in_progress\).*Working on it/s);
  assert.equal(run(again.state, { type: "retry", at: T0 + 200, record: s.record, message: s.message }).result, false, "running again already: not twice");
});

test("the new attempt's tool call with an id the stopped attempt used is a card of its own below the divider; the stopped one stays cancelled", () => {
  const s = stoppedAnswer();
  const again = run(s.state, { type: "retry", at: T0 + 100, record: s.record, message: s.message });
  const { turnId } = s.turn;
  const reused = run(again.state, { type: "update", at: T0 + 110, turnId, attempt: 2, update: { kind: "toolCall", isUpdate: false, toolCallId: "t1", title: "Run the tests", status: "in_progress" } });
  const [delta] = of(reused.effects, "delta");
  assert.ok(delta?.part?.type === "toolCall" && !delta.part.cancelled);
  const done = run(reused.state, { type: "update", at: T0 + 120, turnId, attempt: 2, update: { kind: "toolCall", isUpdate: true, toolCallId: "t1", status: "completed" } });
  const parts = done.state.turns[turnId]!.message.parts;
  assert.deepEqual(
    parts.map((p) => (p.type === "toolCall" ? `${p.toolCallId}:${p.status}${p.cancelled ? ":cancelled" : ""}` : p.type)),
    ["text", "t1:in_progress:cancelled", "retry", "t1:completed"],
  );
});

test("a queued message removed from the queue never started: Run again queues it behind the running answer, and it runs as attempt 1 with no note and no divider", () => {
  const first = admit(initialState(OWNER));
  const second = admit(first.state);
  const removed = run(second.state, { type: "cancel", messageId: second.turn.messageId, at: T0 + 5 });
  assert.equal(of(removed.effects, "prompt").length, 0, "never sent");
  const stored = saved(removed.effects);
  const record = stored.turns.get(second.turn.turnId)!;
  const message = stored.messages.get(second.turn.messageId)!;
  assert.deepEqual([record.outcome, record.attempt, finished(removed.effects)[0]!.retryable], ["cancelled", 0, true]);

  const again = run(removed.state, { type: "retry", at: T0 + 10, record, message });
  assert.equal(again.result, true);
  assert.deepEqual(saved(again.effects).turns.get(record.id)!.state, "pending", "saved queued again");
  assert.equal(started(again.effects)[0]!.status, "queued", "the agent is still busy with the first answer");
  assert.equal(of(again.effects, "prompt").length, 0);

  const done = run(again.state, { type: "promptEnded", at: T0 + 20, turnId: first.turn.turnId, attempt: 1, stopReason: "end_turn" });
  const [prompt] = of(done.effects, "prompt");
  assert.deepEqual([prompt!.turn.id, prompt!.turn.attempt, prompt!.note], [record.id, 1, undefined], "the agent never saw it: no note about an earlier attempt");
  assert.deepEqual(saved(done.effects).messages.get(message.id)!.parts, [], "no divider");
});

test("Run again of a removed queued message while its agent is free starts it at once", () => {
  const first = admit(initialState(OWNER));
  const second = admit(first.state);
  const removed = run(second.state, { type: "cancel", messageId: second.turn.messageId, at: T0 + 5 }, { type: "promptEnded", at: T0 + 6, turnId: first.turn.turnId, attempt: 1, stopReason: "end_turn" });
  const { turns, messages } = saved(removed.effects);
  const again = run(removed.state, { type: "retry", at: T0 + 10, record: turns.get(second.turn.turnId)!, message: messages.get(second.turn.messageId)! });
  assert.deepEqual(of(again.effects, "prompt").map((p) => [p.turn.id, p.turn.attempt, p.note]), [[second.turn.turnId, 1, undefined]]);
  assert.equal(started(again.effects)[0]!.status, "streaming");
});

test("completed and refused answers are not run again", () => {
  const a = admit(initialState(OWNER));
  for (const stopReason of ["end_turn", "refusal"]) {
    const ended = run(a.state, { type: "promptEnded", at: T0 + 1, turnId: a.turn.turnId, attempt: 1, stopReason });
    const { turns, messages } = saved(ended.effects);
    assert.equal(finished(ended.effects)[0]!.retryable, undefined, stopReason);
    assert.equal(run(ended.state, { type: "retry", at: T0 + 2, record: turns.get(a.turn.turnId)!, message: messages.get(a.turn.messageId)! }).result, false, stopReason);
  }
});

test("a window that closes mid-answer is an interruption (Retry), never the user's Stop: the queued message stays queued, and the agents stopped after it change nothing", () => {
  const first = admit(initialState(OWNER));
  const streamed = run(first.state, { type: "update", at: T0 + 10, turnId: first.turn.turnId, attempt: 1, update: { kind: "text", text: "Halfway" } });
  const second = admit(streamed.state);
  const closed = run(second.state, { type: "close", at: T0 + 20 });
  assert.deepEqual(finished(closed.effects).map((m) => [m.id, m.outcome, m.error?.code, m.retryable]), [[first.turn.messageId, "interrupted", "turn/interrupted", true]]);
  assert.equal(saved(closed.effects).turns.get(second.turn.turnId), undefined, "the queued turn is not written: it stays pending in the store");
  assert.equal(closed.state.turns[second.turn.turnId]!.record.state, "pending");
  // The agent processes are stopped after the store closed: their prompt ends come too late to make it "cancelled".
  const stopped = run(closed.state, { type: "promptEnded", at: T0 + 30, turnId: first.turn.turnId, attempt: 1, error: { code: "agent/stopped", message: "stopped" } });
  assert.equal(of(stopped.effects, "persist").length, 0);
  assert.equal(finished(stopped.effects).length, 0);
});
