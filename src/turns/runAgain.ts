/**
 * A settled turn run again in the same message (brief, "Recovery": Retry; issue 15, item 4: Run again). The user
 * can Retry an `interrupted` or `failed` turn and Run again a `cancelled` one — an answer they stopped, or a queued
 * message they removed from the queue. Pure: the reducer's `retry` input uses it and writes what it returns.
 */
import type { Part } from "../shared/protocol";
import type { MessageRecord, TurnRecord } from "../store/records";
import { describeEarlierAttempt } from "./answer";
import { RETRYABLE_OUTCOMES } from "./view";

/** The turn back in the queue, its message without its settlement, and what the next attempt tells the agent. */
export interface Reopened {
  /** The turn `pending` again, same id and attempt count: its next claim is attempt n + 1. */
  record: TurnRecord;
  /** The same message, still holding what earlier attempts produced, followed by a divider when there were any. */
  message: MessageRecord;
  /** For the agent: what the earlier attempt is known to have done; absent when no attempt ever ran. */
  note?: string;
}

/**
 * Reopens a settled turn for one more attempt, or returns undefined when its outcome cannot be run again
 * (`completed`, `refused`, or not settled). A turn that was claimed before (attempt ≥ 1) gets a `retry` divider and a
 * note built by {@link describeEarlierAttempt} from the message's parts since the last divider and `known` (what
 * Sidekicks ran for that attempt, one line each). A queued turn cancelled before it was ever claimed (attempt 0)
 * simply runs: no divider, no note — the agent never saw it.
 * @param at ms since the epoch
 */
export function reopenTurn(record: TurnRecord, message: MessageRecord, at: number, known?: readonly string[]): Reopened | undefined {
  if (record.state !== "settled" || !record.outcome || !RETRYABLE_OUTCOMES.has(record.outcome)) return undefined;
  const ran = record.attempt > 0;
  const note = ran ? describeEarlierAttempt(message, record.attempt + 1, known) : undefined;
  const parts: Part[] = note ? [...message.parts, { type: "retry", attempt: record.attempt + 1, note: note.trim() }] : message.parts;
  const next: MessageRecord = { ...message, parts };
  delete next.error;
  delete next.outcome;
  delete next.stopReason;
  const pending: TurnRecord = { ...record, state: "pending", updatedAt: at };
  delete pending.outcome;
  delete pending.error;
  delete pending.stopReason;
  delete pending.settledAt;
  return { record: pending, message: next, ...(note ? { note } : {}) };
}
