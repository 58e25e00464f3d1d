/**
 * Ctrl+F (Cmd+F on macOS) inside the Sidekicks view opens `Sidekicks: Search history…` within the channel shown
 * (issue 21). A webview view has no find widget of its own, and VS Code forwards a webview's keys to the workbench,
 * where Ctrl+F would open the find widget of whatever editor is open — not what the user pressed it for here.
 *
 * The key is taken at the window in the capture phase, before any element and before the frame's own listener that
 * forwards keys to the workbench, and goes no further.
 */

/** True for the find key: Ctrl+F, or Cmd+F on macOS (no Alt, no Shift: Ctrl+Shift+F stays the workbench's search). */
export function isFindKey(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">): boolean {
  return (event.key === "f" || event.key === "F") && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** Calls `onFind` for each find key pressed in `win`, which then goes nowhere else. Returns what removes the listener. */
export function installFindKey(onFind: () => void, win: Window = window): () => void {
  const listener = (event: KeyboardEvent): void => {
    if (!isFindKey(event) || event.isComposing) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    onFind();
  };
  win.addEventListener("keydown", listener, { capture: true });
  return () => win.removeEventListener("keydown", listener, { capture: true });
}
