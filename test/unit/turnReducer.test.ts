/**
 * The durable-turn reducer as a table: for each state and input, what the user would notice (what is shown, what
 * is saved, what the agent is sent). Every state handed to the reducer is deep-frozen, so a case also proves the
 * reducer never mutates the state it was given.
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { AgentUpdate } from "../../src/acp/types";
import type { Part, PermissionPart } from "../../src/shared/protocol";
import type { IntentRecord, MessageRecord, TurnRecord } from "../../src/store/records";
import { run } from "./reducerHarness";
import { CHECKPOINT_MS, HEARTBEAT_MS, initialState, type Admission, type EngineEffect, type EngineState } from "../../src/turns/reducer";

const OWNER = "HOST-B";
const T0 = 1_000_000;



let seq = 0;
const id = (prefix: string) => `${prefix}${String(++seq).padStart(4, "0")}`;

function userMessage(channelId = "C1", text = "hi"): MessageRecord {
  return { version: 1, id: id("U"), channelId, author: { kind: "user" }, parts: [{ type: "text", text }], createdAt: T0 };
}

function admission(agent: string, request: MessageRecord, extra: Partial<Admission> = {}): Admission {
  return { turnId: id("T"), messageId: id("M"), channelId: request.channelId, agent, requestMessageId: request.id, rootMessageId: request.id, prompt: "hi", ...extra };
}

function admit(state: EngineState, agents: string[], at = T0, extra: Partial<Admission> = {}) {
  const message = userMessage();
  const turns = agents.map((a) => admission(a, message, extra));
  return { ...run(state, { type: "admit", at, message, turns }), message, turns };
}

const text = (t: string): AgentUpdate => ({ kind: "text", text: t });
const tool = (toolCallId: string, status?: "pending" | "in_progress" | "completed" | "failed", isUpdate = false): AgentUpdate => ({ kind: "toolCall", isUpdate, toolCallId, title: `tool ${toolCallId}`, status });
const of = <T extends EngineEffect["type"]>(effects: EngineEffect[], type: T) => effects.filter((e): e is Extract<EngineEffect, { type: T }> => e.type === type);
const persisted = (effects: EngineEffect[]) => of(effects, "persist");
const finished = (effects: EngineEffect[]) => of(effects, "broadcast").filter((b) => b.name === "message/finished").map((b) => b.message);
const started = (effects: EngineEffect[]) => of(effects, "broadcast").filter((b) => b.name === "message/started").map((b) => b.message);
const warned = (effects: EngineEffect[], pattern: RegExp) => of(effects, "log").some((l) => pattern.test(l.line));

test("admit to an idle agent: one batch holds the user message, the claimed turn and its empty answer; the prompt goes after it", () => {
  const { state, effects, turns, message } = admit(initialState(OWNER), ["a"]);
  const batch = persisted(effects);
  assert.equal(batch.length, 1, "one batch");
  assert.deepEqual(batch[0]!.messages!.map((m) => m.id), [message.id, turns[0]!.messageId]);
  assert.deepEqual(batch[0]!.turns!.map((t) => [t.state, t.attempt, t.owner]), [["running", 1, OWNER]]);
  assert.deepEqual(effects.map((e) => e.type), ["persist", "broadcast", "broadcast", "prompt"], "persisted before shown, shown before prompted");
  assert.equal(started(effects)[0]!.status, "streaming");
  assert.equal(state.turns[turns[0]!.turnId]!.record.state, "running");
});

test("admit to a busy agent: the new turn is pending (shown queued) and nothing is sent", () => {
  const first = admit(initialState(OWNER), ["a"]);
  const { state, effects, turns } = admit(first.state, ["a"]);
  assert.equal(started(effects)[0]!.status, "queued");
  assert.equal(of(effects, "prompt").length, 0);
  assert.deepEqual(persisted(effects)[0]!.turns!.map((t) => [t.state, t.attempt]), [["pending", 0]]);
  assert.equal(state.turns[turns[0]!.turnId]!.record.state, "pending");
});

test("admit to two agents: both run in parallel from one batch", () => {
  const { effects } = admit(initialState(OWNER), ["a", "b"]);
  assert.equal(persisted(effects).length, 1);
  assert.deepEqual(of(effects, "prompt").map((p) => p.turn.agent), ["a", "b"]);
});

test("admit after close: the turn is saved pending and not claimed (the next activation dispatches it)", () => {
  const closed = run(initialState(OWNER), { type: "close", at: T0 }).state;
  const { effects } = admit(closed, ["a"]);
  assert.deepEqual(persisted(effects)[0]!.turns!.map((t) => t.state), ["pending"]);
  assert.equal(of(effects, "prompt").length, 0);
});

function running(agents = ["a"]) {
  const a = admit(initialState(OWNER), agents);
  return { state: a.state, turn: a.turns[0]!, message: a.message };
}

test("text chunks: deltas only, nothing written per chunk", () => {
  const { state, turn } = running();
  const { effects, state: next } = run(state, ...Array.from({ length: 50 }, (_, i) => ({ type: "update" as const, at: T0 + i * 10, turnId: turn.turnId, attempt: 1, update: text("x") })));
  assert.equal(of(effects, "delta").length, 50);
  assert.equal(persisted(effects).length, 0);
  assert.equal(next.turns[turn.turnId]!.message.parts[0]!.type === "text" && (next.turns[turn.turnId]!.message.parts[0] as { text: string }).text.length, 50);
});

test("a tool call boundary checkpoints at once when the last checkpoint is a second old, fenced by attempt and owner", () => {
  const { state, turn } = running();
  const { effects } = run(state, { type: "update", at: T0 + CHECKPOINT_MS, turnId: turn.turnId, attempt: 1, update: tool("t1", "in_progress") });
  const [checkpoint] = persisted(effects);
  assert.ok(checkpoint, "checkpoint written");
  assert.deepEqual(checkpoint.fence, { turnId: turn.turnId, attempt: 1, owner: OWNER });
  assert.equal(checkpoint.turns![0]!.heartbeatAt, T0 + CHECKPOINT_MS);
  assert.equal(checkpoint.messages![0]!.parts[0]!.type, "toolCall");
});

test("boundaries closer than a second apart wait for the next tick: at most one checkpoint per second", () => {
  const { state, turn } = running();
  const updates = ["t1", "t2", "t3"].map((t, i) => ({ type: "update" as const, at: T0 + 100 + i * 100, turnId: turn.turnId, attempt: 1, update: tool(t, "in_progress") }));
  const early = run(state, ...updates, { type: "tick", at: T0 + 500 });
  assert.equal(persisted(early.effects).length, 0);
  const tick = run(early.state, { type: "tick", at: T0 + CHECKPOINT_MS + 100 });
  assert.equal(persisted(tick.effects).length, 1);
  assert.equal(persisted(tick.effects)[0]!.messages![0]!.parts.length, 3);
});

test("a quiet running turn writes a heartbeat every few seconds, not more", () => {
  const { state } = running();
  const quiet = run(state, { type: "tick", at: T0 + 1_000 }, { type: "tick", at: T0 + 2_000 });
  assert.equal(persisted(quiet.effects).length, 0);
  const beat = run(quiet.state, { type: "tick", at: T0 + HEARTBEAT_MS });
  assert.deepEqual(persisted(beat.effects).map((p) => [p.turns?.[0]?.heartbeatAt, p.messages]), [[T0 + HEARTBEAT_MS, undefined]]);
});

test("an update from a stale attempt is rejected and logged; the answer does not change", () => {
  const { state, turn } = running();
  const { effects, state: next } = run(state, { type: "update", at: T0, turnId: turn.turnId, attempt: 7, update: text("ghost") });
  assert.equal(of(effects, "delta").length, 0);
  assert.ok(warned(effects, /dropped|stale/));
  assert.deepEqual(next.turns[turn.turnId]!.message.parts, []);
});

test("a tool_call_update for an unknown id creates nothing (field case 2)", () => {
  const { state, turn } = running();
  const { effects, state: next } = run(state, { type: "update", at: T0, turnId: turn.turnId, attempt: 1, update: tool("nope", "completed", true) });
  assert.equal(of(effects, "delta").length, 0);
  assert.ok(warned(effects, /unknown tool call id "nope"/));
  assert.deepEqual(next.turns[turn.turnId]!.message.parts, []);
});

function ended(state: EngineState, turn: Admission, result: { stopReason?: string; error?: { code: string; message: string } } = { stopReason: "end_turn" }, attempt = 1) {
  return run(state, { type: "promptEnded", at: T0 + 5_000, turnId: turn.turnId, attempt, ...result });
}

test("end_turn settles completed: one fenced batch moves the member's lastSeen, then message/finished", () => {
  const { state, turn, message } = running();
  const { effects, state: next } = ended(run(state, { type: "update", at: T0, turnId: turn.turnId, attempt: 1, update: text("done") }).state, turn);
  const [batch] = persisted(effects);
  assert.equal(batch!.turns![0]!.state, "settled");
  assert.equal(batch!.turns![0]!.outcome, "completed");
  assert.deepEqual(batch!.advanceMember, { channelId: "C1", agent: "a", lastSeenMessageId: message.id, turnId: turn.turnId });
  assert.ok(batch!.fence);
  const types = effects.map((e) => (e.type === "broadcast" ? e.name : e.type));
  assert.ok(types.indexOf("persist") < types.indexOf("message/finished"), "settlement first, projection second");
  assert.equal(finished(effects)[0]!.outcome, "completed");
  assert.equal(finished(effects)[0]!.retryable, undefined);
  assert.equal(next.turns[turn.turnId], undefined, "no longer open");
});

test("the next queued turn of the lane is claimed when the running one settles", () => {
  const first = admit(initialState(OWNER), ["a"]);
  const second = admit(first.state, ["a"]);
  const { effects } = ended(second.state, first.turns[0]!);
  assert.deepEqual(of(effects, "prompt").map((p) => [p.turn.id, p.turn.attempt]), [[second.turns[0]!.turnId, 1]]);
  assert.equal(started(effects).at(-1)!.status, "streaming");
});

test("a /command turn does not move lastSeen (it went without context)", () => {
  const a = admit(initialState(OWNER), ["a"], T0, { command: "idioms" });
  const { effects } = ended(a.state, a.turns[0]!);
  assert.equal(persisted(effects)[0]!.advanceMember, undefined);
});

const outcomes: [string, { stopReason?: string; error?: { code: string; message: string } }, string, boolean][] = [
  ["an agent error", { error: { code: "agent/exited", message: "exited 1" } }, "failed", true],
  // Cancelled: Run again (issue 15, item 4).
  ["the user stopping the agent process", { error: { code: "agent/stopped", message: "stopped" } }, "cancelled", true],
  ["stop reason refusal", { stopReason: "refusal" }, "refused", false],
  ["stop reason max_tokens", { stopReason: "max_tokens" }, "completed", false],
  ["an interruption", { error: { code: "turn/interrupted", message: "gone" } }, "interrupted", true],
];
for (const [what, result, outcome, retryable] of outcomes) {
  test(`prompt end by ${what} settles ${outcome}${retryable ? ", retryable" : ""}`, () => {
    const { state, turn } = running();
    const withTool = run(state, { type: "update", at: T0, turnId: turn.turnId, attempt: 1, update: tool("t1", "in_progress") }).state;
    const { effects } = ended(withTool, turn, result);
    const view = finished(effects)[0]!;
    assert.equal(view.outcome, outcome);
    assert.equal(view.retryable ?? false, retryable);
    const part = view.parts[0]!;
    assert.equal(part.type, "toolCall");
    if (outcome === "failed") assert.equal(part.type === "toolCall" && part.status, "failed");
    // ACP session/cancel: the client marks the turn's unfinished tool calls cancelled (not failed).
    if (outcome === "cancelled") assert.deepEqual(part.type === "toolCall" && [part.status, part.cancelled], ["in_progress", true]);
    if (outcome === "interrupted") assert.equal(part.type === "toolCall" && part.outcomeUnknown, true);
    // The agent ended its turn itself (a stop reason) without reporting the tool call's end: "no result".
    if (outcome === "completed" || outcome === "refused") assert.deepEqual(part.type === "toolCall" && [part.status, part.noResult], ["in_progress", true]);
    else assert.equal(part.type === "toolCall" && part.noResult, undefined, `not "no result" when ${what}`);
  });
}

test("end_turn with tool calls the agent never finished: saved as \"no result\" with the agent's last status; finished ones untouched; a late report clears it", () => {
  const { state, turn } = running();
  const updates = [tool("t1", "pending"), tool("t2", "in_progress"), tool("t3", "completed")].map((update) => ({ type: "update" as const, at: T0, turnId: turn.turnId, attempt: 1, update }));
  const { effects, state: settled } = ended(run(state, ...updates).state, turn, { stopReason: "end_turn" });
  const saved = persisted(effects)[0]!.messages![0]!;
  const summary = (parts: readonly Part[]) => parts.map((p) => (p.type === "toolCall" ? [p.status, p.noResult ?? false] : p.type));
  assert.deepEqual(summary(saved.parts), [["pending", true], ["in_progress", true], ["completed", false]], "stored, so a reload shows the same");
  assert.deepEqual(summary(finished(effects)[0]!.parts), summary(saved.parts), "and shown so at once");
  assert.equal(finished(effects)[0]!.outcome, "completed", "the turn itself completed");

  const late = run(settled, { type: "update", at: T0 + 6_000, turnId: turn.turnId, attempt: 1, update: tool("t2", "completed", true) });
  assert.deepEqual(summary(finished(late.effects)[0]!.parts), [["pending", true], ["completed", false], ["completed", false]], "the agent's late word replaces \"no result\"");
});

test("a prompt result from a stale attempt cannot settle the turn", () => {
  const { state, turn } = running();
  const { effects, state: next } = ended(state, turn, { stopReason: "end_turn" }, 2);
  assert.equal(persisted(effects).length, 0);
  assert.ok(warned(effects, /stale prompt result .* attempt 2 rejected/));
  assert.equal(next.turns[turn.turnId]!.record.state, "running");
});

test("a late session/update after settlement attaches to the finished message and starts nothing (field case 1)", () => {
  const { state, turn } = running();
  const settled = ended(state, turn).state;
  const { effects, state: next } = run(settled, { type: "update", at: T0 + 6_000, turnId: turn.turnId, attempt: 1, update: text(" (late)") });
  assert.equal(of(effects, "prompt").length, 0);
  assert.equal(started(effects).length, 0, "no phantom turn");
  assert.equal(Object.keys(next.turns).length, 0, "nothing busy");
  assert.equal((finished(effects)[0]!.parts[0] as { text: string }).text, " (late)");
  assert.ok(warned(effects, /after the prompt ended/));
});

test("a permission request shows as a part and moves the turn to awaiting_input; the user's answer goes to the agent once", () => {
  const { state, turn } = running();
  const request = { sessionId: "s", toolCallId: "t1", title: "Edit", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" as const }] };
  const asked = run(state, { type: "permissionRequested", at: T0, turnId: turn.turnId, attempt: 1, requestId: "R1", request });
  assert.equal(asked.state.turns[turn.turnId]!.record.state, "awaiting_input");
  assert.equal(of(asked.effects, "delta")[0]!.part?.type, "permission");
  assert.equal(run(asked.state, { type: "answer", requestId: "R1", optionId: "nope" }).result, false, "unknown option refused");
  const answered = run(asked.state, { type: "answer", requestId: "R1", optionId: "ok" });
  assert.equal(answered.result, true);
  assert.deepEqual(of(answered.effects, "answerPermission"), [{ type: "answerPermission", requestId: "R1", optionId: "ok" }]);
  assert.equal(answered.state.turns[turn.turnId]!.record.state, "running");
  assert.equal(run(answered.state, { type: "answer", requestId: "R1", optionId: "ok" }).result, false, "answered once only");
});

test("Stop on a running turn: session/cancel, pending permissions cancelled, later ones never shown, settles cancelled even on end_turn (field case 4)", () => {
  const { state, turn } = running();
  const request = { sessionId: "s", toolCallId: "t1", title: "Edit", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" as const }] };
  const asked = run(state, { type: "permissionRequested", at: T0, turnId: turn.turnId, attempt: 1, requestId: "R1", request }).state;
  const stopped = run(asked, { type: "cancel", messageId: turn.messageId, at: T0 + 10 });
  assert.equal(stopped.result, true);
  assert.deepEqual(of(stopped.effects, "answerPermission"), [{ type: "answerPermission", requestId: "R1", optionId: undefined }]);
  assert.equal(of(stopped.effects, "cancelPrompt").length, 1);
  assert.equal(of(stopped.effects, "schedule")[0]!.ms, 5_000);
  const later = run(stopped.state, { type: "permissionRequested", at: T0 + 20, turnId: turn.turnId, attempt: 1, requestId: "R2", request });
  assert.deepEqual(of(later.effects, "answerPermission"), [{ type: "answerPermission", requestId: "R2" }]);
  assert.equal(of(later.effects, "delta").length, 0, "never shown");
  const { effects } = ended(later.state, turn, { stopReason: "end_turn" });
  assert.equal(finished(effects)[0]!.outcome, "cancelled");
  assert.equal(finished(effects)[0]!.stopReason, "cancelled");
});

test("Stop on an agent that ignores session/cancel: the grace timer settles it cancelled; a later prompt end is stale", () => {
  const { state, turn } = running();
  const stopped = run(state, { type: "cancel", messageId: turn.messageId, at: T0 });
  const grace = run(stopped.state, of(stopped.effects, "schedule")[0]!.input);
  assert.equal(finished(grace.effects)[0]!.outcome, "cancelled");
  assert.ok(warned(grace.effects, /did not answer session\/cancel/));
  assert.equal(persisted(ended(grace.state, turn).effects).length, 0);
});

test("Stop on a queued turn removes it from the queue: saved cancelled, never sent", () => {
  const first = admit(initialState(OWNER), ["a"]);
  const second = admit(first.state, ["a"]);
  const { effects, result } = run(second.state, { type: "cancel", messageId: second.turns[0]!.messageId, at: T0 });
  assert.equal(result, true);
  assert.equal(finished(effects)[0]!.outcome, "cancelled");
  assert.equal(of(effects, "prompt").length, 0);
  assert.equal(run(second.state, { type: "cancel", messageId: "nope", at: T0 }).result, false);
});

test("Send now: the running answer is stopped, and the chosen queued turn runs before older queued ones", () => {
  const first = admit(initialState(OWNER), ["a"]);
  const second = admit(first.state, ["a"]);
  const third = admit(second.state, ["a"]);
  const now = run(third.state, { type: "sendNow", messageId: third.turns[0]!.messageId, at: T0 });
  assert.equal(now.result, true);
  assert.equal(of(now.effects, "cancelPrompt").length, 1);
  const { effects } = ended(now.state, first.turns[0]!, { stopReason: "cancelled" });
  assert.deepEqual(of(effects, "prompt").map((p) => p.turn.id), [third.turns[0]!.turnId]);
});

function stored(record: Partial<TurnRecord>, parts: MessageRecord["parts"] = []): { record: TurnRecord; message: MessageRecord } {
  const turnId = record.id ?? id("T");
  const messageId = record.messageId ?? id("M");
  return {
    record: { version: 1, id: turnId, channelId: "C1", agent: "a", requestMessageId: "U0", messageId, rootMessageId: "U0", prompt: "hi", state: "running", attempt: 1, owner: "HOST-A", heartbeatAt: T0 - 3_000, createdAt: T0 - 10_000, updatedAt: T0 - 3_000, ...record },
    message: { version: 1, id: messageId, channelId: "C1", author: { kind: "agent", agentName: "a" }, parts, createdAt: T0 - 10_000, turnId },
  };
}

test("recovery: a dead owner's running turn settles interrupted with its checkpoint; open tool calls show outcome unknown; it can be retried", () => {
  const dead = stored({ state: "awaiting_input" }, [
    { type: "text", text: "Halfway" },
    { type: "toolCall", toolCallId: "t1", title: "Run tests", status: "in_progress" },
    { type: "permission", requestId: "R", toolCallId: "t1", title: "Run", options: [] },
  ]);
  const { effects, state } = run(initialState(OWNER), { type: "recover", at: T0, turns: [dead] });
  const view = finished(effects)[0]!;
  assert.equal(view.outcome, "interrupted");
  assert.equal(view.retryable, true);
  assert.match(view.error!.message, /Interrupted: .*Retry/);
  assert.deepEqual(view.parts.map((p) => (p.type === "toolCall" ? [p.status, p.outcomeUnknown] : p.type === "permission" ? p.outcome : p.type)), ["text", ["in_progress", true], "cancelled"]);
  assert.ok(warned(effects, /owner that is gone/));
  assert.equal(persisted(effects)[0]!.turns![0]!.state, "settled");
  assert.equal(Object.keys(state.turns).length, 0);
});

test("recovery: a permission answer intent is said on the permission card, not on a second card beside it", () => {
  const intent = (requestId: string, optionId: string, result: IntentRecord["result"]): IntentRecord =>
    ({ version: 1, id: id("I"), turnId: "T", attempt: 1, agent: "a", kind: "permission", requestId, optionId, phase: "running", result, createdAt: T0, updatedAt: T0 }) as IntentRecord;
  const dead = stored({ state: "awaiting_input" }, [
    { type: "permission", requestId: "R1", toolCallId: "t1", title: "Edit a", options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }] },
    { type: "permission", requestId: "R2", toolCallId: "t2", title: "Edit b", options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }], outcome: "ok" },
  ]);
  const turn = { ...dead, intents: [intent("R1", "cancelled", "uncertain"), intent("R2", "ok", "uncertain")] };
  const { effects } = run(initialState(OWNER), { type: "recover", at: T0, turns: [turn] });
  const view = finished(effects)[0]!;
  assert.deepEqual(view.parts.map((p) => p.type), ["permission", "permission"], "no 'Permission answer for @a' card");
  const [waiting, chosen] = view.parts as PermissionPart[];
  assert.doesNotMatch(waiting!.notice ?? "", /may not have reached/, "Sidekicks' own cancel on close: the card's Not answered says it");
  assert.match(chosen!.notice ?? "", /may not have reached @a\. Retry asks again\./, "the user's answer, not known to have arrived");
});

test("recovery: a queued turn that was never claimed is dispatched, after the interrupted one of its lane", () => {
  const dead = stored({});
  const queued = stored({ state: "pending", attempt: 0, owner: undefined, heartbeatAt: undefined });
  const { effects } = run(initialState(OWNER), { type: "recover", at: T0, turns: [dead, queued] });
  assert.deepEqual(of(effects, "prompt").map((p) => [p.turn.id, p.turn.attempt, p.turn.owner]), [[queued.record.id, 1, OWNER]]);
});

test("Retry: a new attempt of the same turn in the same message, told what the earlier attempt did; only interrupted or failed turns", () => {
  const interrupted = stored({ state: "settled", outcome: "interrupted", attempt: 1 }, [
    { type: "text", text: "I started editing" },
    { type: "toolCall", toolCallId: "t1", title: "Edit main.ts", kind: "edit", status: "in_progress", outcomeUnknown: true },
  ]);
  const { effects, result, state } = run(initialState(OWNER), { type: "retry", at: T0, ...interrupted });
  assert.equal(result, true);
  const [prompt] = of(effects, "prompt");
  assert.equal(prompt!.turn.attempt, 2);
  assert.equal(prompt!.turn.owner, OWNER);
  assert.match(prompt!.note!, /attempt 2 .*Edit main\.ts.*outcome unknown.*I started editing/s);
  const parts = state.turns[interrupted.record.id]!.message.parts;
  assert.equal(parts.at(-1)!.type, "retry", "the earlier attempt's parts stay, followed by a divider");
  const completed = stored({ state: "settled", outcome: "completed" });
  assert.equal(run(initialState(OWNER), { type: "retry", at: T0, ...completed }).result, false);
  assert.equal(run(state, { type: "retry", at: T0, ...interrupted }).result, false, "already running again");
});

test("a round settles once its last turn has: the roundSettled effect carries every answer", () => {
  const a = admit(initialState(OWNER), ["a", "b"]);
  const root = a.message.id;
  const one = ended(a.state, a.turns[0]!);
  assert.equal(of(run(one.state, { type: "roundCheck", rootMessageId: root }).effects, "roundSettled").length, 0, "b still answering");
  const two = ended(one.state, a.turns[1]!);
  const check = run(two.state, { type: "roundCheck", rootMessageId: root });
  assert.deepEqual(of(check.effects, "roundSettled")[0]!.answers.map((x) => [x.agent, x.outcome]), [["a", "completed"], ["b", "completed"]]);
  assert.equal(of(run(check.state, { type: "roundCheck", rootMessageId: root }).effects, "roundSettled").length, 0, "once");
});

test("close: running attempts end interrupted with what they received; queued turns stay pending", () => {
  const first = admit(initialState(OWNER), ["a"]);
  const streamed = run(first.state, { type: "update", at: T0, turnId: first.turns[0]!.turnId, attempt: 1, update: text("Working") });
  const second = admit(streamed.state, ["a"]);
  const { effects, state } = run(second.state, { type: "close", at: T0 + 100 });
  assert.deepEqual(finished(effects).map((m) => [m.outcome, (m.parts[0] as { text?: string })?.text]), [["interrupted", "Working"]]);
  assert.equal(state.turns[second.turns[0]!.turnId]!.record.state, "pending");
  assert.equal(of(effects, "prompt").length, 0);
});
