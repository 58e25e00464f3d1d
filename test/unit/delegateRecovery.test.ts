/**
 * Issue 22: a crash during a delegation through the `delegate` tool leaves a truthful record. The store a killed host
 * leaves is built from the reducer's own `persist` batches, committed in order up to the kill point (a kill stops the
 * sequence between two batches), into LevelDB in a temp folder; the store is then opened again with the fake agents
 * (real subprocesses) and the sweeper runs. Kill points: before the child is admitted, while it runs, after it
 * settled and before the parent saw the result.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import type { AgentConfig } from "../../src/config/roster";
import type { ToolCallPart } from "../../src/shared/protocol";
import type { IntentRecord, MessageRecord } from "../../src/store/records";
import type { Store } from "../../src/store/Store";
import { initialState, reduce, type Admission, type EngineEffect, type EngineInput, type EngineState } from "../../src/turns/reducer";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";

type Kill = "before admission" | "while the child runs" | "after the child settled";
const ulid = monotonicFactory();
const mcpAgent = (name: string, steps: object[]): AgentConfig => ({ ...fakeAgent(name, { mcpHttp: true, prompt: steps }), mcpServers: [] });

/** The batches a host (owner DEAD) commits for "@a go" where a delegates "count the tests" to b, up to `kill`. */
async function crashedStore(store: Store, channelId: string, kill: Kill) {
  const at = Date.now() - 60_000;
  const user: MessageRecord = { version: 1, id: ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: "@a go" }], createdAt: at, to: ["a"] };
  const parent: Admission = { turnId: ulid(at), messageId: ulid(at), channelId, agent: "a", requestMessageId: user.id, rootMessageId: user.id, prompt: "@a go" };
  const child: Admission = { turnId: ulid(at + 1), messageId: ulid(at + 1), channelId, agent: "b", requestMessageId: parent.messageId, rootMessageId: user.id, prompt: "count the tests", parentTurnId: parent.turnId, delegatedBy: "a", parentMessageId: parent.messageId };
  const intent: IntentRecord = { version: 1, id: ulid(at + 1), turnId: parent.turnId, attempt: 1, agent: "a", kind: "delegate", phase: "intended", member: "b", request: "count the tests", childTurnId: child.turnId, childMessageId: child.messageId, createdAt: at + 1, updatedAt: at + 1 };
  const batches: EngineEffect[][] = [];
  let state: EngineState = initialState("DEAD");
  const step = (input: EngineInput) => {
    const r = reduce(state, input, 5_000);
    state = r.state;
    batches.push(r.effects.filter((e) => e.type === "persist"));
  };
  step({ type: "admit", at, message: user, turns: [parent] });
  step({ type: "delegate", at: at + 1, turnId: parent.turnId, attempt: 1, intent, child });
  step({ type: "update", at: at + 2, turnId: child.turnId, attempt: 1, update: { kind: "text", text: "There are 42 tests." } });
  step({ type: "promptEnded", at: at + 3, turnId: child.turnId, attempt: 1, stopReason: "end_turn" });
  const writes = batches.flat() as Extract<EngineEffect, { type: "persist" }>[];
  // The delegate input writes the intent alone, then the parent's card, then the child with the intent running.
  const upTo = kill === "before admission" ? 2 : kill === "while the child runs" ? 4 : writes.length;
  assert.deepEqual(writes[1]!.intents?.map((i) => i.phase), ["intended"], "the intent is written before the child exists");
  assert.equal(writes[1]!.turns, undefined);
  for (const w of writes.slice(0, upTo)) await store.commit({ messages: w.messages, turns: w.turns, intents: w.intents });
  return { parent, child, intent };
}

/** b's messages in the channel. */
async function messagesOfB(store: Store, channelId: string) {
  return (await store.latestMessages(channelId, 50)).filter((m) => m.author.agentName === "b");
}

const RETRY: Record<Kill, string> = {
  "before admission": "a Retry of a delegates for real (nothing had started)",
  "while the child runs": "a Retry of a is told the outcome is not known",
  "after the child settled": "a Retry of a gets b's kept answer",
};

for (const kill of ["before admission", "while the child runs", "after the child settled"] as const) {
  test(`delegate, killed ${kill}: the sweeper leaves a truthful record, b never runs by itself, then ${RETRY[kill]}`, async () => {
    const s = await channelSetup([mcpAgent("a", [{ mcpCall: { tool: "delegate", args: { member: "b", request: "count the tests" } } }]), fakeAgent("b", { prompt: [{ chunk: "b ran again" }] })]);
    try {
      const { parent, child, intent } = await crashedStore(s.store, s.general.id, kill);
      await s.reopen();
      await s.channels.ready;
      const parentMessage = (await s.store.message(s.general.id, parent.messageId))!;
      assert.equal(parentMessage.outcome, "interrupted");
      assert.deepEqual(await s.store.openTurns(), [], "nothing queued or running after recovery");
      const [stored] = await s.store.intentsOf(parent.turnId);
      const bMessages = await messagesOfB(s.store, s.general.id);
      const card = parentMessage.parts.find((p): p is ToolCallPart => p.type === "toolCall" && p.title === "Delegated to @b" && p.toolCallId === `intent-${intent.id}`);
      const delegationCards = parentMessage.parts.filter((p) => p.type === "toolCall" && p.title === "Delegated to @b");
      assert.equal(delegationCards.length, 1, "one delegation, one card: recovery's card takes the place of the live one");
      if (kill === "before admission") {
        assert.equal(stored?.result, "not_started");
        assert.equal(bMessages.length, 0, "no child was admitted");
        assert.ok(card, "the recovered card says so");
        assert.equal(card.status, "failed");
        assert.equal(card.delegation, undefined, "no link to an answer that was never admitted");
      } else if (kill === "while the child runs") {
        assert.equal(stored?.result, "outcome_uncertain");
        assert.equal(card?.outcomeUnknown, true);
        assert.deepEqual(card?.delegation, { member: "b", childMessageId: child.messageId });
        assert.deepEqual(bMessages.map((m) => m.outcome), ["interrupted"]);
      } else {
        assert.equal(stored?.result, "done");
        assert.equal(stored?.answer, "There are 42 tests.");
        assert.deepEqual(bMessages.map((m) => [m.outcome, m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")]), [["completed", "There are 42 tests."]]);
      }

      assert.equal(await s.channels.turns.retry(s.general.id, parent.messageId), true);
      const again = await s.finished((m) => m.id === parent.messageId && m.outcome === "completed", 20_000);
      const result = textOf(again);
      const after = await messagesOfB(s.store, s.general.id);
      if (kill === "before admission") {
        assert.match(result, /ran again/, "nothing had started: the new attempt delegates for real");
        assert.equal(after.length, 1);
      } else if (kill === "while the child runs") {
        assert.match(result, /isError":true/);
        assert.match(result, /its outcome is not known, and it is not run again by itself/);
        assert.equal(after.length, 1, "b was not run again");
      } else {
        assert.match(result, /There are 42 tests\.\\n\\n\[Sidekicks: @b's answer from your earlier attempt \(attempt 1\); @b was not run again\.\]/);
        assert.doesNotMatch(result, /b ran again/);
        assert.equal(after.length, 1, "b was not run again");
      }
    } finally {
      await s.teardown();
    }
  });
}
