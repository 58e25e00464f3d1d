/**
 * Scenarios the real-agent tests share across agents and files (see harness.ts for the world they run in).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import type { MessageView, PermissionPart, SessionStateView } from "../../src/shared/protocol";
import { waitFor } from "../unit/helpers";
import { currentMode, setMode, type RealAgent, type RealWorld } from "./harness";

/**
 * Issue 15, item 3: the user sets `modeId`; a write (`script:permission`) asks permission and the window reloads
 * before anyone answers. After the reload the header shows `modeId`; the Retry (the agent resumed with
 * `session/load`) asks again for the write — it is never performed unanswered — and the live session state says
 * `modeId` is in force. The request is then answered No, and the turn settles.
 */
export async function modeSurvivesReloadAndRetryAsksAgain(world: RealWorld, agent: RealAgent, modeId: string): Promise<void> {
  await setMode(world, agent, modeId);
  const id = await world.send(`@${agent} create the file script:permission`);
  await world.permission(id);
  await world.reload(); // nobody answered: the turn is interrupted, its request cancelled
  const shown = (await world.channels.sessions.sessionStates(world.general.id, [agent]))[agent];
  assert.equal(currentMode(shown), modeId, "the header shows the mode the user set");

  const mark = world.mark();
  assert.equal(await world.channels.turns.retry(world.general.id, id), true);
  const since = () => world.events.events.slice(mark);
  // Either the Retry asks again (right) or it settles having done the write without asking (wrong).
  const outcome = await waitFor<{ asked?: PermissionPart; settled?: MessageView }>(() => {
    for (const e of since()) {
      if (e.name === "message/delta") {
        const delta = e.payload as { messageId: string; part?: PermissionPart };
        if (delta.messageId === id && delta.part?.type === "permission" && delta.part.outcome === undefined) return { asked: delta.part };
      }
      if (e.name === "message/finished") {
        const m = e.payload as MessageView;
        if (m.id === id && (m.status === "done" || m.status === "error")) return { settled: m };
      }
    }
    return undefined;
  }, 90_000, "the Retry asking again or settling");
  assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "the write that was never answered was not performed");
  assert.ok(outcome.asked, `the Retry asked again (it settled ${outcome.settled?.outcome ?? "?"} instead)`);
  const live = await waitFor(
    () => since().filter((e) => e.name === "session/state").map((e) => e.payload as SessionStateView).filter((s) => s.agent === agent && s.live).at(-1),
    10_000,
    "the live session state",
  );
  assert.equal(currentMode(live), modeId, "the mode in force after session/load is the user's");
  await world.channels.turns.answerPermission(outcome.asked.requestId, outcome.asked.options.find((o) => o.kind === "reject_once")!.optionId);
  await world.settled(id, 90_000, mark);
}
