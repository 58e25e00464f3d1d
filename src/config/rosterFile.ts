import * as l10n from "@vscode/l10n";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { SidekicksError } from "../shared/errors";

/** Reads and writes whole text files; `src/vscode/` implements it with `vscode.workspace.fs`, tests with Node's fs. */
export interface TextFiles {
  /** The file's text (UTF-8). Rejects when the file does not exist. */
  read(file: string): Promise<string>;
  /** Replaces the file's content with `text` (UTF-8). */
  write(file: string, text: string): Promise<void>;
}

/** `TextFiles` over Node's `fs/promises`. */
export const nodeFiles: TextFiles = {
  read: (file) => readFile(file, "utf8"),
  write: (file, text) => writeFile(file, text, "utf8"),
};

/** The roster as read at one moment: what an edit starts from, and what a save checks the disk against. */
export interface RosterSnapshot {
  /** Absolute path. */
  file: string;
  text: string;
  /** sha256 of `text` (hex). */
  hash: string;
}

/** sha256 of a text's UTF-8 bytes, in hex. */
export function hashText(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Reads the roster for an edit.
 *
 * @throws SidekicksError `config/missing` when the file does not exist or cannot be read
 */
export async function readRosterSnapshot(file: string, files: TextFiles = nodeFiles): Promise<RosterSnapshot> {
  let text: string;
  try {
    text = await files.read(file);
  } catch (err) {
    throw new SidekicksError("config/missing", l10n.t('{0} does not exist yet: run "Sidekicks: Create config" first.', path.basename(file)), undefined, { cause: err });
  }
  return { file, text, hash: hashText(text) };
}

/**
 * Saves `text` over the roster read as `snapshot`, only if the file still holds exactly what was read (same
 * content hash): a file changed on disk since (by hand, by git, by another window) is never overwritten blindly.
 * The check and the write are two steps; a write landing between them is not detected.
 *
 * @returns the snapshot of the saved file, for the next edit
 * @throws SidekicksError `config/conflict` when the file changed or disappeared since `snapshot` was taken
 */
export async function saveRoster(snapshot: RosterSnapshot, text: string, files: TextFiles = nodeFiles): Promise<RosterSnapshot> {
  let current: string | undefined;
  try {
    current = await files.read(snapshot.file);
  } catch {
    current = undefined;
  }
  const name = path.basename(snapshot.file);
  if (current === undefined) {
    throw new SidekicksError("config/conflict", l10n.t("{0} was deleted since it was read; nothing was saved.", name));
  }
  if (hashText(current) !== snapshot.hash) {
    throw new SidekicksError("config/conflict", l10n.t("{0} changed on disk since it was read; nothing was saved. Open it, then make the change again.", name));
  }
  await files.write(snapshot.file, text);
  return { file: snapshot.file, text, hash: hashText(text) };
}
