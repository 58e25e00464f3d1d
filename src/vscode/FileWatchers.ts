import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import { IGNORED_DIRS } from "../workspace/turnFiles";

/** How long file events are gathered before they go to the app, in ms (an agent rewriting a tree makes many). */
export const FILE_EVENTS_THROTTLE_MS = 300;

type FileEvent = { path: string; kind: "created" | "changed" | "deleted" };

/**
 * The editor's `FileSystemWatcher`s over the agents' workspace folders (issue 7, "File watching"): changes, gathered
 * for {@link FILE_EVENTS_THROTTLE_MS}, go to `SidekicksApp.filesChanged`, which adds them to the "files changed" list of
 * the turns running there. Watchers follow the roster (one per distinct folder); events under dependency and build
 * folders are dropped here already. Documents saved in the editor go to `SidekicksApp.documentSaved` at once: the user's
 * own saves are not the agent's changes (an agent's write to an open document is saved too; the app tells them apart).
 */
export class FileWatchers implements vscode.Disposable {
  private readonly watchers = new Map<string, vscode.Disposable[]>();
  private pending: FileEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private off: (() => void) | undefined;

  private readonly saves: vscode.Disposable;

  constructor(private readonly getApp: () => SidekicksApp | undefined) {
    this.saves = vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme !== "file" || doc.uri.fsPath.split(/[\\/]/).some((part) => IGNORED_DIRS.has(part))) return;
      this.getApp()?.documentSaved(doc.uri.fsPath, doc.getText());
    });
  }

  /** Watches `app`'s agents' folders, now and whenever the roster changes. */
  attach(app: SidekicksApp): void {
    this.off?.();
    // An agent's worktree is known once its first start made it: watched from then on.
    const sync = () => this.sync(app.agentSummaries().flatMap((a) => (a.worktree && !a.worktree.path ? [] : [a.workspace])));
    const offs = [app.events.on("config/changed", sync), app.events.on("agent/state", sync)];
    this.off = () => offs.forEach((off) => off());
    sync();
  }

  private sync(folders: string[]): void {
    const wanted = new Set(folders);
    for (const [folder, disposables] of this.watchers) {
      if (wanted.has(folder)) continue;
      disposables.forEach((d) => d.dispose());
      this.watchers.delete(folder);
    }
    for (const folder of wanted) {
      if (this.watchers.has(folder)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), "**/*"));
      this.watchers.set(folder, [
        watcher,
        watcher.onDidCreate((uri) => this.push(uri, "created")),
        watcher.onDidChange((uri) => this.push(uri, "changed")),
        watcher.onDidDelete((uri) => this.push(uri, "deleted")),
      ]);
    }
  }

  private push(uri: vscode.Uri, kind: FileEvent["kind"]): void {
    if (uri.scheme !== "file" || uri.fsPath.split(/[\\/]/).some((part) => IGNORED_DIRS.has(part))) return;
    this.pending.push({ path: uri.fsPath, kind });
    this.timer ??= setTimeout(() => this.flush(), FILE_EVENTS_THROTTLE_MS);
  }

  private flush(): void {
    this.timer = undefined;
    const events = this.pending;
    this.pending = [];
    void this.getApp()?.filesChanged(events).catch(() => undefined);
  }

  dispose(): void {
    this.off?.();
    this.saves.dispose();
    if (this.timer) clearTimeout(this.timer);
    for (const disposables of this.watchers.values()) disposables.forEach((d) => d.dispose());
    this.watchers.clear();
  }
}
