/**
 * Characters that would make text display, or a file read, as something it does not say, shown as visible
 * `[U+202E]` markers instead. Pure, with no imports: the webview (`webview/ansi.ts`, every agent text it renders) and
 * the host (the channel export, `src/channels/exportMarkdown.ts`) use the same rule and the same marker.
 * - Unicode bidirectional controls (embeddings, overrides, isolates: U+202A–U+202E, U+2066–U+2069) reorder the text
 *   around them ("Trojan Source", CVE-2021-42574);
 * - C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F) other than tab and line breaks: a NUL makes `grep`
 *   call a file binary, a lone carriage return or a backspace lets a terminal overwrite what came before.
 */

/** Unicode bidirectional controls: they can make agent text read as something else. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
/**
 * Bidi controls and C0/C1 controls except tab (U+0009), line feed (U+000A) and a carriage return that starts a CRLF
 * line ending.
 */
const CONTROLS = /[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

/** `[U+202E]`, `[U+0000]`: the marker a hidden character is shown as (its code point, at least four upper-case hex digits). */
export function codePointMarker(c: string): string {
  return `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`;
}

/**
 * Shows bidirectional control characters as visible `[U+202E]` markers instead of letting them reorder the text
 * around them ("Trojan Source"): an agent's answer, title or output cannot display as something it does not say.
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, codePointMarker);
}

/**
 * Shows bidi controls and C0/C1 control characters as visible markers (`[U+0000]`, `[U+202E]`), keeping tabs and line
 * breaks (LF, CRLF; a lone CR is marked). For text written to a file a user reads with other tools (the export).
 * Terminal escape sequences are not recognised here: strip them first (`stripTerminalEscapes`) to show what the view
 * shows; an `ESC` left over is marked.
 */
export function showControls(text: string): string {
  return text.replace(CONTROLS, codePointMarker);
}
