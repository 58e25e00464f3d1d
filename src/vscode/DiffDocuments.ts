import { lineEndingChange } from "../shared/lineEndings";
import * as vscode from "vscode";
import type { ToolCallDiff } from "../shared/protocol";

/** The URI scheme of the read-only documents that show both sides of an agent's diff. */
export const DIFF_SCHEME = "sidekicks-diff";

/** How many diffs keep their text for documents opened later; the oldest are forgotten first. */
export const DIFF_HISTORY = 64;

/**
 * Both sides of the tool-call diffs the user opened (issue 6: "a diff opens in VS Code's diff editor, virtual
 * documents for old and new text"), served as `sidekicks-diff:` documents. A URI keeps the file's own path, so the
 * editor picks the language from its extension, and carries `<id>/old` or `<id>/new` in its query.
 */
export class DiffDocuments implements vscode.TextDocumentContentProvider {
  private readonly sides = new Map<string, { old: string; new: string }>();
  private nextId = 1;

  /** The text of one side; an empty document when the diff was forgotten (after {@link DIFF_HISTORY} newer ones). */
  provideTextDocumentContent(uri: vscode.Uri): string {
    const [id, side] = uri.query.split("/");
    const diff = id === undefined ? undefined : this.sides.get(id);
    if (!diff) return "";
    return side === "old" ? diff.old : diff.new;
  }

  /**
   * Keeps both texts of a diff of `file` (absolute) and returns their read-only documents' URIs (the oldest kept diffs
   * are forgotten beyond {@link DIFF_HISTORY}; a review of many files keeps them all until the next one).
   */
  keep(file: string, oldText: string, newText: string, history = DIFF_HISTORY): { left: vscode.Uri; right: vscode.Uri } {
    const id = String(this.nextId++);
    this.sides.set(id, { old: oldText, new: newText });
    while (this.sides.size > history) this.sides.delete(this.sides.keys().next().value!);
    const uri = vscode.Uri.file(file);
    return { left: uri.with({ scheme: DIFF_SCHEME, query: `${id}/old` }), right: uri.with({ scheme: DIFF_SCHEME, query: `${id}/new` }) };
  }

  /**
   * Opens `diff` in the diff editor (`vscode.diff`), titled after the file; a new file (`oldText` null) is shown
   * against an empty document. Resolves true once the command ran.
   */
  async open(diff: ToolCallDiff): Promise<boolean> {
    const file = vscode.Uri.file(diff.path);
    const { left, right } = this.keep(diff.path, diff.oldText ?? "", diff.newText);
    const name = file.path.split("/").pop() || diff.path;
    // A change of line endings only (field case 13): the diff editor compares lines without their endings and may show nothing.
    const eol = lineEndingChange(diff.oldText, diff.newText);
    const title =
      diff.oldText === null
        ? vscode.l10n.t("{0} (new file, agent's change)", name)
        : eol
          ? vscode.l10n.t("{0} (agent's change: line endings only, {1} → {2})", name, eol.from, eol.to)
          : vscode.l10n.t("{0} (agent's change)", name);
    await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: true });
    return true;
  }
}
