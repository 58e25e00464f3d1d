/**
 * Sidekicks' own copy of a repository's index for its `git status` runs (issue 19, "Snapshots that scale"). Against
 * the user's index a status of ours may not write (`GIT_OPTIONAL_LOCKS=0`: their index is theirs), so git re-reads
 * every folder of the tree each time; against a copy in a folder Sidekicks owns (`GIT_INDEX_FILE`) git keeps its
 * untracked cache (`core.untrackedCache`: a folder whose modification time did not change is not read again) and its
 * refreshed stat data between runs — about a third less CPU at 200,000 files (`docs/performance.md`).
 *
 * The copy answers exactly as the user's index would: it is taken again whenever the user's index holds other
 * entries (paths, modes, object ids, stages, flags — `sameIndexEntries`); only the cached stat data and extensions
 * differ. Nothing is written into the user's repository: a split index (whose shared part git would write next to
 * theirs), a SHA-256 repository, a `GIT_INDEX_FILE` of the user's, a file system whose folder times may not change
 * (network, FUSE), or any doubt, and the status runs on their index without writing, as before.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { indexHidesChanges, sameIndexEntries } from "./gitIndexFlags";

/** Options every status on a private index runs with: the untracked cache, never a split index, no fsmonitor hook of the user's. */
export const PRIVATE_INDEX_CONFIG: readonly string[] = ["-c", "core.untrackedCache=true", "-c", "status.showUntrackedFiles=all", "-c", "core.splitIndex=false", "-c", "core.fsmonitor=false"];

/**
 * Linux file systems known to update a folder's modification time whenever an entry is added or removed, which git's
 * untracked cache relies on (`statfs` magic numbers: ext2–4, XFS, Btrfs, tmpfs, overlayfs, ZFS, F2FS). Network and
 * FUSE file systems (NFS, SMB, 9p as under WSL, virtiofs…) are left out: there a new file could go unseen.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010]);

/** Whether the work tree at `root` lies on a file system whose folder times git's untracked cache can trust. */
function folderTimesTrusted(root: string): boolean {
  if (process.platform === "darwin" || process.platform === "win32") return true;
  try {
    return LOCAL_FILE_SYSTEMS.has(statfsSync(root).type);
  } catch {
    return false;
  }
}

interface Copy {
  /** The copy's file (absolute). */
  file: string;
  /** The user's index file's size, time and inode when the copy was last found to hold the same entries. */
  key: string;
}

/** The user's index file of the work tree at `root` (absolute), or undefined when it cannot be told without git. */
function userIndex(root: string): { index: string; gitDir: string } | undefined {
  const dotGit = path.join(root, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return { index: path.join(dotGit, "index"), gitDir: dotGit };
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"));
    if (!m) return undefined;
    const gitDir = path.resolve(root, m[1]!.trim());
    return { index: path.join(gitDir, "index"), gitDir };
  } catch {
    return undefined;
  }
}

/** Private index copies, one per repository index, in a temporary folder of this process (removed when it exits). */
export class PrivateIndexes {
  private folder: string | undefined;
  private readonly copies = new Map<string, Copy>();
  private serial = 0;
  /** Copies a status is running on → how many: a copy replaced meanwhile is removed once the last one ends. */
  private readonly inUse = new Map<string, number>();
  /** The last `indexFor` under way: one at a time, so two never copy at once (one would remove the other's file). */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Runs `status` with the private index for the work tree at `root` (see {@link indexFor}; undefined: the user's
   * index), which is not removed before `status` settles.
   */
  async use<T>(root: string, status: (index: string | undefined) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => this.indexFor(root));
    this.queue = next.catch(() => undefined);
    const file = await next.catch(() => undefined);
    if (file) this.inUse.set(file, (this.inUse.get(file) ?? 0) + 1);
    try {
      return await status(file);
    } finally {
      if (file) {
        const left = (this.inUse.get(file) ?? 1) - 1;
        if (left > 0) this.inUse.set(file, left);
        else {
          this.inUse.delete(file);
          if (![...this.copies.values()].some((c) => c.file === file)) rmSync(file, { force: true });
        }
      }
    }
  }

  /**
   * The private index to run `git status` in `root` against, brought up to date with the user's index; undefined
   * when the status must use the user's index (see the file's comment). Costs a `stat` when the user's index did not
   * change, a read of both files when it did, and a copy when its entries changed. Callers go through {@link use}.
   */
  private async indexFor(root: string): Promise<string | undefined> {
    if (process.env.GIT_INDEX_FILE || !folderTimesTrusted(root)) return undefined;
    const user = userIndex(root);
    if (!user) return undefined;
    let key: string;
    let mtime: Date;
    try {
      const s = statSync(user.index);
      key = `${s.size}:${s.mtimeMs}:${s.ino}`;
      mtime = s.mtime;
      // SHA-256: the copy's reader knows SHA-1 ids.
      if (/objectformat/i.test(readFileSync(path.join(user.gitDir, "config"), "utf8"))) return undefined;
    } catch {
      return undefined;
    }
    const copy = this.copies.get(user.index);
    if (copy && copy.key === key && exists(copy.file)) return copy.file;
    // A split index, entries git keeps quiet about: their index (known from the comparison's walk when it matched).
    if (copy && exists(copy.file) && (await sameIndexEntries(user.index, copy.file, 20))) {
      if (indexHidesChanges(user.index, 20)) return undefined;
      copy.key = key;
      return copy.file;
    }
    if (indexHidesChanges(user.index, 20)) return undefined;
    try {
      // A new file each time: a status still running on the old copy may write it back (git renames its lock over it).
      const file = path.join(this.dir(), `index-${++this.serial}`);
      copyFileSync(user.index, file);
      // The user's index's time, a millisecond earlier: git's racy-clean check (an entry as new as its index is
      // compared by content) then covers at least the entries it covered in the user's index.
      const earlier = new Date(mtime.getTime() - 1);
      utimesSync(file, earlier, earlier);
      // Replaced since the `stat`, the user's index is copied as it is now: the key is older, the next call compares.
      if (copy && !this.inUse.has(copy.file)) rmSync(copy.file, { force: true });
      this.copies.set(user.index, { file, key });
      return file;
    } catch {
      return undefined;
    }
  }

  private dir(): string {
    if (!this.folder) {
      const folder = mkdtempSync(path.join(os.tmpdir(), "sidekicks-index-"));
      this.folder = folder;
      process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    }
    return this.folder;
  }
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
