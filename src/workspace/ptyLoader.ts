/**
 * Loading `node-pty`, the native module ACP client terminals run on (terminals.ts), on first use: a package built for
 * another platform, or a missing build, must not stop the extension from loading. No `vscode` import.
 */
import type * as Pty from "node-pty";

let pty: typeof Pty | Error | undefined;

/**
 * `node-pty`, loaded on first use (it is a native module: a package built for another platform, or a missing build,
 * must not stop the extension from loading — terminals alone are then unavailable, and said so).
 * @returns the module, or the Error that loading it raised
 */
export function loadPty(): typeof Pty | Error {
  if (pty === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      pty = require("node-pty") as typeof Pty;
    } catch (err) {
      pty = err instanceof Error ? err : new Error(String(err));
    }
  }
  return pty;
}

/** Whether terminals can run here (node-pty loads). */
export function terminalsAvailable(): boolean {
  return !(loadPty() instanceof Error);
}
