/**
 * Tool intents: recorded around the effect, and classified from evidence after a crash — what the user then sees in
 * the interrupted answer, and what a Retry tells the agent.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import test from "node:test";
import { Store } from "../../src/store/Store";
import type { IntentRecord, MessageRecord, TurnRecord } from "../../src/store/records";
import { IntentLog, classifyWrite, hashText } from "../../src/turns/intents";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { tempDir } from "./helpers";

const cases: [string, string | undefined, string | undefined, string, string][] = [
  // [what, before, now, intended, expected]
  ["the file holds the intended text", "old", "new", "new", "applied"],
  ["the file still holds the old text", "old", "old", "new", "not_applied"],
  ["a new file that exists with the intended text", undefined, "new", "new", "applied"],
  ["a new file that was never created", undefined, undefined, "new", "not_applied"],
  ["someone else changed the file", "old", "other", "new", "uncertain"],
  ["the file was deleted", "old", undefined, "new", "uncertain"],
  ["half written (a prefix of the intended text)", "old", "ne", "new", "uncertain"],
  ["an empty intended text that was applied", "old", "", "", "applied"],
  ["a write that changes nothing (old = new) counts as applied", "same", "same", "same", "applied"],
  ["unicode text", "été", "hiver ❄️", "hiver ❄️", "applied"],
];
for (const [what, before, now, intended, expected] of cases) {
  test(`write intent classification: ${what} → ${expected}`, () => {
    assert.equal(classifyWrite({ beforeHash: hashText(before), afterHash: hashText(intended)! }, now), expected);
  });
}

test("an intent is recorded intended → running → settled, and leaves the open index when settled; a failing effect settles failed", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    let n = 0;
    const log = new IntentLog(store, () => `I${++n}`, () => 42);
    const intent = await log.intend({ turnId: "T1", attempt: 1, agent: "a", kind: "terminal", command: "npm", args: ["test"] });
    assert.deepEqual((await store.openIntents()).map((i) => i.phase), ["intended"]);
    assert.equal(await log.around(intent, async () => 7), 7);
    assert.deepEqual((await store.intentsOf("T1")).map((i) => [i.phase, i.result]), [["settled", "done"]]);
    assert.deepEqual(await store.openIntents(), []);
    const failing = await log.intend({ turnId: "T1", attempt: 1, agent: "a", kind: "write", path: "/x" });
    await assert.rejects(log.around(failing, async () => { throw new Error("disk full"); }), /disk full/);
    const [, second] = await store.intentsOf("T1");
    assert.deepEqual([second!.result, second!.detail], ["failed", "disk full"]);
  } finally {
    await store.close();
    cleanup();
  }
});

test("after a crash: the interrupted answer shows what Sidekicks did for the agent — an applied write, one not applied, a command of unknown outcome — and a Retry tells the agent", async () => {
  const s = await channelSetup([fakeAgent("a", { prompt: [{ echo: true }] })]);
  const { dir, cleanup } = tempDir();
  try {
    const done = path.join(dir, "done.ts");
    const notDone = path.join(dir, "not done.ts");
    await writeFile(done, "export const v = 2;\n");
    await writeFile(notDone, "old\n");
    const turn: TurnRecord = { version: 1, id: "01J000000000000000000000TT", channelId: s.general.id, agent: "a", requestMessageId: "01J000000000000000000000UU", messageId: "01J000000000000000000000MM", rootMessageId: "01J000000000000000000000UU", prompt: "edit both", state: "running", attempt: 1, owner: "DEAD", createdAt: 1, updatedAt: 1 };
    const answer: MessageRecord = { version: 1, id: turn.messageId, channelId: s.general.id, author: { kind: "agent", agentName: "a" }, parts: [{ type: "text", text: "Editing" }], createdAt: 1, turnId: turn.id };
    const base = { version: 1 as const, turnId: turn.id, attempt: 1, agent: "a", createdAt: 1, updatedAt: 1 };
    const intents: IntentRecord[] = [
      { ...base, id: "I1", kind: "write", phase: "running", path: done, beforeHash: hashText("export const v = 1;\n"), afterHash: hashText("export const v = 2;\n")! },
      { ...base, id: "I2", kind: "write", phase: "running", path: notDone, beforeHash: hashText("old\n"), afterHash: hashText("new\n")! },
      { ...base, id: "I3", kind: "terminal", phase: "running", command: "npm", args: ["run", "migrate"] },
    ];
    await s.store.commit({ messages: [answer], turns: [turn], intents });
    await s.reopen();
    await s.channels.ready;
    const shown = (await s.channels.messages.open("general")).messages.find((m) => m.id === answer.id)!;
    assert.equal(shown.outcome, "interrupted");
    const cards = shown.parts.filter((p) => p.type === "toolCall").map((p) => (p.type === "toolCall" ? [p.title, p.status, p.outcomeUnknown ?? false] : []));
    assert.deepEqual(cards, [
      [`Sidekicks wrote ${done} for @a`, "completed", false],
      [`Sidekicks wrote ${notDone} for @a`, "failed", false],
      ["Sidekicks ran npm for @a", "in_progress", true],
    ]);
    assert.deepEqual(await s.store.openIntents(), [], "every intent settled by recovery");
    assert.equal(await readFile(notDone, "utf8"), "old\n", "nothing was re-run or re-written");

    assert.equal(await s.channels.turns.retryMessage(answer.id), true);
    const retried = await s.finished((m) => m.id === answer.id && m.outcome === "completed");
    assert.match(textOf(retried), /Sidekicks, for you: write .*done\.ts: applied.*Sidekicks, for you: write .*not done\.ts: not applied.*Sidekicks, for you: run npm run migrate: outcome uncertain/s);
  } finally {
    await s.teardown();
    cleanup();
  }
});
