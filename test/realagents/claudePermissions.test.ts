/**
 * Issue 15, item 2 — what the user allowed stays what they allowed. With Claude Code in Manual mode, the user answers
 * the permission request for `exit 3` with the agent's own option "Yes, and don't ask again for exit 3 commands"
 * (allow_always, scoped by the agent to that one command). The next command, an unrelated `python3 -c "print(1)"`,
 * must then be shown to the user — never answered automatically, and never by selecting the agent's allow_always
 * option on the user's behalf (which would make Claude write one more rule into .claude/settings.local.json).
 * The same holds for Codex in Read-only mode, whose allow_always is "don't ask again for commands that start with
 * `exit 3`".
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PermissionPart } from "../../src/protocol";
import { realAgentConfig, realWorld, startModelServer, toolCalls, type ModelServer, type RealWorld } from "./harness";

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
  return world.part(messageId, (p): p is PermissionPart => p.type === "permission" && p.title.includes(command), 60_000);
}

for (const agent of ["claude", "codex"] as const) {
  test(`${agent}: after "don't ask again" for \`exit 3\`, the unrelated python3 command is still asked of the user`, { timeout: 180_000 }, async () => {
    const world = await realWorld((dir, workspace) => [realAgentConfig(agent, { dir, workspace, modelUrl: server.url })]);
    try {
      await world.channels.configure(world.general.id, agent, { kind: "mode", modeId: modes[agent] });
      const id = await world.send(`@${agent} run both script:exit3`);
      const first = await requestFor(world, id, "exit 3");
      const always = first.options.find((o) => o.kind === "allow_always");
      assert.ok(always, `the agent offers a narrow "always": ${JSON.stringify(first.options)}`);
      assert.match(always.name, /exit 3/, "the agent's allow_always names the one command");
      await world.channels.answerPermission(first.requestId, always.optionId);

      const second = await requestFor(world, id, "python3");
      assert.equal(second.auto, undefined, `the python3 request was answered without asking: ${second.auto}`);
      assert.equal(second.outcome, undefined, `the python3 request was answered with ${second.outcome} before the user saw it`);
      await world.channels.answerPermission(second.requestId, second.options.find((o) => o.kind === "allow_once")!.optionId);
      const answer = await world.settled(id);
      assert.deepEqual(toolCalls(answer).filter((c) => c.kind === "execute").map((c) => c.status), ["failed", "completed"]);
      const cards = answer.parts.filter((p): p is PermissionPart => p.type === "permission");
      assert.ok(cards.every((c) => c.auto === undefined), "every card was answered by the user");
      assert.ok(!cards.slice(1).some((c) => c.options.find((o) => o.optionId === c.outcome)?.kind === "allow_always"), "no allow_always chosen for the user");
      const rules = path.join(world.workspace, ".claude", "settings.local.json");
      if (existsSync(rules)) assert.doesNotMatch(readFileSync(rules, "utf8"), /python3/, "no rule for python3 was written on the user's behalf");
    } finally {
      await world.teardown();
    }
  });
}
