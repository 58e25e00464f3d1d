import * as vscode from "vscode";
import type { DocumentPort } from "../workspace/fsAccess";
import type { Terminal } from "../workspace/terminals";

/**
 * The editor's open documents for agents (issue 7): `openText` is a document's current text, unsaved changes
 * included; `applyEdit` replaces it through a `WorkspaceEdit` (so Undo works and the editor updates at once), then
 * saves, so the file on disk — what the agent's commands and Sidekicks' recovery see — matches.
 */
export const editorDocuments: DocumentPort = {
  openText(path: string): string | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
    return doc && !doc.isClosed ? doc.getText() : undefined;
  },
  async applyEdit(path: string, content: string): Promise<boolean> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
    if (!doc) return false;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), content);
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    return doc.save();
  },
  isDirty(path: string): boolean {
    return vscode.workspace.textDocuments.some((d) => d.uri.scheme === "file" && d.uri.fsPath === path && !d.isClosed && d.isDirty);
  },
};

/**
 * Shows an agent's command in the editor's terminal list (issue 7): a `Pseudoterminal` named after the agent and the
 * command, fed with what the command printed so far and then live; keystrokes go to the command. Closing the
 * terminal tab does not kill the command (the agent owns it: `terminal/kill`, `terminal/release`).
 */
export function showAgentTerminal(agent: string, terminal: Terminal): vscode.Terminal {
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number | void>();
  const subscriptions: (() => void)[] = [];
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    onDidClose: close.event,
    open: () => {
      const sofar = terminal.output();
      if (sofar.output) write.fire(sofar.output);
      subscriptions.push(terminal.onData((text) => write.fire(text)));
      subscriptions.push(
        terminal.onExit((status) =>
          write.fire(
            `\r\n\x1b[2m[${status.signal ? vscode.l10n.t("killed by {0}", status.signal) : vscode.l10n.t("exited with code {0}", String(status.exitCode))}]\x1b[0m\r\n`,
          ),
        ),
      );
    },
    close: () => subscriptions.forEach((off) => off()),
    handleInput: (data) => terminal.write(data),
    setDimensions: (d) => terminal.resize(d.columns, d.rows),
  };
  return vscode.window.createTerminal({ name: `${agent}: ${terminal.title}`.slice(0, 80), pty, iconPath: new vscode.ThemeIcon("hubot") });
}
