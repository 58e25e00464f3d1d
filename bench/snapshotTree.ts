/**
 * The generated git workspaces of the snapshot bench (bench/snapshots.ts): `size` tracked files of 100–400 bytes in
 * folders of 100, committed, with the state a working repository has — a few uncommitted edits and untracked files,
 * and a `.gitignore`d folder of build output. Generated once per size and kept under the system's temporary folder
 * (`sidekicks-bench-snapshots-<size>`); generating 200,000 files takes a minute or two.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Tracked files left edited (uncommitted) in the generated workspace, and untracked files in it. */
export const DIRTY = 50;
export const UNTRACKED = 20;
/** Files under the ignored folder `out-ignored/`. */
export const IGNORED_FILES = 5_000;

/** The i-th tracked file's path, relative to the workspace. */
export const trackedFile = (i: number): string => path.join(`pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`, `file${i}.ts`);

/** The i-th tracked file's committed text. */
export const committedText = (i: number): string => `// file ${i}\nexport const value${i} = ${i};\n${"// padding\n".repeat(8 + (i % 30))}`;

/** The text the generated workspace holds, uncommitted, in dirty file `i` (< {@link DIRTY}). */
export const dirtyText = (i: number): string => `${committedText(i)}// an uncommitted edit\n`;

/** The index (into {@link trackedFile}) of the i-th dirty file: spread over the tree. */
export const dirtyIndex = (i: number, size: number): number => Math.floor((i * size) / DIRTY) + 7;

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 });

/** The workspace of `size` tracked files, generated if it is not there yet; its absolute path. */
export function snapshotTree(size: number): string {
  const dir = path.join(os.tmpdir(), `sidekicks-bench-snapshots-${size}`);
  const done = path.join(dir, ".git", "sidekicks-bench-ready");
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "bench@example.com");
  git(dir, "config", "user.name", "bench");
  git(dir, "config", "commit.gpgsign", "false");
  writeFileSync(path.join(dir, ".gitignore"), "out-ignored/\n");
  for (let i = 0; i < size; i++) {
    const file = path.join(dir, trackedFile(i));
    if (i % 100 === 0) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, committedText(i));
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "generated");
  for (let i = 0; i < DIRTY; i++) writeFileSync(path.join(dir, trackedFile(dirtyIndex(i, size))), dirtyText(dirtyIndex(i, size)));
  for (let i = 0; i < UNTRACKED; i++) writeFileSync(path.join(dir, `pkg0`, `untracked${i}.md`), `# note ${i}\n`);
  mkdirSync(path.join(dir, "out-ignored"));
  for (let i = 0; i < IGNORED_FILES; i++) writeFileSync(path.join(dir, "out-ignored", `chunk${i}.js`), `// built ${i}\n`);
  git(dir, "status", "-s"); // refreshes the index's stat data, as a working repository's is
  writeFileSync(done, `${Math.round(performance.now() - started)} ms\n`);
  return dir;
}

if (require.main === module) for (const size of process.argv.slice(2).map(Number)) console.log(snapshotTree(size));
