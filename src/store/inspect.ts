import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * What {@link inspectStore} found in a store folder, before LevelDB touches it. `damaged` means that opening it
 * normally would lose history without a word: LevelDB creates a new store over a folder without `CURRENT` (and then
 * deletes the old tables as obsolete), and replays a log past a corrupt record by dropping it, then deletes the log.
 */
export type StoreInspection =
  | { state: "empty" }
  | { state: "healthy" }
  | { state: "damaged"; reason: DamageReason; detail: string };

/** Why a folder counts as damaged (see {@link StoreInspection}). */
export type DamageReason = "missingCurrent" | "missingManifest" | "corruptLog" | "openFailed" | "readFailed";

/** Names of the files LevelDB keeps history in (tables, logs, manifests). */
const DATA_FILE = /^(\d+\.(ldb|sst|log)|MANIFEST-\d+)$/;

/**
 * Reads a store folder without opening it: `empty` when it holds no LevelDB data file and no `CURRENT` (absent,
 * new, or only `LOCK`/`LOG`), `damaged` when `CURRENT` or the manifest it names is missing or a log has a corrupt record before
 * its end; else `healthy`. Cost: one read of the logs (at most a few MB, the memtable's size). Tables are not read:
 * one half written by a compaction a crash cut short is normal (LevelDB drops it), a missing one makes LevelDB's
 * open fail, and a damaged block is found by the read that meets it. An incomplete last record of a log is a write that never completed (a crash, a full
 * disk): LevelDB ignores it and so does this check.
 */
export function inspectStore(dir: string): StoreInspection {
  if (!existsSync(dir)) return { state: "empty" };
  const files = readdirSync(dir);
  if (!files.some((f) => DATA_FILE.test(f)) && !files.includes("CURRENT")) return { state: "empty" };
  if (!files.includes("CURRENT")) return { state: "damaged", reason: "missingCurrent", detail: "the CURRENT file is missing" };
  const current = readFileSync(path.join(dir, "CURRENT"), "latin1");
  const manifest = /^(MANIFEST-\d+)\n$/.exec(current)?.[1];
  if (!manifest) return { state: "damaged", reason: "missingManifest", detail: "CURRENT does not name a manifest" };
  if (!files.includes(manifest)) return { state: "damaged", reason: "missingManifest", detail: `${manifest} is missing` };
  for (const file of files.filter((f) => f.endsWith(".log")).sort()) {
    const problem = checkLog(readFileSync(path.join(dir, file)));
    if (problem) return { state: "damaged", reason: "corruptLog", detail: `${file}: ${problem}` };
  }
  return { state: "healthy" };
}

const BLOCK = 32_768;
const HEADER = 7;
/** Record types of LevelDB's log format (doc/log_format.md). */
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/**
 * The first corrupt record of a LevelDB log (`undefined` when none), as LevelDB's `log::Reader` with checksums
 * would report it: a bad checksum, a bad type, a length past its block, fragments out of order, a write batch
 * shorter than its 12-byte header. A record cut short by the end of the file is not corruption (an incomplete write).
 */
export function checkLog(data: Buffer): string | undefined {
  let inFragment = false;
  let fragmentSize = 0;
  for (let block = 0; block < data.length; block += BLOCK) {
    const end = Math.min(block + BLOCK, data.length);
    let at = block;
    while (end - at >= HEADER) {
      const length = data.readUInt16LE(at + 4);
      const type = data[at + 6]!;
      if (type === 0 && length === 0) break; // zero padding: the rest of the block is skipped
      if (at + HEADER + length > end) {
        if (end === data.length) return undefined; // cut short at the end of the file: an incomplete write
        return `bad record length at offset ${at}`;
      }
      const expected = unmask(data.readUInt32LE(at));
      if (crc32c(data, at + 6, at + HEADER + length) !== expected) return `checksum mismatch at offset ${at}`;
      if (type === FULL || type === FIRST) {
        if (inFragment) return `partial record without end before offset ${at}`;
        if (type === FULL && length < 12) return `log record too small at offset ${at}`;
        inFragment = type === FIRST;
        fragmentSize = length;
      } else if (type === MIDDLE || type === LAST) {
        if (!inFragment) return `missing start of fragmented record at offset ${at}`;
        fragmentSize += length;
        if (type === LAST) {
          inFragment = false;
          if (fragmentSize < 12) return `log record too small at offset ${at}`;
        }
      } else {
        return `unknown record type ${type} at offset ${at}`;
      }
      at += HEADER + length;
    }
  }
  return undefined;
}

/**
 * Whether a process holds LevelDB's lock on `dir` (a POSIX lock on its `LOCK` file), as far as this platform tells:
 * on Linux from `/proc/locks` (matched by inode, so a rare false "held" only makes the caller wait); elsewhere
 * `false`. A damaged-looking folder that another window holds is never moved from under it.
 */
export function lockHeld(dir: string): boolean {
  try {
    const inode = statSync(path.join(dir, "LOCK")).ino;
    const locks = readFileSync("/proc/locks", "latin1");
    return locks.split("\n").some((line) => /\bPOSIX\b/.test(line) && line.split(/\s+/).some((field) => field.endsWith(`:${inode}`)));
  } catch {
    return false;
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli) of `data[start, end)`, as LevelDB's `crc32c::Value`. */
export function crc32c(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** LevelDB's `crc32c::Unmask`: stored checksums are rotated and offset so a CRC of CRCs is not trivial. */
function unmask(masked: number): number {
  const rot = (masked - 0xa282ead8) >>> 0;
  return ((rot >>> 17) | (rot << 15)) >>> 0;
}
