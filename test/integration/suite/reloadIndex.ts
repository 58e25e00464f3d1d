/**
 * Mocha entry of the reload suite (`runCodeServer.mjs --suite reload`, issue 5): a real window reload in the middle of
 * a demo agent's answer. Two phases in two extension hosts: code-server reloads the page with the same URL, so the
 * new workbench starts a new extension host that runs this entry again.
 * - Phase 1 (no marker file): a slow demo agent starts answering; once it has streamed for a while, the test writes
 *   the marker (what was shown) and runs `workbench.action.reloadWindow`. It never finishes: its host goes away.
 * - Phase 2 (marker found): the answer shows as interrupted with its checkpointed text and Retry; Retry completes it.
 * Only phase 2 reports `SIDEKICKS_RESULT`, counting phase 1's test (recorded in the marker) as passed.
 */
import { readMarker } from "./reloadPhase";
import { runMocha } from "./runMocha";

export function run(): Promise<void> {
  const marker = readMarker();
  if (!marker) {
    console.log("reload suite: phase 1 (before the reload)");
    return runMocha(async () => {
      await import("./reloadBefore.test.js");
    });
  }
  console.log(`reload suite: phase 2, in a new extension host ${((Date.now() - marker.reloadedAt) / 1000).toFixed(1)} s after the reload`);
  return runMocha(
    async () => {
      await import("./reloadAfter.test.js");
    },
    { passed: marker.passedBefore, failed: 0 },
  );
}
