/**
 * The parts of a turn's snapshot (`turnFiles.ts`) that do not depend on git: what a file was when the turn started
 * ({@link Before}), the budget that reads the earlier texts of files ({@link readTexts}), and the walk of a folder
 * without git ({@link walkBaseline}), which the file watcher's events complete during the turn.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Largest file the snapshot keeps, in bytes. */
export const SNAPSHOT_FILE_BYTES = 512 * 1024;
/** Most bytes one snapshot keeps in all. */
export const SNAPSHOT_TOTAL_BYTES = 32 * 1024 * 1024;
/** Folders never snapshotted or tracked: version control, dependencies, build output, caches. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", "dist", "out", "build", "target", ".next", "coverage", ".cache", ".tools"]);

/**
 * Why a file's text from before the turn is not known: larger than {@link SNAPSHOT_FILE_BYTES} (`tooLarge`), not text
 * (`binary`), beyond the snapshot's or the turn's byte budget (`overBudget`, the smaller files were kept first), or
 * changed before the snapshot could read it once the prompt had started (`late`: never guessed).
 */
export type UnknownReason = "tooLarge" | "binary" | "overBudget" | "late";

/** What a file was when the turn started: absent, or present with its text, or present with its text unknown (why). */
export type Before = { existed: false } | { existed: true; text: string } | { existed: true; unknown: UnknownReason };

/** What tells a file changed without reading it: its size in bytes and its modification time in ms. */
export interface Signature {
  size: number;
  mtimeMs: number;
}

/**
 * A file modified less than this many ms before the prompt started, and read after it started, has no earlier text
 * (`late`): its change may be the agent's. A file system's clock for file times lags the process's by up to a tick.
 */
export const LATE_MARGIN_MS = 50;
/** The same margin for a time in whole seconds (a file system whose times are coarse: FAT keeps 2 s). */
export const COARSE_LATE_MARGIN_MS = 2_000;

/** Whether a file modified at `mtimeMs` may have been changed after `started` (see {@link LATE_MARGIN_MS}). */
export function maybeLate(mtimeMs: number, started: number): boolean {
  return mtimeMs >= started - (mtimeMs % 1000 === 0 ? COARSE_LATE_MARGIN_MS : LATE_MARGIN_MS);
}

/** File name endings never read into a snapshot (not text): only their existence is recorded. */
export const BINARY = /\.(png|jpe?g|gif|webp|ico|bmp|pdf|zip|gz|tgz|xz|7z|jar|vsix|woff2?|ttf|otf|eot|mp[34]|mov|wasm|node|so|dylib|dll|exe|o|a|class|pyc|sqlite|db)$/i;

/** How long a synchronous stretch of reads runs before it lets other work run, in ms. */
const SLICE_MS = 4;

/** Yields to the event loop when the current slice ran over {@link SLICE_MS}. */
export class Slicer {
  private start = performance.now();
  /** Awaits the event loop's next turn if this slice has run long enough. */
  async maybeYield(): Promise<void> {
    if (performance.now() - this.start <= SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }
}

/** When the turn's prompt started (ms since the epoch), or undefined while it has not: reads before it are trusted. */
export type PromptStart = () => number | undefined;

/**
 * Reads the texts of `files` (absolute path → size and time when listed, or undefined when not stat-ed yet) into what
 * each was before the turn, the least useful dropped first: binary files and files over {@link SNAPSHOT_FILE_BYTES}
 * are not read, then the smaller files are read first within `budget` bytes (the rest `overBudget`). A file read after
 * the prompt started that was modified shortly before it ({@link maybeLate}) (or during the read) is `late`.
 * Synchronous reads in slices (an order of magnitude cheaper in CPU than promise-based ones for many small files).
 */
export async function readTexts(files: Iterable<string>, promptStart: PromptStart, budget = SNAPSHOT_TOTAL_BYTES): Promise<Map<string, Before>> {
  const out = new Map<string, Before>();
  const slicer = new Slicer();
  const sized: [string, Signature][] = [];
  for (const file of files) {
    const signature = stat(file);
    if (!signature) out.set(file, absent(file, promptStart()));
    else if (BINARY.test(file)) out.set(file, { existed: true, unknown: "binary" });
    else if (signature.size > SNAPSHOT_FILE_BYTES) out.set(file, { existed: true, unknown: "tooLarge" });
    else sized.push([file, signature]);
    await slicer.maybeYield();
  }
  sized.sort((a, b) => a[1].size - b[1].size);
  let left = budget;
  for (const [file, signature] of sized) {
    if (signature.size > left) {
      out.set(file, { existed: true, unknown: "overBudget" });
      continue;
    }
    const before = readOne(file, promptStart);
    if ("text" in before) left -= signature.size;
    out.set(file, before);
    await slicer.maybeYield();
  }
  return out;
}

/** One file's earlier text, or why it is unknown (see {@link readTexts}). */
function readOne(file: string, promptStart: PromptStart): Before {
  const started = promptStart();
  const first = stat(file);
  if (!first) return absent(file, started);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { existed: true, unknown: "late" };
  }
  if (started !== undefined) {
    const after = stat(file);
    if (!after || after.size !== first.size || after.mtimeMs !== first.mtimeMs || maybeLate(first.mtimeMs, started)) return { existed: true, unknown: "late" };
  }
  if (bytes.includes(0)) return { existed: true, unknown: "binary" };
  return { existed: true, text: bytes.toString("utf8") };
}

/**
 * A file found missing: absent before the turn, unless the prompt had started and its folder changed since shortly
 * before (checked on its nearest folder still there; a removal then may be the agent's, so whether it existed is not known: `late`).
 */
function absent(file: string, started: number | undefined): Before {
  if (started === undefined) return { existed: false };
  // Its nearest folder still there: removing a file or folder changes the time of the folder that held it.
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      return maybeLate(statSync(dir).mtimeMs, started) ? { existed: true, unknown: "late" } : { existed: false };
    } catch {
      if (path.dirname(dir) === dir) return { existed: true, unknown: "late" };
    }
  }
}

/** The file's size and modification time, or undefined when it is not a regular file that can be stat-ed. */
export function stat(file: string): Signature | undefined {
  try {
    const s = statSync(file);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** How many folders down a snapshot looks: a tree an agent made thousands of levels deep is not walked (issue 17). */
const WALK_DEPTH = 64;

/**
 * Calls `visit` with each file under `folder` (not under {@link IGNORED_DIRS}, at most {@link WALK_DEPTH} folders
 * down) and its size and modification time. Synchronous calls, in slices between which the event loop runs.
 */
export async function walk(folder: string, visit: (file: string, signature: Signature) => void): Promise<void> {
  const slicer = new Slicer();
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
      const signature = stat(file);
      if (signature) visit(file, signature);
    }
    await slicer.maybeYield();
  }
}

/** What a turn's snapshot knows at its end: each file that may have changed → what it was when the turn started. */
export interface Baseline {
  /** Settles when the start-of-turn snapshot is complete (never rejects). */
  readonly ready: Promise<void>;
  /**
   * At the end of the turn: the files that may have changed since it started, with what each was then; `extra`
   * (files the watcher reported or the agent wrote) are among them unless the snapshot can tell they are ignored or
   * unchanged. Files in `keep` (written through ACP: maybe only an editor buffer) are never left out as unchanged.
   * `settled`: the caller vouches that `extra` holds every file the watcher will report for changes made so far (in
   * git, the end then need not ask about the whole tree again); false or absent, the end finds changes on its own.
   */
  end(extra: ReadonlySet<string>, keep: ReadonlySet<string>, settled?: boolean): Promise<Map<string, Before>>;
}

/**
 * A folder without git: walked when the turn starts (off the prompt's path: the prompt waits for it a moment at most)
 * and again when it ends, comparing each file's size and modification time; the watcher's events name the rest. A walk
 * still running once the prompt started may reach a file after the agent changed it: such a file (modified shortly
 * before the prompt or since, {@link maybeLate}) is listed at the end with its earlier text unknown (`late`) even
 * though its size and time did not change again, and a file the watcher reported that the walk never saw and that is
 * gone at the end is listed as deleted with its earlier text unknown — never left out as if nothing happened.
 */
export function walkBaseline(folder: string, promptStart: PromptStart): Baseline {
  const existed = new Map<string, Signature>();
  /** Files the walk reached after the prompt started that were modified shortly before it or since. */
  const lateSeen = new Set<string>();
  let completeBeforePrompt = true;
  let befores = new Map<string, Before>();
  const ready = (async () => {
    await walk(folder, (file, signature) => {
      existed.set(file, signature);
      const started = promptStart();
      if (started !== undefined && maybeLate(signature.mtimeMs, started)) lateSeen.add(file);
    });
    completeBeforePrompt = promptStart() === undefined;
    befores = await readTexts(existed.keys(), promptStart);
  })().catch(() => undefined);
  return {
    ready,
    async end(extra) {
      await ready;
      const out = new Map<string, Before>();
      const now = new Map<string, Signature>();
      await walk(folder, (file, signature) => void now.set(file, signature));
      const late: Before = { existed: true, unknown: "late" };
      const beforeOf = (file: string): Before => (existed.has(file) ? (lateSeen.has(file) ? late : (befores.get(file) ?? late)) : !completeBeforePrompt && !now.has(file) ? late : { existed: false });
      for (const [file, signature] of now) {
        const then = existed.get(file);
        if (!then || then.size !== signature.size || then.mtimeMs !== signature.mtimeMs || lateSeen.has(file)) out.set(file, beforeOf(file));
      }
      for (const file of existed.keys()) if (!now.has(file)) out.set(file, beforeOf(file));
      for (const file of extra) if (!out.has(file)) out.set(file, beforeOf(file));
      return out;
    },
  };
}
