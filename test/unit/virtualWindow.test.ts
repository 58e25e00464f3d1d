import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_ROW_HEIGHT_PX, VirtualWindow } from "../../webview/virtualWindow";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);

test("unmeasured rows are estimated; once some are measured, the estimate is their median", () => {
  const win = new VirtualWindow(0);
  const keys = ids(100);
  assert.equal(win.offsetOf(keys, 100), 100 * DEFAULT_ROW_HEIGHT_PX);
  win.measure("m0", 40);
  win.measure("m1", 60);
  assert.equal(win.estimate, 50);
  assert.equal(win.offsetOf(keys, 2), 100, "measured rows count their own height");
  assert.equal(win.offsetOf(keys, 100), 100 + 98 * 50);
  assert.equal(win.measure("m1", 60), false, "the same height is no change");
  assert.equal(win.measure("m1", 160), true);
  assert.equal(win.offsetOf(keys, 2), 200);
});

test("one very long row seen does not change the height of every row not seen (a dragged scroll bar stays where it was let go)", () => {
  const win = new VirtualWindow(0);
  const keys = ids(10_000);
  // The user saw the latest rows and the first ones, one of them a 7,000 px answer.
  for (let i = 9_975; i < 10_000; i++) win.measure(keys[i]!, 40);
  for (let i = 0; i < 30; i++) win.measure(keys[i]!, i === 7 ? 7_000 : 40);
  const total = win.offsetOf(keys, keys.length);
  assert.equal(win.estimate, 40);
  assert.equal(total, 9_999 * 40 + 7_000, "the long row counts once, as itself");
  // Dragged to the middle, thirty more short rows are measured: the list's height does not move (with a mean it fell
  // from 1.67 to 1.22 million px at once, and on with each row measured, until the position let go of was past the
  // end: the webview test's 10,000-message history then showed its last rows).
  for (let i = 5_000; i < 5_030; i++) win.measure(keys[i]!, 40);
  assert.equal(win.offsetOf(keys, keys.length), total);
  assert.equal(win.range(keys, total / 2, 700, 200, false).start > 4_000, true, "the middle rows are rendered");
});

test("the window covers the viewport plus overscan, with spacers for the rest; a very tall row is one row", () => {
  const win = new VirtualWindow(0);
  const keys = ids(10_000);
  for (const k of keys) win.measure(k, 50);
  win.measure("m5000", 20_000); // a very long message
  const total = win.offsetOf(keys, keys.length);
  assert.equal(total, 9_999 * 50 + 20_000);

  const top = win.range(keys, 0, 500, 100, false);
  assert.deepEqual([top.start, top.end, top.before], [0, 13, 0], "rows 0..12 cover 0..600 px");
  assert.equal(top.after, total - 13 * 50);

  const inLong = win.range(keys, 5000 * 50 + 5_000, 500, 100, false);
  assert.deepEqual([inLong.start, inLong.end], [5000, 5001], "inside the long row only it is needed");
  assert.equal(inLong.before + 20_000 + inLong.after, total, "spacers and rows add up to the whole list");
});

test("pinned to the bottom, the window ends at the last row whatever the stale scroll position says", () => {
  const win = new VirtualWindow(0);
  const keys = ids(1_000);
  for (const k of keys) win.measure(k, 100);
  const pinned = win.range(keys, 0, 500, 200, true);
  assert.deepEqual([pinned.start, pinned.end, pinned.after], [993, 1000, 0]);
  const more = [...keys, "new"];
  assert.equal(win.range(more, 0, 500, 200, true).end, 1001, "an appended row is in the window at once");
});

test("extra rows around the window for keyboard navigation, and a cap on rows for tiny rows or huge viewports", () => {
  const win = new VirtualWindow(2, 30);
  const keys = ids(1_000);
  for (const k of keys) win.measure(k, 10);
  const r = win.range(keys, 5_000, 100, 0, false);
  assert.deepEqual([r.start, r.end], [498, 513], "rows 500..510 are in view; two more on each side");
  const huge = win.range(keys, 5_000, 5_000, 1_000, false);
  assert.ok(huge.end - huge.start <= 30, `capped: ${huge.end - huge.start}`);
  assert.ok(huge.start <= 500 && huge.end > 500, "the cap keeps the rows at the scroll position");
  const bottom = win.range(keys, 0, 5_000, 1_000, true);
  assert.deepEqual([bottom.start, bottom.end], [970, 1000], "pinned: the cap keeps the latest rows");
});

test("an empty list has an empty window", () => {
  assert.deepEqual(new VirtualWindow().range([], 0, 500, 100, true), { start: 0, end: 0, before: 0, after: 0 });
});
