import type { ChildProcess } from "node:child_process";
/** See codeServer.mjs. */
export const quietSettings: Record<string, unknown>;
export const DEMO_RECONNECTION_GRACE_SECONDS: number;
export function portIsFree(port: number): Promise<boolean>;
export function freePort(preferred?: number): Promise<number>;
/** What `onWait` is told while code-server starts. */
export interface StartupWait {
  elapsedMs: number;
  sinceProgressMs: number;
  logBytes: number;
  cpuMs: number | undefined;
  health: string;
}
/** A failed start: `code` is codeServer/exited, codeServer/stalled or codeServer/timeout. */
export interface StartupError extends Error {
  code: "codeServer/exited" | "codeServer/stalled" | "codeServer/timeout";
  port: number;
  logFile?: string;
  logTail: string[];
}
export function startCodeServer(options: {
  node24?: string;
  entry?: string;
  port: number;
  dataDir: string;
  testDriver?: boolean;
  workspaceTrust?: boolean;
  settings?: Record<string, unknown>;
  extensionsDir?: string;
  logFile?: string;
  reconnectionGraceSeconds?: number;
  stallMs?: number;
  maxWaitMs?: number;
  onWait?: (wait: StartupWait) => void;
  reportEveryMs?: number;
}): Promise<{ port: number; baseUrl: string; child: ChildProcess; stop: () => Promise<void> }>;
export function workbenchUrl(options: { port: number; folder: string; extensionDevelopmentPath: string; extensionTestsPath?: string }): string;
