import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, readdirSync } from "node:fs";
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
export type DamageReason = "missingCurrent" | "missingManifest" | "corruptLog" | "corruptTable" | "openFailed" | "readFailed";

/** Names of the files LevelDB keeps history in (tables, logs, manifests). */
const DATA_FILE = /^(\d+\.(ldb|sst|log)|MANIFEST-\d+)$/;

/**
 * Reads a store folder without opening it: `empty` when it holds no LevelDB data file (absent, new, or only
 * `LOCK`/`LOG`), `damaged` when `CURRENT` or the manifest it names is missing, a log has a corrupt record before
 * its end, or a table lacks its footer; else `healthy`. Cost: one read of the logs (at most a few MB, the memtable's
 * size) and 8 bytes per table. An incomplete last record of a log is a write that never completed (a crash, a full
 * disk): LevelDB ignores it and so does this check.
 */
export function inspectStore(dir: string): StoreInspection {
  if (!existsSync(dir)) return { state: "empty" };
  const files = readdirSync(dir);
  if (!files.some((f) => DATA_FILE.test(f))) return { state: "empty" };
  if (!files.includes("CURRENT")) return { state: "damaged", reason: "missingCurrent", detail: "the CURRENT file is missing" };
  const current = readFileSync(path.join(dir, "CURRENT"), "latin1");
  const manifest = /^(MANIFEST-\d+)\n$/.exec(current)?.[1];
  if (!manifest) return { state: "damaged", reason: "missingManifest", detail: "CURRENT does not name a manifest" };
  if (!files.includes(manifest)) return { state: "damaged", reason: "missingManifest", detail: `${manifest} is missing` };
  for (const file of files.filter((f) => f.endsWith(".log")).sort()) {
    const problem = checkLog(readFileSync(path.join(dir, file)));
    if (problem) return { state: "damaged", reason: "corruptLog", detail: `${file}: ${problem}` };
  }
  for (const file of files.filter((f) => /^\d+\.(ldb|sst)$/.test(f))) {
    if (!hasTableFooter(path.join(dir, file))) return { state: "damaged", reason: "corruptTable", detail: `${file}: no table footer` };
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

/** Whether a table file ends with LevelDB's table magic number (0xdb4775248b80fb57, little-endian). */
function hasTableFooter(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size < 48) return false;
    const magic = Buffer.alloc(8);
    readSync(fd, magic, 0, 8, size - 8);
    return magic.readUInt32LE(0) === 0x8b80fb57 && magic.readUInt32LE(4) === 0xdb477524;
  } finally {
    closeSync(fd);
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
