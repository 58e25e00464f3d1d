/** The turn reducer's Stop (with its grace), Send now, and the end of a prompt (which outcome it settles). */
import * as l10n from "@vscode/l10n";
import type { ErrorInfo } from "../shared/protocol";
import { pendingPermissions } from "./answer";
import { answerRequest } from "./reducePermissions";
import { childrenOf } from "./reduceDelegation";
import type { Builder } from "./reducerCore";
import { isActive, laneOf, type EngineInput, type LiveTurn } from "./reducerState";

/**
 * The user's Stop: a queued turn settles `cancelled`; a running one gets `session/cancel`, its pending permissions
 * are answered `cancelled`, and a grace timer settles it if the agent ignores the cancel. @returns false when no open
 * turn has that message. The turns it delegated through the `delegate` tool are stopped with it.
 */
export function cancel(b: Builder, messageId: string, at: number, graceMs: number): boolean {
  const t = Object.values(b.state.turns).find((x) => x.record.messageId === messageId);
  if (!t) return false;
  // Stop on a parent stops the children it delegated through the `delegate` tool (issue 22), first.
  for (const child of childrenOf(b.state, t.record.id)) cancel(b, child, at, graceMs);
  if (t.record.state === "pending") {
    b.settle(t, "cancelled", { stopReason: "cancelled" }, at);
    return true;
  }
  if (t.cancelRequested) return true;
  let next: LiveTurn = { ...t, cancelRequested: true };
  b.put(next);
  for (const requestId of pendingPermissions(t.message)) answerRequest(b, requestId, undefined);
  next = b.state.turns[t.record.id]!;
  b.effects.push({ type: "cancelPrompt", turnId: t.record.id });
  b.effects.push({ type: "schedule", ms: graceMs, input: { type: "cancelGrace", at: at + graceMs, turnId: t.record.id, attempt: t.record.attempt } });
  return true;
}

/** "Send now": the queued turn jumps its lane; the running one is stopped first. @returns false when not queued */
export function sendNow(b: Builder, messageId: string, at: number, graceMs: number): boolean {
  const t = Object.values(b.state.turns).find((x) => x.record.messageId === messageId && x.record.state === "pending");
  if (!t) return false;
  b.put({ ...t, urgent: true });
  const lane = laneOf(t.record);
  const running = Object.values(b.state.turns).find((x) => laneOf(x.record) === lane && isActive(x));
  if (running) cancel(b, running.record.messageId, at, graceMs);
  else b.dispatchNext(lane, at);
  return true;
}

/** A prompt ended: the outcome it settles (Stop → `cancelled` even on `end_turn`; an error → `failed`; …). */
export function promptEnded(b: Builder, input: Extract<EngineInput, { type: "promptEnded" }>): void {
  const t = b.current(input.turnId, input.attempt, "prompt result");
  if (!t) return;
  const { error } = input;
  if (t.cancelRequested || error?.code === "agent/stopped") {
    // The user's Stop, or the user stopped the agent itself (Agents view, Restart): cancelled, not a crash. An agent
    // that did not answer the cancel in time (`agent/timeout`) keeps that note on the message.
    b.settle(t, "cancelled", { stopReason: "cancelled", ...(error?.code === "agent/timeout" ? { error } : {}) }, input.at);
  } else if (error) {
    b.settle(t, error.code === "turn/interrupted" ? "interrupted" : "failed", { error }, input.at);
  } else {
    b.settle(t, input.stopReason === "refusal" ? "refused" : "completed", { stopReason: input.stopReason }, input.at);
  }
}

/** The note of a turn settled `cancelled` by the Stop's grace: its agent never answered `session/cancel`. */
export function cancelGraceNote(agent: string, graceMs: number): ErrorInfo {
  return {
    code: "agent/timeout",
    message: l10n.t(
      'Agent "{0}" did not stop within {1} s of session/cancel: its turn was ended as cancelled, and whatever it still sends for it is ignored. If it stays stuck, restart it (Sidekicks: Restart agent), or raise limits.cancelTimeout in sidekicks.yaml.',
      agent,
      Math.round(graceMs / 1000),
    ),
  };
}
