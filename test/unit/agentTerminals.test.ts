/**
 * Terminals an agent runs itself (field case 26; issue 15, item 5). codex-acp runs its commands and reads itself; a
 * command's tool call carries `content: [{type: "terminal", terminalId}]` for a terminal the client never created,
 * and its output arrives in `_meta.terminal_output_delta` ({data, terminal_id}), its end in `_meta.terminal_exit`
 * ({exit_code, signal, terminal_id}); a read carries its text only in `_meta.terminal_output_delta`. The shapes below
 * are the ones codex-acp 2.6.0 sends (dist/index.js: `outputChunk`, `terminalExit`, `terminalInfo`).
 */
import assert from "node:assert/strict";
import test from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentUpdate } from "../../src/acp/types";
import { toAgentUpdate } from "../../src/acp/updates";
import type { ToolCallPart } from "../../src/shared/protocol";
import type { MessageRecord } from "../../src/store/records";
import { withAgentTerminal } from "../../src/turns/agentTerminals";
import { applyUpdate } from "../../src/turns/answer";

const u = (update: object) => toAgentUpdate(update as acp.SessionUpdate);
const empty = (): MessageRecord => ({ version: 1, id: "M1", channelId: "C1", author: { kind: "agent", agentName: "codex" }, parts: [], createdAt: 1 });

function run(...updates: AgentUpdate[]): ToolCallPart {
  let message = empty();
  for (const update of updates) message = applyUpdate(Object.freeze(message), update).message;
  return message.parts.find((p): p is ToolCallPart => p.type === "toolCall")!;
}

const started = {
  sessionUpdate: "tool_call",
  toolCallId: "call_1",
  title: "Run echo hi && exit 3",
  kind: "execute",
  status: "in_progress",
  content: [{ type: "terminal", terminalId: "call_1" }],
  _meta: { terminal_info: { cwd: "/w", terminal_id: "call_1" } },
};
const chunk = (data: string) => ({ sessionUpdate: "tool_call_update", toolCallId: "call_1", _meta: { terminal_output_delta: { data, terminal_id: "call_1" } } });
const exited = (code: number | null) => ({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: code === 0 ? "completed" : "failed", _meta: { terminal_exit: { exit_code: code, signal: null, terminal_id: "call_1" } } });

test("codex-acp's _meta terminal chunks and exit become the tool call's own terminal output", () => {
  const part = run(u(started), u(chunk("hi\r\n")), u(chunk("\u001b[31mbad\u001b[0m\n")), u(exited(3)));
  assert.deepEqual(part.terminals, ["call_1"]);
  assert.deepEqual(part.agentTerminals, [{ terminalId: "call_1", output: "hi\r\n\u001b[31mbad\u001b[0m\n", exit: { exitCode: 3, signal: null } }]);
  assert.equal(part.status, "failed");
});

test("a read's text, only in terminal_output_delta, is kept for a tool call with no terminal block", () => {
  const part = run(
    u({ sessionUpdate: "tool_call", toolCallId: "call_2", title: "Read notes.md", kind: "read", status: "in_progress" }),
    u({ sessionUpdate: "tool_call_update", toolCallId: "call_2", status: "completed", _meta: { terminal_output_delta: { data: "# Notes\n", terminal_id: "call_2" } } }),
  );
  assert.equal(part.terminals, undefined);
  assert.deepEqual(part.agentTerminals, [{ terminalId: "call_2", output: "# Notes\n" }]);
});

test("the Zed name terminal_output counts too; odd values are checked where they enter", () => {
  assert.deepEqual(u({ ...chunk("x"), _meta: { terminal_output: { data: "x", terminal_id: "t" } } }), { kind: "toolCall", isUpdate: true, toolCallId: "call_1", title: undefined, toolKind: undefined, status: undefined, agentTerminal: { terminalId: "t", data: "x" } });
  const odd = u({ sessionUpdate: "tool_call_update", toolCallId: "call_1", _meta: { terminal_output_delta: { data: 42 }, terminal_exit: { exit_code: "3", signal: 9 } } });
  assert.deepEqual((odd as Extract<AgentUpdate, { kind: "toolCall" }>).agentTerminal, { terminalId: "call_1", exit: { exitCode: null, signal: null } });
  const none = u({ sessionUpdate: "tool_call_update", toolCallId: "call_1", _meta: { other: 1 } });
  assert.equal("agentTerminal" in none, false);
});

test("a repeated tool_call does not take back the output already shown", () => {
  const part = run(u(started), u(chunk("first\n")), u({ ...started, title: "Run it again" }));
  assert.equal(part.title, "Run it again");
  assert.equal(part.agentTerminals?.[0]?.output, "first\n");
});

test("the output is bounded: the end is kept and what was dropped is counted, never half a character", () => {
  let part: ToolCallPart = { type: "toolCall", toolCallId: "t", title: "", status: "in_progress" };
  part = withAgentTerminal(part, { terminalId: "t", data: "abcdef" }, 8);
  part = withAgentTerminal(part, { terminalId: "t", data: "gh😀ij" }, 8);
  const kept = part.agentTerminals![0]!;
  assert.equal(kept.output, "efgh😀ij");
  assert.equal(kept.output.length + (kept.omitted ?? 0), "abcdefgh😀ij".length);
  // A cut that would fall inside the emoji moves past it.
  part = withAgentTerminal({ type: "toolCall", toolCallId: "t", title: "", status: "in_progress" }, { terminalId: "t", data: "a😀b" }, 2);
  assert.equal(part.agentTerminals![0]!.output, "b");
  assert.equal(part.agentTerminals![0]!.omitted, 3);
});
