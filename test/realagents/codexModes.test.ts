/**
 * Issue 15, item 3 — what the user chose stays chosen. The user sets Codex to Read-only; a write asks permission and
 * the window reloads before anyone answers. codex-acp comes back from `session/load` reporting its default mode
 * ("Auto review"), not the one the user set. The header must show what is really in force, the user's mode must be
 * applied again, and the Retry of that turn must ask again for the write that was never answered — not perform it.
 * (Claude Code keeps its mode across session/load: the same scenario passes in claude.test.ts.)
 */
import { after, before, test } from "node:test";
import { realAgentConfig, realWorld, startModelServer, type ModelServer } from "./harness";
import { modeSurvivesReloadAndRetryAsksAgain } from "./scenarios";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

test("codex: Read-only set before a window reload is in force after it, and a Retry asks again for an unanswered write", { timeout: 180_000 }, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: server.url })]);
  try {
    await modeSurvivesReloadAndRetryAsksAgain(world, "codex", "read-only");
  } finally {
    await world.teardown();
  }
});
