import path from "node:path";
import * as vscode from "vscode";
import type { ToolCallLocation } from "../shared/protocol";
import { SidekicksError } from "../shared/errors";
import { insertionAt } from "./codeInsertion";
import { linkTarget, resolveLinkPath } from "./linkTarget";

/**
 * What the channel view asks of the editor for agent output (issue 6): open a file at a line, insert a code block at
 * the cursor, open a link. A click that cannot do what it says says why (issue 18): opening something that cannot
 * be opened — a file that is gone, a path outside the workspace folder, a link Sidekicks refuses — rejects with a
 * `SidekicksError` `editor/cannotOpen` whose message the view shows, and is logged. Declining VS Code's own
 * "open this external website?" prompt, or inserting with no editor open, resolves false.
 */
export class EditorActions {
  constructor(private readonly log: (level: "debug" | "warn", line: string) => void) {}

  /**
   * Opens a file at a 1-based line in the active editor group (a folder is revealed in the explorer). A relative path
   * is resolved against the first workspace folder.
   * @throws SidekicksError `editor/cannotOpen` when it escapes the workspace folder, does not exist, or cannot be opened
   */
  async openLocation(location: ToolCallLocation): Promise<boolean> {
    const file = resolveLinkPath({ kind: "file", path: location.path, relative: !isAbsolute(location.path) }, workspaceFolder());
    if (!file) {
      this.log("warn", `open ${location.path}: not inside the workspace folder`);
      throw new SidekicksError("editor/cannotOpen", vscode.l10n.t("{0} is not inside the workspace folder, so Sidekicks does not open it.", location.path));
    }
    const uri = vscode.Uri.file(file);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) {
        await vscode.commands.executeCommand("revealInExplorer", uri);
        return true;
      }
      const line = Math.max(0, (location.line ?? 1) - 1);
      const editor = await vscode.window.showTextDocument(uri, { preview: true, selection: new vscode.Range(line, 0, line, 0) });
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return true;
    } catch (err) {
      this.log("warn", `open ${file}: ${err instanceof Error ? err.message : String(err)}`);
      if (err instanceof vscode.FileSystemError && err.code === "FileNotFound") {
        throw new SidekicksError("editor/cannotOpen", vscode.l10n.t("{0} does not exist (any more).", file));
      }
      throw new SidekicksError("editor/cannotOpen", vscode.l10n.t("{0} could not be opened: {1}", file, err instanceof Error ? err.message : String(err)));
    }
  }

  /**
   * Inserts `text` at every cursor of the active text editor (the last one focused when the channel view has the
   * focus), replacing selected text, as one undoable edit; a cursor at the start of a line of text also gets a line
   * break after the code (`insertionAt`). False when no text editor is open or it is read-only.
   */
  async insertText(text: string): Promise<boolean> {
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor) return false;
    const done = await editor.edit((edit) => {
      for (const selection of editor.selections) {
        const line = editor.document.lineAt(selection.active.line).text;
        edit.replace(selection, insertionAt(text, { character: selection.active.character, restOfLine: line.slice(selection.active.character), selectionEmpty: selection.isEmpty }));
      }
    });
    if (done) await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
    return done;
  }

  /**
   * Opens a link by the rule of {@link linkTarget}: externally (false when the user declines VS Code's prompt), in
   * the editor, or not at all.
   * @throws SidekicksError `editor/cannotOpen` for a link the rule refuses, and as {@link openLocation} for a file
   */
  async openLink(href: string): Promise<boolean> {
    const target = linkTarget(href);
    switch (target.kind) {
      case "external":
        return vscode.env.openExternal(vscode.Uri.parse(target.uri, true));
      case "file": {
        const file = resolveLinkPath(target, workspaceFolder());
        if (!file) {
          this.log("warn", `link ${JSON.stringify(href.slice(0, 200))} refused: not inside the workspace folder`);
          throw new SidekicksError("editor/cannotOpen", vscode.l10n.t("{0} is not inside the workspace folder, so Sidekicks does not open it.", target.path));
        }
        return this.openLocation(target.line === undefined ? { path: file } : { path: file, line: target.line });
      }
      case "refused":
        this.log("warn", `link ${JSON.stringify(href.slice(0, 200))} refused: ${target.reason}`);
        throw new SidekicksError("editor/cannotOpen", vscode.l10n.t("Sidekicks does not open {0} from an agent's answer.", target.reason));
    }
  }
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function isAbsolute(file: string): boolean {
  return path.isAbsolute(file) || /^[a-z]:[\\/]/i.test(file);
}
