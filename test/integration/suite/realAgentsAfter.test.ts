/**
 * Real-agents suite, phase 2 (issue 15; realAgentsIndex.ts), in the extension host that started after phase 1 reloaded
 * the window with Claude Code and Codex both streaming: each answer shows as interrupted with its checkpointed text
 * and Retry; the header still shows the modes the user set (Manual, Read Only); Retry runs attempt 2 in the same
 * message and it completes; and a write then asks permission again — the resumed sessions (ACP `session/load`) are in
 * the user's modes, not the agents' defaults (issue 15, item 3). Screenshots realagents-interrupted,
 * realagents-retried, realagents-after-reload-permission.
 */
import * as assert from "node:assert/strict";
import { poll } from "./poll";
import { readRealAgentsMarker, type RealAgentsMarker } from "./realAgentsPhase";
import { TURN_MS, assertCleanText, attribute, body, click, exists, message, openView, resetFiles, screenshot, send, sessionButton, settled, text } from "./realAgentsUi";

describe("real agents in the real editor (phase 2, after the reload)", function () {
  this.timeout(480_000); // two real turns and a mode change on a loaded machine, each with generous deadlines
  let marker: RealAgentsMarker;
  const answers = () => [["claude", marker.claudeAnswer, marker.claudeMode], ["codex", marker.codexAnswer, marker.codexMode]] as const;

  before(async () => {
    marker = readRealAgentsMarker()!;
    await openView(); // the layout of phase 1 (a wide side bar) is restored with the window
  });

  it("both answers show as interrupted, with what had streamed and Retry; the header still shows the modes the user set", async () => {
    for (const [agent, id, mode] of answers()) {
      await poll(`@${agent}'s answer to show as interrupted`, async () => ((await attribute(message(id), "data-outcome")) === "interrupted" ? true : undefined), 60_000);
      assert.equal(await attribute(message(id), "data-status"), "error", "settled, not streaming");
      assert.match(await body(id), /word1 word2 word3/, `@${agent}'s checkpointed text is kept`);
      assert.match((await text(`${message(id)} .message-interrupted`)) ?? "", /Interrupted: the window closed or Sidekicks restarted while @\w+ was answering/);
      assert.equal(await text(`${message(id)} .message-retry`), "Retry");
      await poll(`@${agent}'s header to show ${mode}`, async () => ((await sessionButton(agent)).startsWith(mode) ? true : undefined), 30_000);
    }
    await screenshot("realagents-interrupted");
  });

  it("Retry runs attempt 2 of each in the same message and it completes, in the mode the user set", async () => {
    for (const [, id] of answers()) await click(`${message(id)} .message-retry`);
    for (const [agent, id, mode] of answers()) {
      assert.equal(await settled(id, TURN_MS * 2), "completed", `@${agent}'s attempt 2`);
      assert.match((await text(`${message(id)} .retry-divider`)) ?? "", /Retry — attempt 2/);
      assert.match(await body(id), /word120/, `@${agent}'s attempt 2 streamed to the end`);
      assert.equal(await text(`${message(id)} .message-retry`), null, "no Retry on a completed answer");
      assertCleanText(await body(id), `@${agent}'s retried answer`);
      assert.ok((await sessionButton(agent)).startsWith(mode), `@${agent}'s header still shows ${mode}`);
    }
    await screenshot("realagents-retried");
  });

  it("after the reload and the Retry, a write still asks permission: the modes are in force, not the agents' defaults", async () => {
    resetFiles();
    const [claude, codex] = await send("@claude @codex create the file script:permission", ["claude", "codex"]);
    for (const id of [claude!, codex!]) {
      await poll("a permission card", async () => ((await attribute(`${message(id)} .permission.card`, "data-state")) === "pending" ? true : undefined), TURN_MS);
    }
    assert.equal(exists("permitted.txt"), false, "nothing written without an answer");
    await screenshot("realagents-after-reload-permission");
    for (const id of [claude!, codex!]) await click(`${message(id)} .permission.card button.permission-option.kind-reject_once`);
    for (const id of [claude!, codex!]) assert.equal(await settled(id), "completed");
    assert.equal(exists("permitted.txt"), false, "the rejected writes were not performed");
  });
});
