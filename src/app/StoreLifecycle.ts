import * as l10n from "@vscode/l10n";
import type { AgentManager } from "../agents/AgentManager";
import { SidekicksError } from "../shared/errors";
import type { EventBus } from "../events/events";
import { Store } from "../store/Store";
import type { Channels } from "./composeChannels";
import type { EditorPort } from "./EditorPort";
import type { RosterLoader } from "./RosterLoader";

/** Default of {@link StoreLifecycleOptions.lockedRetryMs}. */
export const LOCKED_RETRY_MS = 3_000;

/** What {@link StoreLifecycle} works with. */
export interface StoreLifecycleOptions {
  /** The folder of the history store (absolute). */
  storageDir: string;
  editor: EditorPort;
  agents: AgentManager;
  events: EventBus;
  roster: RosterLoader;
  /** Builds the channels over a store just opened (the composition root's `composeChannels`). */
  channelsFor(store: Store): Channels;
  /** While another window holds the history, how often to try opening it again, in ms (default {@link LOCKED_RETRY_MS}). */
  lockedRetryMs?: number;
}

/**
 * The history store's lifetime in this window: opened (with the channels built over it) after the roster is read,
 * found locked by another window and tried again until it is free, found unreadable, reopened, and closed (the
 * channels first, so running answers are saved as interrupted). Keeps `#general` and the declared channels in step
 * with the roster whenever either changes.
 */
export class StoreLifecycle {
  private store: Store | undefined;
  private channels: Channels | undefined;
  private storeError: SidekicksError | undefined;
  private repairNotice: SidekicksError | undefined;
  private lockedRetry: ReturnType<typeof setInterval> | undefined;
  private disposed = false;

  constructor(private readonly options: StoreLifecycleOptions) {}

  /** The channels over the open store, or `undefined` while it is not open (locked, unreadable, not tried yet). */
  get current(): Channels | undefined {
    return this.channels;
  }

  /**
   * Why this window cannot use the channel history, or `undefined` when it is open (or not tried yet):
   * `store/locked` while another window holds it, `store/corrupt` when it could not be read.
   */
  get problem(): SidekicksError | undefined {
    return this.channels ? undefined : this.storeError;
  }

  /**
   * The channels over the open store.
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  require(): Channels {
    if (!this.channels) throw this.storeError ?? new SidekicksError("store/corrupt", l10n.t("The history store is not open."));
    return this.channels;
  }

  /**
   * Opens the store and builds the channels over it; a locked or unreadable store becomes {@link problem}. A read
   * that meets a damaged table while the channels are built (`store/damaged`) closes the store and opens it once
   * more, which sets the damaged folder aside and opens a repaired copy (openLevel.ts).
   */
  async open(retried = false): Promise<void> {
    const { editor, storageDir, roster } = this.options;
    try {
      this.store = await Store.open(storageDir, (key, reason) => editor.log("warn", `store: skipped record ${key}: ${reason}`));
      this.storeError = undefined;
      this.reportRecovery(this.store);
      this.channels = this.options.channelsFor(this.store);
      if (roster.roster || roster.config.state !== "missing") await this.channels.directory.syncGeneral(this.options.agents.names());
      else await this.channels.directory.syncGeneral([]);
      await this.syncDeclared();
    } catch (err) {
      if (!retried && this.store && err instanceof SidekicksError && err.code === "store/damaged") {
        editor.log("warn", `${err.message} (${storageDir}): opening it again to repair it`);
        await this.close().catch(() => undefined);
        return this.open(true);
      }
      const wasLocked = this.storeError?.code === "store/locked";
      this.storeError = err instanceof SidekicksError ? err : new SidekicksError("store/corrupt", String(err));
      if (this.storeError.code === "store/locked") {
        this.storeError = new SidekicksError(
          "store/locked",
          l10n.t("This history is open in another VS Code window, which writes it. Sidekicks opens it here as soon as that window closes (it checks every few seconds); nothing is lost meanwhile. In a browser, a crashed tab of this workspace can keep it until you close that tab."),
          storageDir,
        );
        this.watchLockedStore();
      }
      if (!wasLocked) editor.log("error", `${this.storeError.message} (${storageDir})`);
      this.store = undefined;
      this.channels = undefined;
    }
  }

  /**
   * What the last open repaired, in words (`store/damaged`), or `undefined`: the history was damaged on disk, the
   * original folder is kept aside unchanged, and this window works on the repaired copy.
   */
  get repaired(): SidekicksError | undefined {
    return this.repairNotice;
  }

  /** A store opened over a repaired copy (Store.recovery): the user is told where the original is and what it kept. */
  private reportRecovery(store: Store): void {
    const recovery = store.recovery;
    if (!recovery) return;
    this.repairNotice = new SidekicksError(
      "store/damaged",
      l10n.t("The Sidekicks history was damaged on disk ({0}). The damaged folder is kept, unchanged, at {1}; this window opened a repaired copy, which holds {2} messages. If some are missing, keep that folder: nothing in it was changed or deleted.", recovery.detail, recovery.aside, recovery.messages),
      recovery.aside,
    );
    this.options.editor.log("error", this.repairNotice.message);
    this.options.editor.notify?.("error", this.repairNotice.message);
  }

  /** Closes the store and opens it again (tests; recovery from a lock released by another window). */
  async reopen(): Promise<void> {
    await this.close();
    await this.open();
    if (this.channels) await this.channels.directory.syncGeneral(this.options.agents.names());
  }

  /** The roster changed: `#general` gets its agents, declared channels never created are created. */
  async rosterChanged(): Promise<void> {
    if (this.channels) await this.channels.directory.syncGeneral(this.options.agents.names());
    await this.syncDeclared();
  }

  /** An agent's state changed: `#general`'s header shows it (a failure is only logged). */
  async refresh(): Promise<void> {
    if (!this.channels) return;
    try {
      await this.channels.directory.syncGeneral(this.options.agents.names());
    } catch (err) {
      this.options.editor.log("debug", `channel refresh skipped: ${String(err)}`);
    }
  }

  /**
   * Stops trying a locked store and closes the store once `start` (the app's start, which may be opening it) has
   * settled; nothing opens it again afterwards.
   */
  async dispose(start: Promise<unknown>): Promise<void> {
    this.disposed = true;
    await start.catch(() => undefined); // the start reported its own failure
    this.stopWatchingLock();
    await this.close();
  }

  /** Closes the channels (running answers saved as interrupted), then the store. */
  private async close(): Promise<void> {
    const { channels, store } = this;
    this.channels = undefined;
    this.store = undefined;
    await channels?.close();
    await store?.close();
  }

  /** Creates the roster's declared channels that were never created (ChannelDirectory.syncDeclared). */
  private async syncDeclared(): Promise<void> {
    const roster = this.options.roster.roster;
    if (!this.channels || !roster) return;
    try {
      const created = await this.channels.directory.syncDeclared(roster.channels);
      if (created.length > 0) this.options.editor.log("info", `created declared channels: ${created.map((n) => `#${n}`).join(", ")}`);
    } catch (err) {
      this.options.editor.log("warn", `declared channels not created: ${String(err)}`);
    }
  }

  /**
   * Two windows, one store (issue 5): LevelDB admits one process, so the second window cannot write the history.
   * It says so (`store/locked`), never touches the lock file, and tries again every {@link LOCKED_RETRY_MS}; once
   * the other window lets go, the history opens here and the view reloads (`store/opened`). Nothing is lost: this
   * window wrote nothing meanwhile, and the other window's queued turns wait in the store for whoever opens it.
   */
  private watchLockedStore(): void {
    if (this.lockedRetry || this.disposed) return;
    this.lockedRetry = setInterval(() => void this.retryLockedStore(), this.options.lockedRetryMs ?? LOCKED_RETRY_MS);
    this.lockedRetry.unref?.();
  }

  private async retryLockedStore(): Promise<void> {
    if (this.store || this.disposed) return this.stopWatchingLock();
    await this.open();
    if (this.store) {
      this.stopWatchingLock();
      this.options.editor.log("info", "the history store is free again: opened here");
      this.options.events.emit("store/opened", { storageDir: this.options.storageDir });
    }
  }

  private stopWatchingLock(): void {
    if (this.lockedRetry) clearInterval(this.lockedRetry);
    this.lockedRetry = undefined;
  }
}
