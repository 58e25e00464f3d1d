/**
 * The one typed protocol between the extension host and the webview.
 *
 * Both bundles import this file; it imports nothing. A request map says, per method, the params and the result;
 * an event map says, per event, the payload. The compiler then forces one handler per request on the receiving
 * side, and a renamed field breaks both sides at build time (STYLE.md, "One typed protocol").
 *
 * Envelope rules:
 * - The webview posts `{kind: "ready", protocolVersion}` first; the host queues everything until then. On a
 *   version mismatch the host answers with `{kind: "reload"}` and the webview reloads.
 * - Every request gets exactly one `response` with the same `id`, carrying `result` or `error`.
 * - A streamed message starts with `message/started`, continues with `message/delta` and always ends with
 *   `message/finished` (which carries the whole committed message, error included; its text only when the webview
 *   may lack some of it: `streamedText`).
 */

/** Bumped whenever a breaking change is made to the shapes below. */
export const PROTOCOL_VERSION = 2;

/** State of one agent process, as the agent manager reports it (ADR 0003, `agent:state`). */
export type AgentState = "stopped" | "starting" | "ready" | "busy" | "error";

/** Who wrote a message (ADR 0003 data model, `Message.author`). */
export interface Author {
  kind: "user" | "agent" | "system";
  /** Set when `kind` is `agent`. */
  agentName?: string;
}

/** ACP tool call status (`ToolCallStatus`). */
export type ToolCallStatus = "pending" | "in_progress" | "completed" | "failed";

/** ACP permission option kinds (`PermissionOptionKind`). */
export type PermissionOptionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always";

/** One permission option as the agent offered it (ACP `PermissionOption`). */
export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind;
}

/**
 * Markdown text streamed by the agent (`agent_message_chunk`) or written by the user. Chunks coalesce into one part
 * while their ACP `messageId` stays the same; a different one (or none after one) starts a new part, shown apart.
 */
export interface TextPart {
  type: "text";
  text: string;
  /** The ACP message id of the chunks it holds, when the agent gave one. */
  messageId?: string;
}

/** A tool call the agent reported (`tool_call` / `tool_call_update`), keyed by `toolCallId`. */
export interface ToolCallPart {
  type: "toolCall";
  toolCallId: string;
  title: string;
  /** ACP `ToolKind` (read, edit, execute, …) when the agent gave one. */
  kind?: string;
  status: ToolCallStatus;
  /** Plain text of the tool call's `content` blocks, if any (diffs are in `diffs`, terminals in `terminals`). */
  content?: string;
  /** The tool call's `diff` content blocks, in order (ACP `Diff`): replaced with `content`, kept when omitted. */
  diffs?: ToolCallDiff[];
  /** The terminals its `terminal` content blocks embed (ACP terminal ids): their live output shows in the card. */
  terminals?: string[];
  /** The files the tool call reads or changes (ACP `ToolCallLocation`): replaced when an update carries them. */
  locations?: ToolCallLocation[];
  /**
   * Output of terminals the agent runs itself (codex-acp: `_meta.terminal_output_delta` / `terminal_exit` for a
   * terminal the client never created), by terminal id, kept with the answer. Shown in the card in place of a
   * `terminals` entry of the same id, or after the content when no block names it (a read's text).
   */
  agentTerminals?: AgentTerminalOutput[];
  /**
   * Set when the turn was interrupted while this tool call was still `pending` or `in_progress`: the agent ran it
   * itself, so whether it finished is not known (brief, "Tool intents"). `status` keeps the last known value.
   */
  outcomeUnknown?: boolean;
  /**
   * Set when the user stopped the turn (ACP `session/cancel`) while this tool call was still `pending` or
   * `in_progress` and the agent did not report its end: shown as cancelled, as the ACP spec asks of clients.
   */
  cancelled?: boolean;
  /**
   * Set when the agent ended its turn (a stop reason such as `end_turn`, `max_tokens`, `refusal`) while this tool
   * call was still `pending` or `in_progress`: the agent never reported its outcome, so it is shown as "no result" —
   * neither completed nor failed. `status` keeps what the agent last said.
   */
  noResult?: boolean;
}

/** The output of one terminal an agent ran itself, as its tool call reported it (see `ToolCallPart.agentTerminals`). */
export interface AgentTerminalOutput {
  terminalId: string;
  /** The output, as the command wrote it (escapes and all); its start is dropped beyond a bound (`omitted`). */
  output: string;
  /** UTF-16 code units dropped from the start of `output` to keep it bounded. */
  omitted?: number;
  /** Set once the command exited: its exit code (null when killed) and signal. */
  exit?: { exitCode: number | null; signal: string | null };
}

/** A file change a tool call reports (ACP tool call content of type `diff`). */
export interface ToolCallDiff {
  /** The file, absolute as the agent names it. */
  path: string;
  /** The text before the change; `null` for a new file. */
  oldText: string | null;
  newText: string;
}

/** A file a tool call reads or changes (ACP `ToolCallLocation`). */
export interface ToolCallLocation {
  /** Absolute as the agent names it. */
  path: string;
  /** 1-based line, when the agent gave one. */
  line?: number;
}

/**
 * The agent's reasoning (ACP `agent_thought_chunk`), shown collapsed. Consecutive thought chunks coalesce into one
 * part, as text chunks do; a thought after other parts starts a new one.
 */
export interface ThoughtPart {
  type: "thought";
  text: string;
  /** The ACP message id of the chunks it holds, when the agent gave one (a change starts a new part). */
  messageId?: string;
}

/** ACP `PlanEntryStatus`. */
export type PlanEntryStatus = "pending" | "in_progress" | "completed";

/** ACP `PlanEntryPriority`. */
export type PlanEntryPriority = "high" | "medium" | "low";

/** One task of the agent's plan (ACP `PlanEntry`). */
export interface PlanEntry {
  content: string;
  priority: PlanEntryPriority;
  status: PlanEntryStatus;
}

/**
 * The agent's plan (ACP `plan`): at most one per message, where the first plan update put it; each update replaces
 * every entry (ACP: "the client replaces the entire plan with each update").
 */
export interface PlanPart {
  type: "plan";
  entries: PlanEntry[];
}

/** A permission request (`session/request_permission`), keyed by `requestId`. */
export interface PermissionPart {
  type: "permission";
  requestId: string;
  toolCallId: string;
  title: string;
  options: PermissionOption[];
  /** The chosen `optionId`, `"cancelled"` when the request was cancelled, absent while pending. */
  outcome?: string;
  /** The tool kind (ACP `ToolKind`) and files (`paths`) the request is about, if known: with `title`, what a Sidekicks rule matches. */
  toolKind?: string;
  paths?: string[];
  /** `auto`: why Sidekicks answered without asking (the policy, or which rule); `notice`: why it asked anyway, or the rule made. */
  auto?: string;
  notice?: string;
}

/**
 * Where a new attempt of the same turn begins (the user pressed Retry after an interrupted or failed answer).
 * The parts before it are what the earlier attempt produced; `note` says what the agent was told about them.
 */
export interface RetryPart {
  type: "retry";
  /** The attempt that starts here (2 for the first retry). */
  attempt: number;
  note: string;
}

/** One file a turn changed (issue 7, "File watching"). */
export interface ChangedFileView {
  /** Absolute path on this machine. */
  path: string;
  kind: "created" | "modified" | "deleted";
  /** False when its text from before the turn is not known (too large, or not captured): no diff to open. */
  beforeKnown: boolean;
}

/** The files the agent changed in its workspace during this turn, seen by the editor's file watcher. */
export interface FilesPart {
  type: "files";
  files: ChangedFileView[];
}
/** A part of a message (ADR 0003 data model, `Part`). */
/**
 * What the agent reported about its own condition while it answered, outside its text (codex-acp: "Reconnecting...
 * waiting for network"): at most one per message, the latest, where the first put it.
 */
export interface NoticePart {
  type: "notice";
  text: string;
  /** The agent said it tries again by itself. */
  retrying: boolean;
}

export type Part = NoticePart | TextPart | ToolCallPart | PermissionPart | RetryPart | ThoughtPart | PlanPart | FilesPart;

/**
 * How a turn ended (brief, "durable turns"): `completed` (the agent ended its turn), `cancelled` (the user's Stop),
 * `failed` (the agent or its process failed), `interrupted` (the window closed or the extension host died while it
 * ran), `refused` (the agent refused, ACP stop reason `refusal`).
 */
export type TurnOutcome = "completed" | "cancelled" | "failed" | "interrupted" | "refused";

/** A typed error with a stable code (`agent/exited`, `agent/spawn`, `agent/protocol`, `config/invalid`, …). */
export interface ErrorInfo {
  code: string;
  message: string;
  /** Extra lines for people, such as the tail of the agent's stderr. */
  detail?: string;
}

/** A message as the webview shows it. `createdAt` is milliseconds since the epoch. */
export interface MessageView {
  id: string;
  channelId: string;
  author: Author;
  parts: Part[];
  createdAt: number;
  /**
   * `queued`: an agent message waiting for its agent to finish an earlier answer in this channel; `streaming` between
   * `message/started` and `message/finished`; then `done` or `error`.
   */
  status: "queued" | "streaming" | "done" | "error";
  /** For a user message: the agents it was routed to (mentioned, or the channel's default). */
  to?: string[];
  /** For an agent message: the agent whose final answer @mentioned this one (delegation), and that answer's id. */
  delegatedBy?: string;
  parentMessageId?: string;
  /** ACP stop reason of the prompt turn that produced this message (`end_turn`, `cancelled`, …). */
  stopReason?: string;
  error?: ErrorInfo;
  /** For an agent message: how its turn ended, once settled. */
  outcome?: TurnOutcome;
  /** For an agent message: the attempt that produced it (2+ after Retry). */
  attempt?: number;
  /** True when the user can run it again: Retry (`interrupted`, `failed`), Run again (`cancelled`). */
  retryable?: boolean;
}

/** An agent's roster `icon` as the webview shows it: a codicon name, or an image file as a webview URI. */
export type AgentIconView = { codicon: string } | { uri: string };

/** One channel member and its agent's live state. */
export interface MemberView {
  name: string;
  state: AgentState;
  /** The roster's `icon`; an image file arrives as a webview URI (the host's `asWebviewUri`). */
  icon?: AgentIconView;
  /** The roster's `color`: a theme colour id (`charts.blue`) or `#rrggbb`. */
  color?: string;
}

/** A channel with its members (ADR 0003 `Channel` + `Membership`). */
export interface ChannelView {
  id: string;
  name: string;
  members: MemberView[];
}

/**
 * A channel or direct conversation as the channel switcher lists it. `unread` counts user and agent messages after
 * the last one the user saw there, capped at {@link UNREAD_CAP}; `busy` is true while a member answers in it.
 */
export interface ChannelSummary {
  id: string;
  /** A channel's name (`general`), or `@agent` for a direct conversation. */
  name: string;
  kind: "channel" | "direct";
  description?: string;
  members: string[];
  unread: number;
  busy: boolean;
}

/** The highest unread count the host reports; the switcher shows it as `99+`. */
export const UNREAD_CAP = 99;

/** A command an agent announced (ACP `available_commands_update`); the user calls it with `/name args`. */
export interface AgentCommand {
  /** Without the leading `/`. */
  name: string;
  description: string;
  /** What to type after the command (ACP `input.hint`), when it takes input. */
  hint?: string;
}

/** One mode an agent's session can be in (ACP `SessionMode`). */
export interface SessionModeView {
  id: string;
  name: string;
  description?: string;
}

/** One value of a select option (ACP `SessionConfigSelectOption`); `group` is the name of its group, if grouped. */
export interface SessionConfigValueView {
  value: string;
  name: string;
  description?: string;
  group?: string;
}

/**
 * A session configuration option (ACP `SessionConfigOption`): a select or a boolean toggle. `category` is ACP's hint
 * (`mode`, `model`, `model_config`, `thought_level`, or another string) and orders the controls.
 */
export type SessionConfigOptionView =
  | { type: "select"; id: string; name: string; description?: string; category?: string; currentValue: string; options: SessionConfigValueView[] }
  | { type: "boolean"; id: string; name: string; description?: string; category?: string; currentValue: boolean };

/**
 * The settings and meters of one agent's session in one channel (issue 6, "Session controls"), as the host last
 * heard them: from the `session/new` or `session/load` answer, then ACP `current_mode_update`,
 * `config_option_update`, `usage_update` and `session_info_update`. Kept per (channel, agent) across reloads.
 */
export interface SessionStateView {
  channelId: string;
  agent: string;
  /** ACP `modes`: the modes offered and the current one. */
  modes?: { currentModeId: string; availableModes: SessionModeView[] };
  /** ACP `configOptions` (model, effort, …). */
  configOptions?: SessionConfigOptionView[];
  /** The legacy, unstable ACP `models`, only when no config option has the `model` category. */
  models?: { currentModelId: string; availableModels: { modelId: string; name: string; description?: string }[] };
  /** ACP `usage_update`: tokens in context (`used`) of the context window (`size`); cumulative cost if known. */
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } };
  /** ACP `session_info_update` `title`. */
  title?: string;
  /** False once the session's process has gone: the values are the last known, a change reopens the session. */
  live: boolean;
  /**
   * What the user set in this channel's controls for this agent, setting by setting (issue 15, "what the user chose
   * stays chosen"): re-applied when a session opens (ACP `session/new` or `session/load`: after a reload, an agent
   * restart, a Retry) with other values. A value the agent itself reports later in the session for one of these
   * settings (after the user approved a plan, say) replaces the choice, so it is not undone at the next open.
   */
  chosen?: SessionChoices;
  /** Choices the agent refused to take back when the session opened, with its reason: the controls say so. */
  notRestored?: { setting: string; value: string; reason: string }[];
}

/** The user's choices for a session (see `SessionStateView.chosen`): a mode, config option values by id, a model. */
export interface SessionChoices {
  mode?: string;
  config?: Record<string, string | boolean>;
  model?: string;
}

/** A setting the user picks for an agent's session: a mode, a config option's value, or a legacy model. */
export type SessionChange =
  | { kind: "mode"; modeId: string }
  | { kind: "config"; configId: string; value: string | boolean }
  | { kind: "model"; modelId: string };

/** What the host knows of the roster file. */
export interface ConfigStatus {
  /** `missing`: no file yet; `invalid`: the last read failed validation; `ok`: loaded. */
  state: "missing" | "ok" | "invalid" | "untrusted";
  /** Absolute path of the file the host looked for. */
  path: string;
  /** Human-readable problems, each `file:line:column: message`. */
  problems: string[];
}

/** Requests from the webview to the host: `method → [params, result]`. */
export interface WebviewRequests {
  /** Opens a channel by id, else by name (default `general`), and returns its latest messages, oldest first. */
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
   * still older ones exist: the view scrolls back through the history page by page.
   */
  "channel/older": [{ channelId: string; beforeId: string; limit?: number }, { messages: MessageView[]; more: boolean }];
  /**
   * Changes a setting of an agent's session in a channel: ACP `session/set_mode`, `session/set_config_option`, or the
   * legacy `session/set_model`. Opens (or resumes) the session first when its process has gone. Rejected with
   * `agent/request` when the agent refuses the value; the host then posts the unchanged state again.
   */
  "session/configure": [{ channelId: string; agent: string; change: SessionChange }, { state: SessionStateView }];
  /** Sends a user message. Rejected with `channel/noRecipient` or `channel/unknownMember` when nobody can take it. */
  "channel/send": [{ channelId: string; text: string }, { messageId: string }];
  /** Answers a pending permission request (`remember`: Sidekicks answers it so from now on, ADR 0005); `accepted`: it was pending. */
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
  /** Deletes a channel and its history (the UI confirms first); refused for #general and while a member answers. */
  "channel/delete": [{ id: string }, { deleted: boolean }];
  /** Adds a roster agent to a channel. */
  "channel/join": [{ id: string; agent: string }, ChannelSummary];
  /** Removes an agent from a channel (its messages stay). */
  "channel/leave": [{ id: string; agent: string }, ChannelSummary];
  /** The direct conversation with an agent, created when missing. */
  "channel/direct": [{ agent: string }, ChannelSummary];
  /** Records that the user has seen the channel up to `messageId` (the open channel is visible). */
  "channel/read": [{ channelId: string; messageId: string }, { unread: number }];
  /** Runs a host command the webview offers as a button. */
  "command/run": [{ command: "createConfig" | "openConfig" | "showLog" | "manageTrust" }, { done: boolean }];
  /**
   * Opens a tool call's diff in the editor's diff view (read-only virtual documents for both sides; `oldText` null:
   * a new file, shown against an empty document). `opened` is false when the editor cannot.
   */
  "editor/openDiff": [ToolCallDiff, { opened: boolean }];
  /** Opens a file (a tool call location) at its 1-based line; `opened` is false when there is no such file. */
  "editor/openLocation": [ToolCallLocation, { opened: boolean }];
  /** Inserts text (a code block) at the cursor of the active text editor; `inserted` is false when none is open. */
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
  /** The channel list changed: a channel was created, renamed or deleted, members changed, unread or busy moved. */
  "channels/changed": { channels: ChannelSummary[] };
  "config/changed": ConfigStatus;
  /** An agent announced its commands (ACP `available_commands_update`): the complete list, replacing the last. */
  "commands/changed": { agent: string; commands: AgentCommand[] };
  /** An agent's session in a channel changed its settings, usage or title (or a refused change left them as they were). */
  "session/state": SessionStateView;
  /** An agent's process changed state: member badges in any open channel follow. */
  "agent/state": { agent: string; state: AgentState };
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
