/**
 * Issue 15, item 5 — real agents' shapes shown right (field case 26), with the real agents:
 (Codex's terminal output in `_meta` and Claude's notice without `messageId` are shown right since main's c9faa01
 * and dbbd4d1: their tests moved to codex.test.ts and claude.test.ts.)
 * - The channel context Sidekicks puts before a prompt never becomes the agent's session title.
 * - An agent's text in that context keeps its line breaks between two text pieces with a tool call between them
 *   (within one piece they are kept already: together.test.ts).
 * - A permission card shows the title its request carries (Codex: "Edit files", while its tool call says "Editing
 *   files").
 * - A tool call first announced by its permission request (Gemini CLI sends no `tool_call` for an edit or a command
 *   that asks: the request's `toolCall` carries title, kind and diff, then a `tool_call_update` of that id reports the
 *   end) gets its card and its final status, instead of the update being dropped as an unknown id (field case 2).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { PermissionPart, SessionStateView } from "../../src/protocol";
import { waitFor } from "../unit/helpers";
import { realAgentConfig, realWorld, startModelServer, toolCalls, type ModelServer, type RealWorld } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

const TIMEOUT = { timeout: 180_000 };

/** A world with both agents in #general. */
async function withBoth(body: (world: RealWorld) => Promise<void>): Promise<void> {
  const world = await realWorld((dir, workspace) => [
    realAgentConfig("claude", { dir, workspace, modelUrl: server.url }),
    realAgentConfig("codex", { dir, workspace, modelUrl: server.url }),
  ]);
  try {
    await body(world);
  } finally {
    await world.teardown();
  }
}

for (const [first, second] of [["claude", "codex"], ["codex", "claude"]] as const) {
  test(`${second}: the channel context before its first prompt does not become its session title`, TIMEOUT, async () => {
    await withBoth(async (world) => {
      await world.settled(await world.send(`@${first} say hello script:text`, first));
      const id = await world.send(`@${second} Tidy the notes script:text`, second);
      await world.settled(id);
      const title = await waitFor(
        () => world.events.of("session:state").filter((s: SessionStateView) => s.agent === second && s.title).at(-1)?.title,
        30_000,
        `a session title from ${second}`,
      );
      assert.doesNotMatch(title, /Messages in this channel|End of channel messages/, `the title is the channel context: ${title}`);
    });
  });
}

test("claude: Codex's two text pieces around a tool call reach Claude's prompt apart, not run together", TIMEOUT, async () => {
  await withBoth(async (world) => {
    const answer = await world.settled(await world.send("@codex answer in two pieces script:pieces", "codex"));
    assert.deepEqual(answer.parts.filter((p) => p.type === "text").map((p) => ("text" in p ? p.text : "")), ["First piece.", "Second piece."]);
    const before = server.requests.length;
    await world.settled(await world.send("@claude what did codex say? script:text", "claude"));
    const prompt = JSON.stringify(server.requests.slice(before).find((r) => r.api === "anthropic" && r.kind === "main")?.body);
    assert.ok(prompt.includes("First piece."), "Codex's answer is in the context");
    assert.ok(!prompt.includes("First piece.Second piece."), "the two pieces run together in the context");
  });
});

test("codex: the permission card shows the title its request carries", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: server.url })]);
  try {
    await world.channels.configure(world.general.id, "codex", { kind: "mode", modeId: "read-only" });
    const id = await world.send("@codex create the file script:permission");
    const request = await world.permission(id);
    const tool = toolCalls((await world.store.message(world.general.id, id)) as never).at(0);
    assert.equal(request.title, "Edit files", `the card shows "${request.title}" (its tool call says "${tool?.title}")`);
    await world.channels.answerPermission(request.requestId, request.options.find((o: PermissionPart["options"][number]) => o.kind === "reject_once")!.optionId);
    await world.settled(id);
  } finally {
    await world.teardown();
  }
});

test("gemini: an edit and a command announced by their permission requests get tool cards with their final status", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("gemini", { dir, workspace, modelUrl: server.url })]);
  try {
    const id = await world.send("@gemini work on the notes script:tools");
    const answered = new Set<string>();
    const timer = setInterval(() => {
      for (const d of world.events.of("message:delta")) {
        const p = d.part;
        if (d.messageId !== id || p?.type !== "permission" || p.outcome !== undefined || answered.has(p.requestId)) continue;
        answered.add(p.requestId);
        void world.channels.answerPermission(p.requestId, p.options.find((o) => o.kind === "allow_once")!.optionId);
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
