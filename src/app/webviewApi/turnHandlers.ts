import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../../shared/errors";
import type { WebviewRequestHandlers } from "../WebviewBridge";
import type { EditorPort } from "../EditorPort";
import type { RestoreEditor, RestoreResult } from "../../channels/TurnRestore";
import { applyAnswer } from "../turnApply";
import { text, type WebviewApiPorts } from "./ports";

/** What the editor lends an undo or redo: its open documents, and the per-file conflict questions. */
export function restoreEditor(editor: EditorPort): RestoreEditor {
  const { documents } = editor;
  return {
    ...(documents ? { documents } : {}),
    ...(documents?.isDirty ? { isDirty: (file: string) => documents.isDirty!(file) } : {}),
    ...(editor.resolveConflicts ? { resolve: (conflicts, which) => editor.resolveConflicts!(conflicts, which) } : {}),
  };
}

/** A restore's result as the view is told it: counts of files. */
export function restoreCounts(result: RestoreResult): { done: number; skipped: number; conflicts: number } {
  return { done: result.done.length, skipped: result.skipped.length, conflicts: result.conflicts.length };
}

type TurnMethods = "turn/cancel" | "turn/retry" | "turn/sendNow" | "turn/fileDiff" | "turn/restore" | "turn/review" | "turn/applyToFolder" | "permission/answer";

/**
 * What the user does to an answer from its card: Stop, Retry / Run again, Send now, a permission answer, and a changed
 * file's diff. Stop and a permission answer with no history open answer `false` instead of throwing.
 */
export function turnHandlers(ports: WebviewApiPorts): Pick<WebviewRequestHandlers, TurnMethods> {
  const { history, editor } = ports;
  return {
    "turn/cancel": async ({ messageId }) => ({ cancelled: (await history.current?.turns.cancel(messageId)) ?? false }),
    "turn/retry": async ({ messageId }) => ({ retried: await history.require().turns.retryMessage(text(messageId, "message id")) }),
    "turn/sendNow": async ({ messageId }) => ({ sent: await history.require().turns.sendNow(text(messageId, "message id")) }),
    "turn/fileDiff": async ({ messageId, path }) => {
      const diff = await history.require().files.fileDiff(text(messageId, "message id"), text(path, "path"));
      // A click that cannot do what it says says why (issue 18).
      if (!diff) throw new SidekicksError("editor/cannotOpen", l10n.t("The text of {0} from before this answer is no longer kept, so there is no diff to show.", path));
      return { opened: (await editor.openDiff?.(diff)) ?? false };
    },
    "turn/restore": async ({ messageId, action, paths }) => {
      const result = await history.require().restore.restore(text(messageId, "message id"), action, paths, restoreEditor(editor));
      return restoreCounts(result);
    },
    "turn/review": async ({ messageId, since }) => {
      const { agents, files } = await history.require().restore.review(text(messageId, "message id"), since === true);
      if (files.length === 0) throw new SidekicksError("editor/cannotOpen", l10n.t("No text from before this answer is kept for its changed files, so there is nothing to review."));
      const who = agents.map((a) => `@${a}`).join(", ");
      const title = since ? l10n.t("Changes since this message ({0})", who) : l10n.t("Changes by {0}", who);
      return { opened: (await editor.reviewChanges?.(title, files)) ?? false };
    },
    "turn/applyToFolder": ({ messageId }) => applyAnswer(ports, text(messageId, "message id")),
    "permission/answer": async ({ requestId, optionId, remember }) => ({
      accepted: (await history.current?.turns.answerPermission(text(requestId, "request id"), text(optionId, "option id"), remember === true)) ?? false,
    }),
  };
}
