/**
 * An answer's parts from thoughts, plans and tool calls with diffs and locations (src/turns/answer.ts, additions of
 * issue 6), and their deltas through the webview bridge. Inputs are deep-frozen: nothing may mutate them.
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { AgentUpdate } from "../../src/acp/types";
import { DELTA_FLUSH_MS, WebviewBridge } from "../../src/app/WebviewBridge";
import { PROTOCOL_VERSION, type HostEvents, type HostToWebview, type Part, type ToolCallPart } from "../../src/shared/protocol";
import type { MessageRecord } from "../../src/store/records";
import { applyUpdate } from "../../src/turns/answer";
import { stubHandlers } from "./helpers";
import { freeze } from "./reducerHarness";


const empty = (): MessageRecord => ({ version: 1, id: "M1", channelId: "C1", author: { kind: "agent", agentName: "demo" }, parts: [], createdAt: 1 });

/** Applies updates in order to a frozen message; returns the last message and every delta. */
function apply(message: MessageRecord, ...updates: AgentUpdate[]) {
  const deltas: NonNullable<ReturnType<typeof applyUpdate>["delta"]>[] = [];
  const warnings: string[] = [];
  for (const update of updates) {
    const applied = applyUpdate(freeze(message), freeze(update));
    message = applied.message;
    if (applied.delta) deltas.push(applied.delta);
    if (applied.warning) warnings.push(applied.warning);
  }
  return { message, deltas, warnings };
}

const text = (t: string): AgentUpdate => ({ kind: "text", text: t });
const thought = (t: string): AgentUpdate => ({ kind: "thought", text: t });
const plan = (...statuses: ("pending" | "in_progress" | "completed")[]): AgentUpdate => ({
  kind: "plan",
  entries: statuses.map((status, i) => ({ content: `step ${i + 1}`, priority: i === 0 ? "high" : "medium", status })),
});
const kinds = (parts: Part[]) => parts.map((p) => p.type);

test("streamed thought chunks coalesce into one thought part, as text chunks do", () => {
  const { message, deltas } = apply(empty(), thought("Let me "), thought("look at "), thought(""), thought("the test."));
  assert.deepEqual(message.parts, [{ type: "thought", text: "Let me look at the test." }]);
  // Each delta carries the whole thought so far; the empty chunk changes nothing and sends nothing.
  assert.deepEqual(deltas.map((d) => d.part), [
    { type: "thought", text: "Let me " },
    { type: "thought", text: "Let me look at " },
    { type: "thought", text: "Let me look at the test." },
  ]);
});

test("a thought after text starts a new thought part; text after a thought starts a new text part", () => {
  const { message } = apply(empty(), thought("plan it"), text("Here "), text("goes."), thought("check it"), thought(" twice"), text("Done."));
  assert.deepEqual(message.parts, [
    { type: "thought", text: "plan it" },
    { type: "text", text: "Here goes." },
    { type: "thought", text: "check it twice" },
    { type: "text", text: "Done." },
  ]);
});

test("each plan update replaces the whole plan, in place: one plan part per message", () => {
  const { message, deltas } = apply(empty(), text("First "), plan("pending", "pending"), text("then "), plan("completed", "in_progress", "pending"), plan("completed"));
  assert.deepEqual(kinds(message.parts), ["text", "plan", "text"]);
  assert.deepEqual(message.parts[1], { type: "plan", entries: [{ content: "step 1", priority: "high", status: "completed" }] });
  const plans = deltas.filter((d) => d.part?.type === "plan").map((d) => (d.part as Extract<Part, { type: "plan" }>).entries.length);
  assert.deepEqual(plans, [2, 3, 1]);
});

test("field case 24: an empty plan clears the plan (no plan part is kept); its delta is the empty plan; a later plan is one card again", () => {
  const planned = apply(empty(), text("First "), plan("pending", "pending"), text("then ")).message;
  const { message: cleared, deltas } = apply(planned, { kind: "plan", entries: [] });
  assert.deepEqual(kinds(cleared.parts), ["text", "text"], "no plan left to show");
  assert.deepEqual(deltas.map((d) => d.part), [{ type: "plan", entries: [] }], "the view is told to drop its plan");
  assert.deepEqual(kinds(apply(empty(), { kind: "plan", entries: [] }).message.parts), [], "an empty first plan adds nothing");
  const again = apply(cleared, plan("in_progress")).message;
  assert.deepEqual(kinds(again.parts), ["text", "text", "plan"]);
});

test("plans and thoughts are not tool-call boundaries (no checkpoint is due)", () => {
  const message = freeze(empty());
  assert.equal(applyUpdate(message, thought("x")).boundary, false);
  assert.equal(applyUpdate(message, plan("pending")).boundary, false);
});

const DIFF_A = { path: "/w/a.ts", oldText: "a\n", newText: "b\n" };
const DIFF_B = { path: "/w/b.ts", oldText: null, newText: "new\n" };

test("a tool call keeps its diffs and locations on the part", () => {
  const { message } = apply(empty(), {
    kind: "toolCall",
    isUpdate: false,
    toolCallId: "t1",
    title: "Edit a.ts",
    toolKind: "edit",
    status: "in_progress",
    diffs: [DIFF_A],
    locations: [{ path: "/w/a.ts", line: 3 }],
  });
  assert.deepEqual(message.parts, [
    { type: "toolCall", toolCallId: "t1", title: "Edit a.ts", kind: "edit", status: "in_progress", content: undefined, diffs: [DIFF_A], locations: [{ path: "/w/a.ts", line: 3 }] },
  ]);
});

test("field case 2: tool_call_update replaces content, diffs and locations when present and keeps them when omitted", () => {
  const created: AgentUpdate = { kind: "toolCall", isUpdate: false, toolCallId: "t1", title: "Edit", status: "pending", content: "Applying", diffs: [DIFF_A], locations: [{ path: "/w/a.ts", line: 3 }] };
  const tool = (m: MessageRecord) => m.parts.find((p): p is ToolCallPart => p.type === "toolCall")!;

  // Status only: everything else is kept.
  let { message } = apply(empty(), created, { kind: "toolCall", isUpdate: true, toolCallId: "t1", status: "in_progress" });
  assert.deepEqual([tool(message).content, tool(message).diffs, tool(message).locations, tool(message).status], ["Applying", [DIFF_A], [{ path: "/w/a.ts", line: 3 }], "in_progress"]);

  // New content (a different diff, no text): text and diffs replaced, locations kept.
  ({ message } = apply(message, { kind: "toolCall", isUpdate: true, toolCallId: "t1", content: "", diffs: [DIFF_B] }));
  assert.deepEqual([tool(message).content, tool(message).diffs, tool(message).locations], ["", [DIFF_B], [{ path: "/w/a.ts", line: 3 }]]);

  // New locations only: locations replaced, diffs kept.
  ({ message } = apply(message, { kind: "toolCall", isUpdate: true, toolCallId: "t1", locations: [{ path: "/w/b.ts" }] }));
  assert.deepEqual([tool(message).diffs, tool(message).locations], [[DIFF_B], [{ path: "/w/b.ts" }]]);

  // Empty lists clear them (no empty arrays are stored).
  ({ message } = apply(message, { kind: "toolCall", isUpdate: true, toolCallId: "t1", content: "", diffs: [], locations: [] }));
  assert.equal("diffs" in tool(message), false);
  assert.equal("locations" in tool(message), false);

  // A repeated tool_call replaces the part: diffs and locations come from it alone.
  ({ message } = apply(message, { kind: "toolCall", isUpdate: true, toolCallId: "t1", diffs: [DIFF_A] }, { kind: "toolCall", isUpdate: false, toolCallId: "t1", title: "Edit again", status: "pending" }));
  assert.equal(tool(message).diffs, undefined);
  assert.equal(message.parts.length, 1);
});

test("field case 2: a tool_call_update for an unknown id creates nothing, diffs or not", () => {
  const { message, deltas, warnings } = apply(empty(), { kind: "toolCall", isUpdate: true, toolCallId: "nope_1", status: "completed", diffs: [DIFF_A], locations: [{ path: "/w/a.ts" }] });
  assert.deepEqual(message.parts, []);
  assert.deepEqual(deltas, []);
  assert.equal(warnings.length, 1);
});

test("thought and plan deltas reach the webview through the bridge, however close together", async () => {
  const posted: HostToWebview[] = [];
  const bridge = new WebviewBridge((m) => posted.push(m), stubHandlers());
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  const { deltas } = apply(empty(), thought("hmm"), plan("pending"), thought("ok"), text("A"), text("B"), plan("completed"));
  for (const delta of deltas) bridge.event("message/delta", { channelId: "C1", messageId: "M1", ...delta });
  await new Promise((resolve) => setTimeout(resolve, DELTA_FLUSH_MS * 3));
  const received = posted.flatMap((m) => (m.kind === "event" && m.name === "message/delta" ? [m.payload as HostEvents["message/delta"]] : []));
  // Replayed as the webview's `messageDrafts` does: every part arrives, in order.
  const parts: Part[] = [];
  for (const d of received) {
    if (d.part) {
      const at = d.part.type === "thought" ? (parts[parts.length - 1]?.type === "thought" ? parts.length - 1 : -1) : parts.findIndex((p) => p.type === "plan");
      if (at === -1) parts.push(d.part);
      else parts[at] = d.part;
    }
    if (d.appendText) {
      const last = parts[parts.length - 1];
      if (last?.type === "text") parts[parts.length - 1] = { type: "text", text: last.text + d.appendText };
      else parts.push({ type: "text", text: d.appendText });
    }
  }
  assert.deepEqual(parts, apply(empty(), thought("hmm"), plan("pending"), thought("ok"), text("A"), text("B"), plan("completed")).message.parts);
  bridge.dispose();
});
