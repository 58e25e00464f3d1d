/**
 * The turn reducer's delegation through the `delegate` tool of Sidekicks' MCP server (issue 22; seed 002, "Child
 * admission"): a child turn admitted and linked to the parent's tool intent before it is dispatched, the intent settled
 * in the child's settling batch (with its answer, which a Retry of the parent redelivers), Stop on the parent passed
 * on to its children. Pure; internal to `src/turns/`.
 */
import * as l10n from "@vscode/l10n";
import type { ToolCallPart, ToolCallStatus, TurnOutcome } from "../shared/protocol";
import type { IntentRecord, MessageRecord, TurnRecord } from "../store/records";
import { admit } from "./reduceAdmission";
import type { Builder } from "./reducerCore";
import type { EngineInput, LiveTurn } from "./reducerState";

/**
 * The running attempt called `delegate`: the intent is written `intended` in a batch of its own (a crash right after
 * leaves it unsettled with no child: recovery says it did not start), the parent's answer gets the delegation's card,
 * then the child turn is admitted with the intent `running`, one batch, and dispatched when its lane is free.
 * @returns false when the parent attempt is no longer running (or is being stopped), or the host is closing
 */
export function delegate(b: Builder, input: Extract<EngineInput, { type: "delegate" }>): boolean {
  const parent = b.current(input.turnId, input.attempt, "delegation");
  if (!parent || parent.cancelRequested || b.state.closed) return false;
  b.effects.push({ type: "persist", intents: [input.intent] });
  const running: IntentRecord = { ...input.intent, phase: "running", updatedAt: input.at };
  b.state = { ...b.state, delegations: { ...b.state.delegations, [input.child.turnId]: running } };
  b.put(b.checkpoint(withCard(b, parent, agentCardFor(parent.message.parts, running) ?? delegationCard(running, "in_progress")), input.at));
  admit(b, { type: "admit", at: input.at, turns: [{ ...input.child, parentIntentId: input.intent.id }] }, [running]);
  return true;
}

/**
 * A turn settles: when it is a `delegate` child, its parent's intent settled with what the child did (`done` with its
 * answer, `failed` with why, `outcome_uncertain` when interrupted), for the child's settling batch; the parent's
 * card follows when the parent still runs. The caller adds the `delegationSettled` effect after the batch.
 */
export function childSettled(b: Builder, record: TurnRecord, message: MessageRecord, outcome: TurnOutcome, at: number): IntentRecord | undefined {
  const intent = b.state.delegations[record.id];
  if (!intent) return undefined;
  const { [record.id]: _done, ...rest } = b.state.delegations;
  b.state = { ...b.state, delegations: rest };
  const text = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  const parent = b.state.turns[intent.turnId];
  const settled: IntentRecord = { ...intent, phase: "settled", updatedAt: at, ...settlement(intent, outcome, text, message.error?.message, parent?.cancelRequested === true) };
  // When the agent's own card for the call carries the delegation, the agent reports its end there (the tool's result).
  const ownCard = parent?.message.parts.some((p) => p.type === "toolCall" && p.delegation?.childMessageId === intent.childMessageId && p.toolCallId !== `delegate-${intent.id}`);
  if (parent && parent.record.attempt === intent.attempt && !ownCard) b.put(withCard(b, parent, delegationCard(settled, settled.result === "done" ? "completed" : "failed")));
  return settled;
}

/**
 * The parent's attempt ends by itself (its agent ended its turn, or gave up waiting on the `delegate` call) while a
 * child it delegated still runs or waits: the child goes on — its answer is the user's, in the channel — and the
 * parent's card for it says the parent stopped waiting, keeping the link to the child's answer. Not for Stop (the
 * children are stopped too) nor for an interruption (the children are interrupted with it).
 */
export function parentStoppedWaiting(b: Builder, t: LiveTurn): LiveTurn {
  let parent = t;
  for (const intent of Object.values(b.state.delegations)) {
    if (intent.turnId !== t.record.id || intent.attempt !== t.record.attempt || !intent.childMessageId) continue;
    const at = parent.message.parts.findIndex((p) => p.type === "toolCall" && p.delegation?.childMessageId === intent.childMessageId);
    const card = at >= 0 ? parent.message.parts[at] : undefined;
    if (card?.type !== "toolCall" || (card.status !== "pending" && card.status !== "in_progress")) continue;
    const note = l10n.t("@{0} stopped waiting for this answer; @{1} goes on, and its answer stays in the channel.", t.record.agent, intent.member ?? "?");
    const waited: ToolCallPart = { ...card, noResult: true, content: [card.content, note].filter(Boolean).join("\n\n") };
    parent = withCard(b, parent, waited);
  }
  return parent;
}

/** Stop on a parent: each child it delegated through the tool and that has not settled is stopped too. */
export function childrenOf(state: Builder["state"], parentTurnId: string): string[] {
  return Object.values(state.delegations)
    .filter((i) => i.turnId === parentTurnId && i.childMessageId)
    .map((i) => i.childMessageId!);
}

function settlement(intent: IntentRecord, outcome: TurnOutcome, text: string, error: string | undefined, parentStopped: boolean): Pick<IntentRecord, "result" | "detail" | "answer"> {
  const member = intent.member ?? "?";
  switch (outcome) {
    case "completed":
      return { result: "done", answer: text, detail: `@${member} answered; calling delegate again with the same member and request gives that answer without running @${member} again` };
    case "cancelled":
      return { result: "failed", detail: parentStopped ? `stopped with the turn that delegated it` : `@${member}'s answer was stopped by the user` };
    case "refused":
      return { result: "failed", detail: `@${member} refused the request${text ? `: ${text}` : ""}` };
    case "interrupted":
      return { result: "outcome_uncertain", detail: `@${member} was answering when its turn was interrupted: its outcome is not known, and it is not run again by itself` };
    default:
      return { result: "failed", detail: `@${member}'s turn failed${error ? `: ${error}` : ""}` };
  }
}

/** The card the parent's answer shows for a delegation: names the member, links to its answer, follows its state. */
export function delegationCard(intent: IntentRecord, status: ToolCallStatus): ToolCallPart {
  const member = intent.member ?? "?";
  return {
    type: "toolCall",
    toolCallId: `delegate-${intent.id}`,
    title: l10n.t("Delegated to @{0}", member),
    kind: "other",
    status,
    content: intent.phase === "settled" && intent.result !== "done" ? `${intent.request ?? ""}\n\n${intent.detail ?? ""}`.trim() : (intent.request ?? ""),
    ...(intent.childMessageId ? { delegation: { member, childMessageId: intent.childMessageId } } : {}),
  };
}

/**
 * The agent's own card for this `delegate` call, carrying the delegation, so one delegation shows one card (Claude Code
 * announces its MCP call as `mcp__sidekicks__delegate`; a fresh-user trial saw that card and Sidekicks' own side by
 * side): the last running tool call of the current attempt whose title names Sidekicks' `delegate` tool and that
 * carries no delegation yet. Undefined when the agent announced none (or only after the call came): Sidekicks' card.
 */
function agentCardFor(parts: readonly MessageRecord["parts"][number][], intent: IntentRecord): ToolCallPart | undefined {
  if (!intent.childMessageId) return undefined;
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.type === "retry") return undefined;
    if (p.type !== "toolCall" || p.delegation || (p.status !== "pending" && p.status !== "in_progress")) continue;
    const words = p.title.toLowerCase().split(/[^a-z0-9]+/);
    if (words.includes("sidekicks") && words.includes("delegate")) return { ...p, delegation: { member: intent.member ?? "?", childMessageId: intent.childMessageId } };
  }
  return undefined;
}

/** `t` with `card` put in its answer (replacing the card of the same id) and sent to the view as a delta. */
function withCard(b: Builder, t: LiveTurn, card: ToolCallPart): LiveTurn {
  const at = t.message.parts.findIndex((p) => p.type === "toolCall" && p.toolCallId === card.toolCallId);
  const parts = at >= 0 ? t.message.parts.map((p, i) => (i === at ? card : p)) : [...t.message.parts, card];
  b.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part: card });
  return { ...t, message: { ...t.message, parts }, dirty: true };
}
