/**
 * Builds the meta index (`meta/`, `ctx/`, `tally/`: `messageMeta.ts`, `contextEntries.ts`) of a store that has none —
 * created before it, written when it was only `meta/` (`"complete"`), or repaired — once after the open, a step at a
 * time through the write lane, as the word index of ADR 0007 is built. Until it is complete the catch-up and the
 * counts read the messages (the same text, slower).
 */
import { IndexBuild } from "./indexBuild";
import type { StoreWriter } from "./StoreWriter";

/** Messages given their entries per step. */
const BUILD_STEP = 500;

/** The build of one store's meta index: {@link build} once after the open, {@link stop} before it closes. */
export class MetaIndexBuild {
  private readonly steps: IndexBuild;

  /** @param writer the store's one write lane; `step` messages per write (tests use fewer) */
  constructor(
    private readonly writer: StoreWriter,
    private readonly step = BUILD_STEP,
  ) {
    this.steps = new IndexBuild(
      () => writer.store.metaIndexComplete,
      () => this.next(),
    );
  }

  /**
   * Builds the index, yielding to other work between steps; resolves once it is complete (at once for a store whose
   * index is), or once {@link stop} is called (a later open goes on from the last step).
   */
  build(): Promise<void> {
    return this.steps.build();
  }

  /** Stops after the current step (the store is closing). */
  stop(): Promise<void> {
    return this.steps.stop();
  }

  /** One step: the next messages' entries and the state after, in one batch. @returns whether the index is complete */
  next(): Promise<boolean> {
    return this.writer.write(
      (store) => store.metaIndexStep(this.step),
      (step) => ({ changes: step.messages.length > 0 || step.state.complete ? { metaIndex: step } : {}, result: step.state.complete }),
    );
  }
}
