/**
 * The open channel's state and the actions the UI takes on it.
 *
 * Host events are queued as they arrive and applied together at most once per animation frame (`flush`), which
 * then notifies the renderer once: 500 `message/delta` events in one frame cost one state update and one render.
 * The state handed to listeners is immutable: a message object changes identity only when that message changed,
 * so the renderer can skip everything else.
 */
import * as l10n from "@vscode/l10n";
import type { AttachmentRequest, ChannelView, SessionChange } from "../src/shared/protocol";
import { applyOps, isAway, type Op, openedUnread, type Presence } from "./channelOps";
import { ComposerChips } from "./composerChips";
import type { HostConnection } from "./host";
import { RequestError } from "./host";
import { type FocusRequest, type HostCommand, OLDER_PAGE_SIZE, type OlderPages, type PersistedState, type UnreadMarker, type ViewState } from "./viewState";

export { OLDER_PAGE_SIZE };
export type { FocusRequest, HostCommand, OlderPages, PersistedState, UnreadMarker, ViewState };

/** Schedules `callback` before the next paint (`requestAnimationFrame` in the browser). */
export type FrameScheduler = (callback: () => void) => void;

/** Counters the tests read: how many frames applied queued changes. */
export const storeStats = { flushes: 0 };

/** Owns the channel state; create one per webview and call `start()`. */
export class ChannelStore {
  private state: ViewState = { phase: "opening", snapshot: 0, messages: [], commands: {}, announcement: "", sessions: {}, older: { more: false, loading: false }, attachments: {} };
  private queue: Op[] = [];
  private patch: Partial<ViewState> | undefined;
  private frameRequested = false;
  private openGeneration = 0;
  private snapshots = 0;
  /** The channel whose snapshot we hold; set synchronously, unlike `state`, which changes at the next frame. */
  private openChannel: ChannelView | undefined;
  private readonly listeners = new Set<(state: ViewState) => void>();
  private readonly presence: Presence = { hidden: false, scrolledAway: false };
  /** A `permission/focus` or `message/reveal` for a channel not open yet (a `channel/reload` came first), or a message not loaded yet. */
  private focusWaiting: { channelId: string; messageId: string; requestId?: string } | undefined;
  private focusSeq = 0;
  /** The composer's chips (mirroring `state.attachments` without waiting for the next frame) and attach events waiting. */
  private readonly chips: ComposerChips;
  /** The pending `channel/older` load, if any: never two at once. */
  private olderLoad: Promise<void> | undefined;
  /** Mirrors `state.older` without waiting for the next frame. */
  private older: OlderPages = { more: false, loading: false };
  /** The first loaded message's id, known synchronously (the next page ends before it). */
  private firstId: string | undefined;

  /** Told the `@path` words of a message just sent that name no file of the workspace (they went as text). */
  onUnmatchedPaths?: (paths: readonly string[]) => void;

  constructor(
    private readonly host: HostConnection,
    private readonly persist: (patch: PersistedState) => void,
    private readonly scheduleFrame: FrameScheduler = (cb) => requestAnimationFrame(cb),
  ) {
    this.chips = new ComposerChips((patch) => this.update(patch), persist);
  }

  /** Subscribes to host events and opens `channelName` (the host's default channel when absent). */
  start(channelName?: string): void {
    this.host.on("message/started", (message) => this.enqueue({ type: "started", message }));
    this.host.on("message/delta", (delta) => this.enqueue({ type: "delta", delta }));
    this.host.on("message/finished", (message) => this.enqueue({ type: "finished", message }));
    this.host.on("channel/changed", (channel) => this.enqueue({ type: "channel", channel }));
    this.host.on("agent/state", ({ agent, state, waiting }) => this.enqueue({ type: "agent", agent, state, waiting }));
    this.host.on("config/changed", (config) => this.enqueue({ type: "config", config }));
    this.host.on("commands/changed", ({ agent, commands }) => this.enqueue({ type: "commands", agent, commands }));
    this.host.on("session/state", (state) => this.enqueue({ type: "session", state }));
    this.host.on("channel/reload", ({ name }) => void this.open(name));
    this.host.on("permission/focus", (target) => {
      this.focusWaiting = target;
      this.applyFocus();
    });
    this.host.on("message/reveal", (target) => {
      this.focusWaiting = target;
      this.applyFocus();
    });
    this.host.on("composer/attach", (target) => {
      this.chips.arrive(target);
      this.applyAttach();
    });
    if (typeof document !== "undefined") {
      const onVisibility = () => this.setPresence({ hidden: document.visibilityState === "hidden" });
      document.addEventListener("visibilitychange", onVisibility);
      onVisibility();
    }
    void this.open(channelName);
  }

  /** The current state (already flushed). */
  get current(): ViewState {
    return this.state;
  }

  /** Registers a listener called after each flush that changed something; returns an unsubscribe function. */
  subscribe(listener: (state: ViewState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells the store whether the history is scrolled away from the latest message (`History` calls it when that
   * changes): messages arriving meanwhile get the unread marker; coming back to the latest marks it read.
   */
  setScrolledAway(away: boolean): void {
    this.setPresence({ scrolledAway: away });
  }

  private setPresence(patch: Partial<Presence>): void {
    const wasAway = isAway(this.presence);
    Object.assign(this.presence, patch);
    if (wasAway && !isAway(this.presence)) {
      const unread = this.patch && "unread" in this.patch ? this.patch.unread : this.state.unread;
      if (unread && !unread.read) this.update({ unread: { ...unread, read: true } });
    }
  }

  /**
   * Opens a channel by name and replaces all state with the host's snapshot. Never rejects.
   * @param unreadCount how many of its latest messages the user has not seen (the channel list's `unread`): the
   *   unread marker goes above the first of them
   */
  async open(name?: string, unreadCount = 0): Promise<void> {
    const generation = ++this.openGeneration;
    this.openChannel = undefined;
    this.olderLoad = undefined;
    this.firstId = undefined;
    this.queue = [];
    this.update({ phase: "opening", openError: undefined, sendError: undefined, requested: name });
    try {
      const result = await this.host.request("channel/open", name ? { name } : {});
      if (generation !== this.openGeneration) return;
      this.queue = [];
      this.openChannel = result.channel;
      this.firstId = result.messages[0]?.id;
      this.older = { more: (result.more ?? false) && result.messages.length > 0, loading: false };
      this.persist({ channel: result.channel.name });
      this.update({
        phase: "open",
        snapshot: ++this.snapshots,
        channel: result.channel,
        config: result.config,
        messages: result.messages,
        commands: result.commands ?? {},
        sessions: result.sessions ?? {},
        sendError: undefined,
        announcement: "",
        unread: openedUnread(result.messages, unreadCount, isAway(this.presence)),
        older: this.older,
      });
      this.applyFocus();
      this.applyAttach();
    } catch (err) {
      if (generation !== this.openGeneration) return;
      this.update({ phase: "failed", openError: errorText(err) });
    }
  }

  /**
   * Loads the page of messages before the first loaded one (`channel/older`) and prepends it (messages already shown
   * are skipped). Does nothing while a page loads, when no older message exists, or before the channel is open;
   * a failure goes to `older.error` (call again to retry). Never rejects.
   */
  loadOlder(): Promise<void> {
    const channel = this.openChannel;
    const beforeId = this.firstId;
    if (this.olderLoad) return this.olderLoad;
    if (!channel || !beforeId || !this.older.more) return Promise.resolve();
    const generation = this.openGeneration;
    this.setOlder({ more: true, loading: true });
    const load = this.fetchOlder(channel.id, beforeId, generation).finally(() => {
      if (this.olderLoad === load) this.olderLoad = undefined;
    });
    this.olderLoad = load;
    return load;
  }

  private async fetchOlder(channelId: string, beforeId: string, generation: number): Promise<void> {
    try {
      const { messages, more } = await this.host.request("channel/older", { channelId, beforeId, limit: OLDER_PAGE_SIZE });
      if (generation !== this.openGeneration) return;
      if (messages[0]) this.firstId = messages[0].id;
      this.enqueue({ type: "older", messages });
      this.setOlder({ more: more && messages.length > 0, loading: false });
    } catch (err) {
      if (generation !== this.openGeneration) return;
      this.setOlder({ more: true, loading: false, error: errorText(err) });
    }
  }

  private setOlder(older: OlderPages): void {
    this.older = older;
    this.update({ older });
  }

  /**
   * Sends a user message to `channelId` (default: the open channel; `channel/send`). Resolves `true` when the host
   * accepted it, `false` when it refused (the reason goes to `sendError`) or no channel is open.
   */
  async send(text: string, channelId = this.openChannel?.id, editOf?: string, attachments: readonly AttachmentRequest[] = [], undoAnswers = false): Promise<boolean> {
    if (!channelId) {
      this.update({ sendError: l10n.t("The channel is not open yet.") });
      return false;
    }
    this.update({ sendError: undefined, unread: undefined });
    try {
      const sent = await this.host.request("channel/send", { channelId, text, ...(editOf === undefined ? {} : { editOf }), ...(undoAnswers && editOf !== undefined ? { undoAnswers } : {}), ...(attachments.length > 0 ? { attachments: [...attachments] } : {}) });
      if (sent.unmatchedPaths && sent.unmatchedPaths.length > 0) this.onUnmatchedPaths?.(sent.unmatchedPaths);
      return true;
    } catch (err) {
      this.update({ sendError: errorText(err) });
      return false;
    }
  }

  /**
   * Hands a waiting `permission/focus` or `message/reveal` to the view once its channel is the open one and its
   * message is loaded: a message older than the first one loaded (ids are ULIDs, so they sort by time) loads the
   * pages before it, one after the other, until it is in or nothing older is left (or a page fails to load).
   */
  private applyFocus(): void {
    const target = this.focusWaiting;
    if (!target || this.openChannel?.id !== target.channelId) return;
    if (this.firstId !== undefined && target.messageId < this.firstId && this.older.more && !this.older.error) {
      void this.loadOlder().then(() => {
        if (this.focusWaiting === target) this.applyFocus();
      });
      return;
    }
    this.focusWaiting = undefined;
    this.update({ focusRequest: { messageId: target.messageId, requestId: target.requestId, seq: ++this.focusSeq } });
  }

  /**
   * Brings message `messageId` of the open channel into view and focuses it, as `message/reveal` does (older pages
   * load first when it is before the first loaded one): the link of an edited message or a regenerated answer.
   */
  reveal(messageId: string): void {
    const channelId = this.openChannel?.id;
    if (!channelId) return;
    this.focusWaiting = { channelId, messageId };
    this.applyFocus();
  }

  /** The composer's chips of `channelId`, now (not at the next frame). */
  attachmentsOf(channelId: string | undefined): readonly AttachmentRequest[] {
    return this.chips.of(channelId);
  }

  /** Replaces the composer's chips of `channelId`, kept across the webview's reloads (`ComposerChips.set`). */
  setAttachments(channelId: string, attachments: readonly AttachmentRequest[]): void {
    this.chips.set(channelId, attachments);
  }

  /** The chips saved by an earlier load of the webview (`PersistedState.chips`, already checked), before `start`. */
  restoreAttachments(chips: Readonly<Record<string, readonly AttachmentRequest[]>>): void {
    this.chips.restore(chips);
  }

  /** Hands waiting `composer/attach` events of the open channel to the composer: new chips (no duplicate), the focus. */
  private applyAttach(): void {
    const id = this.openChannel?.id;
    const taken = this.chips.takeFor(id);
    if (id && taken) this.update({ composerFocus: { seq: ++this.focusSeq, channelId: id, ...taken } });
  }

  /** Drops a shown send error: the user edited the draft it was about. */
  clearSendError(): void {
    const shown = this.patch && "sendError" in this.patch ? this.patch.sendError : this.state.sendError;
    if (shown !== undefined) this.update({ sendError: undefined });
  }

  /** Answers a permission request (`permission/answer`; `remember`: a Sidekicks rule); rejects with the host's `RequestError`. */
  async answerPermission(requestId: string, optionId: string, remember?: boolean): Promise<boolean> {
    const { accepted } = await this.host.request("permission/answer", { requestId, optionId, ...(remember ? { remember } : {}) });
    return accepted;
  }

  /** Stops a streaming or queued agent message (`turn/cancel`); a failure goes to `sendError`. */
  async stop(messageId: string): Promise<void> {
    try {
      await this.host.request("turn/cancel", { messageId });
    } catch (err) {
      this.update({ sendError: errorText(err) });
    }
  }

  /** Runs a new attempt of an interrupted or failed answer (`turn/retry`); a failure goes to `sendError`. */
  async retry(messageId: string): Promise<void> {
    try {
      const { retried } = await this.host.request("turn/retry", { messageId });
      if (!retried) this.update({ sendError: l10n.t("This answer cannot be retried now (it is running again, or it finished).") });
    } catch (err) {
      this.update({ sendError: errorText(err) });
    }
  }

  /** Runs a queued message now (`turn/sendNow`): the agent's running answer here is stopped first. */
  async sendNow(messageId: string): Promise<void> {
    try {
      await this.host.request("turn/sendNow", { messageId });
    } catch (err) {
      this.update({ sendError: errorText(err) });
    }
  }

  /**
   * Runs a host command offered by a button or key (`command/run`), with the channel shown when `withChannel`;
   * failures go to `commandError`.
   */
  async runCommand(command: HostCommand, withChannel = false): Promise<void> {
    this.update({ commandError: undefined });
    const channelId = withChannel ? this.openChannel?.id : undefined;
    try {
      await this.host.request("command/run", channelId ? { command, channelId } : { command });
    } catch (err) {
      this.update({ commandError: errorText(err) });
    }
  }

  // --- Session controls (issue 6) ---

  /**
   * Changes a setting of a member's session in the open channel (`session/configure`). The host posts the resulting
   * state (`session/state`), also after a refusal, so the controls follow it.
   * @returns the host's refusal as a sentence, or undefined when the agent accepted
   */
  async configureSession(agent: string, change: SessionChange): Promise<string | undefined> {
    const channel = this.openChannel;
    if (!channel) return l10n.t("The channel is not open yet.");
    try {
      const { state } = await this.host.request("session/configure", { channelId: channel.id, agent, change });
      this.enqueue({ type: "session", state });
      return undefined;
    } catch (err) {
      return errorText(err);
    }
  }

  /** Applies everything queued now instead of at the next frame (used before the host reads the DOM). */
  flushNow(): void {
    this.flush();
  }

  private enqueue(op: Op): void {
    if (!this.openChannel) return; // the snapshot `channel/open` will return already includes it
    this.queue.push(op);
    this.requestFrame();
  }

  private update(patch: Partial<ViewState>): void {
    this.patch = { ...this.patch, ...patch };
    this.requestFrame();
  }

  private requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.scheduleFrame(() => this.flush());
  }

  private flush(): void {
    this.frameRequested = false;
    if (!this.queue.length && !this.patch) return;
    storeStats.flushes++;
    let next: ViewState = this.patch ? { ...this.state, ...this.patch } : { ...this.state };
    this.patch = undefined;
    const ops = this.queue;
    this.queue = [];
    let stale = false;
    if (ops.length) next = applyOps(next, ops, isAway(this.presence), () => (stale = true));
    this.state = next;
    for (const listener of this.listeners) listener(next);
    if (stale && next.channel) void this.open(next.channel.name);
  }
}

/** A failed request's reason as a sentence (the host's `RequestError` message, or the error's). */
function errorText(err: unknown): string {
  if (err instanceof RequestError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
