/**
 * `@file` in the composer (issue 21, "Attach"): the word typed after `@` read as a workspace path with an optional line
 * range (`@src/a.ts:10-20`, `@src/a.ts#L10-20`, `@a.ts:7`), and the workspace's files ranked against it, fuzzy, as a
 * quick open ranks them. Pure; imports only the protocol's types.
 */
import type { LineRange } from "./protocol";

/** The most files one `files/find` answers. */
export const MAX_FILE_SUGGESTIONS = 12;

/** The longest `@` word looked up (the guard of `files/find`). */
export const FILE_QUERY_MAX = 256;

/** `@word` right before the caret at a word start, any characters but blanks, `@` and backticks. */
const FILE_WORD_BEFORE_CARET = /(^|[\s([{"'«“,;])@([^\s@`]*)$/u;

/** The `@` word before the caret (`from`: offset of its `@`), if the caret ends one. */
export function fileWordBefore(text: string, caret: number): { word: string; from: number } | undefined {
  const m = FILE_WORD_BEFORE_CARET.exec(text.slice(0, caret));
  return m ? { word: m[2]!, from: caret - m[2]!.length - 1 } : undefined;
}

/** Whether a typed `@` word reads as a path rather than an agent's name: it holds `/`, `\`, `.`, `:` or `#`. */
export function looksLikePath(word: string): boolean {
  return /[/\\.:#]/.test(word);
}

/** Punctuation that ends a clause after an `@` word rather than belonging to it (`see @src/a.ts.` names `src/a.ts`;
 * a trailing `/` too, as in `@odie/@garfield`: a folder is never attached). */
const TRAILING_PUNCTUATION = /[.,;:!?'")\]}»”’…/\\]+$/u;

/**
 * The path an `@` word typed in a message names, or undefined when it reads as an agent's name (issue 21): the word
 * (all it holds up to a blank, `@` or backtick) less its trailing punctuation, when that holds `/`, `\` or `.`, or ends
 * in a line range (`@Makefile:10`). So `@src/a.ts:10-20,` is the path `src/a.ts:10-20`; `@demo.` and `@demo:` are
 * names. Routing reads neither a mention nor an error in it; the host attaches the file when it exists.
 */
export function typedPath(word: string): string | undefined {
  const stripped = word.replace(TRAILING_PUNCTUATION, "");
  if (stripped === "") return undefined;
  return /[/\\.]/.test(stripped) || parseFileMention(stripped).range ? stripped : undefined;
}

/** A path and a line range after it: `:10-20`, `:7`, `#L10-20`, `#L10-L20`. */
const LINE_RANGE = /^(.+?)(?::|#L?)(\d{1,9})(?:-L?(\d{1,9}))?$/;

/**
 * The range a typed `@path:3-1` meant, put right (`{ path: "a.ts", fixed: "a.ts:1-3" }`), when its range is written
 * but is no range ({@link parseFileMention}): it ends before it starts, or names line 0 (lines count from 1).
 * Undefined for a word without a range or with a good one. Used to say why such a word went as text.
 */
export function badLineRange(word: string): { path: string; fixed: string } | undefined {
  const m = LINE_RANGE.exec(word);
  if (!m) return undefined;
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  if (start >= 1 && end >= start) return undefined;
  const [low, high] = [Math.max(1, Math.min(start, end)), Math.max(1, start, end)];
  return { path: m[1]!, fixed: low === high ? `${m[1]}:${low}` : `${m[1]}:${low}-${high}` };
}

/**
 * `src/a.ts:10-20` → `{ query: "src/a.ts", range: { start: 10, end: 20 } }`; `a.ts#L7` and `a.ts:7` → lines 7–7;
 * `a.ts#L10-L20` as GitHub writes it. A range that ends before it starts, or a line 0, is no range (the whole word is
 * the query then, so nothing is attached by mistake as lines).
 */
export function parseFileMention(word: string): { query: string; range?: LineRange } {
  const m = LINE_RANGE.exec(word);
  if (!m) return { query: word };
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  if (start < 1 || end < start) return { query: word };
  return { query: m[1]!, range: { start, end } };
}

/**
 * How well `path` (workspace-relative, `/` separated) matches `query`, higher is better, or -1 when the query's
 * characters do not all appear in it in order (case-insensitive). The last segment counts most: the file name equal
 * to the query, then starting with it, then containing it; then the whole path containing it; then a scattered
 * match, better when its characters follow each other and start segments. Shorter paths win ties.
 */
export function fileScore(query: string, path: string): number {
  const q = query.toLowerCase().replace(/\\/g, "/");
  const p = path.toLowerCase();
  const name = p.slice(p.lastIndexOf("/") + 1);
  const tie = -p.length / 1000;
  if (q === "") return tie;
  if (name === q) return 10_000 + tie;
  if (name.startsWith(q)) return 8_000 + tie;
  if (name.includes(q)) return 6_000 + tie;
  if (p.endsWith(q)) return 5_000 + tie;
  if (p.includes(q)) return 4_000 + tie;
  let at = -1;
  let score = 0;
  for (const c of q) {
    const next = p.indexOf(c, at + 1);
    if (next < 0) return -1;
    if (next === at + 1) score += 3;
    if (next === 0 || p[next - 1] === "/" || p[next - 1] === "." || p[next - 1] === "-" || p[next - 1] === "_") score += 2;
    if (next > p.lastIndexOf("/")) score += 1;
    at = next;
  }
  return score + tie;
}

/** The `max` best of `files` for `query` (see {@link fileScore}), best first; files that do not match are left out. */
export function rankFiles<T extends { relative: string }>(query: string, files: readonly T[], max = MAX_FILE_SUGGESTIONS): T[] {
  return files
    .map((f) => ({ f, score: fileScore(query, f.relative) }))
    .filter((s) => s.score > -1)
    .sort((a, b) => b.score - a.score || a.f.relative.localeCompare(b.f.relative))
    .slice(0, max)
    .map((s) => s.f);
}
