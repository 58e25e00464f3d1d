/**
 * Issue 15, item 2 — what the user allowed stays what they allowed. With Claude Code in Manual mode, the user answers a
 * command's permission request with the agent's own option "Yes, and don't ask again for <that command> commands"
 * (allow_always, scoped by the agent to that one command). The next command, an unrelated one, must then be shown to
 * the user — never answered automatically, and never by selecting the agent's allow_always option on the user's behalf
 * (which made Claude write one more rule into .claude/settings.local.json). The same holds for Codex in Read-only
 * mode, whose allow_always is "don't ask again for commands that start with …".
 *
 * The issue's own case was `exit 3` then `python3 -c "print(1)"`; Claude Code 2.1.318 does not always ask for those
 * harmless commands in Manual mode, so the scripted turn (`script:always`) asks for `echo one > one.txt` (answered
 * with Claude's "Yes, and allow access to <folder>/ and echo one * commands") and then for `touch unrelated.txt`;
 * Codex asks for `python3 -c "print(1)"` (answered "don't ask again for commands that start with …") and then for
 * `touch unrelated.txt`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PermissionPart } from "../../src/shared/protocol";
import { realAgentConfig, realWorld, setMode, startModelServer, toolCalls, type ModelServer, type RealWorld } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

const modes: Record<"claude" | "codex", string> = { claude: "default", codex: "read-only" };

/** The permission part of `messageId` whose title mentions `command`, in whatever state it is first seen. */
function requestFor(world: RealWorld, messageId: string, command: string): Promise<PermissionPart> {
  return world.part(messageId, (p): p is PermissionPart => p.type === "permission" && p.title.includes(command), 60_000).catch((error: Error) => {
    const seen = world.events.of("message/delta").filter((d) => d.messageId === messageId && (d.part?.type === "permission" || d.part?.type === "toolCall"));
    const titles = [...new Set(seen.map((d) => `${d.part!.type} ${"title" in d.part! ? d.part!.title : ""}`))];
    throw new Error(`no permission request for \`${command}\` (${error.message}); seen: ${titles.join("; ")}`);
  });
}

for (const agent of ["claude", "codex"] as const) {
  test(`${agent}: after "don't ask again" for one command, an unrelated command is still asked of the user`, { timeout: 180_000 }, async () => {
    const world = await realWorld((dir, workspace) => [realAgentConfig(agent, { dir, workspace, modelUrl: server.url })]);
    try {
      await setMode(world, agent, modes[agent]);
      const id = await world.send(`@${agent} run them script:always`);
      const command = agent === "claude" ? "echo one" : "python3";
      const first = await requestFor(world, id, command);
      const always = first.options.find((o) => o.kind === "allow_always");
      assert.ok(always, `the agent offers a narrow "always": ${JSON.stringify(first.options)}`);
      assert.ok(always.name.includes(command), `the agent's allow_always names the one command: ${always.name}`);
      await world.channels.turns.answerPermission(first.requestId, always.optionId);

      const second = await requestFor(world, id, "touch unrelated.txt");
      assert.equal(second.auto, undefined, `the unrelated request was answered without asking: ${second.auto}`);
      assert.equal(second.outcome, undefined, `the unrelated request was answered with ${second.outcome} before the user saw it`);
      assert.equal(existsSync(path.join(world.workspace, "unrelated.txt")), false, "the unrelated command has not run");
      await world.channels.turns.answerPermission(second.requestId, second.options.find((o) => o.kind === "allow_once")!.optionId);
      const answer = await world.settled(id);
      assert.ok(toolCalls(answer).filter((c) => c.kind === "execute").every((c) => c.status === "completed"), "every command ran once allowed");
      const cards = answer.parts.filter((p): p is PermissionPart => p.type === "permission");
      assert.ok(cards.every((c) => c.auto === undefined), "every card was answered by the user");
      assert.ok(!cards.slice(1).some((c) => c.options.find((o) => o.optionId === c.outcome)?.kind === "allow_always"), "no allow_always chosen for the user");
      const rules = path.join(world.workspace, ".claude", "settings.local.json");
      if (existsSync(rules)) assert.doesNotMatch(readFileSync(rules, "utf8"), /touch/, "no rule for the unrelated command was written on the user's behalf");
    } finally {
      await world.teardown();
    }
  });
}
