/**
 * Durable turns as a pure reducer (brief, "Pure reducer, explicit effects"; seed 002, "turn vs attempt"):
 * `reduce(state, input) → { state, effects }`. Inputs are user commands, agent updates, prompt ends, timer ticks
 * and recovery; effects (`persist`, `broadcast`, `delta`, `prompt`, `cancelPrompt`, `answerPermission`, `schedule`,
 * `log`, `settled`, `roundSettled`) are applied in order by one executor (`TurnExecutor`). No I/O, no clock, no
 * mutation of the state passed in: every test drives it with plain values.
 *
 * Rules it enforces:
 * - A turn is admitted in the same batch as the message that admits it; one agent runs one turn at a time in a
 *   channel (a lane): later turns wait `pending` (queued) and are claimed when the running one settles.
 * - Claiming writes attempt n + 1 with this host's owner id. Inputs carry `(turnId, attempt)`: one from another
 *   attempt is stale and is rejected with a log line (fencing; the store checks the same on every settling write).
 * - Settlement first, projection second: the `persist` effect that settles a turn comes before its
 *   `message/finished` broadcast. Deltas are never persisted; checkpoints are, at tool-call boundaries and at most
 *   once per {@link CHECKPOINT_MS}, with the heartbeat.
 * - Stop is not interrupt: Stop settles `cancelled` (also when the agent then answers `end_turn`); a window that
 *   closes or a host that died settles the attempt `interrupted`, keeping the checkpoint, and the user may Retry.
 *
 * This file dispatches; the vocabulary (state, inputs, effects) is in `reducerState.ts` (re-exported here), what all
 * inputs share (claims, checkpoints, fencing, settlement) in `reducerCore.ts`, and the inputs along their seams in
 * `reduceAdmission.ts` (admit, Retry, rounds), `reduceUpdates.ts` (updates, ticks, files changed, session ids), `reducePermissions.ts`,
 * `reduceStop.ts` (Stop, Send now, prompt ends) and `reduceRecovery.ts` (recover, close).
 */
import { admit, retry, roundCheck } from "./reduceAdmission";
import { delegate } from "./reduceDelegation";
import { Builder } from "./reducerCore";
import { CANCEL_GRACE_MS, type EngineInput, type EngineState, type Step } from "./reducerState";
import { answerRequest, permissionRequested } from "./reducePermissions";
import { close, recover } from "./reduceRecovery";
import { cancel, cancelGraceNote, promptEnded, sendNow } from "./reduceStop";
import { fileStates, filesChanged, sessionOpened, skillsInUse, tick, update } from "./reduceUpdates";

export * from "./reducerState";

/**
 * The reducer. Never throws for well-formed inputs; an input that does not apply (unknown id, stale attempt,
 * already settled) leaves the state as it is and returns a `log` effect and `result: false`.
 * @param cancelGraceMs how long Stop waits for the agent before settling `cancelled` anyway
 */
export function reduce(state: EngineState, input: EngineInput, cancelGraceMs = CANCEL_GRACE_MS): Step {
  const b = new Builder(state);
  switch (input.type) {
    case "admit":
      admit(b, input);
      break;
    case "update":
      update(b, input);
      break;
    case "permissionRequested":
      permissionRequested(b, input);
      break;
    case "permissionWithdrawn":
      b.result = answerRequest(b, input.requestId, undefined);
      break;
    case "answer":
      b.result = answerRequest(b, input.requestId, input.optionId, input.remember);
      break;
    case "cancel":
      b.result = cancel(b, input.messageId, input.at, cancelGraceMs);
      break;
    case "cancelGrace": {
      const t = b.current(input.turnId, input.attempt, "cancel grace");
      if (t?.cancelRequested) {
        b.log("warn", `[${t.record.agent}] did not answer session/cancel within ${cancelGraceMs} ms: the answer is settled as cancelled`);
        b.settle(t, "cancelled", { stopReason: "cancelled", error: cancelGraceNote(t.record.agent, cancelGraceMs) }, input.at);
      }
      break;
    }
    case "promptEnded":
      promptEnded(b, input);
      break;
    case "tick":
      tick(b, input.at);
      break;
    case "recover":
      recover(b, input);
      break;
    case "retry":
      b.result = retry(b, input);
      break;
    case "delegate":
      b.result = delegate(b, input);
      break;
    case "sendNow":
      b.result = sendNow(b, input.messageId, input.at, cancelGraceMs);
      break;
    case "roundCheck":
      roundCheck(b, input.rootMessageId);
      break;
    case "close":
      close(b, input.at);
      break;
    case "filesChanged":
      filesChanged(b, input);
      break;
    case "fileStates":
      fileStates(b, input);
      break;
    case "sessionOpened":
      sessionOpened(b, input);
      break;
    case "skillsInUse":
      skillsInUse(b, input);
      break;
  }
  return { state: b.state, effects: b.effects, result: b.result };
}
