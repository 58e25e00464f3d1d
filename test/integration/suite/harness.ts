/**
 * The harness's pictures and workbench checks for every real-editor suite, through the reply-file requests of
 * `vsixBridge.ts` (answered by runCodeServer.mjs with webviewDriver.mjs): each call returns once the harness has done
 * it, so a picture shows exactly the moment it is asked for and the test goes on when the file is written (no sleep).
 */
import { webview } from "./vsixBridge";

/**
 * Asks the harness for test-results/<name>.png (the whole page, or with `part` "sidebar" the side bar) and waits for
 * it to be written; rejects after 60 s without an answer. Resolves to whether the channel view showed in it (when it
 * did not, the harness printed a warning and saved the page as it was).
 */
export async function screenshot(name: string, part?: "sidebar"): Promise<boolean> {
  return (await webview("vsix/screenshot", part ? { name, part } : { name })).taken;
}

/**
 * Waits until an element of the workbench page (outside the webview) matching the CSS `selector` is visible, e.g. the
 * terminal panel or the diff editor drawn; rejects with the harness's error after 30 s.
 */
export async function workbenchVisible(selector: string): Promise<void> {
  await webview("workbench/visible", { selector });
}

/** The text on the browser's clipboard, read by the harness in the workbench page (what a webview's Copy wrote). */
export async function clipboardText(): Promise<string> {
  return (await webview("workbench/clipboard", {})).text;
}

/** The 1-based lines where the active text editor draws error squiggles, in order (read from the workbench's DOM). */
export async function squiggleLines(): Promise<number[]> {
  return (await webview("workbench/squiggles", {})).lines;
}

/** Types `text` into the focused workbench input (a quick pick, an input box) in place of what it holds, then Enter. */
export async function typeInWorkbench(text: string): Promise<void> {
  await webview("workbench/keys", { text });
}
