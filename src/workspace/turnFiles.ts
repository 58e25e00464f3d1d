/**
 * Files an agent changed during a turn (issue 7, "File watching"; issue 19, "Snapshots that scale"): each change made
 * while a turn runs in the agent's workspace joins that turn's list, with the file's text from before the turn, so the
 * user can open a diff against it.
 *
 * "Before the turn" is a snapshot begun when the turn starts, which the prompt does not wait for (beyond
 * {@link SNAPSHOT_WAIT_MS}). In a git work tree (`gitSnapshot.ts`) git says what is dirty — ignored files are ignored —
 * only the dirty files' texts are read, and a clean file's earlier text comes from git's objects when it turns out to be
 * changed. Elsewhere (`snapshotFiles.ts`) the folder is walked (skipping folders of dependencies and build output) and
 * the editor's file watcher names the changes. Texts are kept within {@link SNAPSHOT_FILE_BYTES} per file and
 * {@link SNAPSHOT_TOTAL_BYTES} in all, binary and large files dropped first. A file whose earlier text the snapshot
 * does not hold (too large, binary, over the budget, or changed before the snapshot read it once the prompt had
 * started) is listed with its earlier text unknown and why ({@link ChangedFile.beforeUnknown}); it is never guessed.
 *
 * The watcher's events arrive late (the editor's watcher and the caller's throttle gather them), so {@link
 * TurnFiles.end} asks again — `git status`, or a second walk comparing sizes and modification times — and files written
 * through ACP `fs/write_text_file` (which may change only an open editor buffer) are reported by {@link TurnFiles.wrote}.
 * In git, when the editor proves its watcher's events have all arrived ({@link SettleFileEvents}), the end asks git
 * only about the files dirty at the start or reported since, not about the whole tree (`gitSettledEnd.ts`).
 *
 * A file the user saved in the editor during the turn ({@link TurnFiles.saved}) is not the agent's change: it is left
 * out while the file still holds what the user saved, unless the agent had changed it before (or writes it after).
 * Nor is a file that holds at the end of the turn the text it had before: a watcher event that arrives during the turn
 * may be for a write made before it began.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { lineEndingChange, type LineEnding } from "../shared/lineEndings";
import { TEMP_FILE } from "./atomicWrite";
import { gitBaseline, gitRoot, StatusRuns } from "./gitSnapshot";
import { BINARY, IGNORED_DIRS, SNAPSHOT_FILE_BYTES, walkBaseline, type Baseline, type Before, type UnknownReason } from "./snapshotFiles";

export { IGNORED_DIRS, SNAPSHOT_FILE_BYTES, SNAPSHOT_TOTAL_BYTES, type UnknownReason } from "./snapshotFiles";

/** One file a turn changed. */
export interface ChangedFile {
  /** Absolute path on this machine. */
  path: string;
  kind: "created" | "modified" | "deleted";
  /**
   * The text before the turn: a string, `null` when the file did not exist, `undefined` when the snapshot did not
   * hold it (then {@link beforeUnknown} says why).
   */
  before?: string | null;
  /** Why the text before the turn is not known, when it is not. */
  beforeUnknown?: UnknownReason;
  /** Set when the turn changed only the file's line endings (field case 13), from what to what. */
  lineEndings?: { from: LineEnding; to: LineEnding };
  /**
   * The text after the turn (issue 19, "A checkpoint per turn"): a string, `null` when the turn deleted the file,
   * `undefined` when it was not kept (then {@link afterUnknown} says why). Undo needs it to tell whether the file
   * changed since.
   */
  after?: string | null;
  /** Why the text after the turn was not kept, when it was not. */
  afterUnknown?: UnknownReason;
}

/** What the user decided for a changed file: `kept` (the turn's change accepted) or `undone` (the earlier text back). */
export type FileState = "kept" | "undone";

/**
 * A decision the user's action leaves on a changed file: a {@link FileState}, or `null` — no decision, as right after
 * the turn (a redo brings the agent's change back: the file is again the turn's change to keep or undo).
 */
export type FileDecision = FileState | null;

interface Tracked {
  folder: string;
  /** What the folder held when the turn started; its start-of-turn work runs in the background. */
  baseline: Promise<Baseline>;
  /** Files the watcher reported or the agent wrote during the turn. */
  touched: Set<string>;
  /** Files the user saved in the editor during the turn → the text saved (the latest save). */
  userSaved: Map<string, string>;
  /** Files the agent wrote through ACP `fs/write_text_file` during the turn. */
  acpWritten: Set<string>;
  /** The text of the agent's latest ACP write of each file, when known. */
  acpTexts: Map<string, string>;
  /** Files whose first watcher event in the turn said they were created: absent just before, during the turn. */
  createdFirst: Set<string>;
  /** Paths the watcher reported created or changed while they were folders: their removal is not a file's. */
  folders: Set<string>;
  /** Whether the watcher reported a folder created or changed: its files may have no events of their own (a folder moved in). */
  folderEvents: boolean;
}

/**
 * Resolves true once every change under `folder` (absolute) made before the call that the editor's file watcher will
 * report has been handed to {@link TurnFiles.changed}; false when that cannot be shown (no watcher there, one that
 * excludes part of the folder, its proof did not arrive in time). Never rejects. Implemented by the editor layer with a
 * sentinel file whose own event follows the earlier ones (`watchSettle.ts`).
 */
export type SettleFileEvents = (folder: string) => Promise<boolean>;

/**
 * How long a turn's prompt waits for a walked snapshot (outside git) at most, in ms: a small folder's snapshot is done
 * by then; in a larger one the snapshot goes on while the agent works, and files it reads after the agent changed
 * them have no earlier text (`late`). Not 10 ms: a walk that had not yet read a file the agent changed at once took
 * its changed text for the earlier one and the change went unlisted (a CI run saw it); in git the prompt never waits.
 */
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
  private readonly statusRuns = new StatusRuns();

  /**
   * @param ignored absolute folders never listed (Sidekicks' own history store, when it lies in a workspace)
   * @param settle proves the watcher's events have arrived at a turn's end ({@link SettleFileEvents}): in git the end
   *   then asks only about the files dirty at the start, reported, or committed, not for a status of the whole tree.
   *   Absent (or false for a turn), the end asks git about the whole tree.
   */
  constructor(
    private readonly ignored: readonly string[] = [],
    private readonly settle?: SettleFileEvents,
  ) {}

  /** Whether `file` is one `tracked` lists: in its folder, not under an ignored folder. */
  private holds(tracked: Tracked, file: string): boolean {
    return isTracked(tracked.folder, file) && !TEMP_FILE.test(file) && !this.ignored.some((folder) => file === folder || isTracked(folder, file));
  }

  /**
   * Starts tracking a turn whose agent works in `folder` (absolute) and begins its snapshot. Resolves when the
   * snapshot is complete or after `maxWaitMs` (`Infinity`: when complete), whichever is first — at once in a git work
   * tree unless `Infinity` — and the prompt starts then, the snapshot going on meanwhile.
   */
  async begin(turnId: string, folder: string, maxWaitMs = SNAPSHOT_WAIT_MS): Promise<void> {
    const prompt: { startedAt?: number } = {};
    const promptStart = () => prompt.startedAt;
    const root = gitRoot(folder);
    // In git the snapshot starts on the next turn of the event loop (spawning git blocks a moment), after the prompt.
    const baseline = root ? new Promise<void>((resolve) => setImmediate(resolve)).then(() => gitBaseline(root, folder, this.statusRuns, promptStart)) : Promise.resolve(walkBaseline(folder, promptStart));
    const tracked: Tracked = { folder, baseline, touched: new Set(), userSaved: new Map(), acpWritten: new Set(), acpTexts: new Map(), createdFirst: new Set(), folders: new Set(), folderEvents: false };
    this.turns.set(turnId, tracked);
    const ready = tracked.baseline.then((b) => b.ready);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waits = [ready];
    // git answers in more than a few ms even in a small repository, and its clean files need no reading: no wait.
    const wait = root && Number.isFinite(maxWaitMs) ? 0 : maxWaitMs;
    if (wait <= 0) waits.push(Promise.resolve());
    else if (Number.isFinite(wait)) waits.push(new Promise<void>((resolve) => (timer = setTimeout(resolve, wait))));
    await Promise.race(waits);
    clearTimeout(timer);
    prompt.startedAt = Date.now();
  }

  /** Resolves when the start-of-turn snapshots of every turn running now are complete (a test's sync point). */
  async allSnapshotted(): Promise<void> {
    await Promise.all([...this.turns.values()].map(async (t) => (await t.baseline).ready));
  }

  /** Resolves when the start-of-turn snapshot of turn `turnId` is complete (for tests and benches: no prompt waits for it). */
  async snapshotted(turnId: string): Promise<void> {
    await (await this.turns.get(turnId)?.baseline)?.ready;
  }

  /**
   * Files changed, created or deleted (the watcher's events, throttled by the caller): each joins the list of every
   * running turn whose workspace holds it. Two agents working in one folder at once both see the change.
   */
  async changed(events: readonly { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void> {
    for (const tracked of this.turns.values()) {
      for (const event of events) {
        if (!this.holds(tracked, event.path)) continue;
        // A folder is not a file change: its files report their own events — unless it was moved in whole.
        if (event.kind !== "deleted" && isDirectory(event.path)) {
          tracked.folderEvents = true;
          tracked.folders.add(event.path);
          continue;
        }
        // Nor is the removal of a folder seen in this turn (Codex's sandbox makes and removes its mount points
        // `.agents`, `.aws`, `.codex` as folders): gone, it cannot be told from a file; its files had their own events.
        if (event.kind === "deleted" && tracked.folders.has(event.path)) continue;
        // Changed since the user saved it (an agent wrote over it): the agent's change again.
        if (tracked.userSaved.has(event.path) && !sameText(event.path, tracked.userSaved.get(event.path))) tracked.userSaved.delete(event.path);
        if (!tracked.touched.has(event.path) && event.kind === "created") tracked.createdFirst.add(event.path);
        tracked.touched.add(event.path);
      }
    }
  }

  /**
   * The agent of turn `turnId` wrote `file` (absolute) through ACP `fs/write_text_file`: it is listed whether or not
   * the watcher reports it (a write to a file open in the editor changes only its buffer), unless `text`, what it
   * wrote, is the text the file had before the turn and still has.
   */
  async wrote(turnId: string, file: string, text?: string): Promise<void> {
    const tracked = this.turns.get(turnId);
    if (!tracked || !this.holds(tracked, file)) return;
    tracked.acpWritten.add(file);
    if (text !== undefined) tracked.acpTexts.set(file, text);
    else tracked.acpTexts.delete(file);
    tracked.touched.add(file);
    tracked.userSaved.delete(file);
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
      if (tracked.touched.has(file) && !tracked.userSaved.has(file)) continue;
      tracked.userSaved.set(file, text);
    }
  }

  /**
   * Stops tracking a turn, after asking once more what changed (`git status`, or a walk comparing sizes and
   * modification times): a change is listed even when the watcher's event has not arrived yet.
   * @returns the files it changed, sorted by path
   */
  async end(turnId: string): Promise<ChangedFile[]> {
    const tracked = this.turns.get(turnId);
    if (!tracked) return [];
    // Still tracked while the watcher settles: the events it proves arrived join this turn.
    const settled = this.settle ? await this.settle(tracked.folder).catch(() => false) : false;
    this.turns.delete(turnId);
    const baseline = await tracked.baseline;
    const befores = await baseline.end(tracked.touched, tracked.acpWritten, settled && !tracked.folderEvents);
    const changed = new Map<string, ChangedFile>();
    for (const [file, before] of befores) {
      if (!this.holds(tracked, file)) continue;
      // A file first reported created, and absent now: made and removed within the turn (Codex's sandbox makes and
      // removes `.codex`, `.agents`, `.aws` around a command, a tryout found them listed as deleted), not a change.
      if (tracked.createdFirst.has(file) && !("text" in before) && readNow(file) === "missing") continue;
      const written = tracked.acpWritten.has(file) ? { text: tracked.acpTexts.get(file) } : undefined;
      const entry = compare(file, before, written);
      if (entry) changed.set(file, entry);
    }
    // Still what the user saved: the user's change, not the agent's.
    for (const [file, text] of tracked.userSaved) if (changed.get(file)?.kind !== "deleted" && sameText(file, text)) changed.delete(file);
    // A change of line endings only (field case 13) is said so on the card: every line differs byte for byte.
    for (const entry of changed.values()) {
      if (entry.kind !== "modified" || typeof entry.before !== "string") continue;
      const eol = lineEndingChange(entry.before, readText(entry.path) ?? entry.before);
      if (eol) entry.lineEndings = eol;
    }
    return [...changed.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  }
}

/**
 * What happened to `file` given what it was before the turn, or undefined when nothing did: it holds the text it had
 * (a watcher event late for a write made before the turn, a touch, or text put back), or it was absent and still is
 * (created and removed within the turn). An ACP write stays listed (it may have changed only an open editor buffer),
 * unless what it wrote is the text the file had, and still has (an agent rewriting a file as it was).
 */
function compare(file: string, before: Before, acpWrite: { text: string | undefined } | undefined): ChangedFile | undefined {
  const now = readNow(file);
  if (!before.existed) return now === "missing" ? undefined : { path: file, kind: "created", before: null, ...afterOf(file, now) };
  const earlier = "text" in before ? { before: before.text } : { beforeUnknown: before.unknown };
  if (now === "missing") return { path: file, kind: "deleted", ...earlier, after: null };
  if ("text" in before && typeof now === "string" && now === before.text && (!acpWrite || acpWrite.text === before.text)) return undefined;
  return { path: file, kind: "modified", ...earlier, ...afterOf(file, now) };
}

/**
 * The text a file holds after the turn as kept: the same bounds as the earlier texts (binary names, NUL bytes, over
 * {@link SNAPSHOT_FILE_BYTES}) say why it is not; a file that could not be read is `late` (never guessed).
 */
function afterOf(file: string, now: string | undefined): Pick<ChangedFile, "after" | "afterUnknown"> {
  if (now === undefined) return { afterUnknown: "late" };
  if (BINARY.test(file) || now.includes("\0")) return { afterUnknown: "binary" };
  if (Buffer.byteLength(now) > SNAPSHOT_FILE_BYTES) return { afterUnknown: "tooLarge" };
  return { after: now };
}

/** The file's text now, `missing` when there is no file, undefined when it cannot be read. */
function readNow(file: string): string | "missing" | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" ? "missing" : undefined;
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

/** Whether `file` holds exactly `text` (false when `text` is undefined or the file cannot be read). */
function sameText(file: string, text: string | undefined): boolean {
  return text !== undefined && readText(file) === text;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
