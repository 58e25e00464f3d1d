/**
 * An agent's git worktree (issue 20, "A git worktree per agent"): the mechanics, with the real `git` binary as child
 * processes (`git worktree add`, `list --porcelain`, `remove`, `rev-list --left-right --count`). Every refusal is a
 * `worktree/unavailable` error whose sentence says what to do; removing one that holds uncommitted work without
 * `force` is `worktree/dirty`. The decisions of when to make one are `src/agents/runtimes/worktree.ts`'s.
 */
import { execFile } from "node:child_process";
import { existsSync, promises as fsp } from "node:fs";
import path from "node:path";
import type { WorktreeConfig } from "../config/roster";
import { SidekicksError } from "../shared/errors";

/** The oldest git with `git worktree` (2.5). */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 5];

/** Where to find an agent's worktree: the roster's keys, the agent and the folder whose repository it comes from. */
export interface WorktreeSpec {
  /** The agent's roster name (the worktree's folder name under the root). */
  agent: string;
  config: WorktreeConfig;
  /** Absolute folder inside the repository (the editor's workspace folder). */
  workspaceFolder: string;
  /** The git program (default `git`, found on the PATH). */
  git?: string;
  /**
   * Called with the worktree's top folder (absolute, symbolic links resolved) before it is made or reused: throws when
   * the agent could not work there (a container runtime that does not mount it, issue 20). Absent: any folder does.
   */
  check?: (folder: string) => void;
}

/** An agent's worktree as it is on disk. */
export interface AgentWorktree {
  /** The repository's top folder the worktree belongs to. */
  repository: string;
  /** The worktree's top folder (`<root>/<agent>`). */
  path: string;
  /** Where the agent works: the worktree's folder matching the workspace folder's place in the repository. */
  cwd: string;
  /** The branch checked out in it (short name), or undefined when detached. */
  branch: string | undefined;
  /** What ahead and behind are counted against: the roster's `base`, else the repository's current branch. */
  base: string;
  /** True when this call made it. */
  created: boolean;
}

/** How far the worktree is from its base, and what it holds uncommitted. */
export interface WorktreeStatus extends AgentWorktree {
  /** Commits on the branch not in the base. */
  ahead: number;
  /** Commits in the base not on the branch. */
  behind: number;
  /** Paths with uncommitted changes, untracked files included (`git status --porcelain`). */
  uncommitted: string[];
}

interface Listed {
  path: string;
  branch?: string;
  locked?: string;
  prunable?: boolean;
}

const GIT_ENV = { ...process.env, LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" };
/** Why an agent's worktree cannot be made, used or removed; `src/agents/runtimes/worktree.ts` says it in words. */
export type WorktreeProblemKind =
  | "gitMissing" // git does not run (`program`)
  | "gitOld" // older than 2.5 (`version`)
  | "folderGone" // the workspace folder does not exist (`folder`)
  | "notRepository" // the workspace folder is not in a git repository (`folder`)
  | "noCommits" // the repository has no commit (`repository`)
  | "rootInside" // the worktree would be inside the repository (`path`)
  | "lockedMissing" // listed, locked, its folder missing (`path`, `reason`)
  | "vanished" // listed, its folder missing (`path`, `branch`)
  | "inTheWay" // a folder that is not this worktree is where it goes (`path`, `repository`)
  | "badBranch" // not a valid branch name (`branch`)
  | "branchElsewhere" // the branch is checked out in another worktree (`branch`, `holder`, `reason` when locked)
  | "missingBase" // the base is no commit (`base`, `repository`)
  | "folderNotInBase" // the workspace folder is not in the base (ignored by git, or never committed) (`folder`, `base`, `repository`)
  | "addFailed" // `git worktree add` failed (`path`; git's words in `detail`)
  | "locked" // removing a locked worktree (`path`, `reason`)
  | "removeFailed"; // `git worktree remove` failed (`path`; git's words in `detail`)

/**
 * A `worktree/unavailable` error with its {@link WorktreeProblemKind} and the facts a sentence needs; the message is
 * English for logs, and replaced by a translated sentence where it reaches people.
 */
export class WorktreeProblem extends SidekicksError {
  constructor(
    readonly kind: WorktreeProblemKind,
    readonly facts: Readonly<Record<string, string>>,
    detail?: string,
  ) {
    super("worktree/unavailable", `agent worktree: ${kind} ${JSON.stringify(facts)}`, detail);
  }
}

const unavailable = (kind: WorktreeProblemKind, facts: Record<string, string>, detail?: string) => new WorktreeProblem(kind, facts, detail);

/** Runs git in `cwd`; resolves with its exit code and outputs (code -1 and `missing` when git could not run). */
export function git(program: string, cwd: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string; missing?: boolean }> {
  return new Promise((resolve) => {
    execFile(program, args, { cwd, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
      if (e && typeof e.code === "string") resolve({ code: -1, stdout: "", stderr: e.message, missing: e.code === "ENOENT" || e.code === "EACCES" });
      else resolve({ code: e ? Number(e.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const checkedGits = new Map<string, Promise<void>>();

/**
 * Checks that `program` runs and is git 2.5 or later (`git --version`), once per program.
 * @throws SidekicksError `worktree/unavailable` when git is missing or older
 */
export function checkGit(program = "git", cwd = process.cwd()): Promise<void> {
  let check = checkedGits.get(program);
  if (!check) {
    check = (async () => {
      const r = await git(program, cwd, ["--version"]);
      if (r.missing || r.code !== 0) throw unavailable("gitMissing", { program }, r.stderr.trim() || undefined);
      const m = /git version (\d+)\.(\d+)/.exec(r.stdout);
      const [major, minor] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
      if (major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
        throw unavailable("gitOld", { version: r.stdout.trim() });
      }
    })();
    checkedGits.set(program, check);
    check.catch(() => checkedGits.delete(program)); // installed later: checked again
  }
  return check;
}

/** The repository holding the workspace folder: its top folder and the folder's place in it. */
async function repositoryOf(spec: WorktreeSpec): Promise<{ top: string; sub: string }> {
  const program = spec.git ?? "git";
  if (!existsSync(spec.workspaceFolder)) throw unavailable("folderGone", { folder: spec.workspaceFolder });
  // One git for both: the top folder, then HEAD's commit (its line missing before the first commit).
  const top = await git(program, spec.workspaceFolder, ["rev-parse", "--show-toplevel", "HEAD"]);
  const [repository, head] = top.stdout.split("\n");
  if (!repository || !path.isAbsolute(repository)) throw unavailable("notRepository", { folder: spec.workspaceFolder });
  if (top.code !== 0 || !head || !/^[0-9a-f]{40,64}$/.test(head)) throw unavailable("noCommits", { repository });
  const sub = path.relative(await fsp.realpath(repository), await fsp.realpath(spec.workspaceFolder));
  return { top: repository, sub };
}

/** `git worktree list --porcelain`, parsed. */
async function listWorktrees(program: string, repository: string): Promise<Listed[]> {
  const r = await git(program, repository, ["worktree", "list", "--porcelain"]);
  const out: Listed[] = [];
  for (const block of r.stdout.split(/\n\n+/)) {
    const entry: Partial<Listed> = {};
    for (const line of block.split("\n")) {
      const [word, ...rest] = line.split(" ");
      const value = rest.join(" ");
      if (word === "worktree") entry.path = value;
      else if (word === "branch") entry.branch = value.replace(/^refs\/heads\//, "");
      else if (word === "locked") entry.locked = value;
      else if (word === "prunable") entry.prunable = true;
    }
    if (entry.path) out.push(entry as Listed);
  }
  return out;
}

/** The worktree's folder for `spec` in `repository`: `<root>/<agent>`, the root by default beside the repository. */
function worktreePath(spec: WorktreeSpec, repository: string): string {
  const root = spec.config.root ?? path.join(path.dirname(repository), ".sidekicks-worktrees", path.basename(repository));
  return path.join(root, spec.agent);
}

/** A path with its existing part's symbolic links resolved (git lists real paths). */
async function real(p: string): Promise<string> {
  const rest: string[] = [];
  let at = p;
  for (;;) {
    try {
      return path.join(await fsp.realpath(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return p;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/** Where `spec`'s worktree is: the repository, its folder and what git lists there (undefined when not made). */
async function locate(spec: WorktreeSpec): Promise<{ repository: string; sub: string; path: string; listed: Listed | undefined; all: Listed[] }> {
  const program = spec.git ?? "git";
  await checkGit(program, spec.workspaceFolder);
  const { top, sub } = await repositoryOf(spec);
  const wanted = await real(worktreePath(spec, top));
  const repoReal = await fsp.realpath(top);
  if (wanted === repoReal || wanted.startsWith(repoReal + path.sep)) {
    throw unavailable("rootInside", { path: wanted });
  }
  const all = await listWorktrees(program, top);
  const listed = (await Promise.all(all.map(async (w) => ((await real(w.path)) === wanted ? w : undefined)))).find((w) => w !== undefined);
  return { repository: top, sub, path: wanted, listed, all };
}

/** The base ahead and behind are counted against: the roster's, else the repository's current branch (or commit). */
async function baseOf(spec: WorktreeSpec, repository: string): Promise<string> {
  if (spec.config.base !== undefined) return spec.config.base;
  const r = await git(spec.git ?? "git", repository, ["symbolic-ref", "-q", "--short", "HEAD"]);
  return r.code === 0 ? r.stdout.trim() : "HEAD";
}

/**
 * The agent's worktree, made when missing (`git worktree add -b <branch> <path> <base>`, or on its existing branch
 * when no other worktree has it checked out) and reused when it is there (after a reload too).
 * @throws SidekicksError `worktree/unavailable`: git missing or older than 2.5, not a git repository, no commits yet,
 *   a missing base, a branch checked out elsewhere, a locked or vanished worktree, a root inside the repository, a
 *   folder in the way — each saying what to do; and whatever `spec.check` throws, before anything is made
 */
export async function ensureWorktree(spec: WorktreeSpec): Promise<AgentWorktree> {
  const program = spec.git ?? "git";
  const { repository, sub, path: where, listed, all } = await locate(spec);
  spec.check?.(where);
  const base = await baseOf(spec, repository);
  const done = (branch: string | undefined, created: boolean): AgentWorktree => ({ repository, path: where, cwd: path.join(where, sub), branch, base, created });
  if (listed) {
    if (listed.prunable || !existsSync(where)) {
      if (listed.locked !== undefined) throw unavailable("lockedMissing", { path: where, reason: listed.locked });
      throw unavailable("vanished", { path: where, branch: listed.branch ?? spec.config.branch });
    }
    return done(listed.branch, false);
  }
  if (existsSync(where) && (await fsp.readdir(where)).length > 0) {
    throw unavailable("inTheWay", { path: where, repository });
  }
  // The workspace folder must be in the base, or the worktree would not hold it (a folder the repository ignores, as
  // the demo's `.demo/real-agents` in a clone: a tryout got the whole enclosing repository checked out, then
  // "its working folder … does not exist").
  // (A base that is no commit is left to `git worktree add`, which says so: "missingBase".)
  if (sub !== "" && (await git(program, repository, ["cat-file", "-e", `${base}^{commit}`])).code === 0) {
    const inBase = await git(program, repository, ["cat-file", "-e", `${base}:${sub.split(path.sep).join("/")}`]);
    if (inBase.code !== 0) throw unavailable("folderNotInBase", { folder: spec.workspaceFolder, base, repository });
  }
  const branch = spec.config.branch;
  // A branch another worktree has checked out is said from the listing, before git is asked.
  const holder = all.find((w) => w.branch === branch);
  if (holder) throw unavailable("branchElsewhere", { branch, holder: holder.path, ...(holder.locked !== undefined ? { reason: holder.locked } : {}) });
  const madeFolder = await fsp.mkdir(path.dirname(where), { recursive: true });
  // The usual case, a new branch, is one git run: git itself checks the name, the base and that the branch is new.
  let r = await git(program, repository, ["worktree", "add", "-b", branch, where, base]);
  if (r.code !== 0 && /a branch named .* already exists/.test(r.stderr)) r = await git(program, repository, ["worktree", "add", where, branch]);
  if (r.code !== 0) {
    // The folders made for it go again when they are still empty (rmdir refuses anything else).
    for (let at = path.dirname(where); madeFolder && at.startsWith(madeFolder); at = path.dirname(at)) if (!(await fsp.rmdir(at).then(() => true, () => false))) break;
    if (/is not a valid branch name/.test(r.stderr)) throw unavailable("badBranch", { branch });
    if (/invalid reference|not a valid object name/.test(r.stderr)) throw unavailable("missingBase", { base, repository });
    throw unavailable("addFailed", { path: where }, r.stderr.trim());
  }
  return done(branch, true);
}

/**
 * The agent's worktree with its distance from the base and its uncommitted paths; undefined when it was never made.
 * Reads only (`git worktree add` is never run here).
 * @throws SidekicksError `worktree/unavailable` as {@link ensureWorktree} for git and the repository
 */
export async function worktreeStatus(spec: WorktreeSpec): Promise<WorktreeStatus | undefined> {
  const program = spec.git ?? "git";
  const { repository, sub, path: where, listed } = await locate(spec);
  if (!listed || !existsSync(where)) return undefined;
  const base = await baseOf(spec, repository);
  const counts = await git(program, where, ["rev-list", "--left-right", "--count", `${base}...HEAD`]);
  const [behind, ahead] = counts.code === 0 ? counts.stdout.trim().split(/\s+/).map(Number) : [0, 0];
  const status = await git(program, where, ["status", "--porcelain", "-z", "--untracked-files=all"]);
  const uncommitted = status.stdout.split("\0").filter((r) => r.length > 3).map((r) => r.slice(3));
  return { repository, path: where, cwd: path.join(where, sub), branch: listed.branch, base, created: false, ahead: ahead ?? 0, behind: behind ?? 0, uncommitted };
}

/**
 * Removes the agent's worktree (`git worktree remove`); its branch and commits stay. With uncommitted work and no
 * `force`, nothing is removed. A worktree whose folder vanished is forgotten (its record only).
 * @returns the removed worktree's folder and branch, or undefined when there was none
 * @throws SidekicksError `worktree/dirty` (uncommitted paths in `detail`, one a line) without `force`;
 *   `worktree/unavailable` for a locked worktree or a failing git
 */
export async function removeWorktree(spec: WorktreeSpec, force = false): Promise<{ path: string; branch: string | undefined } | undefined> {
  const program = spec.git ?? "git";
  const { repository, path: where, listed } = await locate(spec);
  if (!listed) return undefined;
  if (listed.locked !== undefined) {
    throw unavailable("locked", { path: where, reason: listed.locked });
  }
  if (existsSync(where) && !force) {
    const status = await worktreeStatus(spec);
    if (status && status.uncommitted.length > 0) {
      throw new SidekicksError("worktree/dirty", `${status.uncommitted.length} uncommitted paths in ${where}`, status.uncommitted.join("\n"));
    }
  }
  // A vanished folder holds nothing to lose: `--force` forgets its record (and only its: never `git worktree prune`).
  const gone = !existsSync(where);
  const r = await git(program, repository, ["worktree", "remove", ...(force || gone ? ["--force"] : []), where]);
  if (r.code !== 0) throw unavailable("removeFailed", { path: where }, r.stderr.trim());
  return { path: where, branch: listed.branch };
}
