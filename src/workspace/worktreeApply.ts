/**
 * Bringing an agent's worktree back (issue 20, "Bring it back"), with the real `git` binary as child processes: the
 * branch's changes against its base from their merge-base (committed, and the worktree's uncommitted ones), and
 * applying the branch to the user's current branch in the main worktree — `git merge --no-ff`, `git merge --squash`
 * (left staged) or `git rebase` in the agent's worktree then `git merge --ff-only`. The user's uncommitted work is
 * never touched: an apply that would write where the main worktree is dirty, or over staged changes, is refused
 * before git runs. Conflicts are left in git's own conflict state, with the command that aborts them.
 * Refusals are {@link ApplyProblem}s (a kind and facts), worded by `src/agents/WorktreeBringBack.ts`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { SidekicksError } from "../shared/errors";
import { blobTexts } from "./gitSnapshot";
import type { Before } from "./snapshotFiles";
import { git } from "./worktrees";

/** How a file differs from the merge-base. */
export type BranchChangeStatus = "added" | "modified" | "deleted" | "renamed";

/** One file of the agent's changes. */
export interface BranchChange {
  /** Absolute path in the agent's worktree (for a deleted file: where it was). */
  path: string;
  /** Path relative to the worktree's top folder. */
  relative: string;
  /** For a renamed file: its path before, relative to the worktree's top folder. */
  oldRelative?: string;
  status: BranchChangeStatus;
  /** Its text at the merge-base (`null`: it did not exist, or it is binary). */
  before: string | null;
  /** True when its text at the merge-base is binary (NUL bytes): `before` is then null. */
  binary: boolean;
  /** True when the change is (also) in the worktree's uncommitted state rather than only in commits. */
  uncommitted: boolean;
}

/** The agent branch's changes against its base. */
export interface BranchChanges {
  /** The commit both the branch and the base come from (`git merge-base <base> HEAD`). */
  mergeBase: string;
  files: BranchChange[];
  /** How many files the branch's commits change. */
  committed: number;
  /** How many files the worktree changes without committing them (untracked ones included). */
  uncommitted: number;
}

/** How the branch is brought into the user's current branch. */
export type ApplyMode = "merge" | "squash" | "rebase";

/** What to apply where. */
export interface ApplyRequest {
  /** The main worktree (the user's checkout) the branch is applied to. */
  repository: string;
  /** The agent's worktree (its top folder). */
  worktree: string;
  /** The agent's branch (short name). */
  branch: string;
  mode: ApplyMode;
  /** The merge commit's message (mode `merge`). */
  message?: string;
  /** The git program (default `git`). */
  git?: string;
}

/** What an apply did. */
export type ApplyOutcome =
  /** Done: `commit` is the new HEAD (absent for a squash, whose changes are staged, not committed). */
  | { kind: "applied"; mode: ApplyMode; into: string; files: string[]; commit?: string }
  /** The branch has nothing the current branch lacks. */
  | { kind: "upToDate"; mode: ApplyMode; into: string }
  /** git stopped on conflicts in `folder` (the main worktree; the agent's for a rebase); `abort` undoes the attempt. */
  | { kind: "conflicts"; mode: ApplyMode; into: string; folder: string; files: string[]; abort: string };

/** Why an apply or a review cannot go on. */
export type ApplyProblemKind =
  | "noMergeBase" // the branch and its base share no commit (`base`, `branch`)
  | "mainStaged" // the main worktree has staged changes (`repository`, `paths`)
  | "mainDirty" // the main worktree has uncommitted changes where the apply writes (`repository`, `paths`)
  | "inProgress" // a merge, rebase, cherry-pick or revert is under way in `folder` (`folder`, `operation`)
  | "noIdentity" // git does not know who commits (`folder`)
  | "nothingToCommit" // committing the agent's work found nothing (`folder`)
  | "gitFailed"; // git failed otherwise (`folder`, `command`; git's words in `detail`)

/**
 * A `worktree/applyRefused` error (`worktree/applyFailed` for `noIdentity` and `gitFailed`) with its kind and the
 * facts a sentence needs (`paths`: one a line); the message is English for logs.
 */
export class ApplyProblem extends SidekicksError {
  constructor(
    readonly kind: ApplyProblemKind,
    readonly facts: Readonly<Record<string, string>>,
    detail?: string,
  ) {
    super(kind === "gitFailed" || kind === "noIdentity" ? "worktree/applyFailed" : "worktree/applyRefused", `worktree apply: ${kind} ${JSON.stringify(facts)}`, detail);
  }
}

/** What a failed git command in `folder` means: `noIdentity` (git does not know who commits), else `gitFailed`. */
function gitProblem(folder: string, command: string, r: { stdout: string; stderr: string }): ApplyProblem {
  if (/tell me who you are|empty ident|unable to auto-detect email/i.test(r.stderr)) return new ApplyProblem("noIdentity", { folder }, r.stderr.trim());
  return new ApplyProblem("gitFailed", { folder, command }, (r.stderr || r.stdout).trim());
}

/** Runs git; throws `gitFailed` (or `noIdentity`) unless it exits 0. */
async function must(program: string, cwd: string, args: string[]): Promise<string> {
  const r = await git(program, cwd, args);
  if (r.code === 0) return r.stdout;
  throw gitProblem(cwd, `git ${args.join(" ")}`, r);
}

/** `git diff --name-status -z` parsed: status letter, path, and the path before for a rename or copy. */
function nameStatus(out: string): { letter: string; path: string; old?: string }[] {
  const parts = out.split("\0");
  const rows: { letter: string; path: string; old?: string }[] = [];
  for (let i = 0; i < parts.length - 1; ) {
    const letter = parts[i++]!.charAt(0);
    if (letter === "R" || letter === "C") {
      const old = parts[i++]!;
      rows.push({ letter, old, path: parts[i++]! });
    } else rows.push({ letter, path: parts[i++]! });
  }
  return rows;
}

/** Paths with uncommitted changes in `folder` (`git status --porcelain -z`), and whether any is staged. */
async function dirtyPaths(program: string, folder: string): Promise<{ paths: string[]; staged: string[] }> {
  const out = await must(program, folder, ["status", "--porcelain", "-z", "--untracked-files=all"]);
  const paths: string[] = [];
  const staged: string[] = [];
  const rows = out.split("\0");
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.length < 4) continue;
    const [x, file] = [row.charAt(0), row.slice(3)];
    paths.push(file);
    if (x !== " " && x !== "?") staged.push(file);
    if (x === "R" || x === "C") paths.push(rows[++i]!); // the path it came from follows
  }
  return { paths, staged };
}

/** The operation under way in the worktree at `folder` (its git dir's marker files), if any. */
async function operationInProgress(program: string, folder: string): Promise<string | undefined> {
  const gitDir = path.resolve(folder, (await must(program, folder, ["rev-parse", "--git-dir"])).trim());
  const markers: [string, string][] = [["MERGE_HEAD", "merge"], ["rebase-merge", "rebase"], ["rebase-apply", "rebase"], ["CHERRY_PICK_HEAD", "cherry-pick"], ["REVERT_HEAD", "revert"]];
  return markers.find(([file]) => existsSync(path.join(gitDir, file)))?.[1];
}

/** Reads one blob as text; null when missing; `binary` when it holds a NUL byte. */
async function blobText(program: string, folder: string, rev: string, relative: string): Promise<{ text: string | null; binary: boolean }> {
  const r = await git(program, folder, ["cat-file", "blob", `${rev}:${relative}`]);
  if (r.code !== 0) return { text: null, binary: false };
  return r.stdout.includes("\0") ? { text: null, binary: true } : { text: r.stdout, binary: false };
}

const STATUS: Record<string, BranchChangeStatus> = { A: "added", C: "added", D: "deleted", R: "renamed" };

/**
 * The changes of the agent's worktree against `base` from their merge-base: its commits and its uncommitted
 * changes (untracked files as added), each file with its text at the merge-base. Reads only.
 * @param worktree the agent worktree's top folder
 * @throws ApplyProblem `noMergeBase`, `gitFailed`
 */
export async function branchChanges(worktree: string, base: string, program = "git"): Promise<BranchChanges> {
  const mb = await git(program, worktree, ["merge-base", base, "HEAD"]);
  if (mb.code !== 0) throw new ApplyProblem("noMergeBase", { base, branch: (await git(program, worktree, ["rev-parse", "--abbrev-ref", "HEAD"])).stdout.trim() }, mb.stderr.trim());
  const mergeBase = mb.stdout.trim();
  const [committedOut, allOut, untrackedOut, dirty] = await Promise.all([
    must(program, worktree, ["diff", "--name-status", "-z", "-M", mergeBase, "HEAD"]),
    must(program, worktree, ["diff", "--name-status", "-z", "-M", mergeBase]),
    must(program, worktree, ["ls-files", "--others", "--exclude-standard", "-z"]),
    dirtyPaths(program, worktree),
  ]);
  const dirtySet = new Set(dirty.paths);
  const rows = [...nameStatus(allOut), ...untrackedOut.split("\0").filter(Boolean).map((p) => ({ letter: "A", path: p, old: undefined as string | undefined }))];
  // The merge-base's texts in one `git cat-file --batch` (the turn snapshot's reader, which runs the `git` on the
  // PATH); a file over its size bound, or one the batch did not answer, is read on its own.
  const statusOf = (row: (typeof rows)[number]) => STATUS[row.letter] ?? "modified";
  const basePath = (row: (typeof rows)[number]) => row.old ?? row.path;
  const kept = program === "git" ? await blobTexts(worktree, mergeBase, rows.filter((r) => statusOf(r) !== "added").map(basePath)) : new Map<string, Before>();
  const files: BranchChange[] = [];
  for (const row of rows) {
    const status = statusOf(row);
    const found = status === "added" ? undefined : kept.get(basePath(row));
    const before =
      status === "added" || found?.existed === false ? { text: null, binary: false }
      : found && "text" in found ? { text: found.text, binary: false }
      : found?.unknown === "binary" ? { text: null, binary: true }
      : await blobText(program, worktree, mergeBase, basePath(row));
    const uncommitted = dirtySet.has(row.path) || (row.old !== undefined && dirtySet.has(row.old));
    files.push({ path: path.join(worktree, row.path), relative: row.path, ...(status === "renamed" ? { oldRelative: row.old } : {}), status, before: before.text, binary: before.binary, uncommitted });
  }
  return { mergeBase, files, committed: nameStatus(committedOut).length, uncommitted: dirty.paths.length };
}

/**
 * Commits everything the agent's worktree holds uncommitted (`git add -A`, `git commit -m`) on its branch, so an
 * apply takes it along; nothing is dropped. The repository's hooks run.
 * @returns the new commit
 * @throws ApplyProblem `nothingToCommit`, `noIdentity`, `gitFailed`
 */
export async function commitWorktree(worktree: string, message: string, program = "git"): Promise<string> {
  await must(program, worktree, ["add", "-A"]);
  const staged = await git(program, worktree, ["diff", "--cached", "--quiet"]);
  if (staged.code === 0) throw new ApplyProblem("nothingToCommit", { folder: worktree });
  await must(program, worktree, ["commit", "-q", "-m", message]);
  return (await must(program, worktree, ["rev-parse", "HEAD"])).trim();
}

/** The files git left conflicted in `folder`, absolute. */
async function conflicted(program: string, folder: string): Promise<string[]> {
  const out = await must(program, folder, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  const top = (await must(program, folder, ["rev-parse", "--show-toplevel"])).trim();
  return out.split("\0").filter(Boolean).map((p) => path.join(top, p));
}

/**
 * The refusals of {@link applyBranch} that concern the user's side, checked before anything is done — also before the
 * agent's uncommitted work is committed for the apply (a tryout got a commit on the agent's branch, then the refusal):
 * a merge or rebase under way, staged changes in the main worktree, or uncommitted ones where the apply writes (the
 * branch's changes and `pending`, the agent's uncommitted paths relative to its worktree, still to be committed).
 * @throws ApplyProblem `inProgress`, `mainStaged`, `mainDirty`
 */
export async function applyRefusal(req: ApplyRequest, pending: readonly string[] = []): Promise<void> {
  const program = req.git ?? "git";
  for (const folder of req.mode === "rebase" ? [req.repository, req.worktree] : [req.repository]) {
    const operation = await operationInProgress(program, folder);
    if (operation) throw new ApplyProblem("inProgress", { folder, operation });
  }
  const writes = nameStatus(await must(program, req.repository, ["diff", "--name-status", "-z", "--no-renames", `HEAD...${req.branch}`])).map((r) => r.path);
  const main = await dirtyPaths(program, req.repository);
  if (main.staged.length > 0) throw new ApplyProblem("mainStaged", { repository: req.repository, paths: main.staged.join("\n") });
  const all = [...writes, ...pending];
  const overlap = main.paths.filter((p) => all.some((w) => w === p || w.startsWith(p.endsWith("/") ? p : `${p}/`)));
  if (overlap.length > 0) throw new ApplyProblem("mainDirty", { repository: req.repository, paths: overlap.join("\n") });
}

/**
 * Applies the agent's branch to the main worktree's current branch (`into`: its name, or `HEAD` when detached).
 * Refused before git runs when the agent's worktree holds uncommitted changes (`worktree/dirty`: commit them first),
 * when the main worktree has staged changes or uncommitted ones where the apply writes, or when a merge or rebase is
 * under way; then:
 * - `merge`: `git merge --no-ff --no-edit -m <message> <branch>` (a merge commit);
 * - `squash`: `git merge --squash <branch>` (the changes staged for the user to commit; abort with `git reset --merge`);
 * - `rebase`: `git rebase <current commit>` in the agent's worktree (its conflicts stay there: `git rebase --abort`),
 *   then `git merge --ff-only <branch>` in the main worktree.
 * @throws SidekicksError `worktree/dirty` (the agent's uncommitted paths in `detail`, one a line); ApplyProblem
 */
export async function applyBranch(req: ApplyRequest): Promise<ApplyOutcome> {
  const program = req.git ?? "git";
  const agentDirty = await dirtyPaths(program, req.worktree);
  if (agentDirty.paths.length > 0) {
    throw new SidekicksError("worktree/dirty", `${agentDirty.paths.length} uncommitted paths in ${req.worktree}`, agentDirty.paths.join("\n"));
  }
  await applyRefusal(req);
  const head = await git(program, req.repository, ["symbolic-ref", "-q", "--short", "HEAD"]);
  const into = head.code === 0 ? head.stdout.trim() : "HEAD";
  const ahead = (await must(program, req.repository, ["rev-list", "--count", `HEAD..${req.branch}`])).trim();
  if (ahead === "0") return { kind: "upToDate", mode: req.mode, into };

  const stopped = async (folder: string, abort: string, r: { stdout: string; stderr: string }, command: string): Promise<ApplyOutcome> => {
    const files = await conflicted(program, folder);
    if (files.length > 0) return { kind: "conflicts", mode: req.mode, into, folder, files, abort };
    throw gitProblem(folder, command, r);
  };
  const startedAt = (await must(program, req.repository, ["rev-parse", "HEAD"])).trim();
  if (req.mode === "rebase") {
    const onto = startedAt;
    const r = await git(program, req.worktree, ["rebase", onto]);
    if (r.code !== 0) return stopped(req.worktree, "git rebase --abort", r, `git rebase ${onto}`);
    await must(program, req.repository, ["merge", "--ff-only", req.branch]);
  } else {
    const args = req.mode === "merge" ? ["merge", "--no-ff", "--no-edit", "-m", req.message ?? `Merge branch '${req.branch}'`, req.branch] : ["merge", "--squash", req.branch];
    const r = await git(program, req.repository, args);
    if (r.code !== 0) return stopped(req.repository, req.mode === "merge" ? "git merge --abort" : "git reset --merge", r, `git ${args.join(" ")}`);
  }
  // What the apply really changed: a rebase drops the agent's commits the user's branch already has (a tryout was told
  // "2 files changed" when nothing had), and a squash of those stages nothing.
  const changed = req.mode === "squash"
    ? await must(program, req.repository, ["diff", "--cached", "--name-only", "-z", "--no-renames"])
    : await must(program, req.repository, ["diff", "--name-only", "-z", "--no-renames", startedAt, "HEAD"]);
  const files = changed.split("\0").filter(Boolean);
  const commit = req.mode === "squash" ? undefined : (await must(program, req.repository, ["rev-parse", "HEAD"])).trim();
  if (files.length === 0 && (commit === undefined || commit === startedAt)) return { kind: "upToDate", mode: req.mode, into };
  return { kind: "applied", mode: req.mode, into, files: files.map((w) => path.join(req.repository, w)), ...(commit ? { commit } : {}) };
}

/** The three sides git keeps for a conflicted file: the merge-base's, the current branch's, the incoming one's. */
export interface ConflictSides {
  /** Stage 1 (null when the file did not exist at the merge-base). */
  base: string | null;
  /** Stage 2: the side of the branch being merged into (for a rebase, the branch being rebased onto). */
  ours: string | null;
  /** Stage 3: the incoming side. */
  theirs: string | null;
}

/**
 * The texts git keeps for the conflicted `file` (absolute) of the worktree at `folder` (`git show :1:`, `:2:`, `:3:`),
 * for VS Code's merge editor. Reads only.
 */
export async function conflictSides(folder: string, file: string, program = "git"): Promise<ConflictSides> {
  const top = (await must(program, folder, ["rev-parse", "--show-toplevel"])).trim();
  const relative = path.relative(top, file).split(path.sep).join("/");
  const stage = async (n: number) => {
    const r = await git(program, folder, ["show", `:${n}:${relative}`]);
    return r.code === 0 ? r.stdout : null;
  };
  const [base, ours, theirs] = await Promise.all([stage(1), stage(2), stage(3)]);
  return { base, ours, theirs };
}
