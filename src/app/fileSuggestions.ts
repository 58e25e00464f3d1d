/**
 * `@file` completion's host side (issue 21, `files/find`): the workspace's files as the editor lists them for quick
 * open (its `files.exclude` and `search.exclude`, through {@link EditorPort.workspaceFiles}), less what `.gitignore`
 * ignores (asked of git itself, `git check-ignore`), ranked against the typed word.
 */
import * as path from "node:path";
import { MAX_FILE_SUGGESTIONS, parseFileMention, rankFiles } from "../shared/fileMentions";
import type { FileSuggestion } from "../shared/protocol";
import { runGit } from "../workspace/gitSnapshot";
import type { EditorPort } from "./EditorPort";

/** Most files listed from the editor for ranking (a larger workspace is ranked over its first ones). */
export const FILE_LIST_MAX = 20_000;

/** How long a listing is reused for the next keystrokes, in ms. */
const LIST_TTL_MS = 10_000;

/**
 * The files of `files` that git does not ignore: for each workspace folder that is a git work tree, its untracked
 * files matched by `.gitignore`, `.git/info/exclude` or the user's excludes are left out (tracked files stay, as git
 * keeps them). A folder that is not a work tree, or where git cannot run, keeps all of its files; so does a folder
 * that an enclosing repository ignores as a whole (a scratch folder inside a clone, such as this project's own demo
 * workspace under its ignored `.demo/`): the user opened it to work on its files, which that repository's rules are
 * not about.
 */
export async function withoutGitIgnored(files: readonly FileSuggestion[]): Promise<FileSuggestion[]> {
  const byRoot = new Map<string, FileSuggestion[]>();
  for (const f of files) {
    const root = rootOf(f);
    const list = byRoot.get(root);
    if (list) list.push(f);
    else byRoot.set(root, [f]);
  }
  const ignored = new Set<string>();
  for (const [root, list] of byRoot) {
    if ((await runGit(root, ["check-ignore", "-q", "--", "."], () => undefined)) === 0) continue; // the folder itself is ignored
    const out: Buffer[] = [];
    const code = await runGit(root, ["check-ignore", "--stdin", "-z"], (chunk) => out.push(chunk), list.map((f) => f.relative).join("\0") + "\0");
    if (code !== 0) continue; // 1: none ignored; 128: not a work tree; -1: no git
    for (const rel of Buffer.concat(out).toString("utf8").split("\0")) if (rel) ignored.add(path.join(root, rel));
  }
  return files.filter((f) => !ignored.has(path.join(rootOf(f), f.relative)));
}

/** The workspace folder of `f`: its absolute path less its relative one. */
function rootOf(f: FileSuggestion): string {
  return f.path.slice(0, f.path.length - f.relative.length).replace(/[\\/]+$/, "") || path.parse(f.path).root;
}

/**
 * The `files/find` handler's logic: the best {@link MAX_FILE_SUGGESTIONS} workspace files for `query` (a line range
 * after the path is ignored: `src/a.ts:10-20` ranks by `src/a.ts`). The listing is reused for {@link LIST_TTL_MS} so
 * each keystroke does not walk the workspace again. An editor without `workspaceFiles` offers none.
 */
export function fileFinder(editor: EditorPort, now: () => number = Date.now): (query: string) => Promise<FileSuggestion[]> {
  let listing: { at: number; files: Promise<FileSuggestion[]> } | undefined;
  return async (query) => {
    if (!editor.workspaceFiles) return [];
    if (!listing || now() - listing.at > LIST_TTL_MS) {
      const files = editor.workspaceFiles(FILE_LIST_MAX).then(withoutGitIgnored);
      listing = { at: now(), files };
      files.catch(() => (listing = undefined));
    }
    return rankFiles(parseFileMention(query).query, await listing.files, MAX_FILE_SUGGESTIONS);
  };
}
