// Field cases 11, 21, 23, 24 and 25, replayed by the scripted fake agent (a real subprocess) at the domain level: an agent
// that streams a code fence open across chunks; that answers end_turn after Stop and goes on talking; plans that replace each other and an empty one that clears;
// update kinds ACP does not define and `_meta` on everything; a tool's carriage-return progress, which the answer keeps as
// sent (the view shows its last frame) and another agent is told as a terminal shows it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { waitFor } from "./helpers";

const update = (u: object) => ({ update: u });
const plan = (...entries: [string, string][]) => update({ sessionUpdate: "plan", entries: entries.map(([content, status]) => ({ content, priority: "medium", status })) });

test("field case 23: end_turn after session/cancel settles cancelled; text sent after Stop stays with that answer, not a new turn; the next prompt works", async () => {
  const s = await channelSetup([
    fakeAgent("stubborn", {
      ignoreCancel: true,
      prompt: [{ chunk: "Working" }, { untilCancelled: true, once: true }, { chunk: " and still talking" }, { lateChunk: " (late)" }, { stop: "end_turn" }],
    }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@stubborn go");
    const started = await waitFor(() => s.events.of("message/started").find((m) => m.author.kind === "agent"), 10_000, "the answer");
    await waitFor(() => s.events.of("message/delta").find((d) => d.messageId === started.id), 10_000, "its first text");
    assert.equal(await s.channels.turns.cancel(started.id), true);
    const answer = await s.finished((m) => m.id === started.id);
    assert.equal(answer.outcome, "cancelled", "the user's Stop wins over the agent's end_turn");
    assert.match(textOf(answer), /^Working and still talking/);
    await s.channels.messages.send(s.general.id, "@stubborn again");
    const next = await s.finished((m) => m.author.kind === "agent" && m.id !== started.id);
    assert.equal(next.outcome, "completed");
    // The late chunk went to the stopped answer (field case 1's rule), and no third answer appeared.
    const { messages } = await s.channels.messages.open("general");
    const agents = messages.filter((m) => m.author.kind === "agent");
    assert.equal(agents.length, 2, "no phantom turn");
    assert.match(textOf(agents[0]!), /\(late\)$/);
  } finally {
    await s.teardown();
  }
});

test("field case 24: each plan replaces the last (one card, the latest); an empty plan clears it", async () => {
  const s = await channelSetup([
    fakeAgent("planner", {
      prompt: [plan(["Read", "in_progress"], ["Fix", "pending"]), plan(["Read", "completed"], ["Fix", "in_progress"], ["Test", "pending"]), { chunk: "Halfway." }],
    }),
    fakeAgent("clears", { prompt: [plan(["Read", "in_progress"]), plan(), { chunk: "No plan after all." }] }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@planner fix it");
    const planned = await s.finished((m) => m.author.agentName === "planner");
    const plans = planned.parts.filter((p) => p.type === "plan");
    assert.equal(plans.length, 1, "one plan card");
    assert.deepEqual(plans[0]!.type === "plan" && plans[0]!.entries.map((e) => `${e.content}:${e.status}`), ["Read:completed", "Fix:in_progress", "Test:pending"]);
    await s.channels.messages.send(s.general.id, "@clears go");
    const cleared = await s.finished((m) => m.author.agentName === "clears");
    const left = cleared.parts.filter((p) => p.type === "plan");
    assert.deepEqual(left, [], "the empty plan cleared the first: no plan is stored, none is shown");
  } finally {
    await s.teardown();
  }
});

test("field case 25: update kinds ACP does not define are ignored and logged once per kind; _meta everywhere does not hide the rest", async () => {
  const s = await channelSetup([
    fakeAgent("future", {
      prompt: [
        update({ sessionUpdate: "something_new", payload: 1 }),
        update({ sessionUpdate: "something_new", payload: 2 }),
        update({ sessionUpdate: "another_kind" }),
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Shown", _meta: { a: 1 } }, _meta: { b: 2 } }),
        { toolCall: { toolCallId: "t1", title: "Read a.ts", kind: "read", status: "completed", _meta: { c: 3 }, content: [{ type: "content", content: { type: "text", text: "ok" }, _meta: {} }], locations: [{ path: "/w/a.ts", _meta: {} }] } },
        update({ sessionUpdate: "plan", entries: [{ content: "Read", priority: "high", status: "completed", _meta: {} }], _meta: {} }),
      ],
    }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@future go");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(answer.outcome, "completed");
    assert.deepEqual(answer.parts.map((p) => p.type), ["text", "toolCall", "plan"]);
    assert.equal(textOf(answer), "Shown");
    const tool = answer.parts[1]!;
    assert.ok(tool.type === "toolCall" && tool.content === "ok" && tool.locations?.[0]?.path === "/w/a.ts");
    const logs = s.events.of("agent/log").map((l) => l.line);
    assert.equal(logs.filter((l) => l.includes('"something_new" ignored')).length, 1, `logged once:\n${logs.join("\n")}`);
    assert.equal(logs.filter((l) => l.includes('"another_kind" ignored')).length, 1);
  } finally {
    await s.teardown();
  }
});

test("field case 21: a tool's progress output is kept as sent, and another agent is told its last frame only", async () => {
  const progress = "Downloading   0%\rDownloading  25%\rDownloading  50%\rDownloading 100%\n";
  const s = await channelSetup([
    fakeAgent("fetcher", { prompt: [{ toolCall: { toolCallId: "dl", title: "Download", kind: "fetch", status: "completed", content: [{ type: "content", content: { type: "text", text: progress } }] } }, { chunk: "Downloaded." }] }),
    fakeAgent("reads", { prompt: [{ echo: true }] }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@fetcher get the model");
    const answer = await s.finished((m) => m.author.agentName === "fetcher");
    const tool = answer.parts.find((p) => p.type === "toolCall");
    assert.ok(tool?.type === "toolCall" && tool.content === progress, "kept as the agent sent it");
    await s.channels.messages.send(s.general.id, "@reads what happened?");
    const echoed = textOf(await s.finished((m) => m.author.agentName === "reads"));
    assert.match(echoed, /\[tool call: Download \(completed\)\]\nDownloading 100%/);
    assert.equal(echoed.includes("25%"), false, "no earlier frame");
  } finally {
    await s.teardown();
  }
});

test("field case 11: Markdown streamed with a fence open across chunks is kept as one text, byte for byte", async () => {
  const s = await channelSetup([
    fakeAgent("streams", { prompt: [{ chunk: "Run:\n```bash\nkill $1\n" }, { chunk: "echo \\(x\\)\n" }, { chunk: "```\nDone." }] }),
    fakeAgent("sha", { prompt: [{ chunk: "SHA:\n\n```text\nabc123\n```" }] }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@streams go");
    assert.equal(textOf(await s.finished((m) => m.author.agentName === "streams")), "Run:\n```bash\nkill $1\necho \\(x\\)\n```\nDone.");
    await s.channels.messages.send(s.general.id, "@sha go");
    assert.equal(textOf(await s.finished((m) => m.author.agentName === "sha")), "SHA:\n\n```text\nabc123\n```", "no newline added after the fence");
  } finally {
    await s.teardown();
  }
});
