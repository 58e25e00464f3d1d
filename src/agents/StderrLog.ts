import { stripTerminalEscapes } from "../shared/terminalText";
import type { Clock, TimerHandle } from "./Clock";

/** Stderr lines an agent's log takes per window before it counts instead (field case 8). */
export const STDERR_LOG_LINES = 200;
/** The window of {@link STDERR_LOG_LINES}, in ms. */
export const STDERR_LOG_WINDOW_MS = 1_000;

/**
 * Keeps an agent's stderr flood from flooding its log (field case 8: 200,000 lines of 256 B).
 *
 * Without a limit, every line costs the extension host a log call. The log file also rotates, so the start-up lines a
 * user needs are pushed out by noise. At most `maxLines` lines per `windowMs` go to `write`, terminal escape
 * sequences stripped (an output channel would show their codes); the rest are counted, and when that window ends
 * one warning says how many were left out.
 *
 * The last 64 KB of stderr are kept apart, whatever this leaves out (`StderrTail`): they go into the error an agent's
 * exit shows.
 */
export class StderrLog {
  private windowStart = -Infinity;
  private written = 0;
  private skipped = 0;
  private timer: TimerHandle | undefined;

  /**
   * @param write receives the lines kept (`info`) and the counts of lines left out (`warn`)
   * @param clock time and timers (ms)
   * @param maxLines lines kept per window
   * @param windowMs length of a window, in ms
   */
  constructor(
    private readonly write: (level: "info" | "warn", line: string) => void,
    private readonly clock: Clock,
    private readonly maxLines = STDERR_LOG_LINES,
    private readonly windowMs = STDERR_LOG_WINDOW_MS,
  ) {}

  /** One stderr line (without its newline). */
  line(text: string): void {
    const now = this.clock.now();
    if (now - this.windowStart >= this.windowMs) {
      this.flush();
      this.windowStart = now;
      this.written = 0;
    }
    if (this.written < this.maxLines) {
      this.written += 1;
      this.write("info", stripTerminalEscapes(text)); // an output channel shows no colours, only their codes
      return;
    }
    this.skipped += 1;
    if (this.skipped === 1) this.timer = this.clock.setTimeout(() => this.flush(), this.windowStart + this.windowMs - now);
  }

  /** Writes the count of lines left out so far, if any (also when the agent exits, so no count is lost). */
  flush(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.skipped === 0) return;
    const skipped = this.skipped;
    this.skipped = 0;
    this.write(
      "warn",
      `[sidekicks] ${skipped.toLocaleString("en-US")} stderr lines not logged: more than ${this.maxLines} a second. The last 64 KB of stderr are kept for the error shown if the agent exits.`,
    );
  }
}
