/**
 * The shapes of a message's content and of the agents' and turns' states, as host and webview both see them: parts
 * (text, thoughts, tool calls, permissions, plans, retries, notices, files changed), outcomes, errors. Part of the
 * host ⇄ webview protocol (`index.ts`); imports nothing.
 */

/** State of one agent process, as the agent manager reports it (the original design's ADR 0003, `agent/state`). */
export type AgentState = "stopped" | "starting" | "ready" | "busy" | "error";

/**
 * What a running agent is waiting for, while Sidekicks waits for its answer to a request with a deadline (issue 18):
 * the ACP method, `session/cancel` being the wait for the cancelled prompt's answer. Shown instead of "ready"/"busy".
 */
export type AgentWait = "authenticate" | "session/new" | "session/load" | "session/set_mode" | "session/set_config_option" | "session/set_model" | "session/cancel";

/** Who wrote a message (the original design's ADR 0003 data model, `Message.author`). */
export interface Author {
  kind: "user" | "agent" | "system";
  /** Set when `kind` is `agent`. */
  agentName?: string;
}

/** ACP tool call status (`ToolCallStatus`). */
export type ToolCallStatus = "pending" | "in_progress" | "completed" | "failed";

/**
 * ACP permission option kinds (`PermissionOptionKind`), and `other` for a kind ACP does not define: shown as a plain
 * choice, never chosen by a policy or a rule (issue 18).
 */
export type PermissionOptionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always" | "other";

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
  /** Its content blocks that are not text (images, embedded files, links), in order: replaced with `content`. */
  blocks?: ContentBlockView[];
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
  /**
   * For the card of a `delegate` tool call (issue 22): the member it handed the work to and that member's answer
   * (the child turn's message), which the card links to.
   */
  delegation?: { member: string; childMessageId: string };
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
  /**
   * True when neither the request nor its tool call had a title: `title` is Sidekicks' own ("Permission requested"),
   * which would match every untitled request of the kind, so no Sidekicks rule is offered or made from it.
   */
  untitled?: boolean;
  /** The tool kind (ACP `ToolKind`) and files (`paths`) the request is about, if known: with `title`, what a Sidekicks rule matches. */
  toolKind?: string;
  paths?: string[];
  /** `auto`: why Sidekicks answered without asking (the policy, or which rule); `notice`: why it asked anyway, or the rule made. */
  auto?: string;
  notice?: string;
  /** Answered `cancelled` by Sidekicks because the answer ended (interrupted, failed, ended) before the user chose: shown as "Not answered". */
  unanswered?: boolean;
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
  /**
   * Why its earlier text is not known, when it is not: `tooLarge`, `binary`, `overBudget` (the snapshot's or the
   * turn's budget was spent on smaller files) or `late` (changed before the snapshot could read it).
   */
  beforeUnknown?: "tooLarge" | "binary" | "overBudget" | "late";
  /** Set when the turn changed only its line endings (field case 13): `LF`, `CRLF`, `CR`, `mixed` or `none`. */
  lineEndings?: { from: string; to: string };
  /** True when both its texts, before and after the turn, are kept: it can be undone (and the undo undone). */
  restorable?: boolean;
  /** What the user decided since (issue 19): `kept`, or `undone` (its text from before the turn restored). */
  state?: "kept" | "undone";
}

/** The files the agent changed in its workspace during this turn, seen by the editor's file watcher. */
export interface FilesPart {
  type: "files";
  /**
   * Its agent works in a git worktree of its own (issue 20): the changes are not in the user's folder until applied
   * ("Apply to my folder": `turn/applyToFolder`).
   */
  worktree?: boolean;
  files: ChangedFileView[];
}
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

/**
 * An ACP content block that is not plain text, as the view shows it (ACP `ContentBlock`: `image`, `audio`, `resource`,
 * `resource_link`; field cases 18 and 19). Checked and bounded where it enters (`src/acp/contentBlocks.ts`):
 * - `image`: `data` (base64) only when its type is one the view shows and it is within the size bound; otherwise
 *   `omitted` says why and the view names the image instead (never a base64 dump, never `[image]`). A resource whose
 *   blob is an image comes as an image with its `uri` and `name`.
 * - `file`: an embedded text resource, its text verbatim (cut at a bound, `cutChars` saying how much was left out).
 * - `binary`: an embedded blob that is not a shown image: its name, type and size.
 * - `audio`: its type and size (not played).
 * - `link`: a resource link (ACP `ResourceLink`), which opens through the view's link rule.
 * Sizes in bytes (decoded).
 */
export type ContentBlockView =
  | { kind: "image"; mimeType: string; bytes: number; data?: string; omitted?: "type" | "size" | "data"; uri?: string; name?: string }
  | { kind: "audio"; mimeType: string; bytes: number }
  | { kind: "file"; uri: string; name: string; mimeType?: string; text: string; cutChars?: number }
  | { kind: "binary"; uri: string; name: string; mimeType?: string; bytes: number }
  | { kind: "link"; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number };

/** Lines `start` … `end` of a file, 1-based and inclusive (`start` ≤ `end`). */
export interface LineRange {
  start: number;
  end: number;
}

/** One problem the editor showed for a file (a VS Code `Diagnostic`), as an attachment carries it. */
export interface ProblemView {
  severity: "error" | "warning" | "info" | "hint";
  message: string;
  /** 1-based lines it covers. */
  range: LineRange;
  /** Who reported it (`ts`, `eslint`…) and its code, when the editor knows them. */
  source?: string;
  code?: string;
}

/**
 * Context the user handed an agent with a message (issue 21, "Attach"), kept on the user message:
 * - `file`: a workspace file, or lines of it (`range`); `text` is what the user saw when sending (the editor's buffer,
 *   unsaved edits included), absent when it was too large to embed (`omitted` says why: the agent gets a link only);
 * - `selection`: the text the user selected in `path`, lines `range`;
 * - `image`: a pasted or dropped image, base64 `data` of a shown `mimeType`;
 * - `problems`: the editor's problems of `path` (within `range` when set);
 * - `terminal`: text the user selected in a terminal (`name` is the terminal's name), no file behind it.
 * Paths are absolute, inside the workspace (checked where the attachment enters).
 */
export type Attachment =
  | { kind: "file"; path: string; range?: LineRange; text?: string; omitted?: "size" | "binary" }
  | { kind: "selection"; path: string; range: LineRange; text: string }
  | { kind: "image"; name: string; mimeType: string; data: string }
  | { kind: "problems"; path: string; range?: LineRange; problems: ProblemView[] }
  | { kind: "terminal"; name: string; text: string };

/** A workspace file offered by `@file` completion: its absolute `path` and its path relative to its workspace folder. */
export interface FileSuggestion {
  path: string;
  relative: string;
}

/** One attachment as the webview sends it (`channel/send`): a file names only its path and range (the host reads its text). */
export type AttachmentRequest = Omit<Extract<Attachment, { kind: "file" }>, "text" | "omitted"> | Exclude<Attachment, { kind: "file" }>;

/** A content block of the agent's answer that is not text (an image, a file, a link…): one per block, in order. */
export interface ContentPart {
  type: "content";
  block: ContentBlockView;
  /** The ACP message id of the chunk, when the agent gave one. */
  messageId?: string;
}

export type Part = NoticePart | TextPart | ToolCallPart | PermissionPart | RetryPart | ThoughtPart | PlanPart | FilesPart | ContentPart;

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
