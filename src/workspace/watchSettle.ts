/**
 * Proof that a file watcher has delivered every event for the changes made before a moment (issue 19, "Snapshots that
 * scale"; `TurnFiles`' `settle` port): a sentinel file is written under the watched folder, and once the watcher
 * reports it, the events of earlier writes have been reported too — inotify and the editor's watcher deliver one
 * folder's events in order — and are handed on before the proof resolves (Watchman's "cookie" files, the same idea).
 * The sentinel lives in the repository's own `.git` folder, so neither the user's tree, their git status nor their
 * explorer shows it, and is named like a Watchman cookie (`.watchman-cookie-…`), which the editor's git view passes
 * over (no refresh of its own); a folder without `.git` gets no proof (the turn's end asks git about the whole tree).
 */
import { randomBytes } from "node:crypto";
import { rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { IGNORED_DIRS } from "./snapshotFiles";

/** How long a proof waits for its sentinel's event, in ms; then the turn's end does without it. */
export const SETTLE_TIMEOUT_MS = 3_000;

/** Sentinel files: `<folder>/.git/.watchman-cookie-sidekicks-<hex>`. */
const SENTINEL = /[\\/]\.git[\\/]\.watchman-cookie-sidekicks-[0-9a-f]+$/;

/**
 * Whether the editor's watcher exclusions (`files.watcherExclude` patterns set to true) leave every file a turn lists
 * watched, and the sentinel too: each pattern lies under a folder turns never list (`node_modules`, `dist`…) or
 * under git's object store. Anything else (a user's own exclusion) and the proof is refused.
 */
export function exclusionsAllowSettle(patterns: readonly string[]): boolean {
  return patterns.every((p) => {
    const parts = p.split(/[\\/]/);
    if (parts.some((part) => part !== ".git" && IGNORED_DIRS.has(part))) return true;
    return /(^|[\\/])\.git[\\/](objects|subtree-cache)[\\/]/.test(p);
  });
}

/** Hands out and checks proofs for one watcher (the editor layer's `FileWatchers`). */
export class WatchSettle {
  private readonly waiting = new Map<string, () => void>();
  /** Folders whose sentinel never arrived: not asked again (each would hold a turn's end for the whole timeout). */
  private readonly deaf = new Set<string>();

  /**
   * @param flush hands every event gathered so far on to the turns (resolves when they have it)
   * @param timeoutMs how long a proof waits for its sentinel's event
   */
  constructor(
    private readonly flush: () => Promise<void>,
    private readonly timeoutMs = SETTLE_TIMEOUT_MS,
  ) {}

  /**
   * Writes a sentinel in `folder`'s `.git` folder and resolves true once the watcher reported it ({@link seen}) and
   * the events before it were flushed; false at once when `folder` has no `.git` folder, the write fails or an earlier
   * sentinel there never arrived, or after the timeout. The sentinel is removed either way. Never rejects.
   */
  async settle(folder: string): Promise<boolean> {
    if (this.deaf.has(folder)) return false;
    const dotGit = path.join(folder, ".git");
    try {
      if (!statSync(dotGit).isDirectory()) return false;
    } catch {
      return false;
    }
    const sentinel = path.join(dotGit, `.watchman-cookie-sidekicks-${randomBytes(8).toString("hex")}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.waiting.set(path.basename(sentinel), () => resolve(true));
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    try {
      writeFileSync(sentinel, "", { flag: "wx" });
    } catch {
      this.waiting.delete(path.basename(sentinel));
      clearTimeout(timer);
      return false;
    }
    const ok = await arrived;
    clearTimeout(timer);
    this.waiting.delete(path.basename(sentinel));
    rmSync(sentinel, { force: true });
    if (!ok) {
      this.deaf.add(folder);
      return false;
    }
    return this.flush().then(
      () => true,
      () => false,
    );
  }

  /**
   * Called with each path the watcher reports, before any filtering; true when it is a sentinel (not a change to
   * hand on). The proof resolves after the events the watcher delivered with it have been gathered too.
   */
  seen(file: string): boolean {
    if (!SENTINEL.test(file)) return false;
    // By name (random): the watcher may spell the folder otherwise (a symbolic link, a trailing separator).
    const done = this.waiting.get(path.basename(file));
    // The events the editor delivered together with this one come in the same tick: gather them first.
    if (done) setImmediate(done);
    return true;
  }
}
