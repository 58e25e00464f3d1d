/**
 * Why the last click could not do what it says (issue 18): "src/a.ts does not exist (any more).", "Sidekicks does not
 * open a javascript: link from an agent's answer." Shown above the composer, announced politely, until dismissed, until
 * the next action succeeds, the user sends a message, or another refusal replaces it. Never a click that silently does nothing.
 */
import * as l10n from "@vscode/l10n";
import { useContext, useEffect, useState } from "preact/hooks";
import { EditorContext } from "../editorActions";

/** The note of the view's `EditorContext` refusals; nothing when there is none. */
export function ActionNote() {
  const { refusals } = useContext(EditorContext);
  const [, setVersion] = useState(0);
  useEffect(() => refusals.subscribe(() => setVersion((v) => v + 1)), [refusals]);
  const note = refusals.current;
  if (!note) return null;
  return (
    <div class="action-note" role="status" aria-live="polite" data-seq={note.seq}>
      <span class="codicon codicon-info" aria-hidden="true" />
      <span class="action-note-text">{note.why}</span>
      <button type="button" class="action-note-dismiss" title={l10n.t("Dismiss")} aria-label={l10n.t("Dismiss")} onClick={() => refusals.dismiss()}>
        <span class="codicon codicon-close" aria-hidden="true" />
      </button>
    </div>
  );
}
