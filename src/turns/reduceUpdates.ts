/** The turn reducer's streamed updates (deltas, checkpoints at boundaries, late updates: field case 1) and ticks. */
import type { TurnRecord } from "../store/records";
import { applyUpdate } from "./answer";
import type { Builder } from "./reducerCore";
import { CHECKPOINT_MS, HEARTBEAT_MS, isActive, type EngineInput, type LiveTurn } from "./reducerState";
import { toView } from "./view";

/** A `session/update` of a running attempt: a delta to the view, a checkpoint at a tool-call boundary ≥ 1 s after the last. */
export function update(b: Builder, input: Extract<EngineInput, { type: "update" }>): void {
  const t = b.state.turns[input.turnId];
  if (!t || t.record.attempt !== input.attempt || !isActive(t)) {
    late(b, input);
    return;
  }
  const applied = applyUpdate(t.message, input.update);
  if (applied.warning) b.log("warn", `[${t.record.agent}] ${applied.warning}`);
  if (applied.message === t.message) return;
  let next: LiveTurn = { ...t, message: applied.message, dirty: true };
  b.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, ...applied.delta });
  if (applied.boundary && input.at - t.checkpointAt >= CHECKPOINT_MS) next = b.checkpoint(next, input.at);
  b.put(next);
}

/** A `session/update` after its turn settled attaches to that turn's message, with a warning (field case 1). */
function late(b: Builder, input: Extract<EngineInput, { type: "update" }>): void {
  const recent = Object.entries(b.state.recent).find(([, r]) => r.record.id === input.turnId && r.record.attempt === input.attempt);
  if (!recent) {
    b.log("warn", `session/update for turn ${input.turnId} attempt ${input.attempt} dropped: that attempt is not running (stale)`);
    return;
  }
  const [lane, r] = recent;
  const applied = applyUpdate(r.message, input.update);
  if (applied.message === r.message) return;
  b.log("warn", `[${r.record.agent}] session/update after the prompt ended: attached to the finished message`);
  b.state = { ...b.state, recent: { ...b.state.recent, [lane]: { ...r, message: applied.message } } };
  b.effects.push({ type: "persist", messages: [applied.message] });
  b.effects.push({ type: "broadcast", name: "message:finished", message: toView(applied.message) });
}

/** The 1 s tick: a dirty answer is checkpointed; a quiet running turn writes a heartbeat every {@link HEARTBEAT_MS}. */
export function tick(b: Builder, at: number): void {
  for (const t of Object.values(b.state.turns)) {
    if (!isActive(t)) continue;
    if (t.dirty && at - t.checkpointAt >= CHECKPOINT_MS) b.put(b.checkpoint(t, at));
    else if (at - (t.record.heartbeatAt ?? 0) >= HEARTBEAT_MS) {
      const record: TurnRecord = { ...t.record, heartbeatAt: at };
      b.effects.push({ type: "persist", turns: [record], fence: b.fenceOf(t) });
      b.put({ ...t, record });
    }
  }
}
