import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import { channelToMarkdown, messagesToExport } from "../../src/channels/exportMarkdown";
import { Store } from "../../src/store/Store";
import type { MessageRecord } from "../../src/store/records";
import { tempDir } from "./helpers";

const T0 = Date.parse("2026-11-01T10:00:00Z");
const DAY = 86_400_000;
const ulid = monotonicFactory();

const ask: MessageRecord = {
  version: 1, id: "01A", channelId: "C1", author: { kind: "user" }, to: ["claude"], createdAt: T0,
  parts: [{ type: "text", text: "@claude why does `parse()` fail?\n\n```ts\nparse(\"{\")\n```" }],
};
const answer: MessageRecord = {
  version: 1, id: "01B", channelId: "C1", author: { kind: "agent", agentName: "claude" }, createdAt: T0 + 90_000, turnId: "T1", outcome: "completed",
  parts: [
    { type: "thought", text: "Look at\nthe parser first." },
    { type: "toolCall", toolCallId: "t1", title: "Read src/parser.ts", kind: "read", status: "completed", content: "export function parse() {}" },
    { type: "permission", requestId: "p1", toolCallId: "t2", title: "Edit src/parser.ts", options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }, { optionId: "no", name: "Reject", kind: "reject_once" }], outcome: "ok" },
    {
      type: "toolCall", toolCallId: "t2", title: "Edit src/parser.ts", kind: "edit", status: "completed",
      diffs: [{ path: "/w/src/parser.ts", oldText: "a\nb\n", newText: "a\nb\nc\n" }, { path: "/w/src/new.ts", oldText: null, newText: "x\ny" }],
    },
    { type: "content", block: { kind: "image", mimeType: "image/png", bytes: 12_345, data: "iVBORw0KGgo=", name: "trace.png" } },
    { type: "text", text: "The brace was never closed. Fixed:\n\n```ts\nif (open) throw new Error(\"unclosed\");" },
  ],
};
const failed: MessageRecord = {
  version: 1, id: "01C", channelId: "C1", author: { kind: "agent", agentName: "codex" }, createdAt: T0 + 120_000, turnId: "T2", outcome: "failed",
  parts: [{ type: "toolCall", toolCallId: "t3", title: "npm test", kind: "execute", status: "in_progress", noResult: true }],
  error: { code: "agent/exited", message: "The agent exited (code 1)." },
};

test("a channel exports as Markdown: a heading per message with author and time, text verbatim, tools, permissions and blocks in one line each", () => {
  const md = channelToMarkdown({ channelName: "general", exportedAt: T0 + DAY }, [ask, answer, failed]);
  assert.equal(md, [
    "# #general",
    "",
    "_Exported from Sidekicks on 2026-11-02 10:00 UTC: all messages (3)._",
    "",
    "## You → @claude · 2026-11-01 10:00 UTC",
    "",
    "@claude why does `parse()` fail?\n\n```ts\nparse(\"{\")\n```",
    "",
    "## @claude · 2026-11-01 10:01 UTC",
    "",
    "> Thought: Look at the parser first.",
    "",
    "- Tool call: Read src/parser.ts (completed)",
    "",
    "- Permission: Edit src/parser.ts (answered “Allow once”)",
    "",
    "- Tool call: Edit src/parser.ts (completed) — changed `/w/src/parser.ts`, 3 → 4 lines; new file `/w/src/new.ts`, 2 lines",
    "",
    "- [image trace.png: image/png, 12 KB]",
    "",
    "The brace was never closed. Fixed:\n\n```ts\nif (open) throw new Error(\"unclosed\");\n```",
    "",
    "## @codex · 2026-11-01 10:02 UTC",
    "",
    "- Tool call: npm test (no result)",
    "",
    "*Error: The agent exited (code 1).*",
    "",
  ].join("\n"));
  assert.doesNotMatch(md, /iVBORw0KGgo/, "an image is described, never dumped");
});

test("a message's own headings nest under its export heading, raw HTML shows as text as in the view, code is left as written, and a stopped answer says so", () => {
  const typed: MessageRecord = {
    version: 1, id: "01D", channelId: "C1", author: { kind: "user" }, to: ["claude"], createdAt: T0,
    parts: [{ type: "text", text: "## You → @odie · 2026-11-01 10:00 UTC\n<b>bold?</b> <!-- note --> see <https://example.com> or <me@example.com>, and `<div>` stays\n\n```html\n<div># not a heading</div>\n```\n    <pre>indented</pre>\n###### six" }],
  };
  const stopped: MessageRecord = { ...answer, id: "01E", outcome: "cancelled", parts: [{ type: "text", text: "Half an ans" }] };
  const refused: MessageRecord = { ...answer, id: "01F", outcome: "refused", parts: [] };
  const md = channelToMarkdown({ channelName: "general", exportedAt: T0 }, [typed, stopped, refused]);
  assert.equal(md.split("\n").filter((l) => l.startsWith("## ")).length, 3, "exactly one level-2 heading per message");
  assert.match(md, /\n#### You → @odie · 2026-11-01 10:00 UTC\n/);
  assert.match(md, /\n&lt;b>bold\?&lt;\/b> &lt;!-- note --> see <https:\/\/example\.com> or <me@example\.com>, and `<div>` stays\n/);
  assert.match(md, /\n```html\n<div># not a heading<\/div>\n```\n {4}<pre>indented<\/pre>\n###### six\n/);
  assert.match(md, /## @claude · 2026-11-01 10:01 UTC\n\nHalf an ans\n\n\*Cancelled\*\n/);
  assert.match(md, /\n\*The agent refused to continue\*\n$/);
});

test("the export reads every page of a long channel, or only the messages since a date, oldest first", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const all: MessageRecord[] = Array.from({ length: 1_234 }, (_, i) => ({
      version: 1, id: ulid(T0 + i * 60_000), channelId: "C1", author: { kind: "user" }, parts: [{ type: "text", text: `message ${i}` }], createdAt: T0 + i * 60_000,
    }));
    await store.commit({ messages: all });
    assert.deepEqual((await messagesToExport(store, "C1")).map((m) => m.id), all.map((m) => m.id));
    const since = T0 + 1_000 * 60_000;
    const recent = await messagesToExport(store, "C1", since);
    assert.deepEqual(recent.map((m) => m.id), all.slice(1_000).map((m) => m.id));
    const md = channelToMarkdown({ channelName: "long", exportedAt: T0, since }, recent);
    assert.match(md, /messages since 2026-11-02 02:40 UTC \(234\)/);
    assert.deepEqual(await messagesToExport(store, "C2"), []);
  } finally {
    await store.close();
    cleanup();
  }
});

test("the export writes no raw control or bidi characters: they show as [U+…] markers, as in the view; tabs and line endings stay", () => {
  const hostile: MessageRecord = {
    version: 1, id: "01D", channelId: "C1", author: { kind: "agent", agentName: "claude" }, createdAt: T0, turnId: "T3", outcome: "completed",
    parts: [
      { type: "text", text: "a\u0000b\tc\r\nd \u202Eevil\u202C e\u2066f\u2069 \u0007\u007f\u0085 lone\rcr" },
      { type: "toolCall", toolCallId: "t9", title: "Read \u202Etxt.exe", kind: "read", status: "completed" },
      { type: "text", text: "\u001b[1;31mred\u001b[0m, a bare \u001b" },
    ],
  };
  const md = channelToMarkdown({ channelName: "gen\u0000eral", exportedAt: T0 }, [hostile]);
  assert.ok(md.startsWith("# #gen[U+0000]eral\n"), md);
  assert.ok(md.includes("a[U+0000]b\tc\r\nd [U+202E]evil[U+202C] e[U+2066]f[U+2069] [U+0007][U+007F][U+0085] lone[U+000D]cr"), md);
  assert.ok(md.includes("- Tool call: Read [U+202E]txt.exe (completed)"), md);
  assert.ok(md.includes("red, a bare [U+001B]"), "escape sequences dropped as the view drops them; a stray ESC marked");
  // Nothing left that grep would call binary or that reorders text: only tab, LF and the CR of a CRLF.
  assert.doesNotMatch(md, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/);
});

test("an answer's changed files say what the user decided since: an undone change is no longer in the folder", () => {
  const edited: MessageRecord = {
    version: 1, id: "01D", channelId: "C1", author: { kind: "agent", agentName: "demo" }, createdAt: T0, turnId: "T3", outcome: "completed",
    parts: [
      {
        type: "files",
        files: [
          { path: "/w/a.ts", kind: "modified", beforeKnown: true, restorable: true, state: "undone" },
          { path: "/w/b.ts", kind: "created", beforeKnown: true, restorable: true, state: "kept" },
          { path: "/w/c.ts", kind: "modified", beforeKnown: true, restorable: true },
        ],
      },
    ],
  };
  const md = channelToMarkdown({ channelName: "general", exportedAt: T0 + DAY }, [edited]);
  assert.match(md, /^- Files changed: `\/w\/a\.ts` \(undone\), `\/w\/b\.ts` \(kept\), `\/w\/c\.ts`$/m);
});
