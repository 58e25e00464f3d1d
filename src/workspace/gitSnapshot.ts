/**
 * A turn's snapshot in a git work tree (issue 19, "Snapshots that scale"): the real `git` binary, as child processes,
 * says what is dirty when the turn starts (`git status`, which honours `.gitignore`); only those files' texts are read
 * from disk. A clean tracked file's earlier text is its blob in the commit that was HEAD when the turn started, read
 * from git's objects (`git cat-file --batch`, with git's conversions where the repository has any) only when the file turns out to be changed — so a commit, a
 * checkout or a stash during the turn does not hide a change, and a 200,000-file repository costs about one
 * `git status` per turn end. Output is parsed as it streams; nothing walks the tree on the extension host.
 *
 * Turns that run at once in one folder share one `git status`: a turn that starts while one runs takes its answer.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { PRIVATE_INDEX_CONFIG, PrivateIndexes } from "./gitPrivateIndex";
import { olderThanTurn, settledEnd } from "./gitSettledEnd";
import { readTexts, SNAPSHOT_FILE_BYTES, walkBaseline, type Baseline, type Before, type PromptStart } from "./snapshotFiles";

/** What `git status` says of a folder: the commit HEAD named, and the files that differ from it (root-relative). */
export interface GitStatus {
  /** The work tree's top folder (absolute). */
  root: string;
  /** HEAD's commit id, or null before the first commit. */
  head: string | null;
  /** Files whose index or work-tree state differs from HEAD, untracked files, both sides of a rename (root-relative, `/`). */
  dirty: Set<string>;
}

/** Environment for git: no optional locks (a `git status` of ours never takes `index.lock` from the agent's git). */
const GIT_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };

/**
 * Runs `git args` in `cwd`, handing its standard output to `onData` as it streams; resolves with the exit code (-1
 * when git could not run). `input` is written to its standard input.
 */
export function runGit(cwd: string, args: readonly string[], onData: (chunk: Buffer) => void, input?: string, env: NodeJS.ProcessEnv = GIT_ENV): Promise<number> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn("git", args, { cwd, env, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "ignore"], windowsHide: true });
    } catch {
      resolve(-1);
      return;
    }
    child.stdout?.on("data", onData);
    child.once("error", () => resolve(-1));
    child.once("close", (code) => resolve(code ?? -1));
    if (input !== undefined && child.stdin) {
      child.stdin.on("error", () => undefined);
      child.stdin.end(input);
    }
  });
}

/** Splits a stream into NUL-terminated records. */
function nulRecords(onRecord: (record: string) => void): (chunk: Buffer) => void {
  let rest: Buffer = Buffer.alloc(0);
  return (chunk) => {
    let buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    for (let at = buf.indexOf(0); at >= 0; at = buf.indexOf(0)) {
      onRecord(buf.subarray(0, at).toString("utf8"));
      buf = buf.subarray(at + 1);
    }
    rest = Buffer.from(buf);
  };
}

/**
 * The work tree's top folder holding `folder`: the nearest folder up from it holding a `.git` that looks like a
 * repository — a folder with a `HEAD` file, or a file starting `gitdir:` (a linked work tree or submodule) — or
 * undefined. An empty `.git` folder is not one: agents' sandboxes create such folders as mount points (one left in
 * `/tmp` made every folder below it look like a work tree whose `git status` failed, and the walk that replaced it
 * began after the agent had already written: its changes went unlisted). Looked up with a few `stat` calls and at
 * most a 7-byte read per `.git` file, no process: the prompt does not wait.
 */
export function gitRoot(folder: string): string | undefined {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    if (isRepositoryMarker(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Whether `dotGit` is a repository's folder (it holds `HEAD`) or a linked work tree's `gitdir:` file. */
function isRepositoryMarker(dotGit: string): boolean {
  try {
    const stats = statSync(dotGit);
    if (stats.isDirectory()) return statSync(path.join(dotGit, "HEAD")).isFile();
    if (!stats.isFile()) return false;
    const fd = openSync(dotGit, "r");
    try {
      const head = Buffer.alloc(7);
      return readSync(fd, head, 0, 7, 0) === 7 && head.toString("latin1") === "gitdir:";
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * `git status --porcelain=v2 -z --branch --untracked-files=all -- .` in `folder` (below `root`; `-- .` left out at
 * the top), parsed as it streams; undefined when git failed. Submodules are left out (a folder, not a file). With
 * `index` (a private copy of the user's index, `gitPrivateIndex.ts`) git runs against it and may write it (its
 * untracked cache, its stat data); without, against the user's index, which it does not write.
 */
export async function gitStatus(root: string, folder: string, index?: string): Promise<GitStatus | undefined> {
  const status: GitStatus = { root, head: null, dirty: new Set() };
  let renameFrom = false;
  const onRecord = (record: string) => {
    if (renameFrom) {
      renameFrom = false;
      status.dirty.add(record);
      return;
    }
    if (record.startsWith("# branch.oid ")) {
      const oid = record.slice("# branch.oid ".length);
      status.head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      return;
    }
    const type = record[0];
    if (type === "?") return void (record.endsWith("/") || status.dirty.add(record.slice(2)));
    const fields = type === "1" ? 8 : type === "2" ? 9 : type === "u" ? 10 : -1;
    if (fields < 0) return;
    const parts = record.split(" ");
    if (parts[2]?.startsWith("S")) return; // a submodule
    status.dirty.add(parts.slice(fields).join(" "));
    if (type === "2") renameFrom = true;
  };
  // At the top no pathspec: with one, git does not use its untracked cache.
  const args = ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignore-submodules=none", ...(path.resolve(folder) === path.resolve(root) ? [] : ["--", "."])];
  const { GIT_OPTIONAL_LOCKS: _locks, ...writable } = GIT_ENV;
  const code = index
    ? await runGit(folder, [...PRIVATE_INDEX_CONFIG, ...args], nulRecords(onRecord), undefined, { ...writable, GIT_INDEX_FILE: index })
    : await runGit(folder, args, nulRecords(onRecord));
  // The private copy failed (the temporary folder gone…): the user's index, unwritten.
  if (index && code !== 0) return gitStatus(root, folder);
  return code === 0 ? status : undefined;
}

/** Files that differ between commits `from` and `to` under `folder` (root-relative); empty when git failed. */
export async function committedBetween(folder: string, from: string, to: string): Promise<Set<string>> {
  const files = new Set<string>();
  const code = await runGit(folder, ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", from, to, "--", "."], nulRecords((r) => r && files.add(r)));
  return code === 0 ? files : new Set();
}

/**
 * The texts of `files` (root-relative) in commit `head`, as the work tree would hold them (line endings and other
 * conversions applied, when the repository has any): a file not in that commit is `{ existed: false }`; over {@link SNAPSHOT_FILE_BYTES}
 * `tooLarge`, holding a NUL `binary`. One `git cat-file --batch`, parsed as it streams (a large blob is skipped, not
 * held). A file git cannot name on one line (a newline in its path) is left out. Paths that name a folder in that
 * commit (a tree, or a submodule's commit) are added to `folders` when given, and each blob's object id to `ids`.
 */
export async function blobTexts(root: string, head: string, files: readonly string[], folders?: Set<string>, ids?: Map<string, string>): Promise<Map<string, Before>> {
  const asked = files.filter((f) => !f.includes("\n"));
  const out = new Map<string, Before>();
  if (asked.length === 0) return out;
  let index = 0;
  let pending: Buffer = Buffer.alloc(0);
  let body: { size: number; parts: Buffer[]; got: number; keep: boolean } | undefined;
  const finish = (file: string, b: NonNullable<typeof body>) => {
    if (!b.keep) return void out.set(file, { existed: true, unknown: "tooLarge" });
    const bytes = Buffer.concat(b.parts).subarray(0, b.size);
    out.set(file, bytes.includes(0) ? { existed: true, unknown: "binary" } : { existed: true, text: bytes.toString("utf8") });
  };
  const onData = (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (index < asked.length) {
      if (body) {
        const want = body.size + 1 - body.got; // the blob, then its newline
        const take = Math.min(want, pending.length);
        if (body.keep) body.parts.push(pending.subarray(0, take));
        body.got += take;
        pending = pending.subarray(take);
        if (body.got < body.size + 1) return;
        finish(asked[index++]!, body);
        body = undefined;
        continue;
      }
      const eol = pending.indexOf(10);
      if (eol < 0) return;
      const header = pending.subarray(0, eol).toString("utf8");
      pending = pending.subarray(eol + 1);
      const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
      if (!m) {
        out.set(asked[index++]!, { existed: false }); // "<name> missing": not in that commit
        continue;
      }
      const size = Number(m[3]);
      if (m[2] !== "blob") folders?.add(asked[index]!);
      else ids?.set(asked[index]!, m[1]!);
      body = { size, parts: [], got: 0, keep: m[2] === "blob" && size <= SNAPSHOT_FILE_BYTES };
    }
  };
  const code = await runGit(root, ["cat-file", "--batch"], onData, asked.map((f) => `${head}:${f}\n`).join(""));
  if (code !== 0) for (const f of asked) out.delete(f);
  if (await mayConvert(root)) {
    // `--batch --filters` loses the path in git 2.39 ("missing path"): one `cat-file --filters` per text file then.
    for (const [file, before] of out) {
      if (!("text" in before)) continue;
      const parts: Buffer[] = [];
      const ok = (await runGit(root, ["cat-file", "--filters", `${head}:${file}`], (c) => parts.push(c))) === 0;
      out.set(file, ok ? { existed: true, text: Buffer.concat(parts).toString("utf8") } : { existed: true, unknown: "late" });
    }
  }
  return out;
}

/** Whether git may convert files between its objects and the work tree (line endings, filters): `.gitattributes` or `core.autocrlf`/`core.eol`. */
export async function mayConvert(root: string): Promise<boolean> {
  if (existsSync(path.join(root, ".gitattributes")) || existsSync(path.join(root, ".git", "info", "attributes"))) return true;
  let out = "";
  await runGit(root, ["config", "--get-regexp", "^core\\.(autocrlf|eol)$"], (c) => (out += c.toString("utf8")));
  return /\b(true|input|crlf)\b/i.test(out);
}

/** The private index copies of this process: shared by every turn, so each status finds the untracked cache the last one left. */
const privateIndexes = new PrivateIndexes();

/** One `git status` per folder at a time: turns starting while one runs share it. Each runs on a private index copy where it can. */
export class StatusRuns {
  private readonly running = new Map<string, Promise<GitStatus | undefined>>();

  /** The status of `folder` from the run under way, else a new run. */
  current(root: string, folder: string): Promise<GitStatus | undefined> {
    const key = `${root}\0${folder}`;
    const run = this.running.get(key);
    if (run) return run;
    const started = privateIndexes.use(root, (index) => gitStatus(root, folder, index)).finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  /** A status of `folder` started after this call: the next run, after the one under way if any (shared by its callers). */
  fresh(root: string, folder: string): Promise<GitStatus | undefined> {
    const key = `${root}\0${folder}`;
    const run = this.running.get(key);
    if (!run) return this.current(root, folder);
    const nextKey = `${key}\0next`;
    const queued = this.running.get(nextKey);
    if (queued) return queued;
    const next = run.then(() => {
      this.running.delete(nextKey);
      return this.current(root, folder);
    });
    this.running.set(nextKey, next);
    return next;
  }
}

/** Whether the repository at `root` ignores `folder` (below it) as a whole (`git check-ignore`; false when git fails). */
export async function ignoredByGit(root: string, folder: string): Promise<boolean> {
  const rel = path.relative(root, folder);
  if (rel === "") return false;
  return (await runGit(root, ["check-ignore", "-q", "--", rel.split(path.sep).join("/")], () => undefined)) === 0;
}

/**
 * A turn's snapshot of `folder`, which lies in the work tree at `root`: `git status` when the turn starts (shared
 * through `runs`), the texts of the files dirty then read from disk within the budget (smallest first; binary and
 * large files are dropped first), and at the end the files dirty then or now, committed in between, or reported by the
 * watcher — each with what it was at the start, a clean one's text from the start's HEAD commit. When git cannot
 * say (not installed, a broken repository), the folder is walked instead. When the caller vouches that the watcher
 * has reported every change made before the end (`settled`), the end asks git only about those files
 * (`gitSettledEnd.ts`) and not for a second status of the whole tree, unless that cannot be trusted.
 */
export function gitBaseline(root: string, folder: string, runs: StatusRuns, promptStart: PromptStart): Baseline {
  let start: GitStatus | undefined;
  let dirtyBefore = new Map<string, Before>();
  const abs = (rel: string) => path.join(root, rel);
  const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");
  let walked: Baseline | undefined;
  const ready = (async () => {
    // A folder its repository ignores as a whole (the demo's `.demo/workspace` inside the clone, a scratch folder
    // under `build/`): git sees none of its files, so the walk snapshots it, as outside git (a tryout found the demo's
    // edit missing from "files changed").
    if (await ignoredByGit(root, folder)) return void (await (walked = walkBaseline(folder, promptStart)).ready);
    start = await runs.current(root, folder);
    if (start) dirtyBefore = await readTexts([...start.dirty].map(abs), promptStart);
    // git failed (not installed, a broken repository): the walk instead, from now.
    else await (walked = walkBaseline(folder, promptStart)).ready;
  })().catch(() => undefined);
  return {
    ready,
    async end(extra, keep, settled) {
      await ready;
      if (walked) return walked.end(extra, keep);
      if (!start) return new Map<string, Before>();
      if (settled) {
        const quick = await settledEnd(root, folder, start, dirtyBefore, extra, keep, promptStart).catch(() => undefined);
        if (quick) return quick;
      }
      const now = await runs.fresh(root, folder);
      const out = new Map<string, Before>();
      if (!now) return out;
      const committed = start.head && now.head && start.head !== now.head ? await committedBetween(folder, start.head, now.head) : new Set<string>();
      const candidates = new Set<string>([...start.dirty, ...now.dirty, ...committed]);
      // A file reported by the watcher that git does not list was clean (or ignored) at both ends, HEAD's change
      // aside: unchanged — a touch — unless written through ACP (maybe only an editor buffer).
      for (const file of extra) if (keep.has(file)) candidates.add(rel(file));
      const fromHead: string[] = [];
      for (const r of candidates) {
        const before = dirtyBefore.get(abs(r));
        if (start.dirty.has(r)) out.set(abs(r), before ?? { existed: true, unknown: "late" });
        else fromHead.push(r);
      }
      const blobs = start.head ? await blobTexts(root, start.head, fromHead) : new Map<string, Before>();
      for (const r of fromHead) {
        const before = blobs.get(r) ?? (start.head ? { existed: true, unknown: "late" as const } : { existed: false as const });
        // Neither dirty nor in HEAD when the turn started, and not in git's view now: an ignored file.
        if (!before.existed && !now.dirty.has(r) && !committed.has(r)) continue;
        // Not in git's view at the start but older than the turn: it was ignored then (the turn changed the ignore rules).
        out.set(abs(r), !before.existed && olderThanTurn(abs(r), promptStart) ? { existed: true, unknown: "late" } : before);
      }
      return out;
    },
  };
}
