/**
 * Whether a git index holds entries whose changes `git status` does not report (issue 19, "Snapshots that scale"): a
 * turn's end may take a clean file's earlier text from HEAD only where git would have said the file was dirty, so an
 * index with such entries sends the turn's end back to a full `git status`. Read from the index file itself (format:
 * git's `Documentation/gitformat-index.txt`, versions 2 to 4), without a process, once per version of the file.
 */
import { readFileSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/** `assume-unchanged` (`git update-index --assume-unchanged`): the first flags word's high bit. */
const ASSUME_VALID = 0x8000;
/** The entry has a second flags word (version 3 and later). */
const EXTENDED = 0x4000;
/** `skip-worktree` (sparse checkout, `git update-index --skip-worktree`): in the second flags word. */
const SKIP_WORKTREE = 0x4000;
/** The fixed part of an entry before the object id: ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each). */
const STAT_BYTES = 40;
/** The low 12 bits of the first flags word: the path's length in bytes, or this when it is as long or longer. */
const NAME_MASK = 0xfff;

const cache = new Map<string, { key: string; hides: boolean }>();

/**
 * Whether the index at `file` (absolute; `oidBytes` 20 for SHA-1 repositories, 32 for SHA-256) holds an entry marked
 * assume-unchanged or skip-worktree, or cannot be vouched for: unreadable, an unknown version, a split index (its
 * entries live in another file). True means "do not trust a clean status for files git was not asked about". A
 * missing index (a repository with nothing added) holds nothing: false. Cached by the file's size, time and inode.
 */
export function indexHidesChanges(file: string, oidBytes: number): boolean {
  let key: string;
  try {
    const s = statSync(file);
    key = `${s.size}:${s.mtimeMs}:${s.ino}:${oidBytes}`;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ENOENT";
  }
  const known = cache.get(file);
  if (known?.key === key) return known.hides;
  let hides: boolean;
  try {
    hides = scan(readFileSync(file), oidBytes);
  } catch {
    hides = true;
  }
  cache.set(file, { key, hides });
  return hides;
}

/** One entry of an index: where it starts and ends in the file, its flags words (the second 0 when absent). */
interface Entry {
  start: number;
  end: number;
  flags: number;
  extended: number;
}

/**
 * Walks the entries of an index held in `buf`, calling `visit` with each, then its extensions; false when the file
 * is not an index this reader vouches for (a version other than 2 to 4, a split index, anything cut short).
 */
function walkIndex(buf: Buffer, oidBytes: number, visit: (entry: Entry) => boolean | void): boolean {
  if (buf.length < 12 + oidBytes || buf.toString("latin1", 0, 4) !== "DIRC") return false;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return false;
  const count = buf.readUInt32BE(8);
  const end = buf.length - oidBytes;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const start = at;
    at += STAT_BYTES + oidBytes;
    if (at + 2 > end) return false;
    const flags = buf.readUInt16BE(at);
    at += 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > end) return false;
      extended = buf.readUInt16BE(at);
      at += 2;
    }
    if (version === 4) {
      // The path: a varint (bytes dropped from the previous path), then the rest, NUL-terminated; no padding.
      while (at < end && buf[at]! & 0x80) at++;
      at++;
      const nul = buf.indexOf(0, at);
      if (nul < 0 || nul >= end) return false;
      at = nul + 1;
    } else {
      const length = flags & NAME_MASK;
      const nul = length < NAME_MASK ? at + length : buf.indexOf(0, at);
      if (nul < 0 || nul >= end || buf[nul] !== 0) return false;
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      at = start + ((nul - start + 8) & ~7);
    }
    if (visit({ start, end: at, flags, extended }) === false) return false;
  }
  while (at + 8 <= end) {
    if (buf.toString("latin1", at, at + 4) === "link") return false; // a split index: the shared index holds the entries
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return at === end;
}

/** Whether the index in `buf` has a hiding flag, a split index or anything unexpected. */
function scan(buf: Buffer, oidBytes: number): boolean {
  let hides = false;
  const ok = walkIndex(buf, oidBytes, (e) => {
    if (e.flags & ASSUME_VALID || e.extended & SKIP_WORKTREE) return void (hides = true);
  });
  return hides || !ok;
}

/** Where an entry's mode lies within its stat data (the one field of it that is content, not a cache of `lstat`). */
const MODE_AT = 24;
/** How much of both files {@link sameIndexEntries} holds at once, in bytes (an entry is at most about 4 KiB). */
const WINDOW = 1 << 20;
const MAX_ENTRY = 8 * 1024;

/**
 * Whether two index files (`a`, `b`, SHA-1 or `oidBytes`) hold the same entries — paths, modes, object ids, stages
 * and flags — whatever their cached file stat data and extensions (cache tree, untracked cache): a `git status`
 * against either says the same. False when either cannot be read or is not one this reader vouches for. Same entries
 * lie at the same offsets in both, so both are read in step, a window at a time (no copy of either held whole). When
 * they match and `a` holds an assume-unchanged or skip-worktree entry, {@link indexHidesChanges} of `a` says so
 * without reading it again.
 */
export async function sameIndexEntries(a: string, b: string, oidBytes: number): Promise<boolean> {
  let fa: FileHandle | undefined, fb: FileHandle | undefined;
  let hides = false;
  let key: string | undefined;
  try {
    const stats = statSync(a);
    key = `${stats.size}:${stats.mtimeMs}:${stats.ino}:${oidBytes}`;
    fa = await open(a, "r");
    fb = await open(b, "r");
    const left = Buffer.from(new ArrayBuffer(WINDOW));
    const right = Buffer.from(new ArrayBuffer(WINDOW));
    let base = 0;
    let filled = 0;
    let ended = false;
    // Moves the window to start at `at` and fills it from both files (as far as the shorter goes).
    const ensure = async (at: number): Promise<boolean> => {
      const keep = base + filled - at;
      left.copy(left, 0, at - base, filled);
      right.copy(right, 0, at - base, filled);
      base = at;
      // The files' ends differ (their extensions do): what both hold.
      const [l, r] = await Promise.all([fa!.read(left, keep, WINDOW - keep, base + keep), fb!.read(right, keep, WINDOW - keep, base + keep)]);
      filled = keep + Math.min(l.bytesRead, r.bytesRead);
      ended = filled < WINDOW;
      return true;
    };
    if (!(await ensure(0)) || filled < 12 || left.compare(right, 0, 12, 0, 12) !== 0 || left.toString("latin1", 0, 4) !== "DIRC") return false;
    const version = left.readUInt32BE(4);
    if (version < 2 || version > 4) return false;
    const count = left.readUInt32BE(8);
    const leftWords = new Uint32Array(left.buffer, left.byteOffset, WINDOW >> 2);
    const rightWords = new Uint32Array(right.buffer, right.byteOffset, WINDOW >> 2);
    let at = 12;
    for (let i = 0; i < count; i++) {
      // A read (and a turn of the event loop) only when the entry crosses the window: the host's thread is not held.
      if (!ended && at + MAX_ENTRY > base + filled) await ensure(at);
      const s = at - base;
      let p = s + STAT_BYTES + oidBytes;
      if (p + 2 > filled) return false;
      const flags = left.readUInt16BE(p);
      p += 2;
      if (flags & ASSUME_VALID) hides = true;
      if (flags & EXTENDED) {
        if (version < 3 || p + 2 > filled) return false;
        if (left.readUInt16BE(p) & SKIP_WORKTREE) hides = true;
        p += 2;
      }
      if (version === 4) {
        while (p < filled && left[p]! & 0x80) p++;
        p++;
      }
      const nul = version === 4 || (flags & NAME_MASK) === NAME_MASK ? left.indexOf(0, p) : p + (flags & NAME_MASK);
      if (nul < 0 || nul >= filled) return false;
      const e = version === 4 ? nul + 1 : s + ((nul - s + 8) & ~7);
      if (e > filled) return false;
      const words = version !== 4 && (s & 3) === 0;
      if (words) {
        // Versions 2 and 3: entries start 4 bytes past a multiple of 8 and end on one — compared a word at a time.
        if (leftWords[(s + MODE_AT) >> 2] !== rightWords[(s + MODE_AT) >> 2]) return false;
        for (let k = (s + STAT_BYTES) >> 2, n = e >> 2; k < n; k++) if (leftWords[k] !== rightWords[k]) return false;
      } else {
        for (let k = s + MODE_AT; k < s + MODE_AT + 4; k++) if (left[k] !== right[k]) return false;
        // Byte by byte: a native compare per entry costs more than its bytes (about 50).
        for (let k = s + STAT_BYTES; k < e; k++) if (left[k] !== right[k]) return false;
      }
      at = base + e;
    }
    // Walked whole: what it found of `a`'s flags is known for `indexHidesChanges` too (a split index has other counts).
    cache.set(a, { key, hides });
    return true;
  } catch {
    return false;
  } finally {
    await fa?.close();
    await fb?.close();
  }
}
