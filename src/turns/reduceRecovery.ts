/** The turn reducer's recovery at activation (the sweeper's findings) and close (the window closes). */
import * as l10n from "@vscode/l10n";
import type { ErrorInfo, PermissionPart } from "../shared/protocol";
import type { IntentRecord, MessageRecord, TurnRecord } from "../store/records";
import type { FileDecision } from "../workspace/turnFiles";
import { withFileStates } from "./changedFiles";
import { intentPart } from "./intents";
import type { Builder } from "./reducerCore";
import { interruptedError, isActive, laneOf, type EngineInput, type LiveTurn } from "./reducerState";

/**
 * The sweeper's findings at activation: turns whose attempt belongs to another owner are settled `interrupted`
 * (the store's lock proves that owner is gone), keeping their checkpoint; pending turns are queued again and
 * dispatched. Each classified tool intent is written in the same batch as the card that shows it in its turn's
 * answer (so a crash during recovery loses neither): with the interrupted turn's settlement, or — for a turn settled
 * already or queued — in one batch with its answer, before the settlements.
 */
export function recover(b: Builder, input: Extract<EngineInput, { type: "recover" }>): void {
  const lanes = new Set<string>();
  // A delegation whose child was still queued did not start (issue 22): truer than "outcome not known".
  const queuedChildren = new Set(input.turns.filter((t) => t.record.state === "pending" && t.record.parentIntentId).map((t) => t.record.id));
  const notStarted = (i: IntentRecord): IntentRecord =>
    i.kind === "delegate" && i.childTurnId && queuedChildren.has(i.childTurnId) ? { ...i, result: "not_started", detail: `@${i.member ?? "?"} had not started when the window closed` } : i;
  const found = input.turns.map(({ record, message, intents }) => {
    const base: MessageRecord = message ?? { version: 1, id: record.messageId, channelId: record.channelId, author: { kind: "agent", agentName: record.agent }, parts: [], createdAt: record.createdAt, turnId: record.id };
    const mine = (intents ?? []).map(notStarted);
    return { record, message: withIntentCards(base, mine, queuedChildren), intents: mine };
  });
  for (const { message, intents: found } of input.orphans ?? []) {
    const intents = found.map(notStarted);
    if (intents.length > 0) b.effects.push({ type: "persist", intents, messages: message ? [withIntentCards(message, intents, queuedChildren)] : [] });
  }
  for (const { record, message, intents } of found) {
    if (record.state === "pending" && intents.length > 0 && !b.state.turns[record.id]) b.effects.push({ type: "persist", intents, messages: [message] });
  }
  for (const { record, message, intents } of found) {
    if (b.state.turns[record.id]) continue;
    const t: LiveTurn = { record, message, cancelRequested: false, urgent: false, dirty: false, checkpointAt: input.at };
    if (record.state === "pending" && record.parentIntentId) {
      // A `delegate` child that never started (issue 22): the call that waited for it is gone; it does not run by itself.
      b.put(t);
      b.settle(t, "cancelled", { stopReason: "cancelled", error: notStartedError(record) }, input.at);
      continue;
    }
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

/**
 * `message` followed by one card per recovered intent ("Sidekicks wrote src/x.ts for @agent — applied"). A restore
 * (an undo or redo interrupted by the crash, issue 19) found applied also sets its file's state on the files card:
 * each file was written whole (temp file and rename), so it holds either text, and the card says which.
 * A delegation's card takes the place of the card the answer already shows for that call (Sidekicks' own, or the
 * agent's own card carrying the delegation), so one delegation keeps one card, saying what recovery found; a child
 * never admitted (not in `queuedChildren`, and not started) has no answer to link to.
 */
function withIntentCards(message: MessageRecord, intents: readonly IntentRecord[], queuedChildren: ReadonlySet<string>): MessageRecord {
  if (intents.length === 0) return message;
  const states: Record<string, FileDecision> = {};
  // A redo found applied leaves its file undecided, as right after the turn (as a redo that finished does).
  for (const i of intents) if (i.restore && i.path && i.result === "applied") states[i.path] = i.restore === "undo" ? "undone" : null;
  let parts = [...message.parts];
  for (const i of intents) {
    // A permission answer the message shows on its own card is said there, not on a second card beside it (a trial
    // read "Permission answer for @demo — outcome unknown" as a tool call, next to "Not answered").
    if (i.kind === "permission") {
      const shown = parts.findIndex((p) => p.type === "permission" && p.requestId === i.requestId);
      if (shown >= 0) {
        parts = parts.map((p, k) => (k === shown && p.type === "permission" ? permissionRecovered(p, i) : p));
        continue;
      }
    }
    let card = intentPart(i);
    if (i.kind === "delegate" && i.result === "not_started" && !(i.childTurnId && queuedChildren.has(i.childTurnId))) {
      const { delegation: _none, ...unlinked } = card;
      card = unlinked;
    }
    const live = i.kind === "delegate" ? parts.findIndex((p) => p.type === "toolCall" && (p.toolCallId === `delegate-${i.id}` || (!!i.childMessageId && p.delegation?.childMessageId === i.childMessageId))) : -1;
    parts = live >= 0 ? parts.map((p, k) => (k === live ? card : p)) : [...parts, card];
  }
  const cards = { ...message, parts };
  return Object.keys(states).length > 0 ? withFileStates(cards, states) : cards;
}

/**
 * A permission card after recovery: Sidekicks' own "cancelled" (the answer ended before the user chose) leaves the
 * card's "Not answered" as it is; an answer the user chose whose delivery recovery could not confirm says so.
 */
function permissionRecovered(part: PermissionPart, intent: IntentRecord): PermissionPart {
  if (intent.optionId === undefined || intent.optionId === "cancelled" || intent.result === "done" || intent.result === "applied") return part;
  return { ...part, notice: l10n.t("The window closed while this answer was being sent: it may not have reached @{0}. Retry asks again.", intent.agent) };
}

/** The window closes: running attempts end `interrupted` with everything received; pending turns stay queued. */
export function close(b: Builder, at: number): void {
  b.state = { ...b.state, closed: true };
  for (const t of Object.values(b.state.turns)) {
    if (!isActive(t)) continue;
    b.settle(t, "interrupted", { error: interruptedError(t.record) }, at);
  }
}

/** Why a queued `delegate` child was not run after a restart (issue 22). */
function notStartedError(record: Pick<TurnRecord, "agent">): ErrorInfo {
  return {
    code: "turn/interrupted",
    message: l10n.t("Not started: Sidekicks restarted before @{0} began, and the answer that delegated this is no longer waiting for it. Run again to start it.", record.agent),
  };
}
