/**
 * Files an agent changed during a turn (issue 7, "File watching"): the editor's `FileSystemWatcher` reports changes
 * under the agent's workspace; each change made while a turn runs there joins that turn's list, with the file's text
 * from before the turn, so the user can open a diff against it.
 *
 * "Before the turn" is a snapshot taken when the turn starts: the workspace's text files, skipping folders of
 * dependencies and build output and files over {@link SNAPSHOT_FILE_BYTES}, within {@link SNAPSHOT_TOTAL_BYTES}. A
 * file the snapshot did not hold (too large, over the budget, or changed before the snapshot reached it) is listed with
 * its earlier text unknown, and said so; it is never guessed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Largest file the snapshot keeps, in bytes. */
export const SNAPSHOT_FILE_BYTES = 512 * 1024;
/** Most bytes one snapshot keeps in all. */
export const SNAPSHOT_TOTAL_BYTES = 32 * 1024 * 1024;
/** Folders never snapshotted or tracked: version control, dependencies, build output, caches. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", "dist", "out", "build", "target", ".next", "coverage", ".cache", ".tools"]);

/** One file a turn changed. */
export interface ChangedFile {
  /** Absolute path on this machine. */
  path: string;
  kind: "created" | "modified" | "deleted";
  /**
   * The text before the turn: a string, `null` when the file did not exist, `undefined` when the snapshot did not
   * hold it (too large, over the budget, or not text).
   */
  before?: string | null;
}

interface Tracked {
  folder: string;
  /** path → text before the turn (text files within the budget). Filled in the background. */
  snapshot: Map<string, string>;
  /** Paths that existed when the snapshot walked them (to tell created from modified). */
  existed: Set<string>;
  ready: Promise<void>;
  /** Set once the turn's prompt may start: files the walk reads afterwards might already be changed. */
  frozen: boolean;
  changed: Map<string, ChangedFile>;
}

/** How long a turn's prompt waits for its snapshot at most, in ms; files not read by then have no earlier text. */
export const SNAPSHOT_WAIT_MS = 1_000;

/** Whether `file` is inside `folder` and not under an ignored folder. */
export function isTracked(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return false;
  return !rel.split(path.sep).some((part) => IGNORED_DIRS.has(part));
}

/** Keeps, per running turn, the files changed under its agent's workspace. */
export class TurnFiles {
  private readonly turns = new Map<string, Tracked>();

  /**
   * Starts tracking a turn whose agent works in `folder` (absolute) and snapshots the folder. Resolves when the
   * snapshot is complete, or after `maxWaitMs`: the prompt should start only then (the agent must not change a file
   * before it is read). Files the walk reaches later are known to exist but have no earlier text.
   */
  async begin(turnId: string, folder: string, maxWaitMs = SNAPSHOT_WAIT_MS): Promise<void> {
    const tracked: Tracked = { folder, snapshot: new Map(), existed: new Set(), ready: Promise.resolve(), frozen: false, changed: new Map() };
    tracked.ready = snapshot(folder, tracked).catch(() => undefined);
    this.turns.set(turnId, tracked);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([tracked.ready, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)))]);
    clearTimeout(timer);
    tracked.frozen = true;
  }

  /**
   * Files changed, created or deleted (the watcher's events, throttled by the caller): each joins the list of every
   * running turn whose workspace holds it. Two agents working in one folder at once both see the change.
   */
  async changed(events: readonly { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void> {
    for (const tracked of this.turns.values()) {
      for (const event of events) {
        if (!isTracked(tracked.folder, event.path)) continue;
        // A folder is not a file change: its files report their own events.
        if (event.kind !== "deleted" && isDirectory(event.path)) continue;
        await tracked.ready;
        const existedBefore = tracked.existed.has(event.path);
        if (event.kind === "deleted" && !existedBefore) {
          tracked.changed.delete(event.path); // created and removed within the turn: nothing changed
          continue;
        }
        const kind: ChangedFile["kind"] = event.kind === "deleted" ? "deleted" : existedBefore ? "modified" : "created";
        const file: ChangedFile = { path: event.path, kind };
        if (!existedBefore) file.before = null;
        else if (tracked.snapshot.has(event.path)) file.before = tracked.snapshot.get(event.path);
        tracked.changed.set(event.path, file);
      }
    }
  }

  /** Stops tracking a turn. @returns the files it changed, sorted by path */
  end(turnId: string): ChangedFile[] {
    const tracked = this.turns.get(turnId);
    this.turns.delete(turnId);
    return tracked ? [...tracked.changed.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) : [];
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** File name endings never read into a snapshot (not text): only their existence is recorded. */
const BINARY = /\.(png|jpe?g|gif|webp|ico|bmp|pdf|zip|gz|tgz|xz|7z|jar|vsix|woff2?|ttf|otf|eot|mp[34]|mov|wasm|node|so|dylib|dll|exe|o|a|class|pyc|sqlite|db)$/i;

/** How long the walk reads before it lets other work run, in ms. */
const SLICE_MS = 4;

/**
 * Walks `folder` and keeps the text of its files. Synchronous reads (an order of magnitude cheaper in CPU than
 * promise-based ones for many small files), in slices of {@link SLICE_MS} between which the event loop runs.
 */
async function snapshot(folder: string, into: Tracked): Promise<void> {
  let total = 0;
  let sliceStart = performance.now();
  const pending = [folder];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!IGNORED_DIRS.has(entry.name)) pending.push(file);
        continue;
      }
      if (!entry.isFile()) continue;
      into.existed.add(file);
      if (into.frozen || BINARY.test(entry.name)) continue;
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        continue;
      }
      if (size > SNAPSHOT_FILE_BYTES || total + size > SNAPSHOT_TOTAL_BYTES) continue;
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      if (bytes.includes(0)) continue; // not text
      total += bytes.length;
      into.snapshot.set(file, bytes.toString("utf8"));
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
