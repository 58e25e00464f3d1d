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
 *   `message:finished` broadcast. Deltas are never persisted; checkpoints are, at tool-call boundaries and at most
 *   once per {@link CHECKPOINT_MS}, with the heartbeat.
 * - Stop is not interrupt: Stop settles `cancelled` (also when the agent then answers `end_turn`); a window that
 *   closes or a host that died settles the attempt `interrupted`, keeping the checkpoint, and the user may Retry.
 */
import * as l10n from "@vscode/l10n";
import type { AgentUpdate, PermissionRequest } from "../acp/types";
import type { ErrorInfo, MessageView, Part, TurnOutcome } from "../protocol";
import type { IntentRecord, MessageRecord, TurnRecord } from "../store/records";
import { askPermission, ruleFor, withNotice, type AgentRules, type PermissionPolicy, type PermissionRule } from "./permissionPolicy";
import { answerPermissionPart, applyUpdate, closeOpenParts, pendingPermissions, withRequestedToolCall } from "./answer";
import { reopenTurn } from "./runAgain";
import { toView } from "./view";

/** At most one checkpoint of a streaming answer per this many ms (brief: "at most about once a second"). */
export const CHECKPOINT_MS = 1_000;

/** A running attempt writes a heartbeat at least this often, in ms (when no checkpoint carried one). */
export const HEARTBEAT_MS = 5_000;

/** One turn this host knows that is not settled (or was settled last in its lane, for late updates). */
export interface LiveTurn {
  readonly record: TurnRecord;
  /** The answer as streamed so far (what the webview shows; persisted at checkpoints). */
  readonly message: MessageRecord;
  /** The user pressed Stop: the turn settles `cancelled` whatever the agent answers. */
  readonly cancelRequested: boolean;
  /** "Send now": claimed before the other pending turns of its lane. */
  readonly urgent: boolean;
  /** The answer changed since the last checkpoint. */
  readonly dirty: boolean;
  /** When the last checkpoint (or claim) was written, in ms. */
  readonly checkpointAt: number;
  /** For a retry: what the new attempt tells the agent about the earlier one. */
  readonly note?: string;
}

/** One answer of a round, for the panel's moderator. */
export interface RoundAnswer {
  agent: string;
  messageId: string;
  outcome: TurnOutcome;
  text: string;
  role?: "moderator";
}

/** The turns started by one user message (its mentions, their delegations, the moderator). */
export interface Round {
  readonly channelId: string;
  readonly open: readonly string[];
  readonly answers: readonly RoundAnswer[];
}

/** The reducer's state. Treat as immutable. */
export interface EngineState {
  /** This extension host activation (the owner written on every attempt it claims). */
  readonly owner: string;
  /** Open turns by id: pending, running or awaiting_input. */
  readonly turns: Readonly<Record<string, LiveTurn>>;
  /** The last settled turn of each lane (`channelId/agent`), which late updates attach to (field case 1). */
  readonly recent: Readonly<Record<string, LiveTurn>>;
  /** Rounds by root message id. */
  readonly rounds: Readonly<Record<string, Round>>;
  /** Set by `close`: nothing new is claimed. */
  readonly closed: boolean;
}

/** What admission needs per recipient. Ids are ULIDs made by the caller (the reducer makes none). */
export interface Admission {
  turnId: string;
  messageId: string;
  channelId: string;
  agent: string;
  requestMessageId: string;
  rootMessageId: string;
  prompt: string;
  command?: string;
  role?: "moderator";
  parentTurnId?: string;
  delegatedBy?: string;
  parentMessageId?: string;
}

/** Everything the reducer reacts to. `at` is ms since the epoch, from the executor's clock. */
export type EngineInput =
  | { type: "admit"; at: number; message?: MessageRecord; turns: Admission[] }
  | { type: "update"; at: number; turnId: string; attempt: number; update: AgentUpdate }
  | {
      type: "permissionRequested";
      at: number;
      turnId: string;
      attempt: number;
      requestId: string;
      request: PermissionRequest;
      /** The agent's policy and the user's rules, which may answer it without asking (`permissionPolicy.ts` decides). */
      policy?: PermissionPolicy;
      rules?: AgentRules;
    }
  | { type: "permissionWithdrawn"; requestId: string }
  | { type: "answer"; requestId: string; optionId: string; remember?: boolean }
  | { type: "cancel"; messageId: string; at: number }
  | { type: "cancelGrace"; at: number; turnId: string; attempt: number }
  | { type: "promptEnded"; at: number; turnId: string; attempt: number; stopReason?: string; error?: ErrorInfo }
  | { type: "tick"; at: number }
  | {
      type: "recover";
      at: number;
      /** Open turns; `intents`: their unsettled tool intents, classified, written with the turn's settlement. */
      turns: { record: TurnRecord; message?: MessageRecord; intents?: IntentRecord[] }[];
    }
  | { type: "retry"; at: number; record: TurnRecord; message: MessageRecord; known?: string[] }
  | { type: "sendNow"; at: number; messageId: string }
  | { type: "roundCheck"; rootMessageId: string }
  | { type: "close"; at: number };

/** What the executor does, in order. */
export type EngineEffect =
  | {
      type: "persist";
      messages?: MessageRecord[];
      turns?: TurnRecord[];
      /** Tool intents settled by recovery, written with the card that shows them. */
      intents?: IntentRecord[];
      /** Moves the member's `lastSeenMessageId` in the same batch (a completed turn, not a command). */
      advanceMember?: { channelId: string; agent: string; lastSeenMessageId: string; turnId: string };
      fence?: { turnId: string; attempt: number; owner: string };
    }
  | { type: "broadcast"; name: "message:started" | "message:finished"; message: MessageView }
  | { type: "delta"; channelId: string; messageId: string; appendText?: string; part?: Part }
  | { type: "prompt"; turn: TurnRecord; note?: string }
  | { type: "cancelPrompt"; turnId: string }
  | { type: "answerPermission"; requestId: string; optionId?: string }
  /** The user asked Sidekicks to answer this same request so from now on: a narrow rule (ADR 0005). */
  | { type: "remember"; agent: string; rule: PermissionRule }
  | { type: "schedule"; ms: number; input: EngineInput }
  | { type: "log"; level: "debug" | "warn" | "error"; line: string }
  | { type: "settled"; turn: TurnRecord; message: MessageRecord }
  | { type: "roundSettled"; channelId: string; rootMessageId: string; answers: RoundAnswer[] };

/** The reducer's answer. `result` answers the input's caller (accepted, cancelled, retried, sent). */
export interface Step {
  state: EngineState;
  effects: EngineEffect[];
  result?: boolean;
}

/** How long Stop waits for the agent's `cancelled` answer before settling anyway, in ms. */
export const CANCEL_GRACE_MS = 5_000;

/** A fresh state for an activation whose owner id is `owner`. */
export function initialState(owner: string): EngineState {
  return { owner, turns: {}, recent: {}, rounds: {}, closed: false };
}

/** `channelId/agent`: turns of one agent in one channel run one after the other. */
export function laneOf(record: Pick<TurnRecord, "channelId" | "agent">): string {
  return `${record.channelId}/${record.agent}`;
}

/** Whether a turn is running (or waiting for the user inside its run). */
export function isActive(t: LiveTurn): boolean {
  return t.record.state === "running" || t.record.state === "awaiting_input";
}

/** The view status of an open turn's message. */
export function statusOf(t: LiveTurn): MessageView["status"] {
  return t.record.state === "pending" ? "queued" : "streaming";
}

/**
 * The reducer. Never throws for well-formed inputs; an input that does not apply (unknown id, stale attempt,
 * already settled) leaves the state as it is and returns a `log` effect and `result: false`.
 * @param cancelGraceMs how long Stop waits for the agent before settling `cancelled` anyway
 */
export function reduce(state: EngineState, input: EngineInput, cancelGraceMs = CANCEL_GRACE_MS): Step {
  const b = new Builder(state);
  switch (input.type) {
    case "admit":
      b.admit(input);
      break;
    case "update":
      b.update(input);
      break;
    case "permissionRequested":
      b.permissionRequested(input);
      break;
    case "permissionWithdrawn":
      b.result = b.answerRequest(input.requestId, undefined);
      break;
    case "answer":
      b.result = b.answerRequest(input.requestId, input.optionId, input.remember);
      break;
    case "cancel":
      b.result = b.cancel(input.messageId, input.at, cancelGraceMs);
      break;
    case "cancelGrace": {
      const t = b.current(input.turnId, input.attempt, "cancel grace");
      if (t?.cancelRequested) {
        b.log("warn", `[${t.record.agent}] did not answer session/cancel within ${cancelGraceMs} ms: the answer is settled as cancelled`);
        b.settle(t, "cancelled", { stopReason: "cancelled" }, input.at);
      }
      break;
    }
    case "promptEnded":
      b.promptEnded(input);
      break;
    case "tick":
      b.tick(input.at);
      break;
    case "recover":
      b.recover(input);
      break;
    case "retry":
      b.result = b.retry(input);
      break;
    case "sendNow":
      b.result = b.sendNow(input.messageId, input.at, cancelGraceMs);
      break;
    case "roundCheck":
      b.roundCheck(input.rootMessageId);
      break;
    case "close":
      b.close(input.at);
      break;
  }
  return { state: b.state, effects: b.effects, result: b.result };
}

/** Accumulates the next state and the effects of one input. */
class Builder {
  readonly effects: EngineEffect[] = [];
  result: boolean | undefined;

  constructor(public state: EngineState) {}

  log(level: "debug" | "warn" | "error", line: string): void {
    this.effects.push({ type: "log", level, line });
  }

  private put(t: LiveTurn): void {
    this.state = { ...this.state, turns: { ...this.state.turns, [t.record.id]: t } };
  }

  private drop(id: string): void {
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

  admit(input: Extract<EngineInput, { type: "admit" }>): void {
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
      };
      this.put({ record, message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at });
      const round = this.state.rounds[a.rootMessageId] ?? { channelId: a.channelId, open: [], answers: [] };
      this.state = { ...this.state, rounds: { ...this.state.rounds, [a.rootMessageId]: { ...round, open: [...round.open, a.turnId] } } };
      lanes.add(laneOf(record));
    }
    const claimed = this.state.closed ? [] : [...lanes].flatMap((lane) => this.claim(lane, input.at));
    for (const a of input.turns) {
      const t = this.state.turns[a.turnId]!;
      records.push(t.record);
      messages.push(t.message);
    }
    // The user message, its turns (claimed ones already `running`) and their empty answers: one batch.
    this.effects.push({ type: "persist", messages, turns: records });
    if (input.message) this.effects.push({ type: "broadcast", name: "message:finished", message: toView(input.message) });
    for (const a of input.turns) {
      const t = this.state.turns[a.turnId]!;
      this.effects.push({ type: "broadcast", name: "message:started", message: toView(t.message, statusOf(t)) });
    }
    for (const t of claimed) this.effects.push({ type: "prompt", turn: t.record, note: t.note });
  }

  /**
   * Claims the next pending turn of `lane` when none is active there: attempt + 1, owner, heartbeat. Returns the
   * claimed turns (zero or one); the caller persists and prompts.
   */
  private claim(lane: string, at: number): LiveTurn[] {
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
  private dispatchNext(lane: string, at: number): void {
    if (this.state.closed) return;
    for (const t of this.claim(lane, at)) {
      this.effects.push({ type: "persist", turns: [t.record], messages: [t.message] });
      this.effects.push({ type: "broadcast", name: "message:started", message: toView(t.message, "streaming") });
      this.effects.push({ type: "prompt", turn: t.record, note: t.note });
    }
  }

  update(input: Extract<EngineInput, { type: "update" }>): void {
    const t = this.state.turns[input.turnId];
    if (!t || t.record.attempt !== input.attempt || !isActive(t)) {
      this.late(input);
      return;
    }
    const applied = applyUpdate(t.message, input.update);
    if (applied.warning) this.log("warn", `[${t.record.agent}] ${applied.warning}`);
    if (applied.message === t.message) return;
    let next: LiveTurn = { ...t, message: applied.message, dirty: true };
    this.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, ...applied.delta });
    if (applied.boundary && input.at - t.checkpointAt >= CHECKPOINT_MS) next = this.checkpoint(next, input.at);
    this.put(next);
  }

  /** A `session/update` after its turn settled attaches to that turn's message, with a warning (field case 1). */
  private late(input: Extract<EngineInput, { type: "update" }>): void {
    const recent = Object.entries(this.state.recent).find(([, r]) => r.record.id === input.turnId && r.record.attempt === input.attempt);
    if (!recent) {
      this.log("warn", `session/update for turn ${input.turnId} attempt ${input.attempt} dropped: that attempt is not running (stale)`);
      return;
    }
    const [lane, r] = recent;
    const applied = applyUpdate(r.message, input.update);
    if (applied.message === r.message) return;
    this.log("warn", `[${r.record.agent}] session/update after the prompt ended: attached to the finished message`);
    this.state = { ...this.state, recent: { ...this.state.recent, [lane]: { ...r, message: applied.message } } };
    this.effects.push({ type: "persist", messages: [applied.message] });
    this.effects.push({ type: "broadcast", name: "message:finished", message: toView(applied.message) });
  }

  /** Writes the answer so far with the heartbeat (one batch, fenced). */
  private checkpoint(t: LiveTurn, at: number): LiveTurn {
    const record: TurnRecord = { ...t.record, heartbeatAt: at, updatedAt: at };
    this.effects.push({ type: "persist", messages: [t.message], turns: [record], fence: this.fenceOf(t) });
    return { ...t, record, dirty: false, checkpointAt: at };
  }

  /**
   * The store must still hold this attempt of this owner: our own attempts, or — for the sweeper settling a dead
   * owner's turn — that owner's (so a turn claimed meanwhile by someone else is never overwritten).
   */
  private fenceOf(t: LiveTurn): { turnId: string; attempt: number; owner: string } {
    return { turnId: t.record.id, attempt: t.record.attempt, owner: t.record.owner ?? this.state.owner };
  }

  permissionRequested(input: Extract<EngineInput, { type: "permissionRequested" }>): void {
    const t = this.state.turns[input.turnId];
    if (!t || t.record.attempt !== input.attempt || !isActive(t) || t.cancelRequested) {
      // After Stop (field case 4) or from a stale attempt: answered `cancelled` and never shown.
      this.effects.push({ type: "answerPermission", requestId: input.requestId });
      if (!t?.cancelRequested) this.log("warn", `permission request from turn ${input.turnId} attempt ${input.attempt} cancelled: that attempt is not running`);
      return;
    }
    const announced = withRequestedToolCall(t.message, input.request);
    if (announced?.delta?.part) this.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part: announced.delta.part });
    const { message, part, optionId } = askPermission(announced?.message ?? t.message, input.requestId, input.request, t.record.agent, input.policy, input.rules);
    let next: LiveTurn = { ...t, message, record: optionId ? t.record : { ...t.record, state: "awaiting_input" }, dirty: true };
    this.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part });
    if (optionId) this.effects.push({ type: "answerPermission", requestId: input.requestId, optionId });
    if (input.at - t.checkpointAt >= CHECKPOINT_MS) next = this.checkpoint(next, input.at);
    this.put(next);
  }

  /** Answers (or, with `optionId` undefined, cancels) a pending permission request; `remember`: and makes a rule. */
  answerRequest(requestId: string, optionId: string | undefined, remember = false): boolean {
    const t = Object.values(this.state.turns).find((x) => pendingPermissions(x.message).includes(requestId));
    if (!t) return false;
    const part = t.message.parts.find((p) => p.type === "permission" && p.requestId === requestId);
    if (optionId !== undefined && (part?.type !== "permission" || !part.options.some((o) => o.optionId === optionId))) return false;
    const made = remember && optionId !== undefined && part?.type === "permission" ? ruleFor(t.record.agent, part, optionId) : undefined;
    if (remember && !made) return false;
    const answered = withNotice(answerPermissionPart(t.message, requestId, optionId ?? "cancelled"), made?.notice);
    const waiting = pendingPermissions(answered.message).length > 0;
    const record: TurnRecord = { ...t.record, state: waiting ? "awaiting_input" : "running" };
    this.put({ ...t, message: answered.message, record, dirty: true });
    // Only the user's own request makes a Sidekicks rule (an agent's "always" option is the agent's: ADR 0005); it is
    // kept before the answer goes out, so the agent's next, identical request finds it.
    if (made) this.effects.push({ type: "remember", agent: t.record.agent, rule: made.rule });
    this.effects.push({ type: "answerPermission", requestId, optionId });
    if (answered.part) this.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part: answered.part });
    return true;
  }

  cancel(messageId: string, at: number, graceMs: number): boolean {
    const t = Object.values(this.state.turns).find((x) => x.record.messageId === messageId);
    if (!t) return false;
    if (t.record.state === "pending") {
      this.settle(t, "cancelled", { stopReason: "cancelled" }, at);
      return true;
    }
    if (t.cancelRequested) return true;
    let next: LiveTurn = { ...t, cancelRequested: true };
    this.put(next);
    for (const requestId of pendingPermissions(t.message)) this.answerRequest(requestId, undefined);
    next = this.state.turns[t.record.id]!;
    this.effects.push({ type: "cancelPrompt", turnId: t.record.id });
    this.effects.push({ type: "schedule", ms: graceMs, input: { type: "cancelGrace", at: at + graceMs, turnId: t.record.id, attempt: t.record.attempt } });
    return true;
  }

  sendNow(messageId: string, at: number, graceMs: number): boolean {
    const t = Object.values(this.state.turns).find((x) => x.record.messageId === messageId && x.record.state === "pending");
    if (!t) return false;
    this.put({ ...t, urgent: true });
    const lane = laneOf(t.record);
    const running = Object.values(this.state.turns).find((x) => laneOf(x.record) === lane && isActive(x));
    if (running) this.cancel(running.record.messageId, at, graceMs);
    else this.dispatchNext(lane, at);
    return true;
  }

  promptEnded(input: Extract<EngineInput, { type: "promptEnded" }>): void {
    const t = this.current(input.turnId, input.attempt, "prompt result");
    if (!t) return;
    const { error } = input;
    if (t.cancelRequested || error?.code === "agent/stopped") {
      // The user's Stop, or the user stopped the agent itself (Agents view, Restart): cancelled, not a crash.
      this.settle(t, "cancelled", { stopReason: "cancelled" }, input.at);
    } else if (error) {
      this.settle(t, error.code === "turn/interrupted" ? "interrupted" : "failed", { error }, input.at);
    } else {
      this.settle(t, input.stopReason === "refusal" ? "refused" : "completed", { stopReason: input.stopReason }, input.at);
    }
  }

  /**
   * Settles `t`: closes open parts, writes the message, the settled turn (dropping its `turn-open/` entry) and, for
   * a completed turn that was not a command, the member's `lastSeenMessageId` — one fenced batch — then broadcasts
   * `message:finished` and claims the lane's next turn.
   */
  settle(t: LiveTurn, outcome: TurnOutcome, end: { stopReason?: string; error?: ErrorInfo }, at: number, intents?: IntentRecord[]): void {
    const how = outcome === "interrupted" ? "unknown" : outcome === "cancelled" ? "cancelled" : outcome === "failed" ? "failed" : "noResult";
    let message = closeOpenParts(t.message, how);
    message = { ...message, outcome, attempt: t.record.attempt || undefined, stopReason: end.stopReason, error: end.error };
    if (message.attempt === undefined) delete message.attempt;
    if (message.stopReason === undefined) delete message.stopReason;
    if (message.error === undefined) delete message.error;
    const record: TurnRecord = { ...t.record, state: "settled", outcome, stopReason: end.stopReason, error: end.error, settledAt: at, updatedAt: at };
    if (record.stopReason === undefined) delete record.stopReason;
    if (record.error === undefined) delete record.error;
    const advance = outcome === "completed" && !record.command;
    this.effects.push({
      type: "persist",
      messages: [message],
      turns: [record],
      ...(intents && intents.length > 0 ? { intents } : {}),
      ...(advance ? { advanceMember: { channelId: record.channelId, agent: record.agent, lastSeenMessageId: record.requestMessageId, turnId: record.id } } : {}),
      ...(t.record.attempt > 0 ? { fence: this.fenceOf(t) } : {}),
    });
    this.effects.push({ type: "broadcast", name: "message:finished", message: toView(message) });
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
    this.dispatchNext(lane, at);
  }

  tick(at: number): void {
    for (const t of Object.values(this.state.turns)) {
      if (!isActive(t)) continue;
      if (t.dirty && at - t.checkpointAt >= CHECKPOINT_MS) this.put(this.checkpoint(t, at));
      else if (at - (t.record.heartbeatAt ?? 0) >= HEARTBEAT_MS) {
        const record: TurnRecord = { ...t.record, heartbeatAt: at };
        this.effects.push({ type: "persist", turns: [record], fence: this.fenceOf(t) });
        this.put({ ...t, record });
      }
    }
  }

  /**
   * The sweeper's findings at activation: turns whose attempt belongs to another owner are settled `interrupted`
   * (the store's lock proves that owner is gone), keeping their checkpoint; pending turns are queued again and
   * dispatched.
   */
  recover(input: Extract<EngineInput, { type: "recover" }>): void {
    const lanes = new Set<string>();
    for (const { record, message: stored, intents } of input.turns) {
      if (this.state.turns[record.id]) continue;
      const message: MessageRecord = stored ?? { version: 1, id: record.messageId, channelId: record.channelId, author: { kind: "agent", agentName: record.agent }, parts: [], createdAt: record.createdAt, turnId: record.id };
      const t: LiveTurn = { record, message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at };
      if (record.state === "pending") {
        this.put(t);
        lanes.add(laneOf(record));
        continue;
      }
      if (record.owner === this.state.owner) continue;
      const since = record.heartbeatAt ? `; its last heartbeat was ${Math.round((input.at - record.heartbeatAt) / 1000)} s before this recovery` : "";
      this.log("warn", `recovery: turn ${record.id} (@${record.agent}, attempt ${record.attempt}) was ${record.state} under an owner that is gone${since}: settled interrupted`);
      this.put(t);
      this.settle(t, "interrupted", { error: interruptedError(record) }, input.at, intents);
    }
    for (const lane of lanes) this.dispatchNext(lane, input.at);
  }

  /** Retry (interrupted, failed) or Run again (cancelled): the turn queued again in its message (`runAgain.ts`). */
  retry(input: Extract<EngineInput, { type: "retry" }>): boolean {
    const again = this.state.closed || this.state.turns[input.record.id] ? undefined : reopenTurn(input.record, input.message, input.at, input.known);
    if (!again) return false;
    this.put({ record: again.record, message: again.message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at, note: again.note });
    const claimed = this.claim(laneOf(again.record), input.at);
    const t = this.state.turns[input.record.id]!;
    this.effects.push({ type: "persist", turns: [t.record], messages: [t.message] });
    this.effects.push({ type: "broadcast", name: "message:started", message: toView(t.message, statusOf(t)) });
    for (const c of claimed) this.effects.push({ type: "prompt", turn: c.record, note: c.note });
    return true;
  }

  roundCheck(rootMessageId: string): void {
    const round = this.state.rounds[rootMessageId];
    if (!round || round.open.length > 0) return;
    const { [rootMessageId]: _done, ...rest } = this.state.rounds;
    this.state = { ...this.state, rounds: rest };
    this.effects.push({ type: "roundSettled", channelId: round.channelId, rootMessageId, answers: [...round.answers] });
  }

  /** The window closes: running attempts end `interrupted` with everything received; pending turns stay queued. */
  close(at: number): void {
    this.state = { ...this.state, closed: true };
    for (const t of Object.values(this.state.turns)) {
      if (!isActive(t)) continue;
      this.settle(t, "interrupted", { error: interruptedError(t.record) }, at);
    }
  }
}

/** The error an interrupted turn shows (brief, "Recovery"). */
export function interruptedError(record: Pick<TurnRecord, "agent" | "attempt">): ErrorInfo {
  return {
    code: "turn/interrupted",
    message: l10n.t(
      "Interrupted: the window closed or Sidekicks restarted while @{0} was answering (attempt {1}). What arrived before is kept; Retry runs it again.",
      record.agent,
      record.attempt,
    ),
  };
}
