/**
 * Issue 22: delegation as a tool. The fake agent `a` (a real subprocess) calls `delegate` on Sidekicks' MCP server with
 * the MCP SDK's client; `b`, another fake agent, answers the child turn. LevelDB in a temp folder holds the intent.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { AgentConfig } from "../../src/config/roster";
import type { ToolCallPart } from "../../src/shared/protocol";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { waitFor } from "./helpers";

/** An agent announcing MCP over HTTP whose prompt runs `steps`. */
const mcpAgent = (name: string, steps: object[]): AgentConfig => ({ ...fakeAgent(name, { mcpHttp: true, prompt: steps }), mcpServers: [] });
const delegateTo = (member: string, request: string) => ({ mcpCall: { tool: "delegate", args: { member, request } } });
/** The tool result the fake agent wrote: `mcp: <JSON>` → its text and isError. */
function toolResult(text: string): { text: string; isError: boolean } {
  const m = /mcp: (\{.*\})/s.exec(text);
  assert.ok(m, `a tool result in ${text}`);
  const r = JSON.parse(m[1]!) as { content: { text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join(""), isError: r.isError === true };
}

test("delegate: the child turn is linked to the parent's intent, runs as b's answer, and its final answer is the tool's result", async () => {
  const s = await channelSetup([mcpAgent("a", [delegateTo("b", "count the tests"), { chunk: " (done)" }]), fakeAgent("b", { prompt: [{ chunk: "There are 42 tests." }] })]);
  try {
    await s.channels.messages.send(s.general.id, "@a go");
    const parent = await s.finished((m) => m.author.agentName === "a", 20_000);
    const child = await s.finished((m) => m.author.agentName === "b");
    assert.equal(parent.outcome, "completed");
    assert.deepEqual(toolResult(textOf(parent)), { text: "There are 42 tests.", isError: false });
    assert.equal(child.delegatedBy, "a");
    assert.equal(child.delegatedVia, "tool");
    assert.equal(child.parentMessageId, parent.id);
    const card = parent.parts.find((p): p is ToolCallPart => p.type === "toolCall" && !!p.delegation);
    assert.deepEqual(card?.delegation, { member: "b", childMessageId: child.id }, "the parent's card names the child and links to it");
    assert.equal(card?.status, "completed");

    const parentTurn = (await s.store.message(s.general.id, parent.id))!.turnId!;
    const [intent] = (await s.store.intentsOf(parentTurn)).filter((i) => i.kind === "delegate");
    const childTurn = await s.store.turn((await s.store.message(s.general.id, child.id))!.turnId!);
    assert.equal(intent?.phase, "settled");
    assert.equal(intent?.result, "done");
    assert.equal(intent?.answer, "There are 42 tests.");
    assert.equal(intent?.childTurnId, childTurn?.id);
    assert.equal(childTurn?.parentTurnId, parentTurn);
    assert.equal(childTurn?.parentIntentId, intent?.id);
    assert.ok(intent!.createdAt <= childTurn!.createdAt);
  } finally {
    await s.teardown();
  }
});

test("delegate: not a member, oneself, and straight back to the delegating agent are refused with a tool error", async () => {
  const s = await channelSetup([
    mcpAgent("a", [delegateTo("zed", "x"), { chunk: "\n" }, delegateTo("a", "x"), { chunk: "\n" }, delegateTo("b", "ask a back")]),
    mcpAgent("b", [delegateTo("a", "bounce")]),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@a go");
    const parent = await s.finished((m) => m.author.agentName === "a", 20_000);
    const child = await s.finished((m) => m.author.agentName === "b");
    const [notMember, self, viaB] = textOf(parent).split("\n");
    assert.deepEqual(toolResult(notMember!), { text: '"zed" is not a member of this channel. Its members: @a, @b.', isError: true });
    assert.match(toolResult(self!).text, /You cannot delegate to yourself/);
    assert.match(toolResult(textOf(child)).text, /Not delegated back to @a: @a delegated to @b/, "the loop guard of the mention path");
    assert.equal(toolResult(viaB!).isError, false, "b's answer (its own tool error, as text) is a's tool result");
  } finally {
    await s.teardown();
  }
});

test("delegate: Stop on the parent stops the child; the child's own Stop answers the parent's call with 'stopped by the user'", async () => {
  const s = await channelSetup([mcpAgent("a", [delegateTo("b", "wait"), { chunk: "\nafter" }]), fakeAgent("b", { prompt: [{ chunk: "b starts" }, { untilCancelled: true }] })]);
  try {
    // The child's own Stop: a gets a tool error and goes on.
    await s.channels.messages.send(s.general.id, "@a one");
    const childRunning = await waitFor(() => s.events.of("message/started").find((m) => m.author.agentName === "b"), 15_000);
    await waitFor(() => s.events.of("message/delta").find((d) => d.messageId === childRunning.id), 10_000);
    assert.equal(await s.channels.turns.cancel(childRunning.id), true);
    const first = await s.finished((m) => m.author.agentName === "a", 20_000);
    assert.equal(first.outcome, "completed");
    const stopped = toolResult(textOf(first));
    assert.equal(stopped.isError, true);
    assert.match(stopped.text, /stopped by the user/);
    assert.match(textOf(first), /\nafter$/);

    // Stop on the parent: the child is stopped with it.
    await s.channels.messages.send(s.general.id, "@a two");
    const second = await waitFor(() => s.events.of("message/started").filter((m) => m.author.agentName === "b")[1], 15_000);
    await waitFor(() => s.events.of("message/delta").find((d) => d.messageId === second.id), 10_000);
    const parentRunning = s.events.of("message/started").filter((m) => m.author.agentName === "a")[1]!;
    assert.equal(await s.channels.turns.cancel(parentRunning.id), true);
    const child = await s.finished((m) => m.id === second.id, 15_000);
    const parent = await s.finished((m) => m.id === parentRunning.id, 15_000);
    assert.equal(child.outcome, "cancelled");
    assert.equal(parent.outcome, "cancelled");
  } finally {
    await s.teardown();
  }
});

test("delegate: a child queued behind its member's other answer when the window closes is not started after the reload; the close does not wait for it", async () => {
  const s = await channelSetup([mcpAgent("a", [delegateTo("b", "later")]), fakeAgent("b", { prompt: [{ untilCancelled: true }] })]);
  try {
    await s.channels.messages.send(s.general.id, "@b hold on");
    await waitFor(() => s.events.of("message/started").find((m) => m.author.agentName === "b" && m.status === "streaming"), 15_000);
    await s.channels.messages.send(s.general.id, "@a go");
    const queued = await waitFor(() => s.events.of("message/started").find((m) => m.author.agentName === "b" && m.delegatedVia === "tool"), 15_000);
    assert.equal(queued.status, "queued");
    await s.reopen();
    await s.channels.ready;
    const child = (await s.store.message(s.general.id, queued.id))!;
    assert.equal(child.outcome, "cancelled");
    assert.match(child.error?.message ?? "", /^Not started: Sidekicks restarted before @b began/);
    const [intent] = (await s.store.intentsOf((await s.store.turn(child.turnId!))!.parentTurnId!)).filter((i) => i.kind === "delegate");
    assert.equal(intent?.result, "not_started");
    assert.deepEqual(await s.store.openTurns(), []);
  } finally {
    await s.teardown();
  }
});

test("delegate: a parent that stops waiting (its tool call timed out, its turn ended) leaves the child running; its card says so and links to the child's answer, which completes in the channel", async () => {
  const gate = path.join(mkdtempSync(path.join(os.tmpdir(), "sidekicks-gate-")), "go");
  const s = await channelSetup([
    mcpAgent("a", [{ mcpCall: { tool: "delegate", args: { member: "b", request: "count the tests" }, timeoutMs: 3_000 } }, { chunk: "\nmoved on" }]),
    fakeAgent("b", { prompt: [{ chunk: "Counting. " }, { untilFile: { path: gate, includes: "go" } }, { chunk: "There are 42 tests." }] }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@a go");
    const parent = await s.finished((m) => m.author.agentName === "a", 20_000);
    assert.equal(parent.outcome, "completed");
    assert.match(textOf(parent), /mcp error: .*timed out/i, "a's tool call gave up");
    const childStarted = s.events.of("message/started").find((m) => m.author.agentName === "b")!;
    assert.ok(!s.events.of("message/finished").some((m) => m.id === childStarted.id), "b still runs after a ended");
    const card = parent.parts.find((p): p is ToolCallPart => p.type === "toolCall" && !!p.delegation);
    assert.deepEqual(card?.delegation, { member: "b", childMessageId: childStarted.id }, "the card still links to b's answer");
    assert.equal(card?.noResult, true);
    assert.match(card?.content ?? "", /@a stopped waiting for this answer; @b goes on, and its answer stays in the channel\./);

    writeFileSync(gate, "go");
    const child = await s.finished((m) => m.id === childStarted.id, 20_000);
    assert.equal(child.outcome, "completed");
    assert.equal(textOf(child), "Counting. There are 42 tests.");
    const stored = (await s.store.message(s.general.id, parent.id))!;
    assert.match(stored.parts.find((p): p is ToolCallPart => p.type === "toolCall" && !!p.delegation)?.content ?? "", /stopped waiting/, "the parent's record keeps the note");
    const [intent] = (await s.store.intentsOf(stored.turnId!)).filter((i) => i.kind === "delegate");
    assert.equal(intent?.result, "done");
    assert.deepEqual(await s.store.openTurns(), []);
  } finally {
    await s.teardown();
  }
});
