/**
 * The arithmetic of a virtualised list of variable-height rows: which rows to put in the DOM for a scroll position,
 * and how tall the space above and below them is. Pure (no DOM), so it is unit-tested on its own; `History.tsx`
 * feeds it the scroll position and the heights a `ResizeObserver` measured.
 *
 * Why not a library: none is installed (@tanstack/virtual-core, react-window… are not in node_modules and the
 * project does not add packages from a helper's worktree), and the history needs two things such libraries make
 * awkward with Preact: rows whose height changes every frame while they stream, and a bottom-anchored window (a chat
 * opens at its latest message). The DOM keeps rows in normal flow between two spacers, so a row that grows pushes
 * the rows below it as usual, and Chromium's scroll anchoring (`overflow-anchor`) keeps what the user reads in place
 * when a spacer or an off-screen row changes height.
 */

/** The rows to render, `[start, end)`, and the height (px) of the spacers before and after them. */
export interface WindowRange {
  start: number;
  end: number;
  /** Height (px) of the rows before `start`: measured where known, estimated for the others. */
  before: number;
  /** Height (px) of the rows from `end` on. */
  after: number;
}

/** Height (px) assumed for a row never measured, until some row was measured (then: their median). */
export const DEFAULT_ROW_HEIGHT_PX = 72;

/**
 * Heights of rows by key (a message id), and the window for a scroll position. Row keys are stable across renders;
 * a row keeps its measured height when it leaves the DOM, so scrolling back finds it where it was.
 */
export class VirtualWindow {
  private readonly heights = new Map<string, number>();
  /** Prefix sums for one `keys` array and heights version: `offsets[i]` = top of row `i`; last = total. */
  private offsets: Float64Array = new Float64Array(1);
  private offsetsFor: readonly string[] | undefined;
  private offsetsVersion = -1;
  private version = 0;
  private estimateSize = 0;
  private estimateCache = DEFAULT_ROW_HEIGHT_PX;

  /**
   * @param minRowsAround rows rendered beyond the overscan on each side, so keyboard navigation always finds the
   *   next and previous row in the DOM
   * @param maxRows the most rows rendered at once (huge viewports or tiny rows)
   */
  constructor(
    private readonly minRowsAround = 2,
    private readonly maxRows = 90,
  ) {}

  /** Records a row's rendered height (px). Returns whether it changed. */
  measure(key: string, height: number): boolean {
    const old = this.heights.get(key);
    if (old === height) return false;
    this.heights.set(key, height);
    this.version++;
    return true;
  }

  /** The measured height of a row, if it was ever rendered. */
  measured(key: string): number | undefined {
    return this.heights.get(key);
  }

  /**
   * The height assumed for rows never rendered: the median of measured rows (px). Not their mean: the rows measured
   * are the ones the user scrolled past, not a sample, and one very long answer among them moved a mean — and with it
   * the height of every row not yet seen, the whole list's height and the scroll bar — by hundreds of thousands of
   * pixels in a 10,000-message history, so a scroll bar dragged to the middle ended at the bottom. Taken again when a
   * row is measured for the first time, not each time a measured row changes height (a streaming answer grows every
   * frame; the median of 10,000 heights costs about 1.5 ms).
   */
  get estimate(): number {
    if (this.estimateSize !== this.heights.size) {
      this.estimateSize = this.heights.size;
      this.estimateCache = this.heights.size ? median(this.heights.values(), this.heights.size) : DEFAULT_ROW_HEIGHT_PX;
    }
    return this.estimateCache;
  }

  /** The top (px) of row `index` within the list (`index === keys.length`: the total height). */
  offsetOf(keys: readonly string[], index: number): number {
    return this.prefix(keys)[Math.max(0, Math.min(index, keys.length))] ?? 0;
  }

  /**
   * The rows to render for a viewport `[scrollTop, scrollTop + viewport)` plus `overscan` px on each side. With
   * `atBottom`, the window is anchored to the last row instead (the list is pinned to its latest message), so rows
   * appended at the end are always rendered whatever the (stale) scroll position says.
   */
  range(keys: readonly string[], scrollTop: number, viewport: number, overscan: number, atBottom: boolean): WindowRange {
    const n = keys.length;
    if (n === 0) return { start: 0, end: 0, before: 0, after: 0 };
    const offsets = this.prefix(keys);
    const total = offsets[n]!;
    let start: number;
    let end: number;
    if (atBottom) {
      end = n;
      const top = Math.max(0, total - viewport - overscan);
      start = this.indexAt(offsets, n, top);
    } else {
      const top = Math.max(0, scrollTop - overscan);
      const bottom = scrollTop + viewport + overscan;
      start = this.indexAt(offsets, n, top);
      end = Math.min(n, this.indexAt(offsets, n, bottom) + 1);
    }
    start = Math.max(0, start - this.minRowsAround);
    end = Math.min(n, end + this.minRowsAround);
    if (end - start > this.maxRows) {
      // Keep the rows nearest to the viewport: the bottom when pinned, else the ones around the scroll position.
      if (atBottom) start = end - this.maxRows;
      else {
        const first = Math.max(start, this.indexAt(offsets, n, scrollTop) - Math.floor(this.maxRows / 3));
        start = first;
        end = Math.min(n, start + this.maxRows);
      }
    }
    return { start, end, before: offsets[start]!, after: total - offsets[end]! };
  }

  /** The index of the row containing `y` (clamped to the rows). */
  private indexAt(offsets: Float64Array, n: number, y: number): number {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private prefix(keys: readonly string[]): Float64Array {
    if (this.offsetsFor === keys && this.offsetsVersion === this.version) return this.offsets;
    const estimate = this.estimate;
    const offsets = this.offsets.length === keys.length + 1 ? this.offsets : new Float64Array(keys.length + 1);
    let y = 0;
    for (let i = 0; i < keys.length; i++) {
      offsets[i] = y;
      y += this.heights.get(keys[i]!) ?? estimate;
    }
    offsets[keys.length] = y;
    this.offsets = offsets;
    this.offsetsFor = keys;
    this.offsetsVersion = this.version;
    return offsets;
  }
}

/** The median of `count` numbers (the mean of the two middle ones for an even count). */
function median(values: Iterable<number>, count: number): number {
  const sorted = Float64Array.from(values).sort();
  const mid = count >> 1;
  return count % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
