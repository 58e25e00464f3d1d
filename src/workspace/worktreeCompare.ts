/**
 * Comparing two agents' attempts (issue 20, "Compare attempts"): the same request to two agents in worktrees of their
 * own, their changes side by side. Each side's changes come from `branchChanges` (its branch against its base from
 * their merge-base, committed and uncommitted); the comparison is every file either side changed, as it is now in one
 * worktree and in the other, kept when the two differ. Reads only.
 */
import { promises as fsp } from "node:fs";
import path from "node:path";
import type { BranchChanges } from "./worktreeApply";

/** One attempt: an agent's worktree (its top folder) and its changes. */
export interface Attempt {
  worktree: string;
  changes: BranchChanges;
}

/** One file the two attempts leave different. */
export interface AttemptDifference {
  /** Path relative to the worktrees' top folder. */
  relative: string;
  /** The file in the first worktree (absolute), or null when it is not there (never made, or deleted). */
  left: string | null;
  /** The file in the second worktree (absolute), or null when it is not there. */
  right: string | null;
}

/** The file's bytes, or null when it is missing (or a folder). */
async function bytes(file: string): Promise<Buffer | null> {
  return fsp.readFile(file).catch(() => null);
}

/**
 * The files either attempt changed whose contents differ between the two worktrees now (an identical change on both
 * sides is left out), sorted by path.
 * @param a the first attempt (the left side)
 * @param b the second attempt (the right side)
 */
export async function compareAttempts(a: Attempt, b: Attempt): Promise<AttemptDifference[]> {
  const touched = new Set<string>();
  for (const change of [...a.changes.files, ...b.changes.files]) {
    touched.add(change.relative);
    if (change.oldRelative !== undefined) touched.add(change.oldRelative);
  }
  const out: AttemptDifference[] = [];
  for (const relative of [...touched].sort()) {
    const [left, right] = [path.join(a.worktree, relative), path.join(b.worktree, relative)];
    const [l, r] = await Promise.all([bytes(left), bytes(right)]);
    if (l === null && r === null) continue;
    if (l !== null && r !== null && l.equals(r)) continue;
    out.push({ relative, left: l === null ? null : left, right: r === null ? null : right });
  }
  return out;
}
