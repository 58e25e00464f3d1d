/**
 * The end of a turn's git snapshot without a second `git status` (issue 19, "Snapshots that scale"), for when the file
 * watcher is known to have delivered every event for the changes made before the end (`TurnFiles`' `settle` port: a
 * sentinel file's own event arrived after them). The files to look at are then the ones dirty when the turn started,
 * the ones the watcher reported, and the ones a commit made during the turn changed; none of them needs the whole tree
 * stat'ed again (at 200,000 files a `git status` is most of a turn's cost: `docs/performance.md`).
 *
 * It only ever answers where the full status would have given the same earlier text, and says "ask git" (undefined)
 * otherwise: HEAD cannot be read, the index holds entries git keeps quiet about (assume-unchanged, skip-worktree, a
 * split index: `gitIndexFlags.ts`), or the watcher named a path that was a folder in HEAD (a folder deleted or moved as
 * a whole: its files have no events of their own).
 */
import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { indexHidesChanges } from "./gitIndexFlags";
import { blobTexts, committedBetween, mayConvert, runGit, type GitStatus } from "./gitSnapshot";
import { COARSE_LATE_MARGIN_MS, type Before, type PromptStart } from "./snapshotFiles";

/** What a git repository's end of turn needs to know of it: its index file (absolute), its object ids' size in bytes, HEAD. */
interface RepoState {
  indexFile: string;
  oidBytes: number;
  head: string;
}

/** One `git rev-parse` in `root`: the index file, the object format, HEAD's commit; undefined when any is missing (no commit yet). */
async function repoState(root: string): Promise<RepoState | undefined> {
  let out = "";
  const code = await runGit(root, ["rev-parse", "--git-path", "index", "--show-object-format", "HEAD"], (c) => (out += c.toString("utf8")));
  const [indexFile, format, head] = out.split("\n");
  if (code !== 0 || !indexFile || !head || !/^[0-9a-f]{40,64}$/.test(head)) return undefined;
  const oidBytes = format === "sha1" ? 20 : format === "sha256" ? 32 : 0;
  return oidBytes ? { indexFile: path.resolve(root, indexFile), oidBytes, head } : undefined;
}

/**
 * Whether `file` (absolute) already existed before the prompt started although git did not list it then (it was
 * ignored, and is not now): its modification time is older than the prompt by more than the coarsest file system's
 * step. Such a file is not "created" — its earlier text is unknown, never `null` (an undo would delete it).
 */
export function olderThanTurn(file: string, promptStart: PromptStart): boolean {
  const started = promptStart();
  if (started === undefined) return false;
  try {
    return lstatSync(file).mtimeMs < started - COARSE_LATE_MARGIN_MS;
  } catch {
    return false;
  }
}

/** The git object id `file` (absolute) would have as a blob (`git hash-object` without filters), or undefined when it cannot be read. */
function blobId(file: string, oidBytes: number): string | undefined {
  try {
    const bytes = readFileSync(file);
    return createHash(oidBytes === 32 ? "sha256" : "sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  } catch {
    return undefined;
  }
}

/** Whether `rel` (root-relative) lies in a repository nested below `root` (a submodule, a clone inside the tree): git does not list its files. */
function inNestedRepository(root: string, rel: string): boolean {
  for (let dir = path.dirname(rel); dir !== "." && dir !== "/" && dir !== ""; dir = path.dirname(dir)) {
    try {
      lstatSync(path.join(root, dir, ".git"));
      return true;
    } catch {
      // not a repository's top folder
    }
  }
  return false;
}

/** Of `files` (root-relative), the ones git's ignore rules do not ignore (`git check-ignore --no-index`); undefined when git failed. */
async function notIgnored(root: string, files: readonly string[]): Promise<Set<string> | undefined> {
  const out = new Set(files);
  if (files.length === 0) return out;
  let rest = "";
  const code = await runGit(
    root,
    ["check-ignore", "--no-index", "-z", "--stdin"],
    (c) => {
      const parts = (rest + c.toString("utf8")).split("\0");
      rest = parts.pop() ?? "";
      for (const p of parts) out.delete(p);
    },
    files.map((f) => `${f}\0`).join(""),
  );
  // 1: none ignored; 0: some; anything else: git failed.
  return code === 0 || code === 1 ? out : undefined;
}

/**
 * The turn's files and what each was when it started (absolute path → {@link Before}), from `start` (the status at
 * the start), `dirtyBefore` (the texts of the files dirty then), `reported` (absolute files the watcher reported or the
 * agent wrote, all in the turn's folder; `acpWritten` those written through ACP, never left out as unchanged);
 * undefined when only a full `git status` can say (see the file's comment).
 */
export async function settledEnd(
  root: string,
  folder: string,
  start: GitStatus,
  dirtyBefore: ReadonlyMap<string, Before>,
  reported: Iterable<string>,
  acpWritten: ReadonlySet<string>,
  promptStart: PromptStart,
): Promise<Map<string, Before> | undefined> {
  if (!start.head) return undefined;
  const now = await repoState(root);
  if (!now || indexHidesChanges(now.indexFile, now.oidBytes)) return undefined;
  const abs = (r: string) => path.join(root, r);
  const committed = start.head !== now.head ? await committedBetween(folder, start.head, now.head) : new Set<string>();
  const candidates = new Set<string>([...start.dirty, ...committed]);
  for (const file of reported) candidates.add(path.relative(root, file).split(path.sep).join("/"));
  const out = new Map<string, Before>();
  const fromHead: string[] = [];
  for (const r of candidates) {
    if (start.dirty.has(r)) out.set(abs(r), dirtyBefore.get(abs(r)) ?? { existed: true, unknown: "late" });
    else fromHead.push(r);
  }
  const folders = new Set<string>();
  const ids = new Map<string, string>();
  const blobs = await blobTexts(root, start.head, fromHead, folders, ids);
  if (folders.size > 0) return undefined;
  // A clean file whose earlier text is not kept (large, binary) cannot be compared by text at the end: by its object
  // id instead (git would not list a touched file that holds what HEAD has), or by the full status where git converts.
  const opaque = fromHead.filter((r) => {
    const before = blobs.get(r);
    return before?.existed === true && "unknown" in before;
  });
  if (opaque.length > 0 && (await mayConvert(root))) return undefined;
  const untouched = new Set(opaque.filter((r) => ids.has(r) && blobId(abs(r), now.oidBytes) === ids.get(r)));
  // Not in HEAD, not dirty at the start: new in the turn — unless git ignores it or it lies in a nested repository.
  const fresh = fromHead.filter((r) => blobs.get(r)?.existed === false && !committed.has(r) && !inNestedRepository(root, r));
  const listed = await notIgnored(root, fresh);
  if (!listed) return undefined;
  for (const r of fromHead) {
    // Holding HEAD's bytes again (a touch), unless written through ACP (maybe only an editor buffer: always listed).
    if (untouched.has(r) && !acpWritten.has(abs(r))) continue;
    const before = blobs.get(r) ?? { existed: true, unknown: "late" as const };
    if (!before.existed && !committed.has(r) && !listed.has(r)) continue;
    out.set(abs(r), !before.existed && olderThanTurn(abs(r), promptStart) ? { existed: true, unknown: "late" } : before);
  }
  return out;
}
