/**
 * What every part of the turn reducer shares (`reducer.ts` dispatches; `reduceAdmission.ts`, `reduceUpdates.ts`,
 * `reducePermissions.ts`, `reduceStop.ts` and `reduceRecovery.ts` hold the inputs): the {@link Builder} that
 * accumulates one input's next state and effects, claims, checkpoints, fencing and settlement. Pure; internal to
 * `src/turns/`.
 */
import type { ErrorInfo, TurnOutcome } from "../shared/protocol";
import type { IntentRecord, TurnRecord } from "../store/records";
import { closeOpenParts, pendingPermissions } from "./answer";
import { childSettled, parentStoppedWaiting } from "./reduceDelegation";
import { isActive, laneOf, type EngineEffect, type EngineState, type LiveTurn, type Round, type RoundAnswer } from "./reducerState";
import { toView } from "./view";

/** Accumulates the next state and the effects of one input (the state passed in is never mutated). */
export class Builder {
  readonly effects: EngineEffect[] = [];
  result: boolean | undefined;

  constructor(public state: EngineState) {}

  /** Adds a log line to the effects. */
  log(level: "debug" | "warn" | "error", line: string): void {
    this.effects.push({ type: "log", level, line });
  }

  /** Sets an open turn in the next state. */
  put(t: LiveTurn): void {
    this.state = { ...this.state, turns: { ...this.state.turns, [t.record.id]: t } };
  }

  /** Removes an open turn from the next state (it settled). */
  drop(id: string): void {
    const { [id]: _gone, ...rest } = this.state.turns;
    this.state = { ...this.state, turns: rest };
  }

  /** The open turn `turnId` when `attempt` is its current one; else logs the stale input and returns undefined. */
  current(turnId: string, attempt: number, what: string): LiveTurn | undefined {
    const t = this.state.turns[turnId];
    if (t && t.record.attempt === attempt && isActive(t)) return t;
    const now = t ? `attempt ${t.record.attempt} (${t.record.state})` : "no open turn";
    this.log("warn", `stale ${what} from turn ${turnId} attempt ${attempt} rejected: ${now}`);
    return undefined;
  }

  /**
   * Claims the next pending turn of `lane` when none is active there: attempt + 1, owner, heartbeat. Returns the
   * claimed turns (zero or one); the caller persists and prompts.
   */
  claim(lane: string, at: number): LiveTurn[] {
    const inLane = Object.values(this.state.turns).filter((t) => laneOf(t.record) === lane);
    if (inLane.some(isActive)) return [];
    const next = inLane
      .filter((t) => t.record.state === "pending")
      .sort((x, y) => (x.urgent !== y.urgent ? (x.urgent ? -1 : 1) : x.record.id < y.record.id ? -1 : 1))[0];
    if (!next) return [];
    const attempt = next.record.attempt + 1;
    const record: TurnRecord = { ...next.record, state: "running", attempt, owner: this.state.owner, heartbeatAt: at, updatedAt: at };
    const claimed: LiveTurn = { ...next, record, message: { ...next.message, attempt }, urgent: false, dirty: false, checkpointAt: at };
    this.put(claimed);
    return [claimed];
  }

  /** Claims the next turn of a lane that just became free, with its own batch, broadcast and prompt. */
  dispatchNext(lane: string, at: number): void {
    if (this.state.closed) return;
    for (const t of this.claim(lane, at)) {
      this.effects.push({ type: "persist", turns: [t.record], messages: [t.message] });
      this.effects.push({ type: "broadcast", name: "message/started", message: toView(t.message, "streaming") });
      this.effects.push({ type: "prompt", turn: t.record, note: t.note });
    }
  }

  /** Writes the answer so far with the heartbeat (one batch, fenced). */
  checkpoint(t: LiveTurn, at: number): LiveTurn {
    const record: TurnRecord = { ...t.record, heartbeatAt: at, updatedAt: at };
    this.effects.push({ type: "persist", messages: [t.message], turns: [record], fence: this.fenceOf(t) });
    return { ...t, record, dirty: false, checkpointAt: at };
  }

  /**
   * The store must still hold this attempt of this owner: our own attempts, or — for the sweeper settling a dead
   * owner's turn — that owner's (so a turn claimed meanwhile by someone else is never overwritten).
   */
  fenceOf(t: LiveTurn): { turnId: string; attempt: number; owner: string } {
    return { turnId: t.record.id, attempt: t.record.attempt, owner: t.record.owner ?? this.state.owner };
  }

  /**
   * Settles `t`: closes open parts, writes the message, the settled turn (dropping its `turn-open/` entry) and, for
   * a completed turn that was not a command, the member's `lastSeenMessageId` — one fenced batch — then broadcasts
   * `message/finished` and claims the lane's next turn.
   */
  settle(t: LiveTurn, outcome: TurnOutcome, end: { stopReason?: string; error?: ErrorInfo }, at: number, intents?: IntentRecord[]): void {
    const how = outcome === "interrupted" ? "unknown" : outcome === "cancelled" ? "cancelled" : outcome === "failed" ? "failed" : "noResult";
    // A request still waiting when its prompt ends is answered `cancelled`: the agent is told, and frees it (issue 17).
    for (const requestId of pendingPermissions(t.message)) this.effects.push({ type: "answerPermission", requestId });
    // A child it delegated still runs after it ended by itself: its card says it stopped waiting (issue 22).
    if (outcome !== "cancelled" && outcome !== "interrupted") t = parentStoppedWaiting(this, t);
    let message = closeOpenParts(t.message, how);
    message = { ...message, outcome, attempt: t.record.attempt || undefined, stopReason: end.stopReason, error: end.error };
    if (message.attempt === undefined) delete message.attempt;
    if (message.stopReason === undefined) delete message.stopReason;
    if (message.error === undefined) delete message.error;
    const record: TurnRecord = { ...t.record, state: "settled", outcome, stopReason: end.stopReason, error: end.error, settledAt: at, updatedAt: at };
    if (record.stopReason === undefined) delete record.stopReason;
    if (record.error === undefined) delete record.error;
    const advance = outcome === "completed" && !record.command;
    // A `delegate` child: its parent's intent is settled in this same batch (issue 22).
    const delegation = childSettled(this, record, message, outcome, at);
    const settledIntents = [...(intents ?? []), ...(delegation ? [delegation] : [])];
    this.effects.push({
      type: "persist",
      messages: [message],
      turns: [record],
      ...(settledIntents.length > 0 ? { intents: settledIntents } : {}),
      ...(advance ? { advanceMember: { channelId: record.channelId, agent: record.agent, lastSeenMessageId: record.requestMessageId, turnId: record.id } } : {}),
      ...(t.record.attempt > 0 ? { fence: this.fenceOf(t) } : {}),
    });
    this.effects.push({ type: "broadcast", name: "message/finished", message: toView(message) });
    this.drop(t.record.id);
    const lane = laneOf(record);
    const settled: LiveTurn = { ...t, record, message, dirty: false };
    this.state = { ...this.state, recent: { ...this.state.recent, [lane]: settled } };
    const round = this.state.rounds[record.rootMessageId];
    if (round) {
      const text = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
      const answer: RoundAnswer = { agent: record.agent, messageId: message.id, outcome, text, ...(record.role ? { role: record.role } : {}) };
      const next: Round = { ...round, open: round.open.filter((id) => id !== record.id), answers: [...round.answers, answer] };
      this.state = { ...this.state, rounds: { ...this.state.rounds, [record.rootMessageId]: next } };
    }
    this.effects.push({ type: "settled", turn: record, message });
    if (delegation) this.effects.push({ type: "delegationSettled", intent: delegation });
    this.dispatchNext(lane, at);
  }
}
