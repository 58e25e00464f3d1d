import type { MessageView } from "../shared/protocol";
import type { MessageRecord } from "../store/records";

/**
 * Outcomes the user can run again in the same message: Retry an interrupted or failed turn (brief, "Recovery"), Run
 * again a cancelled one — an answer they stopped, a queued message they removed (issue 15, item 4). Never a completed
 * or refused turn.
 */
export const RETRYABLE_OUTCOMES: ReadonlySet<string> = new Set(["interrupted", "failed", "cancelled"]);

/**
 * Projects a stored message to the webview's shape. `status` is given for a message whose turn is open
 * (`queued` while pending, `streaming` while running); otherwise it follows the record (`error` or `done`).
 */
export function toView(m: MessageRecord, status?: MessageView["status"]): MessageView {
  return {
    id: m.id,
    channelId: m.channelId,
    author: m.author,
    parts: m.parts.map((p) => ({ ...p })),
    createdAt: m.createdAt,
    to: m.to,
    ...(m.attachments && m.attachments.length > 0 ? { attachments: m.attachments } : {}),
    ...(m.delegatedBy ? { delegatedBy: m.delegatedBy, parentMessageId: m.parentMessageId, ...(m.delegatedVia ? { delegatedVia: m.delegatedVia } : {}) } : {}),
    ...(m.editOf ? { editOf: m.editOf } : {}),
    ...(m.regenerates ? { regenerates: m.regenerates } : {}),
    status: status ?? (m.error ? "error" : "done"),
    stopReason: m.stopReason,
    error: m.error,
    ...(m.outcome ? { outcome: m.outcome } : {}),
    ...(m.attempt && m.attempt > 1 ? { attempt: m.attempt } : {}),
    ...(!status && m.turnId && m.outcome && RETRYABLE_OUTCOMES.has(m.outcome) ? { retryable: true } : {}),
  };
}
