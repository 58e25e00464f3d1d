import path from "node:path";
import * as vscode from "vscode";
import type { ToolCallLocation } from "../shared/protocol";
import { insertionAt } from "./codeInsertion";
import { linkTarget, resolveLinkPath } from "./linkTarget";

/**
 * What the channel view asks of the editor for agent output (issue 6): open a file at a line, insert a code block at
 * the cursor, open a link. Each resolves false instead of throwing when it cannot, and says why in the log.
 */
export class EditorActions {
  constructor(private readonly log: (level: "debug" | "warn", line: string) => void) {}

  /**
   * Opens a file at a 1-based line in the active editor group. A relative path is resolved against the first
   * workspace folder. False when it is not a file that can be opened.
   */
  async openLocation(location: ToolCallLocation): Promise<boolean> {
    const file = resolveLinkPath({ kind: "file", path: location.path, relative: !isAbsolute(location.path) }, workspaceFolder());
    if (!file) {
      this.log("warn", `open ${location.path}: not inside the workspace folder`);
      return false;
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
      return false;
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

  /** Opens a link by the rule of {@link linkTarget}: externally, in the editor, or not at all (logged). */
  async openLink(href: string): Promise<boolean> {
    const target = linkTarget(href);
    switch (target.kind) {
      case "external":
        return vscode.env.openExternal(vscode.Uri.parse(target.uri, true));
      case "file": {
        const file = resolveLinkPath(target, workspaceFolder());
        if (!file) {
          this.log("warn", `link ${JSON.stringify(href.slice(0, 200))} refused: not inside the workspace folder`);
          return false;
        }
        return this.openLocation(target.line === undefined ? { path: file } : { path: file, line: target.line });
      }
      case "refused":
        this.log("warn", `link ${JSON.stringify(href.slice(0, 200))} ${target.reason}`);
        return false;
    }
  }
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function isAbsolute(file: string): boolean {
  return path.isAbsolute(file) || /^[a-z]:[\\/]/i.test(file);
}
