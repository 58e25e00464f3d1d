/**
 * Run again (issue 15, item 4), end to end: the channel service over a temp LevelDB with the fake agent as a real
 * subprocess. What the user stopped is not lost: an answer they stopped runs again in the same message and the agent
 * is told what the stopped attempt did; a queued message they removed before it started runs when they ask.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { tempDir, waitFor } from "./helpers";

test("Stop, then Run again: attempt 2 in the same message, told what the stopped attempt did; saved, and shown so after a reopen", async () => {
  const s = await channelSetup([
    fakeAgent("a", {
      prompt: [{ echo: true }, { toolCall: { toolCallId: "t1", title: "Run the tests", kind: "execute", status: "in_progress" } }, { untilCancelled: true, once: true }, { chunk: " Done." }],
    }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@a run the tests");
    const answerId = (await waitFor(() => s.events.of("message/started").find((m) => m.author.kind === "agent"))).id;
    await waitFor(() => s.events.of("message/delta").find((d) => d.messageId === answerId && d.part?.type === "toolCall"));
    assert.equal(await s.channels.turns.cancel(answerId), true);
    const stopped = await s.finished((m) => m.id === answerId);
    assert.deepEqual([stopped.outcome, stopped.retryable], ["cancelled", true], "stopped, and offered to run again");
    const card = stopped.parts.find((p) => p.type === "toolCall");
    assert.ok(card?.type === "toolCall" && card.cancelled, "the tool call it was running says cancelled");

    assert.equal(await s.channels.turns.retryMessage(answerId), true);
    const again = await s.finished((m) => m.id === answerId && m.outcome === "completed");
    assert.equal(again.attempt, 2);
    const before = textOf(stopped);
    assert.equal(before, "You said: run the tests");
    assert.ok(textOf(again).startsWith(before), "attempt 1's text stays above the divider");
    const after = textOf(again).slice(before.length);
    assert.deepEqual(again.parts.map((p) => p.type), ["text", "toolCall", "retry", "text", "toolCall", "text"]);
    assert.match(after, /attempt 2 of this request\. Attempt 1 was stopped by the user before it finished/, "the agent is told it was stopped");
    assert.match(after, /"Run the tests" \(execute\): cancelled by the user.*You said: run the tests/s, "…and what it had done");
    assert.match(after, /run the tests Done\.$/, "then the request itself, answered in full");

    await s.reopen();
    const shown = (await s.channels.messages.open("general")).messages.find((m) => m.id === answerId)!;
    assert.deepEqual([shown.outcome, shown.attempt, shown.retryable], ["completed", 2, undefined]);
    assert.equal(textOf(shown), textOf(again));
  } finally {
    await s.teardown();
  }
});

test("a queued message removed from the queue never reached the agent; Run again queues it, and it runs after the current answer, as sent", async () => {
  const { dir, cleanup } = tempDir();
  const gate = path.join(dir, "gate");
  const s = await channelSetup([fakeAgent("a", { prompt: [{ echo: true }, { untilFile: { path: gate, includes: "go" } }] })]);
  try {
    await s.channels.messages.send(s.general.id, "@a first");
    await s.channels.messages.send(s.general.id, "@a second");
    const queued = await waitFor(() => s.events.of("message/started").find((m) => m.status === "queued"));
    assert.equal(await s.channels.turns.cancel(queued.id), true);
    const removed = await s.finished((m) => m.id === queued.id);
    assert.deepEqual([removed.outcome, removed.retryable, removed.parts.length], ["cancelled", true, 0]);

    assert.equal(await s.channels.turns.retryMessage(queued.id), true);
    await waitFor(() => s.events.of("message/started").filter((m) => m.id === queued.id && m.status === "queued").length === 2 || undefined, 5000, "queued again");
    writeFileSync(gate, "go");
    const first = await s.finished((m) => m.author.kind === "agent" && m.id !== queued.id && m.outcome === "completed");
    assert.match(textOf(first), /You said: first$/);
    const second = await s.finished((m) => m.id === queued.id && m.outcome === "completed");
    assert.match(textOf(second), /second$/);
    assert.doesNotMatch(textOf(second), /attempt \d of this request|first$/m, "no note about an earlier attempt: none ran");
    assert.deepEqual(second.parts.map((p) => p.type), ["text"], "no divider");
    assert.equal(second.attempt, undefined, "its first attempt");
  } finally {
    await s.teardown();
    cleanup();
  }
});
