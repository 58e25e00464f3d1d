/**
 * History that follows the folder (issue 21). A roster's history lives in `<histories>/<12 hex of its path's
 * SHA-256>` (`historyDirFor`), so a moved or renamed folder leaves it behind. Each history records the roster it
 * belongs to (`<histories>/.rosters/<name>.json`: `{version: 1, configPath, follows?, offer?, declined?}`); a folder
 * whose history is new while another history's recorded roster no longer exists is offered that history, and a yes
 * makes this roster follow it (`follows`: its folder is used from then on). Nothing is moved, copied or deleted: the
 * empty history made meanwhile stays where it is. Plain files, no `vscode` import; written atomically (temporary
 * file, rename).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What is recorded beside a history folder. */
export interface HistoryRecord {
  version: 1;
  /** The roster file (absolute) this history belongs to. */
  configPath: string;
  /** The history folder this roster uses instead (the user said yes to a moved folder's history). */
  follows?: string;
  /** Moved histories found when this one was new, offered until the user answers (folders). */
  offer?: string[];
  /** Moved histories the user said no to for this roster (folders): not offered again. */
  declined?: string[];
}

/** A history whose roster file is gone: its folder, the roster path it recorded, and when it was last written. */
export interface MovedHistory {
  dir: string;
  configPath: string;
  /** Milliseconds since the epoch: the newest of its folder's files (the LevelDB log is written on every change). */
  lastUsed: number;
}

/** The folder of `configPath`'s history under `historiesDir`: the first 12 hex of the path's SHA-256. */
export function historyDirFor(historiesDir: string, configPath: string): string {
  return path.join(historiesDir, createHash("sha256").update(configPath).digest("hex").slice(0, 12));
}

/** Where the record of history folder `dir` is kept: `<histories>/.rosters/<name>.json` (the folder holds folders only). */
const recordFile = (dir: string) => path.join(path.dirname(dir), ".rosters", `${path.basename(dir)}.json`);

/** The record beside history folder `dir`, checked (a file on disk is a trust boundary); undefined when none. */
export function readHistoryRecord(dir: string): HistoryRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(recordFile(dir), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<HistoryRecord>;
  if (v.version !== 1 || typeof v.configPath !== "string" || !path.isAbsolute(v.configPath)) return undefined;
  const record: HistoryRecord = { version: 1, configPath: v.configPath };
  if (typeof v.follows === "string" && path.isAbsolute(v.follows)) record.follows = v.follows;
  for (const field of ["offer", "declined"] as const) {
    const list = Array.isArray(v[field]) ? v[field].filter((d): d is string => typeof d === "string" && path.isAbsolute(d)) : [];
    if (list.length > 0) record[field] = list;
  }
  return record;
}

function writeHistoryRecord(dir: string, record: HistoryRecord): void {
  const file = recordFile(dir);
  const temporary = `${file}.${process.pid}.tmp`;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(temporary, JSON.stringify(record));
  renameSync(temporary, file);
}

/** True when `dir` holds a LevelDB store (its `CURRENT` file). */
export function holdsHistory(dir: string): boolean {
  return existsSync(path.join(dir, "CURRENT"));
}

/**
 * The folder the history of `configPath` is read from: the one it follows when the user adopted a moved history (and
 * that folder is still there), else its own. Records the roster path beside it, so that a later move can find it.
 */
export function historyHome(historiesDir: string, configPath: string): string {
  const own = historyDirFor(historiesDir, configPath);
  const record = readHistoryRecord(own);
  if (record?.follows && holdsHistory(record.follows)) {
    const followed = readHistoryRecord(record.follows);
    if (followed?.configPath !== configPath) writeHistoryRecord(record.follows, { ...(followed ?? {}), version: 1, configPath });
    return record.follows;
  }
  if (!record || record.configPath !== configPath) writeHistoryRecord(own, { ...(record ?? {}), version: 1, configPath });
  return own;
}

/**
 * The histories under `historiesDir` whose recorded roster no longer exists (`exists` false) and that no roster
 * follows, newest first: the candidates for a folder that moved. Folders set aside by a repair
 * (`<dir>.damaged-<time>`) and histories never recorded are not among them.
 */
export function movedHistories(historiesDir: string, exists: (file: string) => boolean = existsSync): MovedHistory[] {
  let names: string[];
  try {
    names = readdirSync(historiesDir);
  } catch {
    return [];
  }
  const dirs = names.filter((n) => /^[0-9a-f]{12}$/.test(n)).map((n) => path.join(historiesDir, n));
  const followed = new Set(dirs.map((d) => readHistoryRecord(d)?.follows).filter(Boolean));
  const out: MovedHistory[] = [];
  for (const dir of dirs) {
    const record = readHistoryRecord(dir);
    if (!record || record.follows || followed.has(dir) || exists(record.configPath) || !holdsHistory(dir)) continue;
    out.push({ dir, configPath: record.configPath, lastUsed: lastWritten(dir) });
  }
  return out.sort((a, b) => b.lastUsed - a.lastUsed);
}

function lastWritten(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    try {
      newest = Math.max(newest, statSync(path.join(dir, name)).mtimeMs);
    } catch {
      // gone meanwhile
    }
  }
  return newest;
}

/**
 * What to offer the roster `configPath` when it starts, before its history opens: the moved histories, when its own
 * history is new (no store yet) or was offered some before without an answer. Remembers the offer, so that it is made
 * again until the user answers ({@link answerOffer}). Empty when there is nothing to offer, or the roster file does
 * not exist (no folder of a roster to follow).
 */
export function historyOffer(historiesDir: string, configPath: string, exists: (file: string) => boolean = existsSync): MovedHistory[] {
  if (!exists(configPath)) return [];
  const own = historyDirFor(historiesDir, configPath);
  const record = readHistoryRecord(own);
  if (record?.follows) return [];
  const pending = record?.offer !== undefined;
  if (holdsHistory(own) && !pending) return [];
  const moved = movedHistories(historiesDir, exists).filter((m) => m.dir !== own && !record?.declined?.includes(m.dir));
  const offer = pending ? moved.filter((m) => record.offer!.includes(m.dir)) : moved;
  if (offer.length > 0 && !pending) writeHistoryRecord(own, { ...(record ?? {}), version: 1, configPath, offer: offer.map((m) => m.dir) });
  return offer;
}

/**
 * The user's answer to {@link historyOffer}: `adopt` a moved history's folder (this roster uses it from then on,
 * and it records this roster as its own), or undefined for no (the histories offered are not offered again). Moves
 * and deletes nothing.
 * @throws Error when `adopt` holds no history (it was removed meanwhile)
 */
export function answerOffer(historiesDir: string, configPath: string, adopt: string | undefined): void {
  const own = historyDirFor(historiesDir, configPath);
  const { offer, ...record } = readHistoryRecord(own) ?? { version: 1 as const, configPath };
  if (adopt === undefined) return writeHistoryRecord(own, { ...record, configPath, declined: [...new Set([...(record.declined ?? []), ...(offer ?? [])])] });
  if (!holdsHistory(adopt)) throw new Error(`${adopt} holds no history`);
  writeHistoryRecord(own, { ...record, configPath, follows: adopt });
  writeHistoryRecord(adopt, { ...(readHistoryRecord(adopt) ?? {}), version: 1, configPath });
}
