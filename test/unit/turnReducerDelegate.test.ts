/**
 * Issue 22, the reducer's side of the `delegate` tool, as tables over frozen states: the intent is written before
 * the child turn exists, the child's settlement settles the intent in its own batch, Stop on the parent stops the
 * child, and a stale or stopping parent admits nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { IntentRecord } from "../../src/store/records";
import type { Admission } from "../../src/turns/reducer";
import { of, run, running, T0 } from "./reducerHarness";

function delegation(agent = "a") {
  const parent = running(agent);
  const child: Admission = { turnId: "TCHILD", messageId: "MCHILD", channelId: "C1", agent: "b", requestMessageId: parent.turn.messageId, rootMessageId: parent.turn.rootMessageId, prompt: "count", parentTurnId: parent.turn.turnId, delegatedBy: agent, parentMessageId: parent.turn.messageId };
  const intent: IntentRecord = { version: 1, id: "I1", turnId: parent.turn.turnId, attempt: 1, agent, kind: "delegate", phase: "intended", member: "b", request: "count", childTurnId: "TCHILD", childMessageId: "MCHILD", createdAt: T0, updatedAt: T0 };
  const input = { type: "delegate" as const, at: T0 + 1, turnId: parent.turn.turnId, attempt: 1, intent, child };
  return { parent, child, intent, input };
}

test("delegate: the intent alone first, then the parent's card, then the child with the intent running in one batch, then its prompt", () => {
  const { parent, input } = delegation();
  const { effects, result, state } = run(parent.state, input);
  assert.equal(result, true);
  const persists = of(effects, "persist");
  assert.deepEqual(persists[0], { type: "persist", intents: [input.intent] });
  const card = persists[1]!.messages![0]!.parts.find((p) => p.type === "toolCall");
  assert.deepEqual(card && "delegation" in card ? card.delegation : undefined, { member: "b", childMessageId: "MCHILD" });
  assert.deepEqual(persists[2]!.turns!.map((t) => [t.id, t.state, t.parentIntentId]), [["TCHILD", "running", "I1"]]);
  assert.deepEqual(persists[2]!.intents!.map((i) => i.phase), ["running"]);
  assert.equal(persists[2]!.messages![0]!.delegatedVia, "tool");
  assert.ok(effects.indexOf(persists[2]!) < effects.findIndex((e) => e.type === "prompt"));
  assert.equal(state.delegations.TCHILD?.phase, "running");
});

test("delegate: the child's settlement settles the intent in the same batch, with its answer; the parent's card follows", () => {
  const { parent, input } = delegation();
  const { effects, state } = run(
    parent.state,
    input,
    { type: "update", at: T0 + 2, turnId: "TCHILD", attempt: 1, update: { kind: "text", text: "42" } },
    { type: "promptEnded", at: T0 + 3, turnId: "TCHILD", attempt: 1, stopReason: "end_turn" },
  );
  const settling = of(effects, "persist").find((p) => p.turns?.some((t) => t.id === "TCHILD" && t.state === "settled"));
  assert.deepEqual(settling?.intents?.map((i) => [i.id, i.phase, i.result, i.answer]), [["I1", "settled", "done", "42"]]);
  assert.deepEqual(of(effects, "delegationSettled").map((e) => e.intent.result), ["done"]);
  assert.deepEqual(state.delegations, {});
  const card = state.turns[parent.turn.turnId]!.message.parts.find((p) => p.type === "toolCall");
  assert.equal(card?.type === "toolCall" ? card.status : undefined, "completed");
});

test("delegate: the agent's own card for its delegate call carries the delegation; one card, kept when the agent announces it again", () => {
  const { parent, input } = delegation();
  const announce = (isUpdate: boolean, status: "in_progress" | "completed", content?: string) => ({ type: "update" as const, at: T0, turnId: parent.turn.turnId, attempt: 1, update: { kind: "toolCall" as const, isUpdate, toolCallId: "toolu_1", title: "mcp__sidekicks__delegate", toolKind: "other" as const, status, ...(content ? { content } : {}) } });
  const { state } = run(
    parent.state,
    { ...announce(false, "in_progress"), update: { ...announce(false, "in_progress").update, toolCallId: "toolu_0", title: "mcp__other__delegate" } },
    announce(false, "in_progress"),
    input,
    announce(false, "in_progress"),
    { type: "update", at: T0 + 2, turnId: "TCHILD", attempt: 1, update: { kind: "text", text: "42" } },
    { type: "promptEnded", at: T0 + 3, turnId: "TCHILD", attempt: 1, stopReason: "end_turn" },
    announce(true, "completed", "42"),
  );
  const cards = state.turns[parent.turn.turnId]!.message.parts.filter((p) => p.type === "toolCall");
  assert.deepEqual(
    cards.map((p) => (p.type === "toolCall" ? [p.toolCallId, p.status, p.delegation?.childMessageId ?? "-"] : [])),
    [["toolu_0", "in_progress", "-"], ["toolu_1", "completed", "MCHILD"]],
    "another server's delegate tool is not taken for Sidekicks'; no second card of Sidekicks' own",
  );
});

test("delegate: Stop on the parent stops the child too; a parent being stopped or a stale attempt admits nothing", () => {
  const { parent, input } = delegation();
  const stopped = run(parent.state, input, { type: "cancel", at: T0 + 2, messageId: parent.turn.messageId });
  assert.deepEqual(of(stopped.effects, "cancelPrompt").map((e) => e.turnId), ["TCHILD", parent.turn.turnId]);
  const stopping = run(parent.state, { type: "cancel", at: T0 + 2, messageId: parent.turn.messageId }, input);
  assert.equal(stopping.result, false);
  assert.equal(stopping.state.turns.TCHILD, undefined);
  const stale = run(parent.state, { ...input, attempt: 2 });
  assert.equal(stale.result, false);
  assert.deepEqual(of(stale.effects, "persist"), [], "nothing written for a stale attempt");
});
