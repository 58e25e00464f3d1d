/**
 * Files an agent changed during a turn (issue 7, "File watching"): the editor's `FileSystemWatcher` reports changes
 * under the agent's workspace; each change made while a turn runs there joins that turn's list, with the file's text
 * from before the turn, so the user can open a diff against it.
 *
 * "Before the turn" is a snapshot taken when the turn starts: the workspace's text files, skipping folders of
 * dependencies and build output and files over {@link SNAPSHOT_FILE_BYTES}, within {@link SNAPSHOT_TOTAL_BYTES}. A
 * file the snapshot did not hold (too large, over the budget, or changed before the snapshot reached it) is listed with
 * its earlier text unknown, and said so; it is never guessed.
 *
 * The watcher's events arrive late (the editor's watcher and the caller's throttle gather them), so an edit made just
 * before the prompt ends may not have arrived when the turn settles. {@link TurnFiles.end} therefore walks the folder
 * again and compares each file's size and modification time with the snapshot's; files written through ACP
 * `fs/write_text_file` (which may change only an open editor buffer) are reported by {@link TurnFiles.wrote}.
 *
 * A file the user saved in the editor during the turn ({@link TurnFiles.saved}) is not the agent's change: it is left
 * out while the file still holds what the user saved, unless the agent had changed it before (or writes it after).
 * Nor is a file that holds at the end of the turn the text the snapshot read: a watcher event that arrives during the
 * turn may be for a write made before it began.
 */
import { lineEndingChange, type LineEnding } from "../shared/lineEndings";
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
  /** Set when the turn changed only the file's line endings (field case 13), from what to what. */
  lineEndings?: { from: LineEnding; to: LineEnding };
}

/** What tells a file changed without reading it: its size in bytes and its modification time in ms. */
interface Signature {
  size: number;
  mtimeMs: number;
}

interface Tracked {
  folder: string;
  /** path → text before the turn (text files within the budget). Filled in the background. */
  snapshot: Map<string, string>;
  /** Paths that existed when the snapshot walked them (to tell created from modified) → their size and mtime. */
  existed: Map<string, Signature>;
  ready: Promise<void>;
  /** Set once the turn's prompt may start: files the walk reads afterwards might already be changed. */
  frozen: boolean;
  changed: Map<string, ChangedFile>;
  /** Files the user saved in the editor during the turn → the text saved (the latest save). */
  userSaved: Map<string, string>;
  /** Files the agent wrote through ACP `fs/write_text_file` during the turn. */
  acpWritten: Set<string>;
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

  /** @param ignored absolute folders never listed (Sidekicks' own history store, when it lies in a workspace) */
  constructor(private readonly ignored: readonly string[] = []) {}

  /** Whether `file` is one `tracked` lists: in its folder, not under an ignored folder. */
  private holds(tracked: Tracked, file: string): boolean {
    return isTracked(tracked.folder, file) && !this.ignored.some((folder) => file === folder || isTracked(folder, file));
  }

  /**
   * Starts tracking a turn whose agent works in `folder` (absolute) and snapshots the folder. Resolves when the
   * snapshot is complete, or after `maxWaitMs`: the prompt should start only then (the agent must not change a file
   * before it is read). Files the walk reaches later are known to exist but have no earlier text.
   */
  async begin(turnId: string, folder: string, maxWaitMs = SNAPSHOT_WAIT_MS): Promise<void> {
    const tracked: Tracked = { folder, snapshot: new Map(), existed: new Map(), ready: Promise.resolve(), frozen: false, changed: new Map(), userSaved: new Map(), acpWritten: new Set() };
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
        if (!this.holds(tracked, event.path)) continue;
        // A folder is not a file change: its files report their own events.
        if (event.kind !== "deleted" && isDirectory(event.path)) continue;
        await tracked.ready;
        // Changed since the user saved it (an agent wrote over it): the agent's change again.
        if (tracked.userSaved.has(event.path) && !sameText(event.path, tracked.userSaved.get(event.path))) tracked.userSaved.delete(event.path);
        record(tracked, event.path, event.kind === "deleted");
      }
    }
  }

  /**
   * The agent of turn `turnId` wrote `file` (absolute) through ACP `fs/write_text_file`: it is listed whether or not
   * the watcher reports it (a write to a file open in the editor changes only its buffer).
   */
  async wrote(turnId: string, file: string): Promise<void> {
    const tracked = this.turns.get(turnId);
    if (!tracked || !this.holds(tracked, file)) return;
    tracked.acpWritten.add(file);
    tracked.userSaved.delete(file);
    await tracked.ready;
    record(tracked, file, false);
  }

  /**
   * The user saved `file` (absolute) in the editor, holding `text` (the editor's `onDidSaveTextDocument`). In each
   * running turn whose folder holds it, the file is then the user's change, not the agent's, unless that turn already
   * lists it as the agent's (a watcher event before this save) or its agent wrote it through ACP (the editor saves an
   * agent's write to an open document too). Called for every save; a save outside running turns is ignored.
   */
  saved(file: string, text: string): void {
    for (const tracked of this.turns.values()) {
      if (!this.holds(tracked, file) || tracked.acpWritten.has(file)) continue;
      if (tracked.changed.has(file) && !tracked.userSaved.has(file)) continue;
      tracked.userSaved.set(file, text);
    }
  }

  /**
   * Stops tracking a turn, after walking its folder once more: a file created, deleted, or whose size or modification
   * time differs from the snapshot's is listed even when the watcher's event has not arrived yet.
   * @returns the files it changed, sorted by path
   */
  async end(turnId: string): Promise<ChangedFile[]> {
    const tracked = this.turns.get(turnId);
    if (!tracked) return [];
    this.turns.delete(turnId);
    await tracked.ready;
    const now = new Map<string, Signature>();
    await walk(tracked.folder, (file, signature) => void (this.holds(tracked, file) && now.set(file, signature)));
    for (const [file, signature] of now) {
      const before = tracked.existed.get(file);
      if (before && before.size === signature.size && before.mtimeMs === signature.mtimeMs) continue;
      // Touched but not changed (same size and text): not listed.
      if (!tracked.changed.has(file) && before?.size === signature.size && sameText(file, tracked.snapshot.get(file))) continue;
      record(tracked, file, false);
    }
    for (const file of tracked.existed.keys()) if (!now.has(file) && this.holds(tracked, file)) record(tracked, file, true);
    // A file the watcher reported as created that is gone again: created and removed within the turn.
    for (const file of [...tracked.changed.keys()]) if (!now.has(file) && !tracked.existed.has(file)) tracked.changed.delete(file);
    // Still what the user saved: the user's change, not the agent's.
    for (const [file, text] of tracked.userSaved) if (tracked.changed.get(file)?.kind !== "deleted" && sameText(file, text)) tracked.changed.delete(file);
    // Holding the text it had before the turn: nothing changed — a watcher event that arrived late for a write made
    // before the turn began (a file saved just before the prompt), or text put back. An ACP write stays listed (it may
    // have changed only an open editor buffer).
    for (const [file, changed] of [...tracked.changed]) {
      if (changed.kind === "modified" && !tracked.acpWritten.has(file) && sameText(file, tracked.snapshot.get(file))) tracked.changed.delete(file);
    }
    // A change of line endings only (field case 13) is said so on the card: every line differs byte for byte.
    for (const changed of tracked.changed.values()) {
      if (changed.kind !== "modified" || typeof changed.before !== "string") continue;
      const eol = lineEndingChange(changed.before, readText(changed.path) ?? changed.before);
      if (eol) changed.lineEndings = eol;
    }
    return [...tracked.changed.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  }
}

/** The file's text, or undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Lists `file` as changed (or `deleted`) in `tracked`, with its text from before the turn when the snapshot has it. */
function record(tracked: Tracked, file: string, deleted: boolean): void {
  const existedBefore = tracked.existed.has(file);
  if (deleted && !existedBefore) {
    tracked.changed.delete(file); // created and removed within the turn: nothing changed
    return;
  }
  const kind: ChangedFile["kind"] = deleted ? "deleted" : existedBefore ? "modified" : "created";
  const changed: ChangedFile = { path: file, kind };
  if (!existedBefore) changed.before = null;
  else if (tracked.snapshot.has(file)) changed.before = tracked.snapshot.get(file);
  tracked.changed.set(file, changed);
}

/** Whether `file` holds exactly `text` (false when `text` is undefined or the file cannot be read). */
function sameText(file: string, text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    return readFileSync(file, "utf8") === text;
  } catch {
    return false;
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
  await walk(folder, (file, signature) => {
    into.existed.set(file, signature);
    if (into.frozen || BINARY.test(file)) return;
    if (signature.size > SNAPSHOT_FILE_BYTES || total + signature.size > SNAPSHOT_TOTAL_BYTES) return;
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return;
    }
    if (bytes.includes(0)) return; // not text
    total += bytes.length;
    into.snapshot.set(file, bytes.toString("utf8"));
  });
}

/** How many folders down a snapshot looks: a tree an agent made thousands of levels deep is not walked (issue 17). */
const WALK_DEPTH = 64;

/**
 * Calls `visit` with each file under `folder` (not under {@link IGNORED_DIRS}, at most {@link WALK_DEPTH} folders
 * down) and its size and modification time.
 * Synchronous calls, in slices of {@link SLICE_MS} between which the event loop runs.
 */
async function walk(folder: string, visit: (file: string, signature: Signature) => void): Promise<void> {
  let sliceStart = performance.now();
  const pending: [string, number][] = [[folder, 0]];
  while (pending.length > 0) {
    const [dir, depth] = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!IGNORED_DIRS.has(entry.name) && depth < WALK_DEPTH) pending.push([file, depth + 1]);
        continue;
      }
      if (!entry.isFile()) continue;
      let stat;
      try {
        stat = statSync(file);
      } catch {
        continue;
      }
      visit(file, { size: stat.size, mtimeMs: stat.mtimeMs });
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
