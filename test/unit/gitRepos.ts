/** Real git repositories in temporary folders for the worktree tests (issue 20): no mock of git. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Runs git in `cwd` with a fixed identity; its trimmed output. */
export const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } }).trim();

/** A repository `repo` in `dir` with one commit on `main` (a `README.md`). */
export function makeRepo(dir: string, commit = true): string {
  const repo = path.join(dir, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(path.join(repo, "README.md"), "hello\n");
  if (commit) {
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "first");
  }
  return repo;
}

