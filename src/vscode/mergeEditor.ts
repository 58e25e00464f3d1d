/**
 * VS Code's merge editor for an agent's work brought back (issue 20): a whole branch's conflicts (git's stages) and one
 * answer's conflicts (its checkpoint's texts) open the same way. `_open.mergeEditor` is the editor's own internal
 * command (the git extension's "Resolve in Merge Editor" needs the file known to its repository first); when it fails,
 * the file opens as text.
 */
import * as vscode from "vscode";
import type { TurnConflict } from "../agents/WorktreeBringBack";
import type { DiffDocuments } from "./DiffDocuments";

/** The three texts of a conflicted file and what to call the two sides. */
export interface MergeSides {
  /** The file that receives the result (absolute). */
  file: string;
  /** The common ancestor's text (`""` when there was none). */
  base: string;
  /** The user's side and its title. */
  ours: string;
  oursTitle: string;
  /** The agent's side and its title. */
  theirs: string;
  theirsTitle: string;
}

/**
 * Opens `sides` in the merge editor: base, ours and theirs as read-only documents, the file itself as the result, as
 * it is on disk. (The merge editor saves its result file as it opens: a file holding git's conflict markers, as after a
 * branch apply, starts it from the automatic merge; a file without them — one answer's conflict, which Sidekicks never
 * writes markers into — starts from the user's text, with the agent's side to accept change by change.)
 * @returns false when the merge editor could not open (the file is then shown as text)
 */
export async function openMergeEditor(diffs: DiffDocuments, sides: MergeSides): Promise<boolean> {
  const output = vscode.Uri.file(sides.file);
  try {
    const base = diffs.keep(sides.file, sides.base, sides.ours);
    const theirs = diffs.keep(sides.file, "", sides.theirs).right;
    await vscode.commands.executeCommand("_open.mergeEditor", {
      base: base.left,
      input1: { uri: base.right, title: sides.oursTitle },
      input2: { uri: theirs, title: sides.theirsTitle },
      output,
    });
    return true;
  } catch {
    await vscode.window.showTextDocument(output, { preview: false, preserveFocus: true }).then(undefined, () => undefined);
    return false;
  }
}

/** What a conflict of an answer is, in words for the question's placeholder. */
function what(c: TurnConflict, agent: string): string {
  switch (c.kind) {
    case "content":
      return vscode.l10n.t("You and @{0} changed the same lines.", agent);
    case "bothCreated":
      return vscode.l10n.t("@{0} created it, and your folder has a file there with other text.", agent);
    case "deletedByYou":
      return vscode.l10n.t("@{0} changed it, and your folder no longer has it.", agent);
    case "deletedByAgent":
      return vscode.l10n.t("@{0} deleted it, and you changed it since.", agent);
    case "notMergeable":
      return vscode.l10n.t("You and @{0} both changed it, and it cannot be merged as text (too large, or not text).", agent);
  }
}

/**
 * Asks, one file at a time, what to do with each file of agent `agent`'s answer that conflicts with the user's folder
 * (issue 20, "Per turn too"): open it in the merge editor (a text on both sides), take the agent's side of a deletion
 * on purpose, or skip it — Skip first, so Enter or Escape leaves the file as it is. Nothing is written here: the merge
 * editor starts from the user's file as it is and its result is the user's to complete; taking the agent's side is
 * written by the caller.
 * @returns absolute path → `opened`, `agent` or `skip`
 */
export async function resolveTurnConflicts(diffs: DiffDocuments, agent: string, conflicts: readonly TurnConflict[]): Promise<Record<string, "opened" | "agent" | "skip">> {
  const out: Record<string, "opened" | "agent" | "skip"> = {};
  for (const [i, c] of conflicts.entries()) {
    type Item = vscode.QuickPickItem & { choice: "merge" | "agent" | "skip" };
    const items: Item[] = [{ label: vscode.l10n.t("Skip this file"), detail: vscode.l10n.t("Your file stays as it is."), choice: "skip" }];
    if (c.ours !== null && c.theirs !== null) {
      items.push({ label: vscode.l10n.t("Open in the merge editor"), detail: vscode.l10n.t("Your text and @{0}'s side by side over the text from before the answer; the result starts as your text: accept @{0}'s changes there, then complete the merge.", agent), choice: "merge" });
    } else if (c.theirs === null) {
      items.push({ label: vscode.l10n.t("Delete it, as @{0} did", agent), detail: vscode.l10n.t("Your changes to it since are lost."), choice: "agent" });
    } else {
      items.push({ label: vscode.l10n.t("Recreate it with @{0}'s text", agent), choice: "agent" });
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t("{0} conflicts with your folder ({1} of {2})", vscode.workspace.asRelativePath(c.path), i + 1, conflicts.length),
      placeHolder: what(c, agent),
      ignoreFocusOut: true,
    });
    if (picked?.choice === "merge") {
      const opened = await openMergeEditor(diffs, { file: c.path, base: c.base ?? "", ours: c.ours ?? "", oursTitle: vscode.l10n.t("Your folder"), theirs: c.theirs ?? "", theirsTitle: `@${agent}` });
      out[c.path] = opened ? "opened" : "skip";
    } else {
      out[c.path] = picked?.choice === "agent" ? "agent" : "skip";
    }
  }
  return out;
}
