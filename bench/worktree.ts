/**
 * `npm run bench -- --worktree` (issue 20, "A git worktree per agent"), on the generated git workspaces of
 * bench/snapshotTree.ts (kept under the temp folder; BENCH_WORKTREE_SIZES, default "1000"; add 200000 where the
 * 200,000-file tree is generated or a few minutes may go to generating it).
 *
 * worktree.createRatio — Sidekicks' set-up of an agent's worktree (`ensureWorktree`: the git version check, the
 * repository, the listing of worktrees, the branch and base checks, `git worktree add -b`), wall time, over a plain
 * `git worktree add -b <branch> <path> main` on the same repository in the same run. Rounds alternate (plain first,
 * then Sidekicks, each on a fresh branch and folder, both removed after); medians of BENCH_WORKTREE_ROUNDS (default 7)
 * after one warm-up of each. Target ≤ 1.2.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureWorktree } from "../src/workspace/worktrees";
import { snapshotTree } from "./snapshotTree";
import { median } from "./stats";

const ROUNDS = Number(process.env.BENCH_WORKTREE_ROUNDS ?? 7);
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: ["ignore", "ignore", "inherit"] });

/** One size's figures: the ratio and both medians (ms). */
async function measure(size: number): Promise<Record<string, number>> {
  const repo = snapshotTree(size);
  const root = mkdtempSync(path.join(os.tmpdir(), "sidekicks-bench-worktrees-"));
  const plain: number[] = [];
  const ours: number[] = [];
  try {
    for (let round = -1; round < ROUNDS; round++) {
      const tag = `r${round + 1}`;
      const plainPath = path.join(root, `plain-${tag}`);
      let t = performance.now();
      git(repo, "worktree", "add", "-q", "-b", `bench/plain-${tag}`, plainPath, "main");
      const plainMs = performance.now() - t;
      t = performance.now();
      const made = await ensureWorktree({ agent: `agent-${tag}`, config: { base: "main", branch: `bench/agent-${tag}`, root }, workspaceFolder: repo });
      const oursMs = performance.now() - t;
      if (!made.created) throw new Error("the bench's worktree was not made");
      if (round >= 0) {
        plain.push(plainMs);
        ours.push(oursMs);
      }
      for (const [where, branch] of [[plainPath, `bench/plain-${tag}`], [made.path, `bench/agent-${tag}`]] as const) {
        git(repo, "worktree", "remove", "--force", where);
        git(repo, "branch", "-q", "-D", branch);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    git(repo, "worktree", "prune");
  }
  const p = median(plain);
  const o = median(ours);
  return { [`worktree.createRatio.${size}`]: Math.round((o / p) * 100) / 100, [`worktree.createMs.${size}`]: Math.round(o), [`worktree.plainAddMs.${size}`]: Math.round(p) };
}

/** The worktree figures at each size of BENCH_WORKTREE_SIZES; `worktree.createRatio` is the largest size's. */
export async function worktreeFigures(): Promise<Record<string, number>> {
  const sizes = (process.env.BENCH_WORKTREE_SIZES ?? "1000").split(",").map(Number).filter((n) => n > 0);
  const figures: Record<string, number> = {};
  for (const size of sizes) Object.assign(figures, await measure(size));
  figures["worktree.createRatio"] = figures[`worktree.createRatio.${sizes.at(-1)}`]!;
  return figures;
}
