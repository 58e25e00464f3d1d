/** The files an agent changed in its workspace during a turn (issue 7, "File watching"), each with its diff. */
import * as l10n from "@vscode/l10n";
import { useContext, useState } from "preact/hooks";
import type { FilesPart } from "../../src/shared/protocol";
import { EditorContext } from "../editorActions";
import { shortPath } from "../shortPath";

/** What happened to a file, in the editor's language. */
const kindLabel = (kind: FilesPart["files"][number]["kind"]): string =>
  kind === "created" ? l10n.t("new") : kind === "modified" ? l10n.t("changed") : l10n.t("deleted");

/** Why a file's text from before the answer is unknown, in the editor's language. */
function unknownWhy(reason: FilesPart["files"][number]["beforeUnknown"]): string {
  switch (reason) {
    case "tooLarge":
      return l10n.t("Its text from before this answer was not kept: the file is too large. There is no diff to show.");
    case "binary":
      return l10n.t("Its text from before this answer was not kept: the file is not text. There is no diff to show.");
    case "overBudget":
      return l10n.t("Its text from before this answer was not kept: the snapshot's budget went to smaller files. There is no diff to show.");
    case "late":
      return l10n.t("Its text from before this answer is not known: it changed before the snapshot could read it. There is no diff to show.");
    default:
      return l10n.t("Its text from before this answer was not captured (a large file, or the snapshot budget was spent), so there is no diff to show.");
  }
}

type FileRow = FilesPart["files"][number];

/** The user's decision on a file, in the editor's language (issue 19). */
const stateLabel = (state: FileRow["state"]): string => (state === "kept" ? l10n.t("kept") : state === "undone" ? l10n.t("undone") : "");

/** Which of Keep / Undo / Redo a file offers: none when its texts were not both kept. */
function actionsOf(file: FileRow): ("keep" | "undo" | "redo")[] {
  if (!file.restorable) return [];
  return file.state === "undone" ? ["redo"] : file.state === "kept" ? ["undo"] : ["keep", "undo"];
}

/** A button's text and accessible name for one file. */
function actionText(action: "keep" | "undo" | "redo", path: string): { label: string; aria: string } {
  if (action === "keep") return { label: l10n.t("Keep"), aria: l10n.t("Keep the agent's change of {0}", path) };
  if (action === "undo") return { label: l10n.t("Undo"), aria: l10n.t("Undo the agent's change of {0}: restore its text from before the answer", path) };
  return { label: l10n.t("Redo"), aria: l10n.t("Redo the agent's change of {0}: write its text from after the answer again", path) };
}

/**
 * One row per file: its name (full path on hover), what happened to it, what the user decided (kept, undone), "Diff"
 * (its text before the turn against the file now) when its earlier text is known, and Keep / Undo / Redo when both
 * its texts were kept (issue 19). The header reviews the turn's changes (or every turn's since it) in the editor's
 * multi-file diff, and keeps or undoes them all; for an agent in a git worktree of its own, "Apply to my folder" brings
 * the answer's changes into the user's folder (issue 20).
 */
export function FilesCard({ messageId, part }: { messageId: string; part: FilesPart }) {
  const editor = useContext(EditorContext);
  const [busy, setBusy] = useState(false);
  const count = part.files.length;
  const run = (action: "keep" | "undo" | "redo", paths?: string[]) => {
    setBusy(true);
    void editor.restore(messageId, action, paths).finally(() => setBusy(false));
  };
  const can = (action: "keep" | "undo" | "redo") => part.files.some((f) => actionsOf(f).includes(action));
  const undone = part.files.filter((f) => f.state === "undone").length;
  const kept = part.files.filter((f) => f.state === "kept").length;
  return (
    <div class="files card" role="group" aria-label={count === 1 ? l10n.t("1 file changed during this answer") : l10n.t("{0} files changed during this answer", count)} aria-busy={busy}>
      <div class="card-header">
        <span class="files-title">{count === 1 ? l10n.t("1 file changed") : l10n.t("{0} files changed", count)}</span>
        {(undone > 0 || kept > 0) && <span class="files-summary">{[undone > 0 ? l10n.t("{0} undone", undone) : "", kept > 0 ? l10n.t("{0} kept", kept) : ""].filter(Boolean).join(" · ")}</span>}
      </div>
      <div class="files-actions" role="toolbar" aria-label={l10n.t("The changes of this answer")}>
          {part.files.some((f) => f.beforeKnown) && (
            <>
              <button type="button" class="diff-open files-review" aria-label={l10n.t("Review the changes of this answer in the multi-file diff editor")} onClick={() => void editor.review(messageId, false)}>
                {l10n.t("Review changes")}
              </button>
              <button type="button" class="diff-open files-review-since" aria-label={l10n.t("Review every change since this answer, by every agent of the channel")} onClick={() => void editor.review(messageId, true)}>
                {l10n.t("Since this")}
              </button>
            </>
          )}
          {part.worktree && part.files.some((f) => f.restorable) && (
            <button type="button" class="diff-open files-apply-folder" disabled={busy} aria-label={l10n.t("Apply this answer's changes to your folder: merged file by file, conflicts opened in the merge editor")} title={l10n.t("The agent works in its own git worktree: bring this answer's changes into your folder")} onClick={() => {
              setBusy(true);
              void editor.applyToFolder(messageId).finally(() => setBusy(false));
            }}>
              {l10n.t("Apply to my folder")}
            </button>
          )}
          {can("keep") && (
            <button type="button" class="diff-open files-keep-all" disabled={busy} aria-label={l10n.t("Keep every change of this answer")} onClick={() => run("keep")}>
              {l10n.t("Keep all")}
            </button>
          )}
          {can("undo") && (
            <button type="button" class="diff-open files-undo-all" disabled={busy} aria-label={l10n.t("Undo every change of this answer: restore the files as they were before it")} onClick={() => run("undo")}>
              {l10n.t("Undo all")}
            </button>
          )}
          {!can("undo") && can("redo") && (
            <button type="button" class="diff-open files-redo-all" disabled={busy} aria-label={l10n.t("Redo every change of this answer that was undone")} onClick={() => run("redo")}>
              {l10n.t("Redo all")}
            </button>
          )}
      </div>
      <ul class="files-list">
        {part.files.map((file) => (
          <li key={file.path} class="files-item" data-path={file.path} data-kind={file.kind} data-state={file.state ?? ""}>
            <span class="diff-file" title={file.path}>
              {shortPath(file.path)}
            </span>
            <span class={`files-kind kind-${file.kind}`}>{kindLabel(file.kind)}</span>
            {file.state && <span class={`files-state state-${file.state}`}>{stateLabel(file.state)}</span>}
            {file.lineEndings && (
              <span class="files-eol" title={l10n.t("Every line differs only in its ending: the text is the same.")}>
                {l10n.t("line endings only: {0} → {1}", file.lineEndings.from, file.lineEndings.to)}
              </span>
            )}
            <span class="files-buttons">
            {file.beforeKnown ? (
              <button type="button" class="diff-open" aria-label={l10n.t("Diff of {0} since before the answer", file.path)} onClick={() => void editor.fileDiff(messageId, file.path)}>
                {l10n.t("Diff")}
              </button>
            ) : (
              <span class="files-unknown" data-reason={file.beforeUnknown} title={unknownWhy(file.beforeUnknown)}>
                {l10n.t("no earlier text")}
              </span>
            )}
            {actionsOf(file).map((action) => {
              const { label, aria } = actionText(action, file.path);
              return (
                <button key={action} type="button" class={`diff-open files-${action}`} disabled={busy} aria-label={aria} onClick={() => run(action, [file.path])}>
                  {label}
                </button>
              );
            })}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
