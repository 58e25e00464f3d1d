/**
 * Opening a file an agent named, after confinement allowed its path (confinement.ts), so that what is opened is what
 * was checked (issue 17):
 * - only **regular files**: a FIFO, socket or device is refused before it is opened, and again after (`fstat`), and
 *   every open is non-blocking (`O_NONBLOCK`), so a FIFO can never hold one of libuv's four threads — which would
 *   stall LevelDB and every other file call of the extension host;
 * - never **through a symbolic link swapped in** after the check: the last component is opened with `O_NOFOLLOW`,
 *   a new file with `O_EXCL`, and where the file really is once open (`/proc/self/fd` on Linux; elsewhere its real
 *   path and inode compared) is checked against the workspace before a byte is read or written. A file created
 *   outside in that race is removed again (it is empty: nothing was written to it);
 * - reads **bounded**: {@link readLines} streams the file and returns at most `maxChars` characters, so one huge
 *   "line" (a sparse file) cannot fill memory.
 * No `vscode` import.
 */
import { constants, promises as fs, type Stats } from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { SidekicksError } from "../shared/errors";

/** Most characters one `fs/read_text_file` returns (16 Mi, about 32 MB of string): ask for a range past it. */
export const MAX_READ_CHARS = 16 * 1024 * 1024;

/** A file opened by {@link openRegular}. Close `handle` when done. */
export interface OpenedFile {
  handle: fs.FileHandle;
  stat: Stats;
  /** True when this open created the file (a write to a path that did not exist). */
  created: boolean;
}

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
const errCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** What a non-regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function notRegular(agentPath: string, what: string): SidekicksError {
  return new SidekicksError("workspace/notRegular", `Refused "${agentPath}": it is ${what}. Agents read and write only regular files.`);
}

function folder(agentPath: string, mode: "read" | "write"): SidekicksError {
  return new SidekicksError(mode === "read" ? "workspace/notFound" : "workspace/writeFailed", `"${agentPath}" is a folder, not a file.`);
}

function swapped(agentPath: string, where: string): SidekicksError {
  return new SidekicksError("workspace/outside", `Refused "${agentPath}": it changed while it was being opened and now leads to ${where}, outside the agent's workspace. Nothing was read or written.`, "refusal: symlink");
}

/**
 * Opens `realPath` (confined, symlinks resolved) for reading or writing, as the module comment says.
 * @param agentPath the path as the agent sent it, for messages
 * @param inside whether a real path lies inside the agent's workspace roots
 * @throws SidekicksError `workspace/notRegular` (FIFO, socket, device), `workspace/notFound` (missing, for a read;
 *   a folder), `workspace/writeFailed` (a folder, for a write), `workspace/outside` (swapped for a symbolic link);
 *   other file system errors (EACCES…) as they are
 */
export async function openRegular(realPath: string, agentPath: string, mode: "read" | "write", inside: (realPath: string) => boolean): Promise<OpenedFile> {
  const before = await fs.lstat(realPath).catch((err: unknown) => {
    if (errCode(err) === "ENOENT" || errCode(err) === "ENOTDIR") return undefined;
    throw err;
  });
  if (before?.isDirectory()) throw folder(agentPath, mode);
  if (before?.isSymbolicLink()) throw swapped(agentPath, "a symbolic link");
  if (before && !before.isFile()) throw notRegular(agentPath, kindOf(before));
  if (!before && mode === "read") throw new SidekicksError("workspace/notFound", `File not found: ${agentPath}`);
  const base = (mode === "read" ? O_RDONLY : O_WRONLY) | O_NOFOLLOW | O_NONBLOCK;
  let handle: fs.FileHandle;
  let created = false;
  try {
    if (!before) {
      try {
        handle = await fs.open(realPath, base | O_CREAT | O_EXCL, 0o666);
        created = true;
      } catch (err) {
        if (errCode(err) !== "EEXIST") throw err;
        handle = await fs.open(realPath, base); // created meanwhile by someone else: open what is there
      }
    } else handle = await fs.open(realPath, base);
  } catch (err) {
    const code = errCode(err);
    if (code === "ELOOP") throw swapped(agentPath, "a symbolic link");
    if (code === "ENXIO" || code === "EOPNOTSUPP") throw notRegular(agentPath, "a socket or a FIFO");
    if (code === "EISDIR") throw folder(agentPath, mode);
    if (code === "ENOENT" || code === "ENOTDIR") throw new SidekicksError("workspace/notFound", `File not found: ${agentPath}`, undefined, { cause: err });
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegular(agentPath, kindOf(stat));
    const where = await openedAt(handle, realPath, stat);
    if (where === undefined || !inside(where)) {
      if (created && where !== undefined) await fs.unlink(where).catch(() => undefined);
      throw swapped(agentPath, where ?? "another file");
    }
    return { handle, stat, created };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Creates the missing folders of `folder` (absolute, confined) one at a time, each checked where it really is once
 * made, so a folder swapped for a symbolic link meanwhile cannot make Sidekicks create folders outside (a folder made
 * outside in that race is removed again: it is empty).
 * @throws SidekicksError `workspace/outside` (swapped), `workspace/writeFailed` (a file where a folder should be, or
 *   a folder that vanished meanwhile)
 */
export async function makeFolders(folder: string, agentPath: string, inside: (realPath: string) => boolean): Promise<void> {
  const missing: string[] = [];
  for (let d = folder; ; d = path.dirname(d)) {
    const st = await fs.stat(d).catch(() => undefined);
    if (st?.isDirectory()) break;
    if (st) throw new SidekicksError("workspace/writeFailed", `Cannot write "${agentPath}": ${d} is a file, not a folder.`);
    if (path.dirname(d) === d) break;
    missing.unshift(d);
  }
  for (const d of missing) {
    let made = false;
    try {
      await fs.mkdir(d);
      made = true;
    } catch (err) {
      if (errCode(err) !== "EEXIST") throw new SidekicksError("workspace/writeFailed", `Cannot create the folder ${d} for "${agentPath}" (${errCode(err) ?? String(err)}): it changed while it was being written. Nothing was written.`, undefined, { cause: err });
    }
    const real = await fs.realpath(d).catch(() => undefined);
    if (real === undefined || !inside(real)) {
      if (made && real !== undefined) await fs.rmdir(real).catch(() => undefined);
      throw swapped(agentPath, real ?? "a folder that vanished");
    }
  }
}

/**
 * Where the open file really is: Linux's `/proc/self/fd` link; elsewhere the real path of `realPath` when it is the
 * same inode as what was opened. @returns undefined when that cannot be told (then nothing is done with the file)
 */
async function openedAt(handle: fs.FileHandle, realPath: string, stat: Stats): Promise<string | undefined> {
  if (process.platform === "linux") {
    const link = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (link !== undefined && link.startsWith("/")) return link.endsWith(" (deleted)") ? undefined : link;
  }
  const again = await fs.realpath(realPath).catch(() => undefined);
  if (again === undefined) return undefined;
  const st = await fs.stat(again).catch(() => undefined);
  return st && st.dev === stat.dev && st.ino === stat.ino ? again : undefined;
}

/**
 * Lines `line` … `line + limit - 1` (1-based, line ends kept) of the open file, decoded as UTF-8 and read in chunks:
 * the lines before `line` are skipped without being kept, so memory stays within what is returned.
 * Same results as `sliceLines` over the whole text.
 * @param maxChars most characters returned
 * @throws SidekicksError `workspace/tooLarge` when the lines asked for hold more than `maxChars` characters
 */
export async function readLines(handle: fs.FileHandle, size: number, agentPath: string, line: number | null | undefined, limit: number | null | undefined, maxChars = MAX_READ_CHARS): Promise<string> {
  const first = Math.max(1, Math.floor(line ?? 1));
  const most = limit === undefined || limit === null ? Infinity : Math.floor(limit);
  if (most <= 0) return "";
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(64 * 1024, size + 1)));
  const out: string[] = [];
  let chars = 0;
  let lineNo = 1;
  let taken = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    const chunk = bytesRead === 0 ? decoder.end() : decoder.write(buffer.subarray(0, bytesRead));
    let start = 0;
    while (start < chunk.length && taken < most) {
      const nl = chunk.indexOf("\n", start);
      const end = nl < 0 ? chunk.length : nl + 1;
      if (lineNo >= first) {
        chars += end - start;
        if (chars > maxChars) throw tooLarge(agentPath, first, limit, maxChars);
        out.push(chunk.slice(start, end));
        if (nl >= 0) taken += 1;
      }
      if (nl >= 0) lineNo += 1;
      start = end;
    }
    if (bytesRead === 0 || taken >= most) return out.join("");
  }
}

/** The refusal of a read over `maxChars`: what was asked and how to ask for less. */
export function tooLarge(agentPath: string, first: number, limit: number | null | undefined, maxChars: number): SidekicksError {
  const last = limit === undefined || limit === null ? undefined : first + Math.floor(limit) - 1;
  const asked = last === undefined ? (first > 1 ? `from line ${first} to the end` : "as a whole") : last === first ? `line ${first}` : `lines ${first}–${last}`;
  return new SidekicksError(
    "workspace/tooLarge",
    `Refused "${agentPath}" ${asked}: that is more than ${maxChars.toLocaleString("en-US")} characters, the most one fs/read_text_file returns. Ask for fewer lines with "line" and "limit".`,
  );
}
