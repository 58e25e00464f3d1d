/** The turn reducer's permission requests (shown, or answered by a rule or the policy: ADR 0005) and answers. */
import type { TurnRecord } from "../store/records";
import * as l10n from "@vscode/l10n";
import type { PermissionPart } from "../shared/protocol";
import { addPermission, answerPermissionPart, pendingPermissions, withRequestedToolCall } from "./answer";
import { askPermission, ruleFor, withNotice } from "./permissionPolicy";
import type { Builder } from "./reducerCore";
import { CHECKPOINT_MS, isActive, type EngineInput, type LiveTurn } from "./reducerState";

/**
 * A permission request of a running attempt: shown (`awaiting_input`), or answered at once by a rule or the policy;
 * after Stop or from a stale attempt, answered `cancelled` and never shown (field case 4); with no option to show,
 * answered `cancelled` at once and shown with a note saying so (issue 18).
 */
export function permissionRequested(b: Builder, input: Extract<EngineInput, { type: "permissionRequested" }>): void {
  const t = b.state.turns[input.turnId];
  if (!t || t.record.attempt !== input.attempt || !isActive(t) || t.cancelRequested) {
    // After Stop (field case 4) or from a stale attempt: answered `cancelled` and never shown.
    b.effects.push({ type: "answerPermission", requestId: input.requestId });
    if (!t?.cancelRequested) b.log("warn", `permission request from turn ${input.turnId} attempt ${input.attempt} cancelled: that attempt is not running`);
    return;
  }
  const announced = withRequestedToolCall(t.message, input.request);
  if (announced?.delta?.part) b.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part: announced.delta.part });
  if (input.request.options.length === 0) {
    // Nothing to click (issue 18): answered `cancelled` at once, the card says why, the turn never waits for it.
    const added = addPermission(announced?.message ?? t.message, input.requestId, input.request);
    const part: PermissionPart = { ...added.part, outcome: "cancelled", notice: l10n.t("@{0} asked without offering a choice Sidekicks can show, so Sidekicks answered Cancelled. The agent's log says what was wrong.", t.record.agent) };
    const message = { ...added.message, parts: added.message.parts.map((p) => (p === added.part ? part : p)) };
    b.log("warn", `permission request ${input.requestId} of turn ${input.turnId} offers no choice that can be shown: answered cancelled`);
    b.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part });
    b.effects.push({ type: "answerPermission", requestId: input.requestId });
    b.put({ ...t, message, dirty: true });
    return;
  }
  const { message, part, optionId } = askPermission(announced?.message ?? t.message, input.requestId, input.request, t.record.agent, input.policy, input.rules);
  let next: LiveTurn = { ...t, message, record: optionId ? t.record : { ...t.record, state: "awaiting_input" }, dirty: true };
  b.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part });
  if (optionId) b.effects.push({ type: "answerPermission", requestId: input.requestId, optionId });
  if (input.at - t.checkpointAt >= CHECKPOINT_MS) next = b.checkpoint(next, input.at);
  b.put(next);
}

/** Answers (or, with `optionId` undefined, cancels) a pending permission request; `remember`: and makes a rule. */
export function answerRequest(b: Builder, requestId: string, optionId: string | undefined, remember = false): boolean {
  const t = Object.values(b.state.turns).find((x) => pendingPermissions(x.message).includes(requestId));
  if (!t) return false;
  const part = t.message.parts.find((p) => p.type === "permission" && p.requestId === requestId);
  if (optionId !== undefined && (part?.type !== "permission" || !part.options.some((o) => o.optionId === optionId))) return false;
  const made = remember && optionId !== undefined && part?.type === "permission" ? ruleFor(t.record.agent, part, optionId) : undefined;
  if (remember && !made) return false;
  const answered = withNotice(answerPermissionPart(t.message, requestId, optionId ?? "cancelled"), made?.notice);
  const waiting = pendingPermissions(answered.message).length > 0;
  const record: TurnRecord = { ...t.record, state: waiting ? "awaiting_input" : "running" };
  b.put({ ...t, message: answered.message, record, dirty: true });
  // Only the user's own request makes a Sidekicks rule (an agent's "always" option is the agent's: ADR 0005); it is
  // kept before the answer goes out, so the agent's next, identical request finds it.
  if (made) b.effects.push({ type: "remember", agent: t.record.agent, rule: made.rule });
  b.effects.push({ type: "answerPermission", requestId, optionId });
  if (answered.part) b.effects.push({ type: "delta", channelId: t.record.channelId, messageId: t.record.messageId, part: answered.part });
  return true;
}
