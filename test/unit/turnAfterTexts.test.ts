/**
 * A turn's checkpoint (issue 19, "A checkpoint per turn"): each changed file keeps its text after the turn beside its
 * text before, within the turn's byte budget, and the stored list is checked when read back. Real folders.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { asChangedFiles, keptFiles, TURN_FILES_BYTES, withFilesPart } from "../../src/turns/changedFiles";
import { SNAPSHOT_FILE_BYTES, TurnFiles } from "../../src/workspace/turnFiles";
import { tempDir } from "./helpers";

test("each changed file keeps its text after the turn: created and modified files their new text, a deleted one none, a large or binary one says why", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src", "a.ts"), "a = 1\n");
    writeFileSync(path.join(dir, "old.txt"), "old\n");
    writeFileSync(path.join(dir, "big.txt"), "b");
    writeFileSync(path.join(dir, "raw.txt"), "r");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    writeFileSync(path.join(dir, "src", "a.ts"), "a = 2\n");
    writeFileSync(path.join(dir, "src", "new.ts"), "new\n");
    rmSync(path.join(dir, "old.txt"));
    writeFileSync(path.join(dir, "big.txt"), "y".repeat(SNAPSHOT_FILE_BYTES + 1));
    writeFileSync(path.join(dir, "raw.txt"), "r\0r");
    const rows = (await files.end("T1")).map((f) => [path.relative(dir, f.path), f.kind, f.before, f.after, f.afterUnknown]);
    assert.deepEqual(rows, [
      ["big.txt", "modified", "b", undefined, "tooLarge"],
      ["old.txt", "deleted", "old\n", null, undefined],
      ["raw.txt", "modified", "r", undefined, "binary"],
      [path.join("src", "a.ts"), "modified", "a = 1\n", "a = 2\n", undefined],
      [path.join("src", "new.ts"), "created", null, "new\n", undefined],
    ]);
  } finally {
    cleanup();
  }
});

test("later texts share the turn's byte budget: one that does not fit is dropped and the file is not offered for undo", () => {
  const half = "z".repeat(TURN_FILES_BYTES / 2 + 10);
  const kept = keptFiles([
    { path: "/w/a", kind: "modified", before: "a", after: half },
    { path: "/w/b", kind: "modified", before: "b", after: half },
  ]);
  assert.deepEqual(kept.map((f) => [f.path, f.before, f.after === half, f.afterUnknown]), [
    ["/w/a", "a", true, undefined],
    ["/w/b", "b", false, "overBudget"],
  ]);
  const part = withFilesPart({ parts: [] } as never, kept).parts[0];
  assert.ok(part?.type === "files");
  assert.deepEqual(part.files.map((f) => [f.path, f.beforeKnown, f.restorable]), [
    ["/w/a", true, true],
    ["/w/b", true, undefined],
  ], "the card offers undo only where both texts are kept");
});

test("a stored list read back keeps valid after-texts and drops what is not one of their shapes", () => {
  const read = asChangedFiles([
    { path: "/w/a", kind: "modified", before: "a", after: "A" },
    { path: "/w/b", kind: "deleted", before: "b", after: null },
    { path: "/w/c", kind: "modified", before: "c", after: 42, afterUnknown: "because" },
    { path: "/w/d", kind: "created", before: null, afterUnknown: "binary" },
  ]);
  assert.deepEqual(read, [
    { path: "/w/a", kind: "modified", before: "a", after: "A" },
    { path: "/w/b", kind: "deleted", before: "b", after: null },
    { path: "/w/c", kind: "modified", before: "c" },
    { path: "/w/d", kind: "created", before: null, afterUnknown: "binary" },
  ]);
});
