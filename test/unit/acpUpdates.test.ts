// ACP session/update → AgentUpdate (src/acp/updates.ts): thoughts, plans, tool call diffs and locations.
import { test } from "node:test";
import assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { toAgentUpdate } from "../../src/acp/updates";

const u = (update: object) => toAgentUpdate(update as acp.SessionUpdate);

test("agent_thought_chunk becomes a thought with the chunk's text", () => {
  assert.deepEqual(u({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me look" } }), { kind: "thought", text: "Let me look" });
  assert.deepEqual(u({ sessionUpdate: "agent_thought_chunk", content: { type: "image", data: "", mimeType: "image/png" } }), { kind: "thought", text: "[image: image/png, 0 B]" }, "named by its type, never [image]");
});

test("plan becomes the complete list of entries, without _meta; odd values read as medium / pending", () => {
  const update = u({
    sessionUpdate: "plan",
    entries: [
      { content: "Read the failing test", priority: "high", status: "completed", _meta: { x: 1 } },
      { content: "Pin TZ", priority: "medium", status: "in_progress" },
      { content: "Run the suite", priority: "urgent", status: "later" },
    ],
  });
  assert.deepEqual(update, {
    kind: "plan",
    entries: [
      { content: "Read the failing test", priority: "high", status: "completed" },
      { content: "Pin TZ", priority: "medium", status: "in_progress" },
      { content: "Run the suite", priority: "medium", status: "pending" },
    ],
  });
  assert.deepEqual(u({ sessionUpdate: "plan", entries: [] }), { kind: "plan", entries: [] });
});

test("tool_call keeps diffs and locations as structures, apart from the text content", () => {
  const update = u({
    sessionUpdate: "tool_call",
    toolCallId: "t1",
    title: "Edit src/a.ts",
    kind: "edit",
    status: "in_progress",
    content: [
      { type: "content", content: { type: "text", text: "Applying" } },
      { type: "diff", path: "/w/src/a.ts", oldText: "a\n", newText: "b\n", _meta: {} },
      { type: "diff", path: "/w/src/new.ts", newText: "x\n" },
      { type: "diff", path: "/w/src/gone.ts", oldText: null, newText: "" },
      { type: "terminal", terminalId: "term-1" },
    ],
    locations: [{ path: "/w/src/a.ts", line: 3 }, { path: "/w/src/b.ts" }, { path: "/w/c.ts", line: 0 }, { path: "/w/d.ts", line: 2.5 }],
  });
  assert.deepEqual(update, {
    kind: "toolCall",
    isUpdate: false,
    toolCallId: "t1",
    title: "Edit src/a.ts",
    toolKind: "edit",
    status: "in_progress",
    content: "Applying",
    blocks: [],
    terminals: ["term-1"],
    diffs: [
      { path: "/w/src/a.ts", oldText: "a\n", newText: "b\n" },
      { path: "/w/src/new.ts", oldText: null, newText: "x\n" },
      { path: "/w/src/gone.ts", oldText: null, newText: "" },
    ],
    locations: [{ path: "/w/src/a.ts", line: 3 }, { path: "/w/src/b.ts" }, { path: "/w/c.ts" }, { path: "/w/d.ts" }],
  });
});

test("tool_call without content or locations carries neither", () => {
  const update = u({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read" });
  assert.equal(update.kind, "toolCall");
  if (update.kind !== "toolCall") return;
  assert.equal("content" in update && update.content !== undefined, false);
  assert.equal(update.diffs, undefined);
  assert.equal(update.locations, undefined);
});

test("field case 2: tool_call_update carries content and locations only when present (null = omitted), and then whole", () => {
  const omitted = u({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
  assert.equal(omitted.kind === "toolCall" && (omitted.content ?? omitted.diffs ?? omitted.locations), undefined);
  const nulls = u({ sessionUpdate: "tool_call_update", toolCallId: "t1", content: null, locations: null });
  assert.equal(nulls.kind === "toolCall" && (nulls.content ?? nulls.diffs ?? nulls.locations), undefined);
  // Present: a diff-only content replaces the earlier text with "" and the diffs with its own; [] clears both.
  const diffOnly = u({ sessionUpdate: "tool_call_update", toolCallId: "t1", content: [{ type: "diff", path: "/w/a", oldText: "1", newText: "2" }] });
  assert.deepEqual(diffOnly.kind === "toolCall" && [diffOnly.content, diffOnly.diffs], ["", [{ path: "/w/a", oldText: "1", newText: "2" }]]);
  const cleared = u({ sessionUpdate: "tool_call_update", toolCallId: "t1", content: [], locations: [] });
  assert.deepEqual(cleared.kind === "toolCall" && [cleared.content, cleared.diffs, cleared.locations], ["", [], []]);
});

test("session settings and meters: mode, config options (grouped values, booleans), usage with cost, title", () => {
  assert.deepEqual(u({ sessionUpdate: "current_mode_update", currentModeId: "code" }), { kind: "mode", currentModeId: "code" });
  assert.deepEqual(
    u({
      sessionUpdate: "config_option_update",
      configOptions: [
        { type: "select", id: "model", name: "Model", category: "model", currentValue: "s", options: [{ group: "fast", name: "Fast", options: [{ value: "s", name: "Small" }] }, { group: "smart", name: "Smart", options: [{ value: "l", name: "Large", description: "slow" }] }] },
        { type: "boolean", id: "web", name: "Web search", currentValue: true },
        { type: "select", id: "broken", name: "No values", currentValue: "x" },
      ],
    }),
    {
      kind: "configOptions",
      configOptions: [
        { type: "select", id: "model", name: "Model", category: "model", currentValue: "s", options: [{ value: "s", name: "Small", group: "Fast" }, { value: "l", name: "Large", group: "Smart", description: "slow" }] },
        { type: "boolean", id: "web", name: "Web search", currentValue: true },
      ],
    },
    "grouped values are flattened with their group's name; an option without values is left out",
  );
  assert.deepEqual(u({ sessionUpdate: "usage_update", used: 10, size: 100, cost: { amount: 0.5, currency: "EUR" } }), { kind: "usage", usage: { used: 10, size: 100, cost: { amount: 0.5, currency: "EUR" } } });
  assert.deepEqual(u({ sessionUpdate: "usage_update", used: 10, size: 100, cost: null }), { kind: "usage", usage: { used: 10, size: 100 } });
  assert.deepEqual(u({ sessionUpdate: "usage_update", used: "many", size: 100 }), { kind: "ignored", sessionUpdate: "usage_update" });
  assert.deepEqual(u({ sessionUpdate: "session_info_update", title: "Fix the build" }), { kind: "sessionInfo", title: "Fix the build" });
  assert.deepEqual(u({ sessionUpdate: "session_info_update", title: null }), { kind: "sessionInfo", title: null });
  assert.deepEqual(u({ sessionUpdate: "session_info_update", updatedAt: "2026-01-01T00:00:00Z" }), { kind: "sessionInfo" });
});

test("a chunk's ACP messageId is kept (a change starts a new message); an empty or odd one counts as none", () => {
  const chunk = (messageId: unknown) => u({ sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text: "hi" } });
  assert.deepEqual(chunk("msg_1"), { kind: "text", text: "hi", messageId: "msg_1" });
  assert.deepEqual(chunk(undefined), { kind: "text", text: "hi" });
  assert.deepEqual(chunk(null), { kind: "text", text: "hi" });
  assert.deepEqual(chunk(""), { kind: "text", text: "hi" });
  assert.deepEqual(chunk(7), { kind: "text", text: "hi" });
  assert.deepEqual(u({ sessionUpdate: "agent_thought_chunk", messageId: "t1", content: { type: "text", text: "x" } }), { kind: "thought", text: "x", messageId: "t1" });
});

test("a permission card shows the title its request carries; the tool call's title only when the request has none", async () => {
  const { readPermissionRequest } = await import("../../src/acp/permissionRequest");
  const toPermissionRequest = (raw: unknown) => readPermissionRequest(raw)!.request;
  const { addPermission } = await import("../../src/turns/answer");
  const options = [{ optionId: "ok", name: "Yes", kind: "allow_once" as const }];
  // Claude Code: the tool call was announced with a generic title; the request names the command.
  const message = { version: 1 as const, id: "M", channelId: "C", author: { kind: "agent" as const, agentName: "claude" }, createdAt: 1, parts: [{ type: "toolCall" as const, toolCallId: "t1", title: "Terminal", status: "pending" as const }] };
  const titled = toPermissionRequest({ sessionId: "s", toolCall: { toolCallId: "t1", title: "`exit 3`" }, options });
  assert.equal(addPermission(message, "r1", titled).part.title, "`exit 3`");
  const untitled = toPermissionRequest({ sessionId: "s", toolCall: { toolCallId: "t1" }, options });
  assert.equal(untitled.title, undefined);
  assert.equal(addPermission(message, "r1", untitled).part.title, "Terminal");
  const made = addPermission({ ...message, parts: [] }, "r1", untitled).part;
  assert.deepEqual([made.title, made.untitled], ["Permission requested", true], "Sidekicks names it, and says the name is its own");
});

test("codex-acp's error in session_info_update _meta.codex.error becomes a notice (it retries: the answer says why it is silent)", () => {
  const info = (meta: unknown) => u({ sessionUpdate: "session_info_update", _meta: meta });
  assert.deepEqual(info({ codex: { error: { message: "Reconnecting... waiting for network", additionalDetails: "Connection failed: error sending request", willRetry: true } } }), {
    kind: "notice",
    text: "Reconnecting... waiting for network (Connection failed: error sending request)",
    retrying: true,
  });
  assert.deepEqual(info({ codex: { error: { message: "Stream disconnected" } } }), { kind: "notice", text: "Stream disconnected", retrying: false });
  assert.deepEqual(info({ codex: { error: { message: 7 } } }), { kind: "sessionInfo" }, "malformed: an ordinary session_info_update");
  assert.deepEqual(info({ other: 1 }), { kind: "sessionInfo" });
});
