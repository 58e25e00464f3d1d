/**
 * Issue 15, item 5 — real agents' shapes shown right (field case 26), with the real agents:
 * - Codex's command and read output arrives only in `_meta.terminal_output_delta` / `_meta.terminal_exit`, for a
 *   terminal the client never created: it must reach the card (stored with the tool call, or as that terminal's
 *   output), not be dropped.
 * - Claude Code's informational notice (`_meta.claudeCode.kind: "informational"`, no `messageId`) right after a
 *   message with one starts a new message: it is not glued to the end of the answer's text.
 * - The channel context Sidekicks puts before a prompt never becomes the agent's session title.
 * - An agent's text in that context keeps its line breaks between two text pieces with a tool call between them
 *   (within one piece they are kept already: together.test.ts).
 * - A permission card shows the title its request carries (Codex: "Edit files", while its tool call says "Editing
 *   files").
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { PermissionPart, SessionStateView, ToolCallPart } from "../../src/protocol";
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

/** What the user can see of a tool call's output: its stored part, and the output of the terminals it embeds. */
function shownOutput(world: RealWorld, part: ToolCallPart): string {
  const terminals = new Set(part.terminals ?? []);
  const streamed = world.events.of("terminal:output").filter((o) => terminals.has(o.terminalId)).map((o) => o.text).join("");
  return `${JSON.stringify(part)}\n${streamed}`;
}

test("codex: the output of its read and of its command reaches their cards", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: server.url })]);
  try {
    const id = await world.send("@codex work on the notes script:tools");
    const answer = await world.settled(id);
    const [read, , exec] = toolCalls(answer) as [ToolCallPart, ToolCallPart, ToolCallPart];
    assert.match(shownOutput(world, read), /alpha/, `the read's text (notes.txt held "alpha") is shown: ${JSON.stringify(read)}`);
    assert.match(shownOutput(world, exec), /tools-ran-ok/, `the command's output is shown: ${JSON.stringify(exec)}`);
  } finally {
    await world.teardown();
  }
});

test("claude: its informational notice after the answer is a separate message, not glued to the answer's text", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("claude", { dir, workspace, modelUrl: server.url })]);
  try {
    const id = await world.send("@claude say hello script:text");
    await world.settled(id);
    const all = world.events.of("message:finished").filter((m) => m.author.agentName === "claude" && m.status === "done");
    const texts = all.flatMap((m) => m.parts.filter((p) => p.type === "text").map((p) => ("text" in p ? p.text : "")));
    assert.ok(texts.some((t) => t.includes("**Warning:**")), `the notice is shown: ${JSON.stringify(texts)}`);
    for (const text of texts) assert.doesNotMatch(text, /model\.\*\*Warning/, "the answer and the notice run together");
  } finally {
    await world.teardown();
  }
});

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
