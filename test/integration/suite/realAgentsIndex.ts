/**
 * Mocha entry of the real-agents suite (`runCodeServer.mjs --suite realagents`, issue 15): Claude Code and Codex in the
 * real editor, from the workspace `npm start -- --real-agents` writes, against the scripted model server the harness
 * runs. Two phases in two extension hosts, like the reload suite (reloadIndex.ts): code-server reloads the page with
 * the same URL and the new extension host runs this entry again.
 * - Phase 1 (no marker file, realAgentsBefore.test.ts): both agents answer in #general; a tools turn each; review,
 *   undo and redo of Claude's turn, a conflict with an unsaved edit, Claude then Codex on one file (realAgentsUndo.ts);
 *   Stop during a long command; permission requests answered from the card, allowed and rejected, in the modes the user set; then
 *   both stream a slow answer and the window reloads in the middle.
 * - Phase 2 (marker found, realAgentsAfter.test.ts): both answers interrupted, the modes still those the user set;
 *   Retry completes them; a permission request proves the mode is in force in the resumed sessions.
 * Only phase 2 reports `SIDEKICKS_RESULT`, counting phase 1's tests (recorded in the marker).
 */
import { readRealAgentsMarker } from "./realAgentsPhase";
import { runMocha } from "./runMocha";

export function run(): Promise<void> {
  const marker = readRealAgentsMarker();
  if (!marker) {
    console.log("real-agents suite: phase 1 (before the reload)");
    return runMocha(async () => {
      await import("./realAgentsBefore.test.js");
    });
  }
  console.log(`real-agents suite: phase 2, in a new extension host ${((Date.now() - marker.reloadedAt) / 1000).toFixed(1)} s after the reload`);
  return runMocha(
    async () => {
      await import("./realAgentsAfter.test.js");
    },
    { passed: marker.passedBefore, failed: marker.failedBefore },
  );
}
