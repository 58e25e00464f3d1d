/**
 * The request and event maps of the host ⇄ webview protocol and the envelope of what crosses `postMessage` (see
 * `index.ts` for the envelope's rules).
 */
import type { AgentState, AgentWait, AttachmentRequest, ErrorInfo, FileSuggestion, Part, ToolCallDiff, ToolCallLocation } from "./parts";
import type { AgentCommand, ChannelSummary, ChannelView, ConfigStatus, MessageView, SessionChange, SessionStateView } from "./views";

/** Requests from the webview to the host: `method → [params, result]`. */
export interface WebviewRequests {
  /**
   * Opens a channel by id, else by name (default `general`), and returns its latest messages, oldest first. A channel
   * that no longer exists (deleted meanwhile) opens #general instead.
   */
  "channel/open": [
    { name?: string; id?: string },
    {
      channel: ChannelView;
      messages: MessageView[];
      config: ConfigStatus;
      /** The commands each member announced so far (stored per agent, so known before it starts again). */
      commands?: Record<string, AgentCommand[]>;
      /** The last known session state of each member that has had a session here, by agent name. */
      sessions?: Record<string, SessionStateView>;
      /** True when older messages exist than the first one returned (fetch them with `channel/older`). */
      more?: boolean;
    },
  ];
  /**
   * The page of messages just before `beforeId` (at most `limit`, default 50, at most 500), oldest first, and whether
   * still older ones exist: the view scrolls back through the history page by page. Rejected with `channel/notFound`
   * when the channel no longer exists.
   */
  "channel/older": [{ channelId: string; beforeId: string; limit?: number }, { messages: MessageView[]; more: boolean }];
  /**
   * Changes a setting of an agent's session in a channel: ACP `session/set_mode`, `session/set_config_option`, or the
   * legacy `session/set_model`. Opens (or resumes) the session first when its process has gone. Rejected with
   * `agent/request` when the agent refuses the value; the host then posts the unchanged state again.
   */
  "session/configure": [{ channelId: string; agent: string; change: SessionChange }, { state: SessionStateView }];
  /**
   * Sends a user message. Rejected with `channel/noRecipient` or `channel/unknownMember` when nobody can take it.
   * `editOf` (Edit and resend): the earlier user message of the shown channel it was edited from; the new message is a
   * new turn linked to it, the earlier one stays as it was (`channel/notFound` when it is not there). `attachments`: files,
   * selections, images, problems the user attached (issue 21; the host checks and reads them). `undoAnswers` (with
   * `editOf` only): first undo the files the earlier message's answers changed (conflicts asked in the editor, as Undo
   * asks them); `undone` counts what that did. The message is sent after the undo, whatever the user chose per file.
   * `unmatchedPaths`: the `@path` words typed in `text` that name no file of the workspace (as typed, without the `@`),
   * sent as text; the view says so above the composer.
   */
  "channel/send": [
    { channelId: string; text: string; editOf?: string; undoAnswers?: boolean; attachments?: AttachmentRequest[] },
    { messageId: string; undone?: { done: number; skipped: number; conflicts: number }; unmatchedPaths?: string[] },
  ];
  /**
   * The answers to a user message of the shown channel (Edit and resend, issue 19): how many there are and how many of
   * their changed files an undo would restore now (the composer offers "Undo … first" when there are some).
   */
  "message/answerFiles": [{ messageId: string }, { answers: number; undoable: number }];
  /**
   * A message of the shown channel as Markdown: `markdown` as the channel export writes it (heading and body), `body`
   * without the heading (for a quote). The view copies it ("Copy as Markdown") or quotes it in the composer.
   */
  "message/markdown": [{ messageId: string }, { markdown: string; body: string }];
  /** Opens a message of the shown channel as Markdown in an untitled editor tab; `opened` is false when the editor cannot. */
  "message/openInEditor": [{ messageId: string }, { opened: boolean }];
  /**
   * Workspace files for `@file` completion (issue 21): the files whose workspace-relative path best matches `query`
   * (what follows `@`, a line range such as `:10-20` ignored), fuzzy ranked, at most `MAX_FILE_SUGGESTIONS`; the
   * editor's `files.exclude`, `search.exclude` and `.gitignore` leave files out as its quick open does.
   */
  "files/find": [{ query: string }, { files: FileSuggestion[] }];
  /**
   * Regenerate: the request an agent answered in `messageId` goes to the same agent again as a new turn; the earlier
   * answer stays, the new one is linked to it (`regenerates`). Rejected with `channel/busy` while that agent's turn for
   * the request is still queued or running.
   */
  "turn/regenerate": [{ messageId: string }, { messageId: string }];
  /**
   * Answers a pending permission request (`remember`: Sidekicks answers it so from now on, ADR 0005); `accepted`: it was
   * pending. Refused (`webview/refused`) from a view that does not show its channel, with an option it did not offer,
   * or with `remember` on another option than the card's rule buttons use (the first one-time allow or reject).
   */
  "permission/answer": [{ requestId: string; optionId: string; remember?: boolean }, { accepted: boolean }];
  /**
   * Stops an agent message: a queued one is removed from the queue; a streaming one gets ACP `session/cancel`, its
   * pending permission requests are answered `cancelled`, and it ends with stop reason `cancelled`.
   */
  "turn/cancel": [{ messageId: string }, { cancelled: boolean }];
  /**
   * Runs a new attempt of an interrupted, failed or cancelled turn in the same message; the agent is told what the
   * earlier attempt is known to have done. `retried` is false when the message is not retryable (or already running).
   */
  "turn/retry": [{ messageId: string }, { retried: boolean }];
  /** A queued message goes now: the agent's running answer in that channel is stopped (`cancelled`), then it runs. */
  "turn/sendNow": [{ messageId: string }, { sent: boolean }];
  /**
   * Opens the diff of a file the turn of `messageId` changed: its text from before the turn against the file now.
   * `opened` is false when the file is not in that turn's list or its earlier text is not known.
   */
  "turn/fileDiff": [{ messageId: string; path: string }, { opened: boolean }];
  /**
   * Keep, Undo or Redo (undo of an undo) the files the turn of `messageId` changed — those in `paths`, or all the action
   * applies to (issue 19). A file changed since is a conflict the user decides in the editor (never overwritten
   * silently). Counts of files done, skipped (a conflict skipped, a failed write, not applicable) and in conflict.
   */
  "turn/restore": [{ messageId: string; action: "keep" | "undo" | "redo"; paths?: string[] }, { done: number; skipped: number; conflicts: number }];
  /**
   * "Apply to my folder" (issue 20, "Per turn too"): the files the turn of `messageId` changed in its agent's own git
   * worktree merged into the user's folder, file by file (`git merge-file`). Clean merges are written; each conflict is
   * put to the user in the editor (merge editor, or skip), never written silently; files with unsaved edits are left.
   * Counts of files; refused (an error saying why) when the agent does not work in a worktree.
   */
  "turn/applyToFolder": [{ messageId: string }, { agent: string; applied: number; same: number; conflicts: number; opened: number; skipped: number; unsaved: number }];
  /**
   * Opens the files the turn of `messageId` changed — or, with `since`, every turn of its channel from it on — in the
   * editor's multi-file diff (their texts from before against the files now). `opened` is false when none is known.
   */
  "turn/review": [{ messageId: string; since?: boolean }, { opened: boolean }];
  /**
   * What a terminal embedded in a tool call printed so far (ACP `terminal/output` semantics: within its byte limit),
   * and its exit status once it exited; `known` is false when this window has no such terminal (it ran before a reload).
   */
  "terminal/snapshot": [{ terminalId: string }, { known: boolean; output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } }];
  /** Shows the VS Code terminal that mirrors an agent's terminal; `shown` is false when it is gone. */
  "terminal/show": [{ terminalId: string }, { shown: boolean }];
  /** Every channel and direct conversation (general first), and the roster's agents (for a new direct conversation). */
  "channels/list": [Record<string, never>, { channels: ChannelSummary[]; agents: string[] }];
  /** Creates a channel; `channel/exists`, `channel/invalidName` or `channel/unknownMember` when it cannot. */
  "channel/create": [{ name: string; description?: string; members?: string[] }, ChannelSummary];
  /** Renames a channel (not #general, not a direct conversation). */
  "channel/rename": [{ id: string; name: string }, ChannelSummary];
  /**
   * Deletes a channel and its history once the host's own modal confirmation says so (`deleted: false` when the user
   * declines it: a webview's word alone deletes nothing); refused for #general (`channel/invalidName`) and while a
   * member answers (`channel/busy`).
   */
  "channel/delete": [{ id: string }, { deleted: boolean }];
  /** Adds a roster agent to a channel. */
  "channel/join": [{ id: string; agent: string }, ChannelSummary];
  /** Removes an agent from a channel (its messages stay). */
  "channel/leave": [{ id: string; agent: string }, ChannelSummary];
  /** The direct conversation with an agent, created when missing. */
  "channel/direct": [{ agent: string }, ChannelSummary];
  /** Records that the user has seen the channel up to `messageId` (the open channel is visible). */
  "channel/read": [{ channelId: string; messageId: string }, { unread: number }];
  /**
   * Runs a host command the webview offers as a button or key: only those (`WEBVIEW_COMMANDS`, requestGuards.ts).
   * `channelId`: the channel the view shows, for `searchHistory` (Ctrl+F in the view), whose search starts within it.
   */
  "command/run": [{ command: "createConfig" | "openConfig" | "manageTrust" | "searchHistory"; channelId?: string }, { done: boolean }];
  /**
   * Opens a tool call's diff in the editor's diff view (read-only virtual documents for both sides; `oldText` null:
   * a new file, shown against an empty document). `opened` is false when the editor cannot.
   */
  "editor/openDiff": [ToolCallDiff, { opened: boolean }];
  /**
   * Opens a file (a tool call location) at its 1-based line; `opened` is false when there is no such file. Refused
   * (`webview/refused`) unless it is inside the workspace roots or a tool call or files card of the shown channel names it.
   */
  "editor/openLocation": [ToolCallLocation, { opened: boolean }];
  /**
   * Inserts text (a code block) at the cursor of the active text editor; `inserted` is false when none is open.
   * Refused (`webview/refused`) unless the text appears in a message of the channel the view shows; at most 1 MiB.
   */
  "editor/insert": [{ text: string }, { inserted: boolean }];
  /**
   * Opens a link from agent text: `http(s):` and `mailto:` outside the editor (its `openExternal` rules), a file link
   * or a relative path in the editor; anything else (`javascript:`, `data:`, `command:`, …) is refused
   * (`opened: false`). The webview itself never navigates.
   */
  "editor/openLink": [{ href: string }, { opened: boolean }];
}

/** Events from the host to the webview: `name → payload`. */
export interface HostEvents {
  "channel/changed": ChannelView;
  /** The channel list changed: a channel was created, renamed, described or deleted. The whole list, in order. */
  "channels/changed": { channels: ChannelSummary[] };
  /**
   * Lines of the channel list changed — unread counts, members, busy markers — and no channel came, went or was
   * renamed: those lines (by id), the others and the order as they were.
   */
  "channels/updated": { channels: ChannelSummary[] };
  "config/changed": ConfigStatus;
  /** An agent announced its commands (ACP `available_commands_update`): the complete list, replacing the last. */
  "commands/changed": { agent: string; commands: AgentCommand[] };
  /** An agent's session in a channel changed its settings, usage or title (or a refused change left them as they were). */
  "session/state": SessionStateView;
  /** An agent's process changed state: member badges in any open channel follow. */
  "agent/state": { agent: string; state: AgentState; waiting?: AgentWait };
  "message/started": MessageView;
  /**
   * A change to a streaming message: `appendText` goes to its last text part (a new one when the last part is not
   * text); `part` replaces the part with the same `toolCallId`/`requestId`, or is appended. A `thought` part
   * replaces the message's last part when that is a thought of the same `messageId` (thoughts coalesce), else is
   * appended; a `plan` part replaces the message's plan, else is appended; a `text` part is appended (a new message of
   * the agent begins: the `appendText` that comes with it goes there). `part` is applied before `appendText`.
   */
  "message/delta": { channelId: string; messageId: string; appendText?: string; part?: Part };
  /**
   * The committed message. When `streamedText` is set, its text parts carry `text: ""`: the webview already has their
   * text from this message's `message/started` and deltas (the host checked that it posted all of it), and
   * `streamedText` gives each text part's length, in order, for the webview to check its own against. A 2 MB answer
   * then does not cross to the webview a second time. A webview whose text parts differ opens the channel again.
   */
  "message/finished": MessageView & { streamedText?: number[] };
  /** Output of an agent's terminal as it arrives (gathered for up to 50 ms), and its exit status when it exits. */
  "terminal/output": { terminalId: string; text: string; exitStatus?: { exitCode: number | null; signal: string | null } };
  /** The host asks the webview to drop its state and re-open the channel (store reopened, channel switched). */
  "channel/reload": { name: string };
  /**
   * `Sidekicks: Go to next permission request`: once channel `channelId` is open (a `channel/reload` may come first),
   * bring message `messageId` into view and focus the first option of its permission card `requestId` (Enter answers).
   */
  "permission/focus": { channelId: string; messageId: string; requestId: string };
  /**
   * A history search result chosen (`Sidekicks: Search history…`): once channel `channelId` is open, load older pages
   * until message `messageId` is among them, then bring it into view and focus it.
   */
  "message/reveal": { channelId: string; messageId: string };
  /**
   * An editor command handed context to the composer (`Send selection to agent…`, `Add file to message`, a quick fix;
   * issue 21): once channel `channelId` is open (a `channel/reload` may come first), add `attachments` as chips (one
   * already there is not added twice), start an empty draft with `@mention ` when given, and focus the composer.
   */
  "composer/attach": { channelId: string; attachments: AttachmentRequest[]; mention?: string };
}

/**
 * Requests from the host to the webview, used by the integration tests to read and drive the real DOM.
 * Only answered when the host enabled them (development and test modes).
 */
export interface HostRequests {
  /** Returns `innerText` of the first element matching `selector`, or `null` when none matches. */
  "test/text": [{ selector: string }, { text: string | null }];
  /** Returns the attribute `name` of the first element matching `selector`, or `null`. */
  "test/attribute": [{ selector: string; name: string }, { text: string | null }];
  /** Clicks the first element matching `selector`; `clicked` is false when none matches. */
  "test/click": [{ selector: string }, { clicked: boolean }];
  /** Types `text` into the composer and presses Enter, as a user would; `sent` is whether the host accepted it. */
  "test/compose": [{ text: string }, { sent: boolean }];
  /** Returns how many elements match `selector` (one plan card, no duplicated suggestion). */
  "test/count": [{ selector: string }, { count: number }];
  /**
   * Whether the first element matching `selector` shows on screen: part of it lies inside both the window and its
   * scrolling history (`null` when none matches). A search result opened "in place" must be scrolled into view.
   */
  "test/inView": [{ selector: string }, { visible: boolean | null }];
  /** Types `text` into the composer without sending it (the suggestions it opens can then be read). */
  "test/type": [{ text: string }, { typed: boolean }];
  /**
   * Pastes a file into the composer as a paste from the clipboard would (a `paste` event whose DataTransfer holds it:
   * code-server gives a page no way to put an image on the real clipboard); `pasted` is false without a composer.
   */
  "test/paste": [{ name: string; mimeType: string; base64: string }, { pasted: boolean }];
}

export type WebviewRequestMethod = keyof WebviewRequests;
export type HostEventName = keyof HostEvents;
export type HostRequestMethod = keyof HostRequests;

/** Messages the webview posts to the host. */
export type WebviewToHost =
  | { kind: "ready"; protocolVersion: number }
  | { [M in WebviewRequestMethod]: { kind: "request"; id: number; method: M; params: WebviewRequests[M][0] } }[WebviewRequestMethod]
  | { kind: "response"; id: number; result?: unknown; error?: ErrorInfo };

/** Messages the host posts to the webview. */
export type HostToWebview =
  | { kind: "response"; id: number; result?: unknown; error?: ErrorInfo }
  | { [E in HostEventName]: { kind: "event"; name: E; payload: HostEvents[E] } }[HostEventName]
  | { [M in HostRequestMethod]: { kind: "request"; id: number; method: M; params: HostRequests[M][0] } }[HostRequestMethod]
  | { kind: "reload" };
