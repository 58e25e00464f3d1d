import * as vscode from "vscode";
import type { EditorPort } from "../app/SidekicksApp";
import type { ConflictChoice, RestoreConflict, ReviewFile } from "../channels/TurnRestore";
import type { ConfigProblem } from "../config/roster";
import type { FileSuggestion, ToolCallDiff, ToolCallLocation, WebviewRequests } from "../shared/protocol";
import type { Terminal } from "../workspace/terminals";
import { editorDocuments, showAgentTerminal } from "./AgentTerminals";
import { DiffDocuments } from "./DiffDocuments";
import { EditorActions } from "./EditorActions";
import { resolveConflicts, reviewChanges } from "./turnCheckpoints";
import { resolveTurnConflicts } from "./mergeEditor";
import type { TurnConflict } from "../workspace/turnApply";

/**
 * The editor side of the app's {@link EditorPort}: trust, commands, the log, the Problems panel, agents' open
 * documents and terminals, and the channel view's editor actions (diffs, locations, insert, links).
 */
export class EditorAdapter implements EditorPort, vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection("sidekicks");

  readonly documents = editorDocuments;

  /** Both sides of opened diffs; `extension.ts` registers it for the `sidekicks-diff:` scheme. */
  readonly diffs = new DiffDocuments();

  private readonly actions = new EditorActions((level, line) => this.logChannel[level](line));

  constructor(readonly logChannel: vscode.LogOutputChannel) {}

  openDiff(diff: ToolCallDiff): Promise<boolean> {
    return this.diffs.open(diff);
  }

  resolveConflicts(conflicts: RestoreConflict[], action: "undo" | "redo"): Promise<Record<string, ConflictChoice>> {
    return resolveConflicts(this.diffs, conflicts, action);
  }

  resolveTurnConflicts(agent: string, conflicts: TurnConflict[]): Promise<Record<string, "opened" | "agent" | "skip">> {
    return resolveTurnConflicts(this.diffs, agent, conflicts);
  }

  reviewChanges(title: string, files: ReviewFile[]): Promise<boolean> {
    return reviewChanges(this.diffs, title, files);
  }

  openLocation(location: ToolCallLocation): Promise<boolean> {
    return this.actions.openLocation(location);
  }

  insertText(text: string): Promise<boolean> {
    return this.actions.insertText(text);
  }

  openLink(href: string): Promise<boolean> {
    return this.actions.openLink(href);
  }

  async openMarkdown(markdown: string): Promise<boolean> {
    const document = await vscode.workspace.openTextDocument({ language: "markdown", content: markdown });
    await vscode.window.showTextDocument(document, { preview: false });
    return true;
  }

  /** Editor terminals of agents' terminals, by ACP terminal id (forgotten when the user closes one). */
  private readonly terminals = new Map<string, vscode.Terminal>();

  showTerminal(agent: string, terminal: Terminal): void {
    const shown = showAgentTerminal(agent, terminal);
    this.terminals.set(terminal.id, shown);
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== shown) return;
      this.terminals.delete(terminal.id);
      closed.dispose();
    });
  }

  revealTerminal(terminalId: string): boolean {
    const shown = this.terminals.get(terminalId);
    shown?.show(false);
    return shown !== undefined;
  }

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  async runCommand(command: WebviewRequests["command/run"][0]["command"], channelId?: string): Promise<void> {
    // Each of the view's buttons names its command here: nothing the webview sends becomes a command id.
    const ids = {
      createConfig: "sidekicks.createConfig",
      openConfig: "sidekicks.openConfig",
      manageTrust: "workbench.trust.manage",
      searchHistory: "sidekicks.searchHistory",
    } as const;
    if (!Object.hasOwn(ids, command)) throw new Error(`not a command of the Sidekicks view: ${String(command).slice(0, 100)}`);
    // Only the search takes the view's channel (Ctrl+F in the view searches there first).
    if (command === "searchHistory" && channelId !== undefined) await vscode.commands.executeCommand(ids[command], { channelId });
    else await vscode.commands.executeCommand(ids[command]);
  }

  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  }

  workspaceRoots(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.fsPath);
  }

  async workspaceFiles(max: number): Promise<FileSuggestion[]> {
    // An exclude given to findFiles replaces the default one (files.exclude): both settings go in it, as quick open uses them.
    const excluded = new Set<string>();
    for (const section of ["files", "search"]) {
      const patterns = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>("exclude") ?? {};
      for (const [glob, on] of Object.entries(patterns)) if (on === true) excluded.add(glob);
    }
    const exclude = excluded.size > 0 ? `{${[...excluded].join(",")}}` : undefined;
    const uris = await vscode.workspace.findFiles("**/*", exclude, max);
    return uris
      .filter((uri) => uri.scheme === "file")
      .map((uri) => ({ path: uri.fsPath, relative: vscode.workspace.asRelativePath(uri, false) }));
  }

  log(level: "debug" | "info" | "warn" | "error", line: string): void {
    this.logChannel[level](line);
  }

  notify(level: "warn" | "error", message: string): void {
    void (level === "error" ? vscode.window.showErrorMessage(message) : vscode.window.showWarningMessage(message));
  }

  /** The problems shown per roster file, to show again where they belong once an open editor reloads the file. */
  private readonly shown = new Map<string, ConfigProblem[]>();

  /**
   * A roster changed on disk while open in an editor: its problems (read from the disk's text) were set before the
   * editor reloaded it, and the reload moved them (a tryout saw a squiggle lines away from its Problems entry). Once
   * the editor holds the disk's text again (not dirty), they are set anew.
   */
  private readonly reloads = vscode.workspace.onDidChangeTextDocument((e) => {
    const problems = this.shown.get(e.document.uri.fsPath);
    if (problems && problems.length > 0 && !e.document.isDirty && e.document.uri.scheme === "file") this.setProblems(e.document.uri, problems);
  });

  showProblems(file: string, problems: ConfigProblem[]): void {
    if (problems.length > 0) this.shown.set(file, problems);
    else this.shown.delete(file);
    this.setProblems(vscode.Uri.file(file), problems);
  }

  private setProblems(uri: vscode.Uri, problems: ConfigProblem[]): void {
    this.diagnostics.set(
      uri,
      problems.map((p) => {
        const start = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, p.column - 1));
        const end =
          p.endLine !== undefined && p.endColumn !== undefined
            ? new vscode.Position(Math.max(0, p.endLine - 1), Math.max(0, p.endColumn - 1))
            : start.translate(0, 1);
        const range = new vscode.Range(start, end.isAfter(start) ? end : start.translate(0, 1));
        const diagnostic = new vscode.Diagnostic(range, p.message, p.severity === "warning" ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);
        diagnostic.source = "sidekicks";
        return diagnostic;
      }),
    );
  }

  dispose(): void {
    this.reloads.dispose();
    this.diagnostics.dispose();
  }
}
