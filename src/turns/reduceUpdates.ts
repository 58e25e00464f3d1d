/**
 * The turn reducer's streamed updates (deltas, checkpoints at boundaries, late updates: field case 1), ticks, and what
 * reaches an answer after its prompt: the files its turn changed, the agent's session id.
 */
import type { TurnRecord } from "../store/records";
import { applyUpdate } from "./answer";
import { keptFiles, turnFilesKey, withFileStates, withFilesPart } from "./changedFiles";
import type { Builder } from "./reducerCore";
import { CHECKPOINT_MS, HEARTBEAT_MS, isActive, statusOf, type EngineInput, type LiveTurn } from "./reducerState";
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
  b.effects.push({ type: "broadcast", name: "message/finished", message: toView(applied.message) });
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

/**
 * A settled turn changed files (the executor walked its workspace once it settled): they are kept with their earlier
 * texts under `value/turnFiles/<turnId>` and listed in a `files` part of its answer, in one batch, then the answer is
 * shown again. The answer written is the one this host holds — the lane's last settled turn, which a late update may
 * have changed since (and later changes keep the part), or the turn running again — else the stored one.
 */
export function filesChanged(b: Builder, input: Extract<EngineInput, { type: "filesChanged" }>): void {
  // Closing: the store closes right after, so nothing more is written (the answer keeps what it has).
  if (b.state.closed) return;
  const kept = keptFiles(input.files);
  const values = [{ key: turnFilesKey(input.turnId), value: kept }];
  const live = b.state.turns[input.turnId];
  if (live) {
    const next: LiveTurn = { ...live, message: withFilesPart(live.message, kept, input.worktree === true) };
    b.put(next);
    b.effects.push({ type: "persist", messages: [next.message], values, ...(isActive(live) ? { fence: b.fenceOf(live) } : {}) });
    b.effects.push({ type: "broadcast", name: "message/finished", message: toView(next.message, statusOf(next)) });
    return;
  }
  const recent = Object.entries(b.state.recent).find(([, r]) => r.record.id === input.turnId);
  const answer = recent?.[1].message ?? input.stored;
  if (!answer) {
    b.log("warn", `files changed by turn ${input.turnId} kept, but its answer was not found to list them`);
    b.effects.push({ type: "persist", values });
    return;
  }
  const message = withFilesPart(answer, kept, input.worktree === true);
  if (recent) b.state = { ...b.state, recent: { ...b.state.recent, [recent[0]]: { ...recent[1], message } } };
  b.effects.push({ type: "persist", messages: [message], values });
  b.effects.push({ type: "broadcast", name: "message/finished", message: toView(message) });
}

/**
 * The user kept, undid or redid files of a settled turn (issue 19): the rows of its answer's `files` part say so, and
 * the restore intents are settled in the same batch (so the record never says a file was undone that was not, and a
 * crash between the writes and this batch leaves the intents open for recovery to classify). Written to the answer
 * this host holds, else the stored one.
 */
export function fileStates(b: Builder, input: Extract<EngineInput, { type: "fileStates" }>): void {
  if (b.state.closed) return;
  const live = b.state.turns[input.turnId];
  const recent = Object.entries(b.state.recent).find(([, r]) => r.record.id === input.turnId);
  const answer = live?.message ?? recent?.[1].message ?? input.stored;
  if (!answer) {
    b.log("warn", `file states of turn ${input.turnId} not written: its answer was not found`);
    if (input.intents.length > 0) b.effects.push({ type: "persist", intents: input.intents });
    return;
  }
  const message = withFileStates(answer, input.states);
  if (live) b.put({ ...live, message });
  else if (recent) b.state = { ...b.state, recent: { ...b.state.recent, [recent[0]]: { ...recent[1], message } } };
  b.effects.push({ type: "persist", messages: [message], ...(input.intents.length > 0 ? { intents: input.intents } : {}), ...(live && isActive(live) ? { fence: b.fenceOf(live) } : {}) });
  b.effects.push({ type: "broadcast", name: "message/finished", message: live ? toView(message, statusOf(live)) : toView(message) });
}

/**
 * The skills attached to a running attempt's agent as it prompts (issue 22): written on its turn, fenced like any
 * write of the attempt; an attempt no longer running writes nothing.
 */
export function skillsInUse(b: Builder, input: Extract<EngineInput, { type: "skillsInUse" }>): void {
  const t = b.state.turns[input.turnId];
  if (!t || t.record.attempt !== input.attempt || !isActive(t)) return;
  const record: TurnRecord = { ...t.record, skills: input.skills.map((s) => ({ name: s.name, version: s.version })) };
  b.effects.push({ type: "persist", turns: [record], fence: b.fenceOf(t) });
  b.put({ ...t, record });
}

/** The agent's ACP session in a channel opened (a turn, or a session setting): the member keeps its id for `session/load`. */
export function sessionOpened(b: Builder, input: Extract<EngineInput, { type: "sessionOpened" }>): void {
  if (input.sessionId) b.effects.push({ type: "persist", session: { channelId: input.channelId, agent: input.agent, acpSessionId: input.sessionId } });
}
