/** See startupWait.mjs: how long code-server is waited for. */
export const STALL_MS: number;
export const MAX_WAIT_MS: number;
/** One look at a starting server. */
export interface StartupSample {
  /** Size of its log, in bytes. */
  logBytes: number;
  /** CPU time of its process group so far, in ms; undefined where it cannot be read. */
  cpuMs: number | undefined;
  /** What /healthz gave: "refused", "timeout" or "status <code>". */
  health: string;
}
export function progressMade(before: StartupSample, now: StartupSample): boolean;
export type StartupVerdict = "ready" | "wait" | "exited" | "stalled" | "timeout";
export function startupVerdict(
  state: { elapsedMs: number; sinceProgressMs: number; healthy: boolean; exited: boolean },
  options?: { stallMs?: number; maxWaitMs?: number },
): StartupVerdict;
export function fileBytes(file: string | undefined): number;
export function groupCpuMs(pgid: number): number | undefined;
export function logTail(file: string | undefined, count?: number, from?: number): string[];
