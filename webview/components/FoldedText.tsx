/**
 * A long text the user wrote (a pasted log, a whole file), shown folded: its first lines and a button that shows the
 * rest, as Slack and chat panels fold a long message so one paste does not push the conversation out of view. The
 * text itself is never cut: what was sent, copied or exported is the whole of it; only the view folds.
 */
import * as l10n from "@vscode/l10n";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { Markdown } from "./Markdown";

/** A text is folded when it has more lines than this, or more characters than `FOLD_CHARS`. */
export const FOLD_LINES = 40;
/** …or more characters than this (a few long lines fold too). */
export const FOLD_CHARS = 6_000;
/** How much of a folded text shows: its first lines, at most this many characters of them. */
const HEAD_LINES = 16;
const HEAD_CHARS = 2_000;

/**
 * The head of `text` shown while folded: its first `HEAD_LINES` lines, cut at a line's end within `HEAD_CHARS`
 * characters (a single long line is cut at that length), with a code fence left open by the cut closed again, so
 * what shows is the text's own beginning, not the rest of it rendered as code. Returns the head and the number of
 * lines of the whole text.
 */
export function foldedHead(text: string): { head: string; lines: number } {
  const all = text.split("\n");
  let head = all.slice(0, HEAD_LINES).join("\n");
  if (head.length > HEAD_CHARS) {
    const cut = head.lastIndexOf("\n", HEAD_CHARS);
    head = head.slice(0, cut > 0 ? cut : HEAD_CHARS);
  }
  const fences = head.match(/^ {0,3}(```|~~~)/gm) ?? [];
  if (fences.length % 2 === 1) head += `\n${fences[fences.length - 1]!.trim()}`;
  return { head, lines: all.length };
}

/** Whether `text` is long enough to fold (`FOLD_LINES`, `FOLD_CHARS`). */
export function foldsText(text: string): boolean {
  if (text.length > FOLD_CHARS) return true;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1 && lines <= FOLD_LINES; i = text.indexOf("\n", i + 1)) lines++;
  return lines > FOLD_LINES;
}

/** The size of `text` in words a user reads: "1,204 lines, 2.4 MB" (UTF-16 length as bytes is near enough here). */
function sizeOf(lines: number, chars: number): string {
  const size = chars >= 1_000_000 ? `${(chars / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(chars / 1_000))} KB`;
  return l10n.t("{0} lines, {1}", lines.toLocaleString(), size);
}

/** A final text part of the user's, folded when long (`foldsText`); the button unfolds it and folds it again. */
export function FoldedText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const folded = useRef(false);
  const root = useRef<HTMLDivElement>(null);
  // Folded again after reading the rest: the text's start, which may now be above the view, is brought back into it.
  useLayoutEffect(() => {
    if (open || !folded.current) return;
    folded.current = false;
    root.current?.scrollIntoView({ block: "nearest" });
  }, [open]);
  // Once per text, not per render: a pasted 2 MB log is split into lines once.
  const fold = useMemo(() => (foldsText(text) ? foldedHead(text) : undefined), [text]);
  if (!fold) return <Markdown text={text} streaming={false} />;
  const { head, lines } = fold;
  const toggle = () => {
    folded.current = open;
    setOpen(!open);
  };
  return (
    <div ref={root} class={open ? "folded-text folded-open" : "folded-text"}>
      <Markdown text={open ? text : head} streaming={false} />
      <button type="button" class="fold-toggle" aria-expanded={open} onClick={toggle}>
        {open ? l10n.t("Show less") : l10n.t("Show all ({0})", sizeOf(lines, text.length))}
      </button>
    </div>
  );
}
