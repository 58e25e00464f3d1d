// +added −removed line counts of a tool call's diff (webview/diffStats.ts, pure).
import { test } from "node:test";
import assert from "node:assert/strict";
import { diffStats, MAX_EDIT_DISTANCE } from "../../webview/diffStats";

const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join("");

test("counts as a shortest line edit script does (git diff --stat)", () => {
  assert.deepEqual(diffStats(text("a", "b", "c"), text("a", "B", "c")), { added: 1, removed: 1 });
  assert.deepEqual(diffStats(text("a", "b", "c"), text("a", "b", "x", "c")), { added: 1, removed: 0 });
  assert.deepEqual(diffStats(text("a", "b", "c"), text("c")), { added: 0, removed: 2 });
  assert.deepEqual(diffStats(text("a", "b", "c", "d"), text("b", "a", "d", "c")), { added: 2, removed: 2 });
  assert.deepEqual(diffStats(text("x", "a", "y", "b", "z"), text("a", "q", "b", "r")), { added: 2, removed: 3 });
  assert.deepEqual(diffStats(text("same"), text("same")), { added: 0, removed: 0 });
});

test("a new file adds every line; emptying a file removes every line; CRLF and a final newline do not count", () => {
  assert.deepEqual(diffStats(null, text("a", "b")), { added: 2, removed: 0 });
  assert.deepEqual(diffStats(null, ""), { added: 0, removed: 0 });
  assert.deepEqual(diffStats(text("a", "b", "c"), ""), { added: 0, removed: 3 });
  assert.deepEqual(diffStats("a\r\nb\r\n", "a\nb\n"), { added: 0, removed: 0 });
  assert.deepEqual(diffStats("a\nb", "a\nb\n"), { added: 0, removed: 0 });
});

test("a large rewrite stays cheap: beyond the edit limit the counts come from the lines as multisets", () => {
  const size = MAX_EDIT_DISTANCE * 3;
  const before = Array.from({ length: size }, (_, i) => `old ${i}`).join("\n");
  const after = Array.from({ length: size }, (_, i) => (i % 2 ? `old ${i}` : `new ${i}`)).join("\n");
  const started = performance.now();
  assert.deepEqual(diffStats(before, after), { added: size / 2, removed: size / 2 });
  const rewritten = Array.from({ length: size }, (_, i) => `new ${i}`).join("\n");
  assert.deepEqual(diffStats(before, rewritten), { added: size, removed: size });
  assert.ok(performance.now() - started < 2_000, "bounded work");
});
