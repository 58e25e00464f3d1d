/** The turn reducer's admission (one batch per user message, claims in it) and Retry / Run again (`runAgain.ts`). */
import type { IntentRecord, MessageRecord, TurnRecord } from "../store/records";
import type { Builder } from "./reducerCore";
import { laneOf, statusOf, type EngineInput } from "./reducerState";
import { reopenTurn } from "./runAgain";
import { toView } from "./view";

/**
 * A user message (or a delegation (`intents`: a `delegate` tool call's intent, written in the same batch), or the moderator's wake-up) and one turn per recipient: one batch; turns whose
 * lane is idle are claimed in it and prompted after it.
 */
export function admit(b: Builder, input: Extract<EngineInput, { type: "admit" }>, intents?: IntentRecord[]): void {
  const lanes = new Set<string>();
  const records: TurnRecord[] = [];
  const messages: MessageRecord[] = input.message ? [input.message] : [];
  for (const a of input.turns) {
    const record: TurnRecord = {
      version: 1,
      id: a.turnId,
      channelId: a.channelId,
      agent: a.agent,
      requestMessageId: a.requestMessageId,
      messageId: a.messageId,
      rootMessageId: a.rootMessageId,
      prompt: a.prompt,
      state: "pending",
      attempt: 0,
      createdAt: input.at,
      updatedAt: input.at,
      ...(a.command ? { command: a.command } : {}),
      ...(a.role ? { role: a.role } : {}),
      ...(a.parentTurnId ? { parentTurnId: a.parentTurnId } : {}),
      ...(a.parentIntentId ? { parentIntentId: a.parentIntentId } : {}),
    };
    const message: MessageRecord = {
      version: 1,
      id: a.messageId,
      channelId: a.channelId,
      author: { kind: "agent", agentName: a.agent },
      parts: [],
      createdAt: input.at,
      turnId: a.turnId,
      ...(a.delegatedBy ? { delegatedBy: a.delegatedBy, parentMessageId: a.parentMessageId } : {}),
      ...(a.parentIntentId ? { delegatedVia: "tool" as const } : {}),
      ...(a.regenerates ? { regenerates: a.regenerates } : {}),
    };
    b.put({ record, message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at });
    const round = b.state.rounds[a.rootMessageId] ?? { channelId: a.channelId, open: [], answers: [] };
    b.state = { ...b.state, rounds: { ...b.state.rounds, [a.rootMessageId]: { ...round, open: [...round.open, a.turnId] } } };
    lanes.add(laneOf(record));
  }
  const claimed = b.state.closed ? [] : [...lanes].flatMap((lane) => b.claim(lane, input.at));
  for (const a of input.turns) {
    const t = b.state.turns[a.turnId]!;
    records.push(t.record);
    messages.push(t.message);
  }
  // The user message, its turns (claimed ones already `running`) and their empty answers: one batch.
  b.effects.push({ type: "persist", messages, turns: records, ...(intents && intents.length > 0 ? { intents } : {}) });
  if (input.message) b.effects.push({ type: "broadcast", name: "message/finished", message: toView(input.message) });
  for (const a of input.turns) {
    const t = b.state.turns[a.turnId]!;
    b.effects.push({ type: "broadcast", name: "message/started", message: toView(t.message, statusOf(t)) });
  }
  for (const t of claimed) b.effects.push({ type: "prompt", turn: t.record, note: t.note });
}

/** Retry (interrupted, failed) or Run again (cancelled): the turn queued again in its message (`runAgain.ts`). */
export function retry(b: Builder, input: Extract<EngineInput, { type: "retry" }>): boolean {
  const again = b.state.closed || b.state.turns[input.record.id] ? undefined : reopenTurn(input.record, input.message, input.at, input.known);
  if (!again) return false;
  b.put({ record: again.record, message: again.message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at, note: again.note });
  const claimed = b.claim(laneOf(again.record), input.at);
  const t = b.state.turns[input.record.id]!;
  b.effects.push({ type: "persist", turns: [t.record], messages: [t.message] });
  b.effects.push({ type: "broadcast", name: "message/started", message: toView(t.message, statusOf(t)) });
  for (const c of claimed) b.effects.push({ type: "prompt", turn: c.record, note: c.note });
  return true;
}

/** Once every turn of a round has settled: `roundSettled` (the panel's moderator wakes there). */
export function roundCheck(b: Builder, rootMessageId: string): void {
  const round = b.state.rounds[rootMessageId];
  if (!round || round.open.length > 0) return;
  const { [rootMessageId]: _done, ...rest } = b.state.rounds;
  b.state = { ...b.state, rounds: rest };
  b.effects.push({ type: "roundSettled", channelId: round.channelId, rootMessageId, answers: [...round.answers] });
}
