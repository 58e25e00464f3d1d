/**
 * The text Insert puts at a cursor for a code block's code (issue 6, "insert at cursor"). Pure: no `vscode` import,
 * so the rule is unit-tested; `EditorActions.insertText` applies it per cursor.
 *
 * The code goes in exactly as Copy gives it, with one exception: a cursor at the start of a line that has text after
 * it gets a line break after the code, so the block's last line does not run into that text (`}# heading`).
 */
export function insertionAt(code: string, cursor: { character: number; restOfLine: string; selectionEmpty: boolean }): string {
  if (code === "" || code.endsWith("\n") || !cursor.selectionEmpty) return code;
  return cursor.character === 0 && cursor.restOfLine.trim() !== "" ? `${code}\n` : code;
}
