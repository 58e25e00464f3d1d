import * as l10n from "@vscode/l10n";
import type { ClassicLevel } from "classic-level";
import { SidekicksError } from "../shared/errors";
import { markNeedsRepair } from "./openLevel";

/** One operation of a write batch. */
export type LevelOp = { type: "put"; key: string; value: string } | { type: "del"; key: string };

/** A key range of an iteration (classic-level's own options). */
export interface LevelRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  limit?: number;
  /** How many bytes one trip to LevelDB's thread may bring back (its default is 16 KiB: a few messages a trip). */
  highWaterMarkBytes?: number;
}

/**
 * The store's one door to LevelDB, turning its failures into what a user can act on:
 * - **reads** that meet corruption (a damaged table: `LEVEL_CORRUPTION`) throw `store/damaged`, which says to reload
 *   the window, and leave a marker so that the next open sets the folder aside and repairs a copy (`openLevel.ts`);
 * - **writes**: after one failed write (a full disk: `No space left on device`) every later write is refused with
 *   the same `store/writeFailed` until the store is opened again. LevelDB does not stop by itself: after a failed
 *   log append it keeps accepting writes, and the partial record left in the log makes the replay at the next open
 *   drop them (measured: three commits after one ENOSPC reported success and were gone after a reopen). Refusing
 *   them keeps every reported success durable: the partial record stays the log's last, which LevelDB ignores.
 */
export class GuardedLevel {
  private writeError: SidekicksError | undefined;

  /** @param dir the store's folder, for the repair marker and the messages */
  constructor(
    readonly raw: ClassicLevel<string, string>,
    private readonly dir: string,
  ) {}

  /** The value under `key`, or undefined. @throws SidekicksError `store/damaged` */
  async get(key: string): Promise<string | undefined> {
    try {
      return await this.raw.get(key);
    } catch (err) {
      throw this.readFailed(err);
    }
  }

  /** The values under `keys`, in their order (undefined where there is none), in one trip. @throws SidekicksError `store/damaged` */
  async getMany(keys: string[]): Promise<(string | undefined)[]> {
    try {
      return await this.raw.getMany(keys);
    } catch (err) {
      throw this.readFailed(err);
    }
  }

  /** The entries of `range`, in key order (reverse when asked). @throws SidekicksError `store/damaged` */
  async *iterator(range: LevelRange): AsyncGenerator<[string, string]> {
    try {
      for await (const entry of this.raw.iterator(range)) yield entry;
    } catch (err) {
      throw this.readFailed(err);
    }
  }

  /**
   * The entries of `range` (which has a `limit`) in one trip to LevelDB's thread, when they fit its
   * `highWaterMarkBytes` (more trips otherwise): iterating costs a first trip for one entry, then one for the rest.
   * @throws SidekicksError `store/damaged`
   */
  async entries(range: LevelRange & { limit: number }): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for await (const page of this.pages(range, range.limit)) for (const entry of page) out.push(entry);
    return out;
  }

  /**
   * The entries of `range` in pages of up to `size` (one native read each; the first of up to `first`), in key order.
   * @throws SidekicksError `store/damaged`
   */
  async *pages(range: LevelRange, size: number, first = size): AsyncGenerator<[string, string][]> {
    const it = this.raw.iterator(range);
    try {
      for (let n = first; ; n = size) {
        const page = await it.nextv(n);
        if (page.length === 0) return;
        yield page;
      }
    } catch (err) {
      throw this.readFailed(err);
    } finally {
      await it.close();
    }
  }

  /**
   * Keys of `range` in order, skipping: after each key, the read moves on to `skip(key)` (one seek, no entries read
   * in between). @throws SidekicksError `store/damaged`
   */
  async *skipping(range: LevelRange, skip: (key: string) => string): AsyncGenerator<string> {
    const it = this.raw.keys(range);
    try {
      for (;;) {
        const key = await it.next();
        if (key === undefined) return;
        yield key;
        it.seek(skip(key));
      }
    } catch (err) {
      throw this.readFailed(err);
    } finally {
      await it.close();
    }
  }

  /**
   * Writes `ops` in one atomic batch; with `sync`, flushed to the disk before it resolves (survives a power cut).
   * @throws SidekicksError `store/writeFailed` (this write, or an earlier one, failed)
   */
  async batch(ops: LevelOp[], sync = false): Promise<void> {
    await this.write(() => this.raw.batch(ops, { sync }));
  }

  /** Deletes every key of `range`. @throws SidekicksError `store/writeFailed` */
  async clear(range: LevelRange): Promise<void> {
    await this.write(() => this.raw.clear(range));
  }

  /** The error every write gets since a write failed, or undefined. */
  get failed(): SidekicksError | undefined {
    return this.writeError;
  }

  private async write(run: () => Promise<unknown>): Promise<void> {
    if (this.writeError) throw this.writeError;
    try {
      await run();
    } catch (err) {
      if (this.raw.status !== "open") throw err; // closed under the write: not a disk problem
      const reason = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
      this.writeError = new SidekicksError(
        "store/writeFailed",
        l10n.t("The history could not be saved: {0}. Nothing more is saved in this window, so that nothing is reported saved that is not: free disk space (or fix the folder {1}), then reload the window.", reason, this.dir),
        reason,
        { cause: err },
      );
      throw this.writeError;
    }
  }

  private readFailed(err: unknown): unknown {
    if ((err as { code?: string }).code !== "LEVEL_CORRUPTION") return err;
    const detail = (err as Error).message;
    markNeedsRepair(this.dir, detail);
    return new SidekicksError(
      "store/damaged",
      l10n.t("Part of the history is damaged on disk ({0}). Reload the window: Sidekicks then moves the damaged folder aside, unchanged, and opens a repaired copy; nothing is deleted.", detail),
      this.dir,
      { cause: err },
    );
  }
}
