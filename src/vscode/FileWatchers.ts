import path from "node:path";
import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import { IGNORED_DIRS } from "../workspace/turnFiles";
import { exclusionsAllowSettle, WatchSettle } from "../workspace/watchSettle";

/** How long file events are gathered before they go to the app, in ms (an agent rewriting a tree makes many). */
export const FILE_EVENTS_THROTTLE_MS = 300;

type FileEvent = { path: string; kind: "created" | "changed" | "deleted" };

/**
 * The editor's `FileSystemWatcher`s over the agents' workspace folders (issue 7, "File watching"): changes, gathered
 * for {@link FILE_EVENTS_THROTTLE_MS}, go to `SidekicksApp.filesChanged`, which adds them to the "files changed" list of
 * the turns running there. Watchers follow the roster (one per distinct folder); events under dependency and build
 * folders are dropped here already. Documents saved in the editor go to `SidekicksApp.documentSaved` at once: the user's
 * own saves are not the agent's changes (an agent's write to an open document is saved too; the app tells them apart).
 * At a turn's end the app asks for proof that every earlier event has arrived ({@link settle}, `watchSettle.ts`).
 */
export class FileWatchers implements vscode.Disposable {
  private readonly watchers = new Map<string, vscode.Disposable[]>();
  private pending: FileEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private off: (() => void) | undefined;

  private readonly saves: vscode.Disposable;
  private readonly settler = new WatchSettle(() => this.flush());
  /** Folders whose first proof was said in the log (once each, so the log says which way turn ends go). */
  private readonly told = new Set<string>();

  /** @param log the Sidekicks output channel: whether a folder's turn ends can trust the watcher, once per folder */
  constructor(
    private readonly getApp: () => SidekicksApp | undefined,
    private readonly log?: Pick<vscode.LogOutputChannel, "info">,
  ) {
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
    const settle = (folder: string) => this.settle(folder);
    app.settleFileEventsWith(settle);
    this.off = () => {
      offs.forEach((off) => off());
      app.settleFileEventsWith(undefined);
    };
    sync();
  }

  /**
   * Resolves true once every event this watcher will report for changes under `folder` made before the call has gone
   * to the app; false when `folder` is not watched, the user's `files.watcherExclude` may hide files there, or the
   * proof did not come (`WatchSettle.settle`).
   */
  settle(folder: string): Promise<boolean> {
    // Watched: the folder itself or one holding it (the sentinel must be among what a watcher sees).
    const inside = (w: string) => !path.relative(w, folder).startsWith("..") && !path.isAbsolute(path.relative(w, folder));
    if (![...this.watchers.keys()].some(inside)) return Promise.resolve(false);
    const excluded = vscode.workspace.getConfiguration("files", vscode.Uri.file(folder)).get<Record<string, boolean>>("watcherExclude") ?? {};
    if (!exclusionsAllowSettle(Object.keys(excluded).filter((p) => excluded[p] === true))) return Promise.resolve(false);
    return this.settler.settle(folder).then((proven) => {
      if (!this.told.has(folder)) {
        this.told.add(folder);
        if (proven) this.log?.info(`File watcher: its events for ${folder} are proven complete at a turn's end (a sentinel in .git): turns there end without a second git status.`);
        else this.log?.info(`File watcher: no proof its events for ${folder} are complete (no .git folder there, or its sentinel in .git was not reported within 3 s): turns there end with a full git status, or a walk outside git.`);
      }
      return proven;
    });
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
    if (uri.scheme !== "file" || this.settler.seen(uri.fsPath)) return;
    if (uri.fsPath.split(/[\\/]/).some((part) => IGNORED_DIRS.has(part))) return;
    this.pending.push({ path: uri.fsPath, kind });
    this.timer ??= setTimeout(() => this.flush(), FILE_EVENTS_THROTTLE_MS);
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const events = this.pending;
    this.pending = [];
    if (events.length === 0) return Promise.resolve();
    return this.getApp()?.filesChanged(events).catch(() => undefined) ?? Promise.resolve();
  }

  dispose(): void {
    this.off?.();
    this.saves.dispose();
    if (this.timer) clearTimeout(this.timer);
    for (const disposables of this.watchers.values()) disposables.forEach((d) => d.dispose());
    this.watchers.clear();
  }
}
