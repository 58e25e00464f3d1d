/**
 * Issue 22: the real Claude Code (claude-agent-acp) gets Sidekicks' MCP server in `session/new`, sees the skill
 * catalog in its first prompt, and — the scripted model emitting the tool calls (`script:skill`) — reads a skill
 * through `mcp__sidekicks__skill_read` and posts a progress note through `mcp__sidekicks__post_progress`. What the
 * model got back as the tool result is read from the model server's requests: the skill's instructions.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SKILLS_HEADER } from "../../src/shared/preamble";
import { FAKE_AGENT } from "../unit/helpers";
import { realAgentConfig, realWorld, shownOutput, startModelServer, textOf, toolCalls, type ModelServer } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

const INSTRUCTIONS = "Read CHANGELOG.md first, then group the entries under Added and Fixed.";

test("claude: reads a skill attached to it through Sidekicks' MCP tools, and its progress note shows on the answer", { timeout: 180_000 }, async () => {
  const world = await realWorld((dir, workspace) => {
    const folder = path.join(workspace, "skills", "release");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "SKILL.md"), `---\nname: release-notes\nversion: 1.2.0\ndescription: Writes release notes from the changelog\n---\n${INSTRUCTIONS}\n`);
    return [{ ...realAgentConfig("claude", { dir, workspace, modelUrl: server.url }), skills: ["skills/release"] }];
  });
  try {
    const id = await world.send("@claude write the release notes script:skill");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed", JSON.stringify(answer.parts));
    assert.match(textOf(answer), /Skill followed\./);

    const main = server.requests.filter((r) => r.kind === "main" && r.script === "skill");
    const first = JSON.stringify(main[0]?.body);
    assert.ok(first.includes("mcp__sidekicks__skill_read"), "Claude Code offers the model Sidekicks' tools");
    assert.ok(first.includes(SKILLS_HEADER.slice(0, 40)) && first.includes("release-notes (version 1.2.0)"), "the catalog is in the first prompt");
    const afterRead = JSON.stringify(main.find((r) => r.step === 1)?.body);
    assert.ok(afterRead.includes(INSTRUCTIONS), "the model got the skill's instructions as the tool result");

    const [read] = toolCalls(answer);
    assert.equal(read?.status, "completed");
    assert.match(shownOutput(world, read!), /Read CHANGELOG\.md first/);
    assert.deepEqual(answer.parts.find((p) => p.type === "notice"), { type: "notice", text: "Skill read; following it", retrying: false });
  } finally {
    await world.teardown();
  }
});

test("claude: delegates to another member through mcp__sidekicks__delegate; the member's answer is the tool result", { timeout: 180_000 }, async () => {
  const world = await realWorld((dir, workspace) => [
    realAgentConfig("claude", { dir, workspace, modelUrl: server.url }),
    { name: "helper", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: [{ chunk: "There are 42 tests." }] }) } },
  ]);
  try {
    const id = await world.send("@claude hand the counting over script:delegate");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed", JSON.stringify(answer.parts));
    assert.match(textOf(answer), /Delegation done\./);
    const main = server.requests.filter((r) => r.kind === "main" && r.script === "delegate");
    assert.ok(JSON.stringify(main[0]?.body).includes("mcp__sidekicks__delegate"), "Claude Code offers the model the delegate tool");
    assert.ok(JSON.stringify(main.find((r) => r.step === 1)?.body).includes("There are 42 tests."), "the model got the member's answer as the tool result");
    const child = (await world.store.latestMessages(world.general.id, 20)).find((m) => m.author.agentName === "helper");
    assert.equal(child?.delegatedBy, "claude");
    assert.equal(child?.delegatedVia, "tool");
    assert.equal(child?.parentMessageId, id);
    // One card for the delegation: Claude Code's own for its tool call, carrying the link to the member's answer.
    const cards = toolCalls(answer);
    assert.deepEqual(cards.map((p) => [p.title, p.status, p.delegation]), [["mcp__sidekicks__delegate", "completed", { member: "helper", childMessageId: child?.id }]]);
  } finally {
    await world.teardown();
  }
});
