/**
 * The one rule for where a whole part goes (src/shared/parts.ts), which the host's answer building, the bridge's
 * delta coalescing and the webview's drafts all apply: what a user sees is one card per tool call, one plan, one
 * notice, one files card, a thought that grows, and every text piece and retry divider kept.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Part } from "../../src/shared/protocol";
import { indexOfPart, samePart, withPart } from "../../src/shared/parts";

const tool = (id: string, status: "pending" | "completed" = "pending"): Part => ({ type: "toolCall", toolCallId: id, title: id, status });
const permission = (id: string): Part => ({ type: "permission", requestId: id, toolCallId: `tc-${id}`, title: id, options: [] });
const text = (t: string): Part => ({ type: "text", text: t });
const thought = (t: string, messageId?: string): Part => ({ type: "thought", text: t, ...(messageId ? { messageId } : {}) });
const plan = (n: number): Part => ({ type: "plan", entries: Array.from({ length: n }, (_, i) => ({ content: `step ${i}`, priority: "medium" as const, status: "pending" as const })) });
const retry: Part = { type: "retry", attempt: 2, note: "Attempt 2" };

test("where a part goes: a table of cases", () => {
  const cases: [string, Part[], Part, number][] = [
    ["a tool call replaces its own card", [text("a"), tool("t1"), text("b")], tool("t1", "completed"), 1],
    ["another tool call is added", [tool("t1")], tool("t2"), -1],
    ["a permission request replaces its own card", [tool("t1"), permission("r1")], permission("r1"), 1],
    ["after a retry divider, the earlier attempt's card stays: the same id is a new card", [tool("t1"), retry], tool("t1", "completed"), -1],
    ["a thought of the same ACP message replaces the last thought", [thought("a", "m1")], thought("ab", "m1"), 0],
    ["a thought of another message is added", [thought("a", "m1")], thought("b", "m2"), -1],
    ["a thought is added when the last part is not a thought", [thought("a", "m1"), tool("t1")], thought("ab", "m1"), -1],
    ["a plan replaces the message's plan, wherever it is", [plan(1), text("x")], plan(2), 0],
    ["a text part is always added", [text("a")], text("a"), -1],
    ["a retry divider is always added", [retry], retry, -1],
    ["the files card replaces the message's own", [text("x"), { type: "files", files: [] }], { type: "files", files: [{ path: "/a", kind: "modified", beforeKnown: true }] }, 1],
  ];
  for (const [what, parts, part, expected] of cases) assert.equal(indexOfPart(parts, part), expected, what);
});

test("withPart returns a new array with the part in its place, the input untouched", () => {
  const parts = Object.freeze([text("a"), tool("t1")]) as readonly Part[];
  const next = withPart(parts, tool("t1", "completed"));
  assert.notEqual(next, parts);
  assert.deepEqual(next.map((p) => (p.type === "toolCall" ? p.status : p.type)), ["text", "completed"]);
  assert.equal(withPart(parts, text("b")).length, 3);
});

test("withPart: a plan with no entries removes the message's plan (field case 24), and adds nothing where there was none", () => {
  const parts = Object.freeze([text("a"), plan(2), text("b")]) as readonly Part[];
  assert.deepEqual(withPart(parts, plan(0)), [text("a"), text("b")]);
  assert.deepEqual(withPart([text("a")], plan(0)), [text("a")]);
});

test("samePart: two deltas for one card coalesce, two text pieces never do", () => {
  assert.equal(samePart(tool("t1"), tool("t1", "completed")), true);
  assert.equal(samePart(text("a"), text("a")), false);
  assert.equal(samePart(thought("a"), thought("b")), true, "thoughts without a message id are one thought");
});
