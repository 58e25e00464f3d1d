/** A timer started by a {@link Clock}; cancel it with `Clock.clearTimeout`. */
export interface TimerHandle {
  readonly id: number;
}

/**
 * Time as the agent manager sees it: the current time and one-shot timers, in milliseconds. Injected so tests drive
 * idle stops and crash backoff with a {@link ManualClock} instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch (or any fixed origin). */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. A pending timer never keeps the process alive. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** The real clock: `Date.now` and unref'd Node timers. */
export const systemClock: Clock = (() => {
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const id = next++;
      const timer = setTimeout(() => {
        timers.delete(id);
        fn();
      }, ms);
      timer.unref();
      timers.set(id, timer);
      return { id };
    },
    clearTimeout(handle) {
      if (!handle) return;
      clearTimeout(timers.get(handle.id));
      timers.delete(handle.id);
    },
  };
})();

/**
 * A clock that moves only when told to ({@link advance}), for tests: timers due by the new time fire in order of
 * their due time. Starts at `start` ms.
 */
export class ManualClock implements Clock {
  private time: number;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete(handle.id);
  }

  /** Number of timers not yet fired or cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms` milliseconds, firing every timer that falls due on the way, earliest first. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let dueId: number | undefined;
      let dueAt = Infinity;
      for (const [id, t] of this.timers) {
        if (t.at <= target && t.at < dueAt) {
          dueId = id;
          dueAt = t.at;
        }
      }
      if (dueId === undefined) break;
      const timer = this.timers.get(dueId)!;
      this.timers.delete(dueId);
      this.time = Math.max(this.time, timer.at);
      timer.fn();
    }
    this.time = target;
  }
}
