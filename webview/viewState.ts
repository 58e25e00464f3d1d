/**
 * The shapes of the channel view's state (`ChannelStore`'s `ViewState`) and what it persists across reloads: types the
 * store, the ops it applies and the components share.
 */
import type { AgentCommand, AttachmentRequest, ChannelView, ConfigStatus, MessageView, SessionStateView, WebviewRequests } from "../src/shared/protocol";

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
  /** The composer's chips by channel id (issue 21): what goes with the next message sent there, removable until then. */
  attachments: Readonly<Record<string, readonly AttachmentRequest[]>>;
  /**
   * The host asked to focus the composer of `channelId` (`composer/attach`): `mention` starts an empty draft; `seq`
   * tells requests apart, and each is handled once (a composer made again for another channel, or for this one after
   * a switch, does not take it again).
   */
  composerFocus?: { seq: number; channelId: string; mention?: string };
}

/** A message (`message/reveal`), or a permission card in it (`permission/focus`), the host asked to focus in the open channel. */
export interface FocusRequest {
  messageId: string;
  /** The permission card to focus inside the message; absent: the message itself. */
  requestId?: string;
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
  /**
   * The composer's attachment chips by channel id, not sent yet: a reload of the webview (the view hidden and shown,
   * the window reloaded) keeps them with the draft. Checked again when read (`attachmentRequests`).
   */
  chips?: Record<string, readonly AttachmentRequest[]>;
}
