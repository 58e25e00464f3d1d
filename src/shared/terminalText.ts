/**
 * Terminal escape sequences (ANSI CSI such as colours `ESC[1;37m` and modes `ESC[?9001h`, OSC such as window titles
 * `ESC]0;…BEL`, and two-byte escapes) as agents and tools print them. Field case 12: text shown to a user has them
 * stripped, never printed as literal characters. Pure: the host (error details) and the webview (`webview/ansi.ts`)
 * both use it.
 */
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
/** A sequence cut off at the end of a text (a streaming text, or a tail cut at a size). */
const CUT_OFF = /\u001b(?:\[[0-?]*[ -/]*|\][^\u0007\u001b]*)?$/;

/** Returns `text` without terminal escape sequences (unchanged, and cheap, when it holds none). */
export function stripTerminalEscapes(text: string): string {
  if (!text.includes("\u001b") && !text.includes("\u009b")) return text;
  return text.replace(SEQUENCES, "").replace(CUT_OFF, "");
}
