/**
 * One turn of an agent working in its own git worktree, applied to the user's folder (issue 20, "Bring it back … Per
 * turn too"). The turn's checkpoint (issue 19) holds each file's text before and after the turn; each file is merged
 * into the user's file at the same place in the main worktree by `git merge-file` (ours: the user's file now, base: the
 * text before the turn, theirs: the text after it). A clean merge is written (whole: temp file and rename); a conflict
 * is never written: it is returned with its three texts and git's marked merge, for the user to open in the merge
 * editor or skip. A file the editor holds unsaved edits of is left alone, and so is a file whose texts were not kept.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeWhole } from "./atomicWrite";
import { realPathOrSame } from "./confinement";
import { mergeFile } from "./threeWayMerge";
import type { ChangedFile } from "./turnFiles";

/** Why a file of the turn overlaps what the user's folder holds. */
export type TurnConflictKind =
  | "content" // both changed the same lines (git's marked merge in `marked`)
  | "bothCreated" // the turn created the file; the user's folder has one with other text
  | "deletedByYou" // the turn changed the file; the user's folder has none
  | "deletedByAgent" // the turn deleted the file; the user's folder holds other text than it had before the turn
  | "notMergeable"; // a text holds a NUL byte or is too large for `git merge-file`

/** A file of the turn that cannot be applied without the user's decision. Never written. */
export interface TurnConflict {
  /** The file in the user's folder (absolute). */
  path: string;
  /** Relative to the worktree's and the main worktree's top folders. */
  relative: string;
  kind: TurnConflictKind;
  /** The text before the turn (`null`: the turn created the file). */
  base: string | null;
  /** The user's file now (`null`: there is none). */
  ours: string | null;
  /** The text after the turn (`null`: the turn deleted the file). */
  theirs: string | null;
  /** For `content` (and `bothCreated`, from an empty base): git's merge with the overlapping changes between conflict markers. */
  marked?: string;
}

/** Why a file of the turn was left out without being a conflict. */
export type TurnSkipReason =
  | "unsaved" // the editor holds unsaved edits of the user's file
  | "unknown" // the checkpoint does not hold its text before or after the turn
  | "outside" // the file is not in the agent's worktree
  | "failed"; // the write failed (the file system's words in `error`)

/** What applying one turn did. */
export interface TurnApplyResult {
  /** Files of the user's folder written, created or removed (absolute). */
  applied: string[];
  /** Files that already held what the turn left (nothing to do). */
  same: string[];
  /** Files left for the user to decide; nothing was written to them. */
  conflicts: TurnConflict[];
  /** Files left as they are, and why. */
  skipped: { path: string; reason: TurnSkipReason; error?: string }[];
}

/** Where one turn goes: from the agent's worktree into the user's. */
export interface TurnApplyRequest {
  /** The turn's checkpoint: its changed files with their texts before and after (paths in the agent's worktree). */
  files: readonly ChangedFile[];
  /** The agent's worktree's top folder (absolute). */
  worktree: string;
  /** The main worktree's top folder: the user's folder (absolute). */
  into: string;
  /** Whether the editor holds unsaved edits of a file (absolute); absent: none does. */
  isUnsaved?(file: string): boolean;
  /** Names of the sides in git's conflict markers: the user's, before the turn, the agent's. */
  labels?: readonly [string, string, string];
}


/** The file's text now, `null` when there is none. */
async function readNow(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
    throw err;
  }
}

/**
 * What to do with one file: the text to write (`null`: remove the file), nothing (`same`), or a conflict.
 * `before`/`after` are the checkpoint's texts (`null`: no file), `ours` the user's file now.
 */
async function decide(before: string | null, after: string | null, ours: string | null, labels?: readonly [string, string, string]): Promise<{ write: string | null } | { same: true } | { conflict: TurnConflictKind; marked?: string }> {
  if (ours === after) return { same: true };
  if (ours === before) return { write: after };
  if (before === null) {
    // Both made the file: git's merge from an empty base marks where they differ (for the merge editor).
    const both = await mergeFile("", ours ?? "", after ?? "", labels);
    return { conflict: "bothCreated", ...(both && both.conflicts > 0 ? { marked: both.text } : {}) };
  }
  if (ours === null) return { conflict: "deletedByYou" };
  if (after === null) return { conflict: "deletedByAgent" };
  const merged = await mergeFile(before, ours, after, labels);
  if (!merged) return { conflict: "notMergeable" };
  if (merged.conflicts > 0) return { conflict: "content", marked: merged.text };
  // The user's file holds the turn's change already (applied before, next to edits of the user's own).
  return merged.text === ours ? { same: true } : { write: merged.text };
}

/**
 * Applies the turn's files to the user's folder: each clean merge written, every other file returned as a conflict
 * or a skip with its reason. Files are taken one at a time (a turn's list is short); a failed write is a skip, the
 * others go on.
 * @throws the file system's error when a user's file cannot be read (other than missing)
 */
export async function applyTurn(req: TurnApplyRequest): Promise<TurnApplyResult> {
  const out: TurnApplyResult = { applied: [], same: [], conflicts: [], skipped: [] };
  // The checkpoint's paths and git's may name the worktree through a symbolic link or not (macOS's /tmp): either is it.
  const tops = [...new Set([req.worktree, realPathOrSame(req.worktree)])];
  const inside = (rel: string) => rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  for (const file of req.files) {
    const relative = tops.map((top) => path.relative(top, file.path)).find(inside) ?? "";
    if (!inside(relative)) {
      out.skipped.push({ path: file.path, reason: "outside" });
      continue;
    }
    const target = path.join(req.into, relative);
    if (file.before === undefined || file.after === undefined) {
      out.skipped.push({ path: target, reason: "unknown" });
      continue;
    }
    if (req.isUnsaved?.(target)) {
      out.skipped.push({ path: target, reason: "unsaved" });
      continue;
    }
    const ours = await readNow(target);
    const plan = await decide(file.before, file.after, ours, req.labels);
    if ("same" in plan) {
      out.same.push(target);
    } else if ("conflict" in plan) {
      out.conflicts.push({ path: target, relative, kind: plan.conflict, base: file.before, ours, theirs: file.after, ...(plan.marked !== undefined ? { marked: plan.marked } : {}) });
    } else {
      try {
        await writeWhole(target, plan.write);
        out.applied.push(target);
      } catch (err) {
        out.skipped.push({ path: target, reason: "failed", error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return out;
}

/**
 * Writes the agent's side of a conflict the user chose to take on purpose (a file the turn deleted removed, a file
 * the user deleted recreated with the agent's text), only when the user's file still holds what it held when the
 * conflict was found.
 * @returns false when it changed since (nothing written)
 * @throws the file system's error when the write fails
 */
export async function takeAgentSide(conflict: TurnConflict): Promise<boolean> {
  if ((await readNow(conflict.path)) !== conflict.ours) return false;
  await writeWhole(conflict.path, conflict.theirs);
  return true;
}
