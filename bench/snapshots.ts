/**
 * `npm run bench -- --snapshots` (issue 19, "Snapshots that scale"), on generated git workspaces (bench/snapshotTree.ts;
 * generated once and kept: a minute or two for 200,000 files, so not part of the plain `npm run bench`). One simulated
 * turn per round: `TurnFiles.begin`, then the agent edits 100 clean files and 10 already-dirty ones, creates 5 and
 * deletes 5, the watcher's events arrive, `TurnFiles.end`.
 *
 * turn.snapshotCpuVsGitStatus — at 200,000 files: the turn's CPU (this process's, all threads, from `begin` until the
 * snapshot is complete and for the events and `end`, the agent's own writes left out) plus the CPU of the git
 * processes it ran, over the CPU of a plain `git status` on the same tree in the same run. Target ≤ 1.0.
 * turn.promptDelayMs — at 200,000 files: how long `begin` keeps the prompt waiting. Target ≤ 20.
 * turn.diffsKept — at 50,000 and 200,000 files: the share of the turn's 120 changed files listed with their earlier
 * text known (a changed file not listed counts as not kept).
 * Target 1.0. Medians of BENCH_SNAPSHOT_ROUNDS (default 3) rounds; `--before` measures the same on the snapshot code of
 * the branch's merge base with main (the walk of the whole tree), for the "before" figures.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DIRTY, committedText, dirtyIndex, dirtyText, snapshotTree, trackedFile } from "./snapshotTree";
import { median } from "./stats";

const ROUNDS = Number(process.env.BENCH_SNAPSHOT_ROUNDS ?? 3);
const UNSETTLED = process.env.BENCH_SNAPSHOT_UNSETTLED === "1";

interface Files {
  begin(turnId: string, folder: string): Promise<void>;
  changed(events: { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void>;
  end(turnId: string): Promise<{ path: string; before?: string | null }[]>;
  snapshotted?(turnId: string): Promise<void>;
}
type FilesClass = new (ignored?: readonly string[], settle?: (folder: string) => Promise<boolean>) => Files;

/** Clock ticks per second of the CPU times in `/proc` (`getconf CLK_TCK`). */
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** CPU ms of this process's children that have exited and been waited for (Linux `/proc/self/stat` cutime + cstime). */
function childCpu(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK; // fields 16 and 17 of the whole line
}

const selfCpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** CPU ms of one plain `git status` of `dir`. */
function gitStatusCpu(dir: string): number {
  const before = childCpu();
  spawnSync("git", ["status"], { cwd: dir, stdio: "ignore" });
  return childCpu() - before;
}

/** One simulated turn in `dir` (`size` tracked files); its CPU, prompt delay and earlier texts known. */
async function oneTurn(Files: FilesClass, dir: string, size: number, round: number): Promise<{ cpuMs: number; promptDelayMs: number; kept: number; changed: number }> {
  // The watcher's events are handed over before `end` here, so the editor's proof that they have all arrived holds at
  // once (in the editor, a sentinel file's event: a write and an event, not measured). `BENCH_SNAPSHOT_UNSETTLED=1`
  // measures the end without that proof (a second `git status` of the whole tree).
  const files = new Files([], async () => !UNSETTLED);
  const turnId = `bench-${round}`;
  const clean = Array.from({ length: 110 }, (_, i) => Math.floor(((i + 0.5) * size) / 110) + 3).filter((i) => !Array.from({ length: DIRTY }, (_, d) => dirtyIndex(d, size)).includes(i));
  const edited = clean.slice(0, 100);
  const removed = clean.slice(100, 105);
  const dirty = Array.from({ length: 10 }, (_, d) => dirtyIndex(d * 5, size));
  const created = Array.from({ length: 5 }, (_, i) => path.join(dir, `pkg0`, `created${i}.ts`));
  const abs = (i: number) => path.join(dir, trackedFile(i));

  const cpu0 = process.cpuUsage();
  const child0 = childCpu();
  const t0 = performance.now();
  await files.begin(turnId, dir);
  const promptDelayMs = performance.now() - t0;
  await files.snapshotted?.(turnId);
  let cpuMs = selfCpuMs(cpu0);
  // The agent's turn (not measured).
  for (const i of edited) writeFileSync(abs(i), `${committedText(i)}// the agent's edit\n`);
  for (const i of dirty) writeFileSync(abs(i), `${dirtyText(i)}// the agent's edit\n`);
  for (const f of created) writeFileSync(f, "// new\n");
  for (const i of removed) rmSync(abs(i));
  const cpu1 = process.cpuUsage();
  await files.changed([
    ...[...edited, ...dirty].map((i) => ({ path: abs(i), kind: "changed" as const })),
    ...created.map((f) => ({ path: f, kind: "created" as const })),
    ...removed.map((i) => ({ path: abs(i), kind: "deleted" as const })),
  ]);
  const list = await files.end(turnId);
  cpuMs += selfCpuMs(cpu1) + (childCpu() - child0);
  // Put the tree back as it was (not measured).
  for (const i of [...edited, ...removed]) writeFileSync(abs(i), committedText(i));
  for (const i of dirty) writeFileSync(abs(i), dirtyText(i));
  for (const f of created) rmSync(f);
  const expected = edited.length + dirty.length + created.length + removed.length;
  if (list.length !== expected) console.warn(`the turn listed ${list.length} files of the ${expected} it changed`);
  return { cpuMs, promptDelayMs, kept: list.filter((f) => f.before !== undefined).length, changed: expected };
}

/** The snapshot code of the merge base with main (before issue 19), loaded from git into a temporary module. */
async function legacyFiles(): Promise<FilesClass> {
  const root = path.join(__dirname, "..");
  const base = execFileSync("git", ["merge-base", "HEAD", "main"], { cwd: root }).toString().trim();
  const source = execFileSync("git", ["show", `${base}:src/workspace/turnFiles.ts`], { cwd: root }).toString();
  const file = path.join(os.tmpdir(), `sidekicks-legacy-turnFiles-${base.slice(0, 8)}.ts`);
  writeFileSync(file, source.replace('"../shared/lineEndings"', JSON.stringify(path.join(root, "src", "shared", "lineEndings"))));
  return ((await import(file)) as { TurnFiles: FilesClass }).TurnFiles;
}

/** The figures at `size` files, `Files` the snapshot code measured. */
async function figuresAt(Files: FilesClass, size: number): Promise<{ ratio: number; cpuMs: number; gitStatusMs: number; promptDelayMs: number; diffsKept: number }> {
  const dir = snapshotTree(size);
  gitStatusCpu(dir); // warm the page cache and the index
  await oneTurn(Files, dir, size, -1); // warm-up: JIT, module loading
  const ours: number[] = [];
  const plain: number[] = [];
  const delays: number[] = [];
  const kept: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(gitStatusCpu(dir));
    const turn = await oneTurn(Files, dir, size, round);
    ours.push(turn.cpuMs);
    delays.push(turn.promptDelayMs);
    kept.push(turn.kept / turn.changed);
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { ratio: r2(median(ours) / median(plain)), cpuMs: Math.round(median(ours)), gitStatusMs: Math.round(median(plain)), promptDelayMs: r2(median(delays)), diffsKept: r2(median(kept)) };
}

/** All the snapshot figures (`before`: of the code before issue 19). */
export async function snapshotFigures(before = false): Promise<Record<string, number | string>> {
  const Files: FilesClass = before ? await legacyFiles() : ((await import("../src/workspace/turnFiles")) as { TurnFiles: FilesClass }).TurnFiles;
  const small = await figuresAt(Files, 50_000);
  const large = await figuresAt(Files, 200_000);
  const p = before ? "turnBefore" : "turn";
  return {
    [`${p}.snapshotCpuVsGitStatus`]: large.ratio,
    [`${p}.snapshotCpuMs200k`]: large.cpuMs,
    [`${p}.gitStatusCpuMs200k`]: large.gitStatusMs,
    [`${p}.promptDelayMs`]: large.promptDelayMs,
    [`${p}.diffsKept50k`]: small.diffsKept,
    [`${p}.diffsKept200k`]: large.diffsKept,
    [`${p}.snapshotCpuVsGitStatus50k`]: small.ratio,
    [`${p}.promptDelayMs50k`]: small.promptDelayMs,
    "turn.snapshotTargets": "cpu ≤ 1.0, promptDelayMs ≤ 20, diffsKept 1.0",
  };
}
