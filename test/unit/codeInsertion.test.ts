/** Insert at cursor (issue 6): the code goes in as Copy gives it, and never runs into the text after a line-start cursor. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { insertionAt } from "../../src/vscode/codeInsertion";

const at = (character: number, restOfLine: string, selectionEmpty = true) => ({ character, restOfLine, selectionEmpty });

test("at the start of a line of text, the code is followed by a line break so its last line stays its own", () => {
  const code = "function f() {\n  return 1;\n}";
  const inserted = insertionAt(code, at(0, "# Sidekicks demo workspace"));
  assert.equal(inserted + "# Sidekicks demo workspace", "function f() {\n  return 1;\n}\n# Sidekicks demo workspace");
});

test("anywhere else, over a selection, on an empty line, or for code that already ends a line, it goes in exactly as copied", () => {
  const code = "npm test";
  assert.equal(insertionAt(code, at(4, "rest of the line")), code, "inside a line");
  assert.equal(insertionAt(code, at(0, "")), code, "on an empty line");
  assert.equal(insertionAt(code, at(0, "   ")), code, "on a line of spaces");
  assert.equal(insertionAt(code, at(0, "selected text", false)), code, "replacing a selection");
  assert.equal(insertionAt("a\nb\n", at(0, "text")), "a\nb\n", "already ends with a line break");
  assert.equal(insertionAt("", at(0, "text")), "", "nothing to insert");
});
