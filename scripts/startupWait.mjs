// @ts-check
// How long to wait for code-server to become healthy: as long as it makes progress, within a hard cap (issue 15: a
// fixed 60 s wait failed the first start of a new user on a loaded machine, with nothing to act on). The rule is pure
// (startupVerdict, progressMade; tested in test/unit/startArgs.test.ts); the sampling reads the log file's size, the
// CPU time of the server's process group (Linux /proc) and what /healthz answers. Types: startupWait.d.mts.
import fs from "node:fs";

/** How long code-server may go without any sign of progress before it is given up on, in ms. */
export const STALL_MS = 90_000;
/** The longest code-server is waited for in all, even while it makes progress, in ms. */
export const MAX_WAIT_MS = 10 * 60_000;

/**
 * One look at a starting server: `logBytes` (its log's size), `cpuMs` (CPU time of its process group so far, or
 * undefined where it cannot be read), `health` (what /healthz gave: "refused", "timeout" or "status <code>").
 * @type {typeof import("./startupWait.mjs").progressMade}
 */
export function progressMade(before, now) {
  if (now.logBytes > before.logBytes) return true;
  if (now.cpuMs !== undefined && before.cpuMs !== undefined && now.cpuMs > before.cpuMs) return true;
  return now.health !== before.health;
}

/**
 * What to do next while waiting for a server: "ready" once healthy; "exited" once it exited; "stalled" after
 * `stallMs` (ms) without progress; "timeout" after `maxWaitMs` (ms) in all; else "wait". Exited and healthy win
 * over the clocks.
 *
 * @param state `{ elapsedMs, sinceProgressMs, healthy, exited }` (ms since the start, ms since the last progress)
 * @type {typeof import("./startupWait.mjs").startupVerdict}
 */
export function startupVerdict(state, { stallMs = STALL_MS, maxWaitMs = MAX_WAIT_MS } = {}) {
  if (state.healthy) return "ready";
  if (state.exited) return "exited";
  if (state.elapsedMs >= maxWaitMs) return "timeout";
  if (state.sinceProgressMs >= stallMs) return "stalled";
  return "wait";
}

/** Size of `file` in bytes, 0 when it does not exist (or no file is kept). @type {typeof import("./startupWait.mjs").fileBytes} */
export function fileBytes(file) {
  if (!file) return 0;
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * CPU time (user + system, ms) used so far by the live processes of process group `pgid`, from Linux's /proc; undefined
 * elsewhere or when /proc cannot be read. Clock ticks are taken as 100 a second (Linux's USER_HZ).
 * @type {typeof import("./startupWait.mjs").groupCpuMs}
 */
export function groupCpuMs(pgid) {
  if (process.platform !== "linux") return undefined;
  let entries;
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command name (which may hold spaces, inside parentheses): state ppid pgrp … utime stime.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/**
 * The last `count` non-empty lines of `file` written after byte `from` (at most its last 64 KB), or [] when it cannot
 * be read: a log that several runs append to shows only this run's lines.
 * @type {typeof import("./startupWait.mjs").logTail}
 */
export function logTail(file, count = 15, from = 0) {
  if (!file) return [];
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, "r");
    try {
      const start = Math.max(from, size - 64 * 1024, 0);
      const length = Math.max(0, size - start);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, start);
      return buffer.toString("utf8").split("\n").map((l) => l.trimEnd()).filter(Boolean).slice(-count);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
}
