/** The part of VS Code's `Memento` (`context.globalState`) the list needs; tests pass a Map-backed fake. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** How many roster files are remembered. */
export const RECENT_CONFIGS_LIMIT = 10;

const KEY = "sidekicks.recentConfigs";

/**
 * The roster files used recently, most recent first, at most `RECENT_CONFIGS_LIMIT`, kept in a `Memento` (global
 * state, so `Sidekicks: Open config` can offer files from other folders too). Paths are absolute.
 */
export class RecentConfigs {
  constructor(private readonly memento: MementoLike) {}

  /** Most recent first. Whatever the memento holds that is not a list of strings is ignored. */
  list(): string[] {
    const value = this.memento.get<unknown>(KEY);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").slice(0, RECENT_CONFIGS_LIMIT) : [];
  }

  /** Puts `file` first (once), dropping the oldest beyond the limit. Returns the new list. */
  async remember(file: string): Promise<string[]> {
    const next = [file, ...this.list().filter((f) => f !== file)].slice(0, RECENT_CONFIGS_LIMIT);
    await this.memento.update(KEY, next);
    return next;
  }

  /** Drops `file` (it no longer exists). Returns the new list. */
  async forget(file: string): Promise<string[]> {
    const next = this.list().filter((f) => f !== file);
    await this.memento.update(KEY, next);
    return next;
  }
}
