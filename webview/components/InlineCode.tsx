/**
 * A short text (a tool call's or permission request's title) with its Markdown code spans shown as code: Claude Code
 * titles its calls "`npm test`", "Read `src/a.ts`". Only backtick spans are read (CommonMark's rule: a run of N
 * backticks closes at the next run of exactly N, and one space is stripped from each end when both have one); the
 * rest stays literal text. Escape sequences are stripped, as everywhere an agent's text is shown.
 */
import { stripAnsi } from "../ansi";

/** The pieces of `text`: plain text, and code spans (`code: true`). Pure; exported for tests. */
export function codeSpans(text: string): { text: string; code: boolean }[] {
  const out: { text: string; code: boolean }[] = [];
  const push = (piece: string, code: boolean) => {
    if (piece === "") return;
    const last = out[out.length - 1];
    if (last && last.code === code && !code) last.text += piece;
    else out.push({ text: piece, code });
  };
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("`", i);
    if (open === -1) break;
    let run = open;
    while (text[run] === "`") run++;
    const ticks = run - open;
    let close = run;
    let found = -1;
    while ((close = text.indexOf("`", close)) !== -1) {
      let end = close;
      while (text[end] === "`") end++;
      if (end - close === ticks) {
        found = close;
        break;
      }
      close = end;
    }
    if (found === -1) {
      push(text.slice(i, run), false);
      i = run;
      continue;
    }
    push(text.slice(i, open), false);
    let code = text.slice(run, found);
    if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
    push(code, true);
    i = found + ticks;
  }
  push(text.slice(i), false);
  return out;
}

/** The title with its code spans as `<code>`. */
export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {codeSpans(stripAnsi(text)).map((piece, i) => (piece.code ? <code key={i}>{piece.text}</code> : piece.text))}
    </>
  );
}
