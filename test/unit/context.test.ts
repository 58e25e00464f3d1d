import { test } from "node:test";
import assert from "node:assert/strict";
import { formatContext, unseenMessages } from "../../src/channels/context";
import type { Part } from "../../src/shared/protocol";
import type { MessageRecord } from "../../src/store/records";

let seq = 0;
/** A stored message; ids sort in creation order like ULIDs. */
function msg(author: string, text: string, extra: Part[] = []): MessageRecord {
  seq += 1;
  return {
    version: 1,
    id: `M${String(seq).padStart(4, "0")}`,
    channelId: "c",
    author: author === "user" ? { kind: "user" } : { kind: "agent", agentName: author },
    parts: [...extra, ...(text ? [{ type: "text" as const, text }] : [])],
    createdAt: seq,
  };
}

const bytes = (s: string) => new TextEncoder().encode(s).length;

test("unseen: after lastSeen, before the prompt, not the agent's own, only messages with text", () => {
  const m = [msg("user", "hi @odie"), msg("odie", "woof"), msg("garfield", "meh"), msg("garfield", ""), msg("user", "now you"), msg("user", "later")];
  const table: [string, string | undefined, string, string[]][] = [
    ["late joiner sees all before the prompt but its own answer", undefined, m[4]!.id, ["hi @odie", "meh"]],
    ["after its lastSeen", m[0]!.id, m[4]!.id, ["meh"]],
    ["nothing new", m[3]!.id, m[4]!.id, []],
    ["later messages are not context", m[0]!.id, m[2]!.id, []],
  ];
  for (const [what, lastSeen, before, expected] of table) {
    const got = unseenMessages(m, "odie", lastSeen, before).map((x) => x.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
    assert.deepEqual(got, expected, what);
  }
});

test("format: authors and texts in order, between a header and a footer; nothing to say gives an empty string", () => {
  assert.equal(formatContext([]), "");
  const text = formatContext([msg("user", "@odie fetch"), msg("odie", "Got the ball.")]);
  assert.match(text, /^\[Messages in this channel since you last answered, oldest first\]\n\nuser:\n@odie fetch\n\n@odie:\nGot the ball\.\n\n\[End of channel messages\. The message for you is outside this block\.\]\n\n$/);
});

test("format: tool calls appear with their title, status and output", () => {
  const text = formatContext([msg("odie", "Done.", [{ type: "toolCall", toolCallId: "t", title: "Run tests", status: "completed", content: "12 passed" }])]);
  assert.match(text, /@odie:\n\[tool call: Run tests \(completed\)\]\n12 passed\nDone\./);
});

test("format: a tool's progress output is given as a terminal shows it (field case 21): the last frame, no escapes", () => {
  const progress = "Downloading   0%\rDownloading  25%\r\u001b[32mDownloading 100%\u001b[0m\n";
  const text = formatContext([msg("odie", "Done.", [{ type: "toolCall", toolCallId: "t", title: "npm ci", status: "completed", content: progress }])]);
  assert.match(text, /\[tool call: npm ci \(completed\)\]\nDownloading 100%\n/);
  assert.equal(text.includes("25%"), false);
  assert.equal(text.includes("\u001b"), false);
});

test("bound: large tool outputs are left out first, largest first, with their size", () => {
  const big = "x".repeat(3000);
  const small = "y".repeat(500);
  const messages = [
    msg("odie", "one", [{ type: "toolCall", toolCallId: "a", title: "Big", status: "completed", content: big }]),
    msg("garfield", "two", [{ type: "toolCall", toolCallId: "b", title: "Small", status: "completed", content: small }]),
  ];
  const text = formatContext(messages, { maxBytes: 1500 });
  assert.ok(bytes(text) <= 1500);
  assert.match(text, /\[tool call: Big \(completed\)\] \[output left out: 3000 bytes\]/);
  assert.match(text, /y{500}/, "the smaller output fits once the larger one is out");
  assert.match(text, /one[\s\S]*two/, "no message dropped");
});

test("bound: then the oldest messages go, with a count", () => {
  const messages = Array.from({ length: 10 }, (_, i) => msg(i % 2 ? "odie" : "user", `message ${i} ${"z".repeat(200)}`));
  const text = formatContext(messages, { maxBytes: 1000 });
  assert.ok(bytes(text) <= 1000, `${bytes(text)} bytes`);
  const kept = [...text.matchAll(/message (\d)/g)].map((m) => Number(m[1]));
  assert.deepEqual(kept, kept.map((_, i) => 10 - kept.length + i), "the newest are kept, in order");
  assert.match(text, new RegExp(`\\[${10 - kept.length} older messages left out\\]`));
});

test("bound: messages never read are said to be left out too", () => {
  assert.match(formatContext([msg("user", "hi")], { olderNotRead: true }), /\[older messages left out\]/);
});

test("bound: a single message too large is cut at the end, never inside a character", () => {
  const text = formatContext([msg("user", "é".repeat(2000))], { maxBytes: 1000 });
  assert.ok(bytes(text) <= 1000, `${bytes(text)} bytes`);
  assert.match(text, /é \[… \d+ bytes left out\]/);
  assert.ok(!text.includes("\ufffd"));
});

test("bound: within the budget nothing is left out", () => {
  const text = formatContext([msg("odie", "short", [{ type: "toolCall", toolCallId: "t", title: "T", status: "completed", content: "out" }])], { maxBytes: 32 * 1024 });
  assert.doesNotMatch(text, /left out/);
});

test("format: a new session's header says the history is repeated; unseen can keep the agent's own answers", () => {
  const m = [msg("user", "@odie sit"), msg("odie", "Sitting.")];
  assert.deepEqual(unseenMessages(m, "odie", undefined, "M9999", true).map((x) => x.author.kind), ["user", "agent"]);
  assert.match(formatContext(m, { newSession: true }), /^\[Your session was restarted\. The messages of this channel so far, oldest first, yours included\]\n\nuser:\n@odie sit\n\n@odie:\nSitting\./);
});

test("bound: a channel holding two heavy answers (field case 9: 60 tool calls and a 1 MB line each) fits the budget, packed to within a note's size", () => {
  const heavy = (agent: string) =>
    msg(
      agent,
      "x".repeat(1_000_000) + " the end",
      Array.from({ length: 60 }, (_, i) => ({ type: "toolCall" as const, toolCallId: `${agent}${i}`, title: `step ${i}`, status: "completed" as const, content: "o".repeat(4_000 + i) })),
    );
  const messages = [msg("user", "@c9 go"), heavy("c9"), msg("user", "@c9 again"), heavy("c9")];
  const started = performance.now();
  const text = formatContext(messages, { maxBytes: 32 * 1024 });
  console.log(`formatContext over ${(messages.reduce((n, m) => n + JSON.stringify(m).length, 0) / 1e6).toFixed(1)} MB of messages: ${(performance.now() - started).toFixed(0)} ms`);
  // Sizes computed as sums must match the text assembled: never over the budget, and not far under it.
  assert.ok(bytes(text) <= 32 * 1024, `${bytes(text)} bytes`);
  assert.ok(bytes(text) > 32 * 1024 - 200, `${bytes(text)} bytes: the budget is used`);
  assert.match(text, /\[3 older messages left out\]/);
  assert.match(text, /\[tool call: step 59 \(completed\)\] \[output left out: 4059 bytes\]/);
  assert.match(text, /x \[… \d+ bytes left out\]\n\n\[End of channel messages/, "the newest answer is cut at its end");
});

test("bound: leaving tool outputs out keeps every message when that is enough, and says how large each output was", () => {
  const tools = Array.from({ length: 3 }, (_, i) => ({ type: "toolCall" as const, toolCallId: `t${i}`, title: `T${i}`, status: "completed" as const, content: "é".repeat(1_000 * (i + 1)) }));
  const text = formatContext([msg("user", "first"), msg("odie", "answer", tools), msg("user", "last")], { maxBytes: 3_000 });
  assert.ok(bytes(text) <= 3_000, `${bytes(text)} bytes`);
  assert.match(text, /user:\nfirst/, "no message dropped");
  assert.match(text, /\[tool call: T2 \(completed\)\] \[output left out: 6000 bytes\]/);
  assert.match(text, /\[tool call: T1 \(completed\)\] \[output left out: 4000 bytes\]/);
  assert.match(text, /\[tool call: T0 \(completed\)\]\né{1000}\n/, "the smallest output still fits");
});
