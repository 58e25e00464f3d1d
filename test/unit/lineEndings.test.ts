// Field case 13: a change that only turns LF into CRLF (or back) is told apart from a change of text, for the card and
// the diff editor's title; and a turn that does it to a file on disk says so on its files card.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { lineEndingChange, lineEndingOf } from "../../src/shared/lineEndings";
import { TurnFiles } from "../../src/workspace/turnFiles";
import { tempDir } from "./helpers";

test("lineEndingOf and lineEndingChange", () => {
  assert.deepEqual(["a\nb\n", "a\r\nb\r\n", "a\rb", "a\nb\r\n", "one line"].map(lineEndingOf), ["LF", "CRLF", "CR", "mixed", "none"]);
  assert.deepEqual(lineEndingChange("a\nb\n", "a\r\nb\r\n"), { from: "LF", to: "CRLF" });
  assert.deepEqual(lineEndingChange("a\r\nb\r\n", "a\nb\n"), { from: "CRLF", to: "LF" });
  assert.deepEqual(lineEndingChange("a\nb\r\n", "a\r\nb\r\n"), { from: "mixed", to: "CRLF" });
  assert.equal(lineEndingChange("a\nb\n", "a\r\nc\r\n"), undefined, "the text changed too");
  assert.equal(lineEndingChange("a\n", "a\n"), undefined, "nothing changed");
  assert.equal(lineEndingChange(null, "a\r\n"), undefined, "a new file");
});

test("a turn that only rewrote a file's line endings lists it with them; a real change does not carry the note", async () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src", "crlf.ts"), "export const a = 1;\nexport const b = 2;\n");
    writeFileSync(path.join(dir, "src", "edit.ts"), "x\n");
    const files = new TurnFiles();
    await files.begin("T1", dir, Infinity);
    writeFileSync(path.join(dir, "src", "crlf.ts"), "export const a = 1;\r\nexport const b = 2;\r\n");
    writeFileSync(path.join(dir, "src", "edit.ts"), "y\r\n");
    await files.changed([
      { path: path.join(dir, "src", "crlf.ts"), kind: "changed" },
      { path: path.join(dir, "src", "edit.ts"), kind: "changed" },
    ]);
    const changed = (await files.end("T1")).map((f) => [path.basename(f.path), f.kind, f.lineEndings]);
    assert.deepEqual(changed, [
      ["crlf.ts", "modified", { from: "LF", to: "CRLF" }],
      ["edit.ts", "modified", undefined],
    ]);
  } finally {
    cleanup();
  }
});
