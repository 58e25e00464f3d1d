/**
 * Mocha entry of the worktree suite (`runCodeServer.mjs --suite worktrees`, issue 20): two agents in git worktrees of
 * their own, both reviewed, one applied, one left as a branch (worktrees.test.ts). A suite of its own, not part of the
 * main one: it makes the test workspace a git repository for its time, and takes 30 to 80 s on a loaded 2-core
 * machine, over the main suite's budget of about 30 s per test.
 */
import { runMocha } from "./runMocha";

export function run(): Promise<void> {
  return runMocha(async () => {
    await import("./worktrees.test.js");
  });
}
