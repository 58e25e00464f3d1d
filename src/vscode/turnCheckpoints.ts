/**
 * The editor's side of a turn's checkpoint (issue 19): the conflicts of an undo or redo asked per file in a quick pick
 * (skip / merge where a clean merge exists / overwrite / open a diff first), and "Review changes" in VS Code's multi-file diff editor (`vscode.changes`),
 * the texts from before served read-only by {@link DiffDocuments}, the files now on the right (editable).
 */
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import type { ChangeAuthor, ConflictChoice, RestoreConflict, ReviewFile } from "../channels/TurnRestore";
import { DIFF_HISTORY, type DiffDocuments } from "./DiffDocuments";

/** Who changed a file since the turn, as one phrase. */
function whoChanged(by: readonly ChangeAuthor[]): string {
  return by
    .map((a) => (a.kind === "unsaved" ? vscode.l10n.t("you have unsaved edits of it in the editor") : a.kind === "turn" ? vscode.l10n.t("@{0} changed it in a later answer", a.agent) : vscode.l10n.t("it changed on disk since (you, or a program outside Sidekicks)")))
    .join("; ");
}

/**
 * Asks, one file at a time, what to do with each conflicting file; "Open a diff" shows the file now against what the
 * undo or redo would write, "Preview the merge" against the merged text, then it asks again. Escape skips the file.
 * Never overwrites without an explicit choice.
 * @returns absolute path → the choice (only files the user chose to overwrite or merge say so)
 */
export async function resolveConflicts(diffs: DiffDocuments, conflicts: readonly RestoreConflict[], action: "undo" | "redo"): Promise<Record<string, ConflictChoice>> {
  const out: Record<string, ConflictChoice> = {};
  for (const [i, c] of conflicts.entries()) {
    const name = vscode.workspace.asRelativePath(c.path);
    type Item = vscode.QuickPickItem & { choice: ConflictChoice | "diff" | "mergeDiff" };
    // Skip first: Enter pressed at once keeps the file as it is; overwriting is always a choice made on purpose.
    const items: Item[] = [
      { label: vscode.l10n.t("Skip this file"), detail: vscode.l10n.t("The file stays as it is now."), choice: "skip" },
      ...(c.merged !== undefined
        ? [{ label: action === "undo" ? vscode.l10n.t("Merge: undo the answer's change, keep the change made since") : vscode.l10n.t("Merge: redo the agent's change, keep the change made since"), detail: vscode.l10n.t("The two changes do not overlap (git merge-file)."), choice: "merge" as const }]
        : []),
      { label: action === "undo" ? vscode.l10n.t("Overwrite with the text from before the answer") : vscode.l10n.t("Overwrite with the agent's text"), detail: c.target === null ? vscode.l10n.t("The file is removed.") : undefined, choice: "overwrite" },
      { label: vscode.l10n.t("Open a diff"), detail: vscode.l10n.t("The file now against what would be written; then choose."), choice: "diff" },
      ...(c.merged !== undefined ? [{ label: vscode.l10n.t("Preview the merge"), detail: vscode.l10n.t("The file now against the merged text; then choose."), choice: "mergeDiff" as const }] : []),
    ];
    for (;;) {
      const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t("{0} changed since this answer ({1} of {2})", name, i + 1, conflicts.length),
        placeHolder: whoChanged(c.changedBy),
        ignoreFocusOut: true,
      });
      if (picked?.choice === "diff") {
        const { left, right } = diffs.keep(c.path, c.now ?? "", c.target ?? "");
        await vscode.commands.executeCommand("vscode.diff", left, right, action === "undo" ? vscode.l10n.t("{0}: now ↔ after the undo", name) : vscode.l10n.t("{0}: now ↔ after the redo", name), { preview: true });
        continue;
      }
      if (picked?.choice === "mergeDiff") {
        const { left, right } = diffs.keep(c.path, c.now ?? "", c.merged ?? "");
        await vscode.commands.executeCommand("vscode.diff", left, right, vscode.l10n.t("{0}: now ↔ after the merge", name), { preview: true });
        continue;
      }
      out[c.path] = picked?.choice ?? "skip";
      break;
    }
  }
  return out;
}

/** Opens `files` in the multi-file diff editor: before (read-only) against the file now (an empty side once removed). */
export async function reviewChanges(diffs: DiffDocuments, title: string, files: readonly ReviewFile[]): Promise<boolean> {
  if (files.length === 0) return false;
  const resources = files.map((f) => {
    const { left, right } = diffs.keep(f.path, f.before ?? "", "", DIFF_HISTORY + files.length);
    const file = vscode.Uri.file(f.path);
    return [file, left, existsSync(f.path) ? file : right];
  });
  await vscode.commands.executeCommand("vscode.changes", title, resources);
  return true;
}
