/**
 * What the webview is shown of channels, members, messages and agents' sessions (modes, config options, choices),
 * and of the roster file. Part of the host ⇄ webview protocol (`index.ts`).
 */
import type { AgentState, AgentWait, Attachment, Author, ErrorInfo, Part, TurnOutcome } from "./parts";

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
  /** For a user message: the files, selections, images and problems the user attached (issue 21). */
  attachments?: Attachment[];
  /** For an agent message: the agent whose final answer @mentioned this one (delegation), and that answer's id. */
  delegatedBy?: string;
  parentMessageId?: string;
  /** `tool`: delegated through the parent's `delegate` tool call (issue 22), not by a mention. */
  delegatedVia?: "tool";
  /** ACP stop reason of the prompt turn that produced this message (`end_turn`, `cancelled`, …). */
  stopReason?: string;
  error?: ErrorInfo;
  /** For an agent message: how its turn ended, once settled. */
  outcome?: TurnOutcome;
  /** For an agent message: the attempt that produced it (2+ after Retry). */
  attempt?: number;
  /** True when the user can run it again: Retry (`interrupted`, `failed`), Run again (`cancelled`). */
  retryable?: boolean;
  /** For a user message sent with Edit: the earlier user message it was edited from (kept as it was in the history). */
  editOf?: string;
  /** For an agent message made by Regenerate: the earlier answer to the same request by the same agent (kept). */
  regenerates?: string;
}

/** An agent's roster `icon` as the webview shows it: a codicon name, or an image file as a webview URI. */
export type AgentIconView = { codicon: string } | { uri: string };

/** One channel member and its agent's live state. */
export interface MemberView {
  name: string;
  state: AgentState;
  /** What the agent is waiting for meanwhile (its badge says so instead of the state), if anything. */
  waiting?: AgentWait;
  /** The roster's `icon`; an image file arrives as a webview URI (the host's `asWebviewUri`). */
  icon?: AgentIconView;
  /** The roster's `color`: a theme colour id (`charts.blue`) or `#rrggbb`. */
  color?: string;
}

/** A channel with its members (the original design's ADR 0003 `Channel` + `Membership`). */
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

/**
 * Why an announced command cannot be called by typing `/name` (field case 22): its name holds whitespace, holds a
 * `/`, or is longer than routing reads (100 characters). Such a command is shown greyed, never sent.
 */
export type CommandNotCallable = "whitespace" | "slash" | "long";

/** A command an agent announced (ACP `available_commands_update`); the user calls it with `/name args`. */
export interface AgentCommand {
  /** Without the leading `/`. Any text: shown as characters, never as markup. */
  name: string;
  description: string;
  /** What to type after the command (ACP `input.hint`), when it takes input. */
  hint?: string;
  /** Set when `/name` cannot call it (see {@link CommandNotCallable}): the menu shows it greyed, saying why. */
  notCallable?: CommandNotCallable;
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
  /**
   * What the earlier sessions of this channel and agent cost, one entry per currency (issue 21: a Retry in a new
   * session or a session not resumed does not reset the total). The total is this plus `usage.cost`
   * (`src/shared/usageTotals.ts`).
   */
  spent?: { amount: number; currency: string }[];
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
