/**
 * Codex with no model server listening (a base URL where nothing answers): codex-acp never ends the turn. It
 * retries "waiting for network" (after 1 s, 5 s, 10 s, 20 s, 40 s, 60 s, … — seen for more than two minutes with
 * codex-acp 2.6.0), and says so only in `session_info_update` `_meta.codex.error` ({ message: "Reconnecting...
 * waiting for network", additionalDetails: "Connection failed: error sending request", willRetry: true }). Sidekicks
 * dropped that `_meta`, so the user saw an answer streaming with nothing in it, for ever: a spinner with nothing to act
 * on. Now `codexNotice` (src/acp/updates.ts) makes it the answer's notice.
 *
 * Asserted here: within 30 s the answer shows what Codex reports (it cannot reach its model and is retrying), and Stop
 * settles it `cancelled`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { MessageView } from "../../src/shared/protocol";
import { waitFor } from "../unit/helpers";
import { ABSENT_URL, realAgentConfig, realWorld } from "./harness";

test("codex: with no model server listening, the answer says Codex cannot reach its model while it retries, and Stop ends it", { timeout: 120_000 }, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: ABSENT_URL })]);
  try {
    const id = await world.send("@codex answer script:text");
    const said = () => {
      const parts = [...world.events.of("message/delta").filter((d) => d.messageId === id).map((d) => JSON.stringify(d)), ...world.events.of("message/finished").filter((m: MessageView) => m.id === id).map((m) => JSON.stringify(m))];
      return parts.find((p) => /Reconnecting|Connection failed|error sending request/.test(p));
    };
    const shown = await waitFor(said, 30_000, "Codex's connection error in the answer").catch((error: Error) => error);
    assert.equal(await world.channels.turns.cancel(id), true);
    const answer = await world.settled(id, 20_000);
    assert.equal(answer.outcome, "cancelled");
    assert.ok(!(shown instanceof Error), `the answer showed nothing of Codex's connection error within 30 s (${shown instanceof Error ? shown.message : ""})`);
  } finally {
    await world.teardown();
  }
});
