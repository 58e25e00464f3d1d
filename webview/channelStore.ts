/**
 * The open channel's state and the actions the UI takes on it.
 *
 * Host events are queued as they arrive and applied together at most once per animation frame (`flush`), which
 * then notifies the renderer once: 500 `message/delta` events in one frame cost one state update and one render.
 * The state handed to listeners is immutable: a message object changes identity only when that message changed,
 * so the renderer can skip everything else.
 */
import * as l10n from "@vscode/l10n";
import type { AgentCommand, AgentState, ChannelView, ConfigStatus, HostEvents, MessageView, SessionChange, SessionStateView, WebviewRequests } from "../src/protocol";
import { stripAnsi } from "./ansi";
import type { HostConnection } from "./host";
import { RequestError } from "./host";
import { markdownPlainText } from "./markdown";
import { applyDelta, type Draft, materialize, upsertMessage } from "./messageDrafts";

/** Everything the UI renders. */
export interface ViewState {
  phase: "opening" | "open" | "failed";
  /** How many `channel/open` snapshots have been applied; rendered as `data-snapshot` so tests can tell them apart. */
  snapshot: number;
  channel?: ChannelView;
  config?: ConfigStatus;
  messages: readonly MessageView[];
  /** The commands each agent announced (`channel/open`, then `commands/changed`), for the composer's autocomplete. */
  commands: Readonly<Record<string, readonly AgentCommand[]>>;
  /** Why `channel/open` failed, when `phase` is `failed`. */
  openError?: string;
  /** The channel name the last `channel/open` asked for (absent: the host's default channel), named while it opens or failed. */
  requested?: string;
  /**
   * Why the last `channel/send` (or Stop, Retry…) was refused; cleared by the next send, by editing the draft
   * (`clearSendError`), and when the open channel's members or the roster change (the reason may no longer hold).
   */
  sendError?: string;
  /** Why the last banner command failed. */
  commandError?: string;
  /**
   * A short sentence for screen readers about the latest settled change ("demo answered", "demo asks permission"),
   * said once by a polite live region: never per streamed chunk.
   */
  announcement: string;
  // --- Session controls (issue 6) ---
  /** The open channel's members' session states (modes, options, usage, title), by agent name. */
  sessions: Readonly<Record<string, SessionStateView>>;
  /** The unread marker: where the "New" divider goes, if anywhere. See {@link UnreadMarker}. */
  unread?: UnreadMarker;
  /** Scrolling back through the history (`channel/older`): whether older pages exist, one is loading, or failed. */
  older: OlderPages;
  /** A permission card to bring into view and focus (`permission/focus`); `seq` tells a repeated request apart. */
  focusRequest?: FocusRequest;
}

/** A permission card the host asked to focus, in the open channel. */
export interface FocusRequest {
  messageId: string;
  requestId: string;
  seq: number;
}

/**
 * The pages of the history before the first loaded message (`channel/open` returns only the latest ones). At most one
 * page loads at a time; a failed load keeps its reason until the user retries.
 */
export interface OlderPages {
  /** True while older messages exist than the first loaded one (the host's `more`). */
  more: boolean;
  /** True while a `channel/older` request is pending. */
  loading: boolean;
  /** Why the last load failed (cleared by the next attempt). */
  error?: string;
}

/** How many messages a page of older history has (`channel/older`'s `limit`). */
export const OLDER_PAGE_SIZE = 50;

/**
 * The "New" divider: above the first message that arrived while the user was away from the latest message (the view
 * hidden, or the history scrolled up). It becomes `read` once the user is at the latest message with the view
 * visible, and still shows until the next message arrives while they are there (they follow live), or they send one.
 * A message arriving while they are away again moves a read marker to it.
 */
export interface UnreadMarker {
  /** The id of the first unseen message. */
  messageId: string;
  read: boolean;
}

/** A host command the view offers as a button (`command/run`). */
export type HostCommand = WebviewRequests["command/run"][0]["command"];

/** What the store remembers across webview reloads (VS Code `setState`). */
export interface PersistedState {
  channel?: string;
  /** Composer drafts by channel id: each channel and direct conversation keeps its own. */
  drafts?: Record<string, string>;
  /**
   * Text typed while no channel was open (the history locked by another window), or the one draft from before drafts
   * were per channel: given to the first channel opened (after its own draft).
   */
  draft?: string;
}

type Op =
  | { type: "started"; message: MessageView }
  | { type: "finished"; message: HostEvents["message/finished"] }
  | { type: "delta"; delta: HostEvents["message/delta"] }
  | { type: "channel"; channel: ChannelView }
  | { type: "agent"; agent: string; state: AgentState }
  | { type: "config"; config: ConfigStatus }
  | { type: "commands"; agent: string; commands: AgentCommand[] }
  | { type: "session"; state: SessionStateView }
  | { type: "older"; messages: MessageView[] };

/** Whether the user is away from the latest message: the view hidden, or the history scrolled up. */
interface Presence {
  hidden: boolean;
  scrolledAway: boolean;
}

/** Schedules `callback` before the next paint (`requestAnimationFrame` in the browser). */
export type FrameScheduler = (callback: () => void) => void;

/** Counters the tests read: how many frames applied queued changes. */
export const storeStats = { flushes: 0 };

/** Owns the channel state; create one per webview and call `start()`. */
export class ChannelStore {
  private state: ViewState = { phase: "opening", snapshot: 0, messages: [], commands: {}, announcement: "", sessions: {}, older: { more: false, loading: false } };
  private queue: Op[] = [];
  private patch: Partial<ViewState> | undefined;
  private frameRequested = false;
  private openGeneration = 0;
  private snapshots = 0;
  /** The channel whose snapshot we hold; set synchronously, unlike `state`, which changes at the next frame. */
  private openChannel: ChannelView | undefined;
  private readonly listeners = new Set<(state: ViewState) => void>();
  private readonly presence: Presence = { hidden: false, scrolledAway: false };
  /** A `permission/focus` for a channel not open yet (a `channel/reload` came first): applied once it opens. */
  private focusWaiting: HostEvents["permission/focus"] | undefined;
  private focusSeq = 0;
  /** The pending `channel/older` load, if any: never two at once. */
  private olderLoad: Promise<void> | undefined;
  /** Mirrors `state.older` without waiting for the next frame. */
  private older: OlderPages = { more: false, loading: false };
  /** The first loaded message's id, known synchronously (the next page ends before it). */
  private firstId: string | undefined;

  constructor(
    private readonly host: HostConnection,
    private readonly persist: (patch: PersistedState) => void,
    private readonly scheduleFrame: FrameScheduler = (cb) => requestAnimationFrame(cb),
  ) {}

  /** Subscribes to host events and opens `channelName` (the host's default channel when absent). */
  start(channelName?: string): void {
    this.host.on("message/started", (message) => this.enqueue({ type: "started", message }));
    this.host.on("message/delta", (delta) => this.enqueue({ type: "delta", delta }));
    this.host.on("message/finished", (message) => this.enqueue({ type: "finished", message }));
    this.host.on("channel/changed", (channel) => this.enqueue({ type: "channel", channel }));
    this.host.on("agent/state", ({ agent, state }) => this.enqueue({ type: "agent", agent, state }));
    this.host.on("config/changed", (config) => this.enqueue({ type: "config", config }));
    this.host.on("commands/changed", ({ agent, commands }) => this.enqueue({ type: "commands", agent, commands }));
    this.host.on("session/state", (state) => this.enqueue({ type: "session", state }));
    this.host.on("channel/reload", ({ name }) => void this.open(name));
    this.host.on("permission/focus", (target) => {
      this.focusWaiting = target;
      this.applyFocus();
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
  async send(text: string, channelId = this.openChannel?.id): Promise<boolean> {
    if (!channelId) {
      this.update({ sendError: l10n.t("The channel is not open yet.") });
      return false;
    }
    this.update({ sendError: undefined, unread: undefined });
    try {
      await this.host.request("channel/send", { channelId, text });
      return true;
    } catch (err) {
      this.update({ sendError: errorText(err) });
      return false;
    }
  }

  /** Hands a waiting `permission/focus` to the view once its channel is the open one. */
  private applyFocus(): void {
    const target = this.focusWaiting;
    if (!target || this.openChannel?.id !== target.channelId) return;
    this.focusWaiting = undefined;
    this.update({ focusRequest: { messageId: target.messageId, requestId: target.requestId, seq: ++this.focusSeq } });
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

  /** Runs a host command offered by a button (`command/run`); failures go to `commandError`. */
  async runCommand(command: HostCommand): Promise<void> {
    this.update({ commandError: undefined });
    try {
      await this.host.request("command/run", { command });
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

function isAway(presence: Presence): boolean {
  return presence.hidden || presence.scrolledAway;
}

/** The marker for a snapshot whose last `unreadCount` messages are unseen (read at once if the user is here). */
function openedUnread(messages: readonly MessageView[], unreadCount: number, away: boolean): UnreadMarker | undefined {
  if (unreadCount <= 0 || messages.length === 0) return undefined;
  const first = messages[Math.max(0, messages.length - unreadCount)]!;
  return { messageId: first.id, read: !away };
}

/**
 * Applies queued host events to `state` in arrival order; text deltas to one message are joined once.
 * @param away whether the user is away from the latest message (for the unread marker)
 * @param onStale called when a committed message relies on text this view does not have as the host does (see
 *   `streamedText`): the caller opens the channel again
 */
function applyOps(state: ViewState, ops: Op[], away: boolean, onStale: () => void): ViewState {
  const channelId = state.channel?.id;
  const messages = state.messages.slice();
  const drafts = new Map<string, Draft>();
  let { channel, config, announcement, commands, sessions, unread, sendError } = state;
  for (const op of ops) {
    switch (op.type) {
      case "agent":
        if (channel?.members.some((m) => m.name === op.agent && m.state !== op.state)) {
          channel = { ...channel, members: channel.members.map((m) => (m.name === op.agent ? { ...m, state: op.state } : m)) };
        }
        break;
      case "channel":
        if (op.channel.id !== channelId) break;
        if (!sameMembers(channel, op.channel)) sendError = undefined; // "no agent named slow" may no longer hold
        channel = op.channel;
        break;
      case "config":
        config = op.config;
        sendError = undefined; // the roster was read again
        break;
      case "commands":
        commands = { ...commands, [op.agent]: op.commands };
        break;
      case "started":
      case "finished": {
        if (op.message.channelId !== channelId) break;
        let message: MessageView = op.message;
        const streamedText = op.type === "finished" ? op.message.streamedText : undefined;
        if (op.type === "finished" && streamedText) {
          // The host left out the text this view already has from the stream: it is taken from the view's copy.
          const draft = drafts.get(op.message.id);
          if (draft) materialize(messages, draft);
          const filled = withStreamedText(op.message, streamedText, messages.find((m) => m.id === op.message.id));
          if (!filled) {
            onStale(); // this view's copy differs: the channel's snapshot has the committed text
            break;
          }
          message = filled;
        }
        drafts.delete(message.id);
        if (!messages.some((m) => m.id === message.id)) unread = unreadAfter(unread, message, away);
        upsertMessage(messages, message);
        announcement = announce(op.type, message) ?? announcement;
        break;
      }
      case "delta":
        if (op.delta.channelId !== channelId) break;
        applyDelta(messages, drafts, op.delta);
        if (op.delta.part?.type === "permission" && op.delta.part.outcome === undefined) {
          const asker = drafts.get(op.delta.messageId)?.message.author;
          if (asker?.kind === "agent") announcement = l10n.t("{0} asks permission", asker.agentName ?? "agent");
        }
        break;
      case "session":
        if (op.state.channelId === channelId) sessions = { ...sessions, [op.state.agent]: op.state };
        break;
      case "older": {
        // A page from before the first loaded message: prepended, without any message already here.
        const known = new Set(messages.map((m) => m.id));
        messages.unshift(...op.messages.filter((m) => m.channelId === channelId && !known.has(m.id)));
        break;
      }
    }
  }
  for (const draft of drafts.values()) materialize(messages, draft);
  return { ...state, channel, config, announcement, commands, messages, sessions, unread, sendError };
}

/**
 * The committed `message` with the text of its text parts taken from `had`, this view's copy of it (the host left
 * them out: `streamedText` gives their lengths); `undefined` when `had`'s text parts differ in number or length.
 */
function withStreamedText(message: HostEvents["message/finished"], lengths: readonly number[], had: MessageView | undefined): MessageView | undefined {
  const texts = had?.parts.filter((part) => part.type === "text") ?? [];
  if (texts.length !== lengths.length || texts.some((part, i) => part.text.length !== lengths[i])) return undefined;
  const { streamedText: _lengths, ...committed } = message;
  let next = 0;
  return { ...committed, parts: message.parts.map((part) => (part.type === "text" ? texts[next++]! : part)) };
}

/** Whether two views of a channel have the same members, by name. */
function sameMembers(a: ChannelView | undefined, b: ChannelView): boolean {
  const names = (c: ChannelView) => c.members.map((m) => m.name).sort().join("\n");
  return a !== undefined && names(a) === names(b);
}

/** The unread marker after a new message arrived (see {@link UnreadMarker}). */
function unreadAfter(unread: UnreadMarker | undefined, message: MessageView, away: boolean): UnreadMarker | undefined {
  if (message.author.kind === "user") return undefined;
  if (away) return !unread || unread.read ? { messageId: message.id, read: false } : unread;
  return unread?.read ? undefined : unread;
}

/** What the live region says when a message settles; nothing while it streams (one sentence per answer). */
function announce(type: "started" | "finished", message: MessageView): string | undefined {
  if (message.author.kind !== "agent") return undefined;
  const name = message.author.agentName ?? "agent";
  if (type === "started") return message.status === "queued" ? l10n.t("{0} will answer after its current message", name) : undefined;
  if (message.error) return l10n.t("{0} failed: {1}", name, message.error.message);
  if (message.stopReason === "cancelled") return l10n.t("{0} stopped", name);
  if (message.parts.some((p) => p.type === "permission" && p.outcome === undefined)) return l10n.t("{0} asks permission", name);
  // The start of the answer, so a screen reader user hears what it says without moving to it (once, when settled).
  // Only the head of each text part is read: collapsing the spaces of a whole 2 MB answer would delay its last frame.
  // It is read as words: Markdown's marks (fences, `#`, `*`, link targets) and terminal escapes are left out.
  let head = "";
  for (const part of message.parts) {
    if (part.type === "text" && head.length <= ANNOUNCE_CHARS * 4) head += ` ${markdownPlainText(stripAnsi(part.text.slice(0, ANNOUNCE_CHARS * 4)))}`;
  }
  const text = head.replace(/\s+/g, " ").trim();
  if (!text) return l10n.t("{0} answered", name);
  return l10n.t("{0} answered: {1}", name, text.length > ANNOUNCE_CHARS ? `${text.slice(0, ANNOUNCE_CHARS)}…` : text);
}

/** How much of an answer's text its announcement reads out, in characters. */
const ANNOUNCE_CHARS = 160;

function errorText(err: unknown): string {
  if (err instanceof RequestError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
