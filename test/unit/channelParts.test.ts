// Issue 6 end to end on the domain side: a real fake agent (subprocess, real SDK) sends thoughts, a plan and a tool
// call with a diff and locations; the answer shows them as parts, streamed and committed, and the same after reopening.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { MessageView } from "../../src/shared/protocol";
import { channelSetup, fakeAgent } from "./channelHarness";
import { waitFor } from "./helpers";

const update = (u: object) => ({ update: u });
const chunk = (kind: "agent_thought_chunk" | "agent_message_chunk", text: string) => update({ sessionUpdate: kind, content: { type: "text", text } });

const SCRIPT = {
  prompt: [
    chunk("agent_thought_chunk", "The test builds dates "),
    chunk("agent_thought_chunk", "in local time."),
    update({ sessionUpdate: "plan", entries: [{ content: "Read the test", priority: "high", status: "in_progress" }, { content: "Pin TZ", priority: "medium", status: "pending" }] }),
    {
      toolCall: {
        toolCallId: "t1",
        title: "Edit test/setup.ts",
        kind: "edit",
        status: "in_progress",
        content: [{ type: "diff", path: "/w/test/setup.ts", oldText: "a\n", newText: "a\nprocess.env.TZ = \"UTC\";\n" }],
        locations: [{ path: "/w/test/setup.ts", line: 2 }],
      },
    },
    // Status only: the diff and the locations stay (field case 2).
    { toolCallUpdate: { toolCallId: "t1", status: "completed" } },
    { toolCallUpdate: { toolCallId: "nope_1", status: "completed", content: [{ type: "diff", path: "/w/x", newText: "x" }] } },
    update({ sessionUpdate: "plan", entries: [{ content: "Read the test", priority: "high", status: "completed" }, { content: "Pin TZ", priority: "medium", status: "completed" }] }),
    chunk("agent_message_chunk", "Pinned TZ."),
  ],
};

const EXPECTED = [
  { type: "thought", text: "The test builds dates in local time." },
  { type: "plan", entries: [{ content: "Read the test", priority: "high", status: "completed" }, { content: "Pin TZ", priority: "medium", status: "completed" }] },
  {
    type: "toolCall",
    toolCallId: "t1",
    title: "Edit test/setup.ts",
    kind: "edit",
    status: "completed",
    diffs: [{ path: "/w/test/setup.ts", oldText: "a\n", newText: "a\nprocess.env.TZ = \"UTC\";\n" }],
    locations: [{ path: "/w/test/setup.ts", line: 2 }],
  },
  { type: "text", text: "Pinned TZ." },
];

/** JSON round trip: what the store and the webview see (`undefined` fields vanish). */
const plain = (m: MessageView) => JSON.parse(JSON.stringify(m.parts));

test("thoughts, a plan and a tool call's diff and locations become parts, streamed, committed and reopened alike", async () => {
  const s = await channelSetup([fakeAgent("demo", SCRIPT)]);
  try {
    await s.channels.messages.send(s.general.id, "@demo fix the test");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.deepEqual(plain(answer), EXPECTED);
    // The deltas the view got: thoughts and plans as whole parts, the unknown tool call nowhere.
    const deltas = s.events.of("message/delta").filter((d) => d.messageId === answer.id);
    assert.deepEqual(deltas.filter((d) => d.part?.type === "thought").map((d) => d.part), [
      { type: "thought", text: "The test builds dates " },
      { type: "thought", text: "The test builds dates in local time." },
    ]);
    assert.equal(deltas.filter((d) => d.part?.type === "plan").length, 2);
    assert.equal(deltas.some((d) => d.part?.type === "toolCall" && d.part.toolCallId === "nope_1"), false);
    await s.reopen();
    const { messages } = await s.channels.messages.open("general");
    assert.deepEqual(plain(messages.find((m) => m.id === answer.id)!), EXPECTED);
  } finally {
    await s.teardown();
  }
});

test("field case 26: codex-acp's own terminal (never created by us) shows its _meta output and exit, kept after reopening; a notice after a link stays apart", async () => {
  const meta = (m: object) => ({ toolCallUpdate: { toolCallId: "call_1", _meta: m } });
  const s = await channelSetup([
    fakeAgent("codex", {
      prompt: [
        { capabilities: true },
        { toolCall: { toolCallId: "call_1", title: "Run npm test", kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId: "call_1" }], _meta: { terminal_info: { cwd: "/w", terminal_id: "call_1" } } } },
        meta({ terminal_output_delta: { data: "1 passing\n", terminal_id: "call_1" } }),
        meta({ terminal_output_delta: { data: "1 failing\n", terminal_id: "call_1" } }),
        { toolCallUpdate: { toolCallId: "call_1", status: "failed", _meta: { terminal_exit: { exit_code: 1, signal: null, terminal_id: "call_1" } } } },
        update({ sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "See [the log](https://example.com/log)" } }),
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Here is a notice." } }),
      ],
    }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@codex run the tests");
    const answer = await s.finished((m) => m.author.kind === "agent");
    const capabilities = JSON.parse((answer.parts.find((p) => p.type === "text") as { text: string }).text.split("See [")[0]!);
    assert.deepEqual(capabilities._meta, { terminal_output_delta: true }, "we ask for output chunks to append");
    const check = (parts: MessageView["parts"]) => {
      const tool = parts.find((p) => p.type === "toolCall");
      assert.deepEqual(tool?.type === "toolCall" && tool.agentTerminals, [{ terminalId: "call_1", output: "1 passing\n1 failing\n", exit: { exitCode: 1, signal: null } }]);
      assert.deepEqual(parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : "")).slice(-2), ["See [the log](https://example.com/log)", "Here is a notice."]);
    };
    check(answer.parts);
    await s.reopen();
    const { messages } = await s.channels.messages.open("general");
    check(messages.find((m) => m.id === answer.id)!.parts);
  } finally {
    await s.teardown();
  }
});

test("a tool call announced only by its permission request (Gemini CLI) gets a card from the request, and the later update gives it its end", async () => {
  const diff = { type: "diff", path: "/w/notes.md", oldText: "alpha\n", newText: "beta\n" };
  const s = await channelSetup([
    fakeAgent("gemini", {
      prompt: [
        { permission: { toolCallId: "edit-1", title: "Edit notes.md", kind: "edit", content: [diff], options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }, { optionId: "no", name: "Reject", kind: "reject_once" }] } },
        { toolCallUpdate: { toolCallId: "edit-1", status: "completed" } },
        { chunk: "Edited." },
      ],
    }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@gemini edit the notes");
    const asked = await waitFor(() => s.events.of("message/delta").find((d) => d.part?.type === "permission" && !d.part.outcome)?.part, 10_000, "the request");
    const shown = s.events.of("message/delta").find((d) => d.part?.type === "toolCall")?.part;
    assert.ok(shown?.type === "toolCall" && shown.toolCallId === "edit-1" && shown.kind === "edit" && shown.status === "pending", "the card is shown with the request");
    assert.ok(asked.type === "permission");
    await s.channels.turns.answerPermission(asked.requestId, "ok");
    const answer = await s.finished((m) => m.author.kind === "agent");
    const tool = answer.parts.find((p) => p.type === "toolCall");
    assert.ok(tool?.type === "toolCall");
    assert.deepEqual([tool.title, tool.status, tool.diffs?.map((d) => d.newText)], ["Edit notes.md", "completed", ["beta\n"]]);
    assert.deepEqual(answer.parts.map((p) => p.type), ["toolCall", "permission", "text"]);
  } finally {
    await s.teardown();
  }
});
