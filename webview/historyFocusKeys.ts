/**
 * Keys between the composer and the history, as VS Code's chat view has them: Ctrl+Up (Cmd+Up on macOS) in the
 * composer, with the caret at the start of the draft, focuses the latest message, where Up/Down, j/k, Home and End
 * move on (`History.tsx`); Ctrl+Down (Cmd+Down) or Escape on a focused message comes back to the composer. A fresh-user
 * trial needed 61 Shift+Tab presses through every message's buttons to reach the history from the composer.
 *
 * Taken at the window in the capture phase (as `findKey.ts`), only for these keys on these targets; anything else goes
 * on as before. The caret rule keeps Cmd+Up's own meaning in a draft of several lines (to its start) for the first
 * press.
 */

/** The key as this module reads it: Ctrl or Cmd with an arrow, no Alt or Shift. */
function modifiedArrow(event: KeyboardEvent, key: "ArrowUp" | "ArrowDown"): boolean {
  return event.key === key && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** The latest message shown in `doc`'s history, focused; false when there is none. */
function focusLatestMessage(doc: Document): boolean {
  const articles = doc.querySelectorAll<HTMLElement>(".history .message");
  const last = articles[articles.length - 1];
  if (!last) return false;
  last.focus();
  return true;
}

/** Installs the keys on `win`. Returns what removes them. */
export function installHistoryFocusKeys(win: Window = window): () => void {
  const listener = (event: KeyboardEvent): void => {
    if (event.isComposing) return;
    const target = event.target as HTMLElement | null;
    if (!target) return;
    const doc = win.document;
    if (target.matches("#composer textarea") && modifiedArrow(event, "ArrowUp")) {
      const box = target as HTMLTextAreaElement;
      if (box.selectionStart !== 0 || box.selectionEnd !== 0) return; // first the caret to the start, as usual
      if (!focusLatestMessage(doc)) return;
    } else if (target.matches(".history .message") && (modifiedArrow(event, "ArrowDown") || (event.key === "Escape" && !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey))) {
      const box = doc.querySelector<HTMLTextAreaElement>("#composer textarea");
      if (!box) return;
      box.focus();
    } else return;
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  win.addEventListener("keydown", listener, { capture: true });
  return () => win.removeEventListener("keydown", listener, { capture: true });
}
