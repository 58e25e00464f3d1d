import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_DELEGATIONS } from "../../src/channels/delegation";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";

const says = (text: string) => ({ prompt: [{ chunk: text }] });
const quiet = { prompt: [{ echoWithoutMentions: true }] };

test("delegation: a final answer that @mentions a member starts its turn, linked to the answer, kept after a reopen", async () => {
  const s = await channelSetup([fakeAgent("a", says("@b please check the tests")), fakeAgent("b", quiet)]);
  try {
    const { messageId } = await s.channels.messages.send(s.general.id, "@a go");
    const parent = await s.finished((m) => m.author.agentName === "a");
    const child = await s.finished((m) => m.author.agentName === "b");
    assert.equal(child.delegatedBy, "a");
    assert.equal(child.parentMessageId, parent.id);
    assert.ok(child.id > parent.id);
    assert.match(textOf(child), /＠a delegated this to you:\n\n＠b please check the tests$/);
    assert.match(textOf(child), /user:\n＠a go\n/, "the delegate also gets what it had not seen, the user's message included");
    await s.reopen();
    const { messages } = await s.channels.messages.open("general");
    assert.deepEqual(
      messages.map((m) => [m.author.agentName ?? m.author.kind, m.delegatedBy ?? null]),
      [["user", null], ["a", null], ["b", "a"]],
    );
    assert.ok(messages[0]!.id === messageId);
  } finally {
    await s.teardown();
  }
});

test("delegation: two agents do not bounce between each other; a system message says why", async () => {
  const s = await channelSetup([fakeAgent("a", says("@b ping")), fakeAgent("b", says("@a pong"))]);
  try {
    await s.channels.messages.send(s.general.id, "@a go");
    const note = await s.finished((m) => m.author.kind === "system");
    assert.match(textOf(note), /Not delegated back to @a: @a delegated to @b, and the two would bounce between each other\./);
    const { messages } = await s.channels.messages.open("general");
    assert.deepEqual(messages.map((m) => m.author.agentName ?? m.author.kind), ["user", "a", "b", "system"]);
  } finally {
    await s.teardown();
  }
});

test(`delegation: one user message causes at most ${MAX_DELEGATIONS} delegations`, async () => {
  const s = await channelSetup([
    fakeAgent("a", says("@b next")),
    fakeAgent("b", says("@c next")),
    fakeAgent("c", says("@d next")),
    fakeAgent("d", says("@e next")),
    fakeAgent("e", quiet),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@a go");
    // Four agents start one after the other: on a loaded machine that alone can take longer than the default wait.
    const note = await s.finished((m) => m.author.kind === "system", 60_000);
    assert.match(textOf(note), /Not delegated to @e: this message already caused 3 delegations \(the limit\)\. Mention @e yourself to continue\./);
    const { messages } = await s.channels.messages.open("general");
    assert.deepEqual(
      messages.map((m) => [m.author.agentName ?? m.author.kind, m.delegatedBy ?? null]),
      [["user", null], ["a", null], ["b", "a"], ["c", "b"], ["d", "c"], ["system", null]],
    );
  } finally {
    await s.teardown();
  }
});
