/**
 * Whole-file writes that a crash cannot leave half done (issue 19, undo of a turn): the text goes to a temporary file
 * beside the target, is flushed, and is renamed over it — a rename within a folder is atomic on POSIX file systems and
 * on NTFS — so the target holds either its old text or the new one, never part of it.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";

/** The name of a temporary file of {@link writeWhole} (a crash may leave one): never listed as a turn's change. */
export const TEMP_FILE = /\.sidekicks-[0-9a-f]{12}\.tmp$/;

/**
 * Makes `file` (absolute) hold `text` (UTF-8), or removes it when `text` is null (a missing file is not an error).
 * Folders on the way are created. Throws the file system's error (the temporary file is removed first).
 */
export async function writeWhole(file: string, text: string | null): Promise<void> {
  if (text === null) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.sidekicks-${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}
