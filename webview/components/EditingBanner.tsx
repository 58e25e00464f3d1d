/**
 * The banner above the composer while a user message is edited (issue 19, "Edit and resend"): what Send will do, a
 * Cancel, and — when the message's answers changed files an undo can still restore — "Undo … first", off until the
 * user ticks it (files are never restored behind their back). The composer sends the choice with the message.
 */
import * as l10n from "@vscode/l10n";
import "@vscode-elements/elements/dist/vscode-checkbox/index.js";

interface Props {
  /** Files the edited message's answers changed that an undo would restore now; undefined while the host is asked. */
  undoable: number | undefined;
  undoFirst: boolean;
  setUndoFirst(value: boolean): void;
  cancel(): void;
}

/** The `.composer-editing` banner (see the file comment). */
export function EditingBanner({ undoable, undoFirst, setUndoFirst, cancel }: Props) {
  return (
    <div class="composer-editing" role="status">
      <div class="composer-editing-row">
        <span class="codicon codicon-edit" aria-hidden="true" />
        <span class="composer-editing-text">{l10n.t("Editing message… Esc to cancel. Send makes a new message; the original stays.")}</span>
        <button type="button" class="composer-editing-cancel" onClick={cancel}>
          {l10n.t("Cancel edit")}
        </button>
      </div>
      {undoable !== undefined && undoable > 0 && (
        <vscode-checkbox
          class="composer-editing-undo"
          checked={undoFirst}
          onChange={(e: Event) => setUndoFirst((e.target as HTMLInputElement).checked)}
        >
          {undoable === 1 ? l10n.t("First undo the file its answer changed") : l10n.t("First undo the {0} files its answers changed", undoable)}
        </vscode-checkbox>
      )}
    </div>
  );
}
