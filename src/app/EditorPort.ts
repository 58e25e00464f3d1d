import type { ConflictChoice, RestoreConflict, ReviewFile } from "../channels/TurnRestore";
import type { ConfigProblem } from "../config/roster";
import type { TurnConflict } from "../workspace/turnApply";
import type { FileSuggestion, ToolCallDiff, ToolCallLocation, WebviewRequests } from "../shared/protocol";
import type { DocumentPort } from "../workspace/fsAccess";
import type { Terminal } from "../workspace/terminals";

/** Turns an image file's absolute path into a URI a webview may load (`Webview.asWebviewUri`), or `undefined`. */
export type IconUri = (file: string) => string | undefined;

/** What the app needs from the editor, implemented in `src/vscode/` (a port: the app never imports `vscode`). */
export interface EditorPort {
  /** Workspace Trust: false means no agent from the workspace's config may start. */
  isTrusted(): boolean;
  /**
   * Runs an editor command the webview offers as a button or key; `channelId` (checked a ULID) is the channel the
   * view shows, given to `searchHistory` so its search starts within that channel.
   */
  runCommand(command: WebviewRequests["command/run"][0]["command"], channelId?: string): Promise<void>;
  /**
   * Asks the user a yes-or-no question in a modal dialog (`message`, `detail` below it, `action` the button that says
   * yes); true only when the user chose `action`. Absent: the host cannot ask, so what needs it is refused.
   */
  confirm?(message: string, detail: string, action: string): Promise<boolean>;
  /** The absolute paths of the editor's workspace folders (absent: the folder agents start in). */
  workspaceRoots?(): string[];
  /**
   * Up to `max` files of the workspace folders as quick open lists them (`files.exclude` and `search.exclude` applied),
   * for `@file` completion; absent: none offered.
   */
  workspaceFiles?(max: number): Promise<FileSuggestion[]>;
  /** Writes a line to the Sidekicks log. */
  log(level: "debug" | "info" | "warn" | "error", line: string): void;
  /** Shows a message to the user outside any view (a notification); absent: only the log says it. */
  notify?(level: "warn" | "error", message: string): void;
  /** Shows the config problems where the editor shows problems (an empty list clears them). */
  showProblems(file: string, problems: ConfigProblem[]): void;
  /** The editor's open documents, for agents' `fs/*` (unsaved buffers, undoable edits); absent: the disk only. */
  documents?: DocumentPort;
  /** Shows an agent's command as an editor terminal. */
  showTerminal?(agent: string, terminal: Terminal): void;
  /** Brings the editor terminal of an agent's terminal to the front; false when it is gone. */
  revealTerminal?(terminalId: string): boolean;
  /** Opens a tool call's diff in the diff editor (virtual documents: `oldText` null is an empty left side). */
  openDiff?(diff: ToolCallDiff): Promise<boolean>;
  /**
   * Asks the user, per file an undo or redo would overwrite though it changed since (issue 19), whether to overwrite or
   * skip it (a diff can be opened meanwhile); a file not answered is skipped. Absent: every conflict is skipped.
   */
  resolveConflicts?(conflicts: RestoreConflict[], action: "undo" | "redo"): Promise<Record<string, ConflictChoice>>;
  /**
   * Asks the user, per file of an agent's answer that conflicts with the user's folder (issue 20, "Per turn too"),
   * what to do: `opened` — opened in the merge editor (the user's text, the text before the answer, the agent's),
   * finished there; `agent` — the agent's side of a deletion taken on purpose (written by the caller); `skip` — left as
   * it is (also a file not answered). Absent: every conflict is skipped.
   */
  resolveTurnConflicts?(agent: string, conflicts: TurnConflict[]): Promise<Record<string, "opened" | "agent" | "skip">>;
  /**
   * Opens `files` in the editor's multi-file diff (issue 19, "Review changes"), titled `title`: each file's text from
   * before against the file now. False when there is nothing to show.
   */
  reviewChanges?(title: string, files: ReviewFile[]): Promise<boolean>;
  /** Opens a file at a 1-based line (the first line when absent); false when the file cannot be opened. */
  openLocation?(location: ToolCallLocation): Promise<boolean>;
  /** Inserts text at the cursor(s) of the active text editor, replacing a selection; false when no editor is open. */
  insertText?(text: string): Promise<boolean>;
  /**
   * Opens a link from agent text: `http(s):`/`mailto:` externally, file links and relative paths in the editor;
   * false for anything else (refused, and logged), which never opens.
   */
  openLink?(href: string): Promise<boolean>;
  /** Opens `markdown` in a new untitled editor tab (language Markdown, never saved by itself); false when it cannot. */
  openMarkdown?(markdown: string): Promise<boolean>;
}
