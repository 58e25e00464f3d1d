/**
 * Claude Code and Codex in one channel, offline against the scripted model server: a mention of both runs both turns
 * at once (the stateless server serves both sessions); what one agent said reaches the other's prompt as channel
 * context, its line breaks kept, and its text pieces around a tool call kept apart; that context never becomes the
 * other's session title (field case 26: the tests failed before main's 63b2f41).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { SessionStateView } from "../../src/shared/protocol";
import { waitFor } from "../unit/helpers";
import { realAgentConfig, realWorld, startModelServer, textOf, type ModelServer, type RealWorld } from "./harness";

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

test("one message to @claude and @codex runs both turns at once; both answers complete", TIMEOUT, async () => {
  await withBoth(async (world) => {
    const mark = world.mark();
    await world.channels.messages.send(world.general.id, "@claude @codex say hello script:slow chunks=8 delay=100");
    const started = await waitFor(() => {
      const answers = world.events.events.slice(mark).filter((e) => e.name === "message/started").map((e) => e.payload as { id: string; author: { agentName?: string } });
      return answers.length === 2 ? answers : undefined;
    }, 30_000, "both answers started");
    // Both stream before either ends: the two turns overlap.
    await waitFor(() => {
      const streaming = new Set(world.events.of("message/delta").filter((d) => d.appendText).map((d) => d.messageId));
      return started.every((s) => streaming.has(s.id)) ? true : undefined;
    }, 60_000, "both answers streaming");
    const answers = await Promise.all(started.map((s) => world.settled(s.id)));
    assert.deepEqual(answers.map((a) => a.author.agentName).sort(), ["claude", "codex"]);
    for (const answer of answers) {
      assert.equal(answer.outcome, "completed");
      assert.match(textOf(answer), /word1 word2 .*word8/);
    }
  });
});

test("claude: a Codex answer on three lines reaches Claude's prompt on three lines", TIMEOUT, async () => {
  await withBoth(async (world) => {
    const lines = await world.settled(await world.send("@codex write lines script:lines", "codex"));
    assert.equal(textOf(lines), "line one\nline two\nline three");
    const before = server.requests.length;
    await world.settled(await world.send("@claude what did codex say? script:text", "claude"));
    const prompt = server.requests.slice(before).find((r) => r.api === "anthropic" && r.kind === "main");
    assert.ok(JSON.stringify(prompt?.body).includes("line one\\nline two\\nline three"), "the line breaks of Codex's answer are kept in the context");
  });
});

for (const [first, second] of [["claude", "codex"], ["codex", "claude"]] as const) {
  test(`${second}: the channel context before its first prompt does not become its session title`, TIMEOUT, async () => {
    await withBoth(async (world) => {
      await world.settled(await world.send(`@${first} say hello script:text`, first));
      const id = await world.send(`@${second} Tidy the notes script:text`, second);
      await world.settled(id);
      const title = await waitFor(
        () => world.events.of("session/state").filter((s: SessionStateView) => s.agent === second && s.title).at(-1)?.title,
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
