/**
 * A derived index of an older store built in the background, one step at a time through the write lane (ADR 0007):
 * the word index (`HistorySearch`) and the meta index (`MetaIndexBuild`). Between steps it yields to other work; it
 * stops after the current step when the store closes, and a later open goes on from the last step written.
 */
export class IndexBuild {
  private stopped = false;
  private building?: Promise<void>;

  /**
   * @param complete whether the index is complete already (read once, before the first step)
   * @param next writes one step; resolves whether the index is complete after it
   */
  constructor(
    private readonly complete: () => boolean | Promise<boolean>,
    private readonly next: () => Promise<boolean>,
  ) {}

  /** Builds the index; resolves once it is complete (at once for one that is), or once {@link stop} is called. */
  build(): Promise<void> {
    this.building ??= this.run();
    return this.building;
  }

  /** Stops after the current step (the store is closing). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.building?.catch(() => undefined);
  }

  private async run(): Promise<void> {
    if (await this.complete()) return;
    while (!this.stopped) {
      if (await this.next()) return;
      await new Promise<void>((resolve) => setImmediate(resolve)); // let turns and the view go first
    }
  }
}
