/**
 * Whether a git index holds entries whose changes `git status` does not report (issue 19, "Snapshots that scale"): a
 * turn's end may take a clean file's earlier text from HEAD only where git would have said the file was dirty, so an
 * index with such entries sends the turn's end back to a full `git status`. Read from the index file itself (format:
 * git's `Documentation/gitformat-index.txt`, versions 2 to 4), without a process, once per version of the file.
 */
import { readFileSync, statSync } from "node:fs";

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

/** Walks the entries and extensions of an index held in `buf`; true on a hiding flag, a split index or anything unexpected. */
function scan(buf: Buffer, oidBytes: number): boolean {
  if (buf.length < 12 + oidBytes || buf.toString("latin1", 0, 4) !== "DIRC") return true;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return true;
  const count = buf.readUInt32BE(8);
  const end = buf.length - oidBytes;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const start = at;
    at += STAT_BYTES + oidBytes;
    if (at + 2 > end) return true;
    const flags = buf.readUInt16BE(at);
    at += 2;
    if (flags & ASSUME_VALID) return true;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > end) return true;
      if (buf.readUInt16BE(at) & SKIP_WORKTREE) return true;
      at += 2;
    }
    if (version === 4) {
      // The path: a varint (bytes dropped from the previous path), then the rest, NUL-terminated; no padding.
      while (at < end && buf[at]! & 0x80) at++;
      at++;
      const nul = buf.indexOf(0, at);
      if (nul < 0 || nul >= end) return true;
      at = nul + 1;
    } else {
      const length = flags & NAME_MASK;
      const nul = length < NAME_MASK ? at + length : buf.indexOf(0, at);
      if (nul < 0 || nul >= end || buf[nul] !== 0) return true;
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      at = start + ((nul - start + 8) & ~7);
    }
  }
  while (at + 8 <= end) {
    const signature = buf.toString("latin1", at, at + 4);
    if (signature === "link") return true; // a split index: the shared index holds the entries
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return at !== end;
}
