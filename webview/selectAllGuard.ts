/**
 * "Select All" in a webview: VS Code forwards the key to the workbench, whose Select All command posts
 * `execCommand("selectAll")` back to the webview (its command override for webviews). That selection lands later,
 * after keys typed since, and the next key replaces what it selected: a trial typed Ctrl+A, Backspace, "@od" and Enter,
 * and "od" went to the wrong agent, its "@" gone.
 *
 * The browser has already selected the composer's text when the key went down. The composer says so
 * ({@link selectedAllHere}), and the one late `selectAll` that follows within {@link SELECT_ALL_GUARD_MS} is dropped.
 * A Select All that the composer did not handle (the focus elsewhere, the Edit menu) runs as before.
 */

/** How long after the key a late `selectAll` from the host is taken for its echo, in ms. */
export const SELECT_ALL_GUARD_MS = 1_500;

let handledAt = Number.NEGATIVE_INFINITY;

/** The composer handled Ctrl/Cmd+A itself (the browser selected its text): the host's echo is to be dropped. */
export function selectedAllHere(now = performance.now()): void {
  handledAt = now;
}

/** True for the key that selects all in a text field: Ctrl+A, or Cmd+A on macOS. */
export function isSelectAllKey(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">): boolean {
  return (event.key === "a" || event.key === "A") && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** Wraps `doc.execCommand` so that the host's late echo of a Select All the composer handled is dropped (once). */
export function installSelectAllGuard(doc: Document = document): void {
  const original = doc.execCommand.bind(doc);
  doc.execCommand = (command: string, showUI?: boolean, value?: string): boolean => {
    if (command.toLowerCase() === "selectall" && performance.now() - handledAt < SELECT_ALL_GUARD_MS) {
      handledAt = Number.NEGATIVE_INFINITY;
      return true;
    }
    return original(command, showUI, value);
  };
}
