import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../shared/errors";
import type { Store, StoreChanges } from "./Store";

/** What a decision function returns: the one batch to commit, and what the caller gets once it is committed. */
export interface Decision<T> {
  changes: StoreChanges;
  result: T;
}

/**
 * The one write lane of a store (issue 16, "the reducer decides, the executor applies"): every durable write of the
 * channels and of the turns' `persist` effects is a {@link write} — read what the decision needs, decide (a pure
 * function), commit its changes as one batch — and writes run one after the other, so nothing is written between a
 * write's read and its commit (a member removed while a turn's batch is being prepared stays removed).
 *
 * A read, decision or commit never calls {@link write} again (it would wait for itself), and never waits for the turn
 * executor's queue (whose `persist` effects wait for this lane). The tool-intent log (`src/turns/intents.ts`) writes
 * records nothing else writes and stays outside.
 */
export class StoreWriter {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** @param store the open store every write of this lane commits to (reads may use it directly) */
  constructor(readonly store: Store) {}

  /** Whether a write is queued or running. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /**
   * Runs `read` then `decide` and commits the decision's changes in one batch, after every write submitted before.
   * Nothing is committed when `decide` throws (a refusal, such as `channel/exists`): its error rejects the caller.
   * @returns the decision's result, once its batch is committed
   * @throws SidekicksError `store/writeFailed` when the store cannot be read or refuses the batch (nothing of it is
   *   written); a `SidekicksError` the decision or the store raise (`store/staleAttempt`) as it is
   */
  write<S, T>(read: (store: Store) => Promise<S> | S, decide: (state: S) => Decision<T>): Promise<T> {
    this.pending++;
    const run = this.tail.then(async () => {
      const state = await guard(() => read(this.store));
      const { changes, result } = decide(state);
      await guard(() => this.store.commit(changes));
      return result;
    });
    const done = run.finally(() => this.pending--);
    this.tail = done.catch(() => undefined);
    return done;
  }
}

/** Runs a store call; anything but a `SidekicksError` it throws becomes `store/writeFailed` (the store's reason as `detail`). */
async function guard<T>(call: () => Promise<T> | T): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SidekicksError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new SidekicksError("store/writeFailed", l10n.t("Not saved: the history store refused the change ({0}). Nothing of it was kept.", reason), reason, { cause: err });
  }
}
