/**
 * A three-way merge of texts (issue 19, "Conflicts are never overwritten silently … with a merge where one is
 * possible"), by git itself: `git merge-file -p` on three temporary files. Undoing a turn whose file changed since is
 * the merge of the turn's change reversed into the file now: base = what the turn left, ours = the file now, theirs =
 * the text from before the turn. Only a clean merge is offered; overlapping changes are left to the user.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runGit } from "./gitSnapshot";

/** Texts larger than this (bytes, any of the three) are not merged: the snapshot keeps no larger texts anyway. */
export const MERGE_MAX_BYTES = 512 * 1024;

/**
 * The clean three-way merge of `ours` and `theirs`, both changed from `base` (git's `merge-file` rules, its default
 * diff algorithm); undefined when their changes overlap, a text holds a NUL byte or is over {@link MERGE_MAX_BYTES},
 * or git cannot run. Never throws. Writes three files in a private temporary folder, removed afterwards.
 */
export async function mergeTexts(base: string, ours: string, theirs: string): Promise<string | undefined> {
  const merged = await mergeFile(base, ours, theirs);
  return merged && merged.conflicts === 0 ? merged.text : undefined;
}

/** What `git merge-file` made of three texts. */
export interface MergedText {
  /** The merged text; where the changes overlap, both sides between git's conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`). */
  text: string;
  /** How many overlapping changes it holds (0: a clean merge). */
  conflicts: number;
}

/**
 * The three-way merge of `ours` and `theirs`, both changed from `base`, by `git merge-file -p` (issue 20, "Per turn
 * too"), with the conflicts marked and counted; `labels` name the sides in the markers (ours, base, theirs). Undefined
 * when a text holds a NUL byte or is over {@link MERGE_MAX_BYTES}, or git cannot run. Never throws. Writes three files
 * in a private temporary folder, removed afterwards.
 */
export async function mergeFile(base: string, ours: string, theirs: string, labels?: readonly [string, string, string]): Promise<MergedText | undefined> {
  if ([base, ours, theirs].some((t) => t.includes("\0") || Buffer.byteLength(t) > MERGE_MAX_BYTES)) return undefined;
  if (ours === base) return { text: theirs, conflicts: 0 };
  if (theirs === base || theirs === ours) return { text: ours, conflicts: 0 };
  let dir: string | undefined;
  try {
    dir = await mkdtemp(path.join(os.tmpdir(), "sidekicks-merge-"));
    const [o, b, t] = ["ours", "base", "theirs"].map((name) => path.join(dir!, name));
    await Promise.all([writeFile(o!, ours), writeFile(b!, base), writeFile(t!, theirs)]);
    const chunks: Buffer[] = [];
    const named = labels ? labels.flatMap((l) => ["-L", l]) : [];
    // Exit code: 0 clean, the number of conflicts when positive (capped at 127), negative (or 255) on an error.
    const code = await runGit(dir, ["merge-file", "-p", "--quiet", ...named, o!, b!, t!], (chunk) => void chunks.push(chunk));
    if (code < 0 || code > 127) return undefined;
    return { text: Buffer.concat(chunks).toString("utf8"), conflicts: code };
  } catch {
    return undefined;
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
