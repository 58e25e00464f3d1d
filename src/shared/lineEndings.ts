/**
 * A change that only turns one kind of line ending into another (field case 13: an agent on Windows, or a tool with
 * `core.autocrlf`, rewrites every LF as CRLF): every line differs byte for byte, so a line count says "+120 −120" and
 * VS Code's diff editor, which compares lines without their endings, may show nothing at all. The card and the diff
 * say what happened instead. Pure; imports nothing.
 */

/** The line endings a text uses: `LF`, `CRLF`, `CR`, `mixed`, or `none` (a single line). */
export type LineEnding = "LF" | "CRLF" | "CR" | "mixed" | "none";

/** What line endings `text` uses. */
export function lineEndingOf(text: string): LineEnding {
  const crlf = text.split("\r\n").length - 1;
  const cr = text.split("\r").length - 1 - crlf;
  const lf = text.split("\n").length - 1 - crlf;
  const kinds = [crlf > 0, cr > 0, lf > 0].filter(Boolean).length;
  if (kinds === 0) return "none";
  if (kinds > 1) return "mixed";
  return crlf > 0 ? "CRLF" : cr > 0 ? "CR" : "LF";
}

/**
 * `{ from, to }` when `newText` is `oldText` with only its line endings changed (the same text once every ending
 * reads `\n`); undefined when anything else differs, nothing differs, or there is no earlier text.
 */
export function lineEndingChange(oldText: string | null, newText: string): { from: LineEnding; to: LineEnding } | undefined {
  if (oldText === null || oldText === newText) return undefined;
  if (normalize(oldText) !== normalize(newText)) return undefined;
  return { from: lineEndingOf(oldText), to: lineEndingOf(newText) };
}

function normalize(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
