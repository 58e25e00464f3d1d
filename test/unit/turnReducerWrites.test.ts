/**
 * The reducer's inputs for what reaches a turn after its prompt (issue 16: every durable write through a reducer input
 * and a `persist` effect): the files a settled turn changed, the agent's session id, and the tool intents recovery
 * settles for turns settled already. A table like `turnReducer.test.ts`: every state handed in is deep-frozen.
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { IntentRecord, MessageRecord } from "../../src/store/records";
import { initialState } from "../../src/turns/reducer";
import { OWNER, T0, of, run, running } from "./reducerHarness";

const ended = (state: ReturnType<typeof running>["state"], turnId: string) => run(state, { type: "promptEnded", at: T0 + 10, turnId, attempt: 1, stopReason: "end_turn" }).state;
const late = (turnId: string, text: string) => ({ type: "update" as const, at: T0 + 20, turnId, attempt: 1, update: { kind: "text" as const, text } });
const files = [{ path: "/p/notes.md", kind: "modified" as const, before: "# notes\n" }];
const kinds = (m: MessageRecord | undefined) => m?.parts.map((p) => p.type);

test("files changed after settlement: kept with their earlier texts and listed on the answer in one batch, then shown", () => {
  const { state, turn } = running();
  const { effects } = run(ended(state, turn.turnId), { type: "filesChanged", turnId: turn.turnId, files });
  const [batch] = of(effects, "persist");
  assert.deepEqual(batch!.values, [{ key: `turnFiles/${turn.turnId}`, value: files }]);
  assert.deepEqual(kinds(batch!.messages![0]), ["files"]);
  assert.deepEqual(effects.map((e) => e.type), ["persist", "broadcast"], "saved, then shown");
  assert.deepEqual(of(effects, "broadcast")[0]!.message.parts, [{ type: "files", files: [{ path: "/p/notes.md", kind: "modified", beforeKnown: true }] }]);
});

test("a late update and the files card, in either order: the answer written last holds both", () => {
  for (const order of ["card first", "late first"]) {
    const { state, turn } = running();
    const inputs = [{ type: "filesChanged" as const, turnId: turn.turnId, files }, late(turn.turnId, "late text")];
    const { effects } = run(ended(state, turn.turnId), ...(order === "card first" ? inputs : inputs.reverse()));
    const last = of(effects, "persist").at(-1)!.messages![0];
    assert.deepEqual(kinds(last), order === "card first" ? ["files", "text"] : ["text", "files"], order);
  }
});

test("files changed for a turn this host no longer holds go on the stored answer; after close nothing is written", () => {
  const { state, turn } = running();
  const stored: MessageRecord = { version: 1, id: turn.messageId, channelId: "C1", author: { kind: "agent", agentName: "a" }, parts: [{ type: "text", text: "earlier" }], createdAt: T0, turnId: "T-other" };
  const gone = run(state, { type: "filesChanged", turnId: "T-other", files, stored });
  assert.deepEqual(kinds(of(gone.effects, "persist")[0]!.messages![0]), ["text", "files"]);
  const closed = run(state, { type: "close", at: T0 + 5 }, { type: "filesChanged", turnId: turn.turnId, files });
  assert.equal(of(closed.effects, "persist").filter((p) => p.values).length, 0);
});

test("a session opened for a member: its id is persisted for session/load; nothing else changes", () => {
  const { state } = running();
  const { effects, state: next } = run(state, { type: "sessionOpened", channelId: "C1", agent: "a", sessionId: "S-2" });
  assert.deepEqual(effects, [{ type: "persist", session: { channelId: "C1", agent: "a", acpSessionId: "S-2" } }]);
  assert.deepEqual(next, state);
});

test("the skills in use as an attempt prompts are written on its turn, fenced; a stale attempt writes nothing", () => {
  const { state, turn } = running();
  const skills = [{ name: "release-notes", version: "1.2.0" }];
  const { effects, state: next } = run(state, { type: "skillsInUse", turnId: turn.turnId, attempt: 1, skills });
  const [batch] = of(effects, "persist");
  assert.deepEqual(batch!.turns!.map((t) => [t.id, t.skills]), [[turn.turnId, skills]]);
  assert.ok(batch!.fence, "fenced like every write of the attempt");
  assert.deepEqual(next.turns[turn.turnId]!.record.skills, skills, "later writes of the turn keep them");
  assert.deepEqual(run(state, { type: "skillsInUse", turnId: turn.turnId, attempt: 2, skills }).effects, []);
});

test("recovery: an intent of a turn settled already is written settled in one batch with its card, before any settlement", () => {
  const answer: MessageRecord = { version: 1, id: "M-old", channelId: "C1", author: { kind: "agent", agentName: "a" }, parts: [{ type: "text", text: "done" }], createdAt: T0, turnId: "T-old" };
  const intent: IntentRecord = { version: 1, id: "I1", turnId: "T-old", attempt: 1, agent: "a", kind: "write", phase: "settled", path: "/p/x.ts", result: "applied", createdAt: T0, updatedAt: T0 };
  const { effects } = run(initialState(OWNER), { type: "recover", at: T0, turns: [], orphans: [{ message: answer, intents: [intent] }] });
  const [batch] = of(effects, "persist");
  assert.deepEqual(batch!.intents, [intent]);
  assert.deepEqual(kinds(batch!.messages![0]), ["text", "toolCall"]);
  assert.match(JSON.stringify(batch!.messages![0]!.parts[1]), /x\.ts/);
});
