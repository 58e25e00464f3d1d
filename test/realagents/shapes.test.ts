/**
 * Real agents' shapes shown right (issue 15, item 5; field case 26): a tool call first announced by its permission
 * request. Gemini CLI sends no `tool_call` for an edit or a command that asks: the request's `toolCall` carries its
 * title, kind and diff, then a `tool_call_update` of that id reports the end. The answer shows a tool card made from the
 * request, with its final status (it was dropped as an update for an unknown tool call id, field case 2, before
 * `withRequestedToolCall`). The other shapes of item 5 are tested in claude.test.ts, codex.test.ts and together.test.ts.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { realAgentConfig, realWorld, startModelServer, toolCalls, type ModelServer } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

const TIMEOUT = { timeout: 180_000 };

test("gemini: an edit and a command announced by their permission requests get tool cards with their final status", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("gemini", { dir, workspace, modelUrl: server.url })]);
  try {
    const id = await world.send("@gemini work on the notes script:tools");
    const answered = new Set<string>();
    const timer = setInterval(() => {
      for (const d of world.events.of("message/delta")) {
        const p = d.part;
        if (d.messageId !== id || p?.type !== "permission" || p.outcome !== undefined || answered.has(p.requestId)) continue;
        answered.add(p.requestId);
        void world.channels.turns.answerPermission(p.requestId, p.options.find((o) => o.kind === "allow_once")!.optionId);
      }
    }, 20);
    const answer = await world.settled(id).finally(() => clearInterval(timer));
    const calls = toolCalls(answer).map((c) => [c.kind, c.status, c.diffs?.map((d) => d.newText) ?? []]);
    assert.deepEqual(calls, [
      ["read", "completed", []],
      ["edit", "completed", ["beta\n"]],
      ["edit", "completed", ["created by the scripted model\n"]],
      ["execute", "completed", []],
    ]);
  } finally {
    await world.teardown();
  }
});
