/**
 * Real git repositories for the turn snapshot tests (issue 19: `gitSnapshot.test.ts`, `gitSettledEnd.test.ts`): git's
 * output as it prints it, a repository with files committed, and a turn's changed files as comparable rows.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChangedFile } from "../../src/workspace/turnFiles";

/** git's standard output, untrimmed. @throws Error when git exits non-zero */
export const git = (dir: string, ...args: string[]): string => execFileSync("git", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }).toString();

/** A repository in `dir` (branch `main`) with `files` committed (relative path → text). */
export function repo(dir: string, files: Record<string, string | Buffer>): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "t@example.com");
  git(dir, "config", "user.name", "t");
  git(dir, "config", "commit.gpgsign", "false");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "start");
}

/** Each changed file as `[path relative to dir, with /, kind, text before, why unknown (when it is)]`. */
export const rows = (dir: string, files: ChangedFile[]) => files.map((f) => [path.relative(dir, f.path).split(path.sep).join("/"), f.kind, f.before, ...(f.beforeUnknown ? [f.beforeUnknown] : [])]);
