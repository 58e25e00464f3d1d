/**
 * Line counts of a diff (`+added −removed`) for a tool call's summary. Pure, no DOM: unit-tested from node.
 *
 * The counts are those of a shortest line edit script (Myers' O(ND) algorithm, "An O(ND) Difference Algorithm and
 * Its Variations", 1986) after the common head and tail are set aside, as `git diff --stat` counts them. When the
 * changed middle needs more than {@link MAX_EDIT_DISTANCE} edits, the counts come from comparing the two sides as
 * multisets of lines instead: cheap, exact for pure additions and deletions, a lower bound for moved lines.
 */

/** Added and removed lines. */
export interface DiffStats {
  added: number;
  removed: number;
}

/** Beyond this many line edits the exact search stops (its cost grows with the number of edits). */
export const MAX_EDIT_DISTANCE = 2_000;

/** Counts the lines `newText` adds and removes relative to `oldText` (`null`: a new file, every line added). */
export function diffStats(oldText: string | null, newText: string): DiffStats {
  const a = lines(oldText ?? "");
  const b = lines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return { added: m, removed: n };
  const distance = editDistance(a, start, n, b, start, m, MAX_EDIT_DISTANCE);
  if (distance === undefined) return multisetStats(a.slice(start, endA), b.slice(start, endB));
  const common = (n + m - distance) / 2;
  return { added: m - common, removed: n - common };
}

/** The lines of `text`; a final newline ends the last line rather than starting an empty one. */
function lines(text: string): string[] {
  if (text === "") return [];
  const all = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (all[all.length - 1] === "") all.pop();
  return all;
}

/** Myers' greedy forward search: the length of a shortest insert/delete script, or undefined beyond `max`. */
function editDistance(a: string[], offA: number, n: number, b: string[], offB: number, m: number, max: number): number | undefined {
  const limit = Math.min(n + m, max);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[offA + x] === b[offB + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return undefined;
}

/** Lines of `b` not matched by an equal line of `a` are added; the unmatched lines of `a` are removed. */
function multisetStats(a: string[], b: string[]): DiffStats {
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of b) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else added++;
  }
  let removed = 0;
  for (const left of counts.values()) removed += left;
  return { added, removed };
}
