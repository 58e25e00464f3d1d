/** The files an agent changed in its workspace during a turn (issue 7, "File watching"), each with its diff. */
import * as l10n from "@vscode/l10n";
import { useContext } from "preact/hooks";
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

/**
 * One row per file: its name (full path on hover), what happened to it, and "Diff" (its text before the turn against
 * the file now, in the editor's diff view) when its earlier text is known.
 */
export function FilesCard({ messageId, part }: { messageId: string; part: FilesPart }) {
  const editor = useContext(EditorContext);
  const count = part.files.length;
  return (
    <div class="files card" role="group" aria-label={count === 1 ? l10n.t("1 file changed during this answer") : l10n.t("{0} files changed during this answer", count)}>
      <div class="card-header">
        <span class="files-title">{count === 1 ? l10n.t("1 file changed") : l10n.t("{0} files changed", count)}</span>
      </div>
      <ul class="files-list">
        {part.files.map((file) => (
          <li key={file.path} class="files-item" data-path={file.path} data-kind={file.kind}>
            <span class="diff-file" title={file.path}>
              {shortPath(file.path)}
            </span>
            <span class={`files-kind kind-${file.kind}`}>{kindLabel(file.kind)}</span>
            {file.lineEndings && (
              <span class="files-eol" title={l10n.t("Every line differs only in its ending: the text is the same.")}>
                {l10n.t("line endings only: {0} → {1}", file.lineEndings.from, file.lineEndings.to)}
              </span>
            )}
            {file.beforeKnown ? (
              <button type="button" class="diff-open" aria-label={l10n.t("Diff of {0} since before the answer", file.path)} onClick={() => void editor.fileDiff(messageId, file.path)}>
                {l10n.t("Diff")}
              </button>
            ) : (
              <span class="files-unknown" data-reason={file.beforeUnknown} title={unknownWhy(file.beforeUnknown)}>
                {l10n.t("no earlier text")}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

