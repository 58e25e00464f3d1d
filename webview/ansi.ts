/**
 * Terminal escape sequences are stripped before rendering, never shown as literal text (field case 12; the rule is
 * `src/shared/terminalText.ts`, shared with the host); bidi controls are shown as visible markers.
 */
import { terminalScreen } from "../src/shared/terminalScreen";
import { stripTerminalEscapes } from "../src/shared/terminalText";
import { showBidiControls } from "../src/shared/visibleText";

/** The rule and the `[U+202E]` marker are shared with the host's export (`src/shared/visibleText.ts`). */
export { showBidiControls };

/** Returns `text` without terminal escape sequences, with bidi controls shown (unchanged, and cheap, when it holds neither). */
export function stripAnsi(text: string): string {
  return stripTerminalEscapes(showBidiControls(text));
}

/**
 * What a terminal shows of an output (`src/shared/terminalScreen.ts`: progress redrawn with CR or cursor moves shows
 * its last frame, erased lines are gone, escape sequences are dropped; field case 21), with bidi controls shown. For
 * tool outputs and terminals; the whole text at each call (an overwrite can reach back into earlier lines).
 */
export function terminalText(text: string): string {
  return terminalScreen(showBidiControls(text));
}
