/** The turn reducer's recovery at activation (the sweeper's findings) and close (the window closes). */
import type { MessageRecord } from "../store/records";
import type { Builder } from "./reducerCore";
import { interruptedError, isActive, laneOf, type EngineInput, type LiveTurn } from "./reducerState";

/**
 * The sweeper's findings at activation: turns whose attempt belongs to another owner are settled `interrupted`
 * (the store's lock proves that owner is gone), keeping their checkpoint; pending turns are queued again and
 * dispatched.
 */
export function recover(b: Builder, input: Extract<EngineInput, { type: "recover" }>): void {
  const lanes = new Set<string>();
  for (const { record, message: stored, intents } of input.turns) {
    if (b.state.turns[record.id]) continue;
    const message: MessageRecord = stored ?? { version: 1, id: record.messageId, channelId: record.channelId, author: { kind: "agent", agentName: record.agent }, parts: [], createdAt: record.createdAt, turnId: record.id };
    const t: LiveTurn = { record, message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at };
    if (record.state === "pending") {
      b.put(t);
      lanes.add(laneOf(record));
      continue;
    }
    if (record.owner === b.state.owner) continue;
    const since = record.heartbeatAt ? `; its last heartbeat was ${Math.round((input.at - record.heartbeatAt) / 1000)} s before this recovery` : "";
    b.log("warn", `recovery: turn ${record.id} (@${record.agent}, attempt ${record.attempt}) was ${record.state} under an owner that is gone${since}: settled interrupted`);
    b.put(t);
    b.settle(t, "interrupted", { error: interruptedError(record) }, input.at, intents);
  }
  for (const lane of lanes) b.dispatchNext(lane, input.at);
}

/** The window closes: running attempts end `interrupted` with everything received; pending turns stay queued. */
export function close(b: Builder, at: number): void {
  b.state = { ...b.state, closed: true };
  for (const t of Object.values(b.state.turns)) {
    if (!isActive(t)) continue;
    b.settle(t, "interrupted", { error: interruptedError(t.record) }, at);
  }
}
