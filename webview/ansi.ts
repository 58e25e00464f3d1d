/**
 * Terminal escape sequences (ANSI CSI such as colours `ESC[1;37m` and modes `ESC[?9001h`, OSC such as window titles
 * `ESC]0;…BEL`, and two-byte escapes) as agents and tools print them. Field case 12: they are stripped before
 * rendering, never shown as literal text. A sequence cut off at the end of a streaming text is held back too.
 */
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CUT_OFF = /\u001b(?:\[[0-?]*[ -/]*|\][^\u0007\u001b]*)?$/;

/** Returns `text` without terminal escape sequences (unchanged, and cheap, when it holds none). */
export function stripAnsi(text: string): string {
  const shown = showBidiControls(text);
  if (!shown.includes("\u001b") && !shown.includes("\u009b")) return shown;
  return shown.replace(SEQUENCES, "").replace(CUT_OFF, "");
}

/** Unicode bidirectional controls (embeddings, overrides, isolates): they can make agent text read as something else. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Shows bidirectional control characters as visible `[U+202E]` markers instead of letting them reorder the text
 * around them ("Trojan Source"): an agent's answer, title or output cannot display as something it does not say.
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`);
}
