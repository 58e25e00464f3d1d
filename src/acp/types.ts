/**
 * Sidekicks' own shapes for what crosses the ACP boundary. SDK types never leave `src/acp/` (the original design's
 * `internal/acp`); the rest of the extension sees only these.
 */
import type { AgentCommand, Attachment, ContentBlockView } from "../shared/protocol";

/** How to start an agent process. `env` is the complete environment (already merged with the parent's). */
export interface AgentLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Working directory of the process, absolute. */
  cwd: string;
}

/** An MCP server handed to the agent in `session/new` (ACP `McpServer`: stdio, or `http`/`sse`). */
export type McpServerSpec =
  | { name: string; command: string; args: string[]; env: { name: string; value: string }[] }
  | { type: "http" | "sse"; name: string; url: string; headers: { name: string; value: string }[] };

/** How an agent process ended. */
export interface ExitInfo {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: string | null;
  /** The last lines of stderr (at most about 4 KB), for people. */
  stderrTail: string;
}

/** A file change in a tool call's content (ACP `Diff`). */
export interface ToolDiffInfo {
  path: string;
  /** `null` for a new file (ACP: omitted or null). */
  oldText: string | null;
  newText: string;
}

/** A file a tool call touches (ACP `ToolCallLocation`). */
export interface ToolLocationInfo {
  path: string;
  /** 1-based. */
  line?: number;
}

/**
 * A terminal the agent runs itself and reports in a tool call's `_meta` (the convention codex-acp and Zed share:
 * `terminal_info {terminal_id, cwd}`, `terminal_output` / `terminal_output_delta {terminal_id, data}` — chunks to
 * append —, `terminal_exit {terminal_id, exit_code, signal}`). The client never created it (no `terminal/create`).
 */
export interface AgentTerminalReport {
  terminalId: string;
  /** Output to append (ANSI escapes and all, as the command wrote it). */
  data?: string;
  /** Set when the command exited. */
  exit?: { exitCode: number | null; signal: string | null };
}

/** One task of the agent's plan (ACP `PlanEntry`, without `_meta`). */
export interface PlanEntryInfo {
  content: string;
  priority: "high" | "medium" | "low";
  status: "pending" | "in_progress" | "completed";
}

/**
 * What one prompt turn sends (ACP `session/prompt`): the request, and what Sidekicks adds for the agent around it.
 * A plain string is a request with nothing added.
 */
export interface PromptInput {
  /** The request as the user (or the delegating agent) wrote it. */
  text: string;
  /**
   * Sidekicks' own words for the agent, never the user's: the channel messages it has not seen, a retry's note. Sent
   * as an embedded `resource` block after the request when the agent accepts them (ACP
   * `promptCapabilities.embeddedContext`), so the agent can tell the request from its context (Claude Code titles a
   * session from the prompt's text blocks alone); otherwise as text before the request, in the same text block.
   */
  context?: string;
  /**
   * What the user attached to the request (issue 21): files, selections, images, problems. Sent as blocks the agent's
   * `promptCapabilities` allow (`promptBlocks.ts`); an image the agent cannot take is left out and the user told.
   */
  attachments?: Attachment[];
}

/** The URI of the embedded resource that carries a prompt's {@link PromptInput.context}. */
export const PROMPT_CONTEXT_URI = "sidekicks://channel/context";

/** A `session/update` reduced to what the channel shows (ACP `SessionUpdate`). */
export type AgentUpdate =
  /**
   * ACP `agent_message_chunk`. `messageId` is the chunk's ACP message id when the agent gave one: chunks that share it
   * belong to one message, and a change (also to or from none) starts a new one (ACP `ContentChunk.messageId`).
   */
  | { kind: "text"; text: string; messageId?: string }
  /** ACP `agent_thought_chunk`: a piece of the agent's reasoning, as text (`messageId` as for text). */
  | { kind: "thought"; text: string; messageId?: string }
  /**
   * ACP `agent_message_chunk` whose content is not text: an image, an embedded resource, a resource link, audio
   * (checked and bounded by `contentBlocks.ts`). Shown apart, in order with the text.
   */
  | { kind: "content"; block: ContentBlockView; messageId?: string }
  /** ACP `plan`: the complete plan, replacing the last one. */
  | { kind: "plan"; entries: PlanEntryInfo[] }
  | {
      kind: "toolCall";
      /** `tool_call` creates or replaces; `tool_call_update` patches the fields it carries. */
      isUpdate: boolean;
      toolCallId: string;
      title?: string;
      toolKind?: string;
      status?: "pending" | "in_progress" | "completed" | "failed";
      /**
       * Text of the `content` blocks, when the update carried content. A `tool_call_update` whose
       * content holds none (only diffs, or an empty list) carries `""`, so the earlier text is replaced.
       */
      content?: string;
      /** The content blocks that are not text, when the update carried content (then always set: they replace). */
      blocks?: ContentBlockView[];
      /** The `diff` blocks, when the update carried content (then always set, possibly empty: they replace). */
      diffs?: ToolDiffInfo[];
      /** The ids of its `terminal` blocks (ACP `terminal/create` ids), when the update carried content; they replace. */
      terminals?: string[];
      /** The locations, when the update carried them (they replace the earlier ones). */
      locations?: ToolLocationInfo[];
      /** Output of a terminal the agent runs itself, reported in the update's `_meta` (see {@link AgentTerminalReport}). */
      agentTerminal?: AgentTerminalReport;
    }
  | {
      /** ACP `available_commands_update`: the complete list of commands the agent offers now (replaces the last). */
      kind: "commands";
      commands: AgentCommandInfo[];
      /** What was left out or merged to make the list clean (`cleanCommands`), for the agent's log. */
      problems?: string[];
    }
  /** ACP `current_mode_update`: the agent switched its session mode (by itself, or after `session/set_mode`). */
  | { kind: "mode"; currentModeId: string }
  /** ACP `config_option_update`: the complete set of configuration options, replacing the last. */
  | { kind: "configOptions"; configOptions: ConfigOptionInfo[] }
  /** ACP `usage_update`: tokens in context, the context window, and the cumulative cost when the agent knows it. */
  | { kind: "usage"; usage: UsageInfo }
  /**
   * A condition the agent reports outside its answer's text, such as codex-acp's "Reconnecting... waiting for network"
   * (`session_info_update` `_meta.codex.error`): `retrying` when the agent says it tries again by itself.
   */
  | { kind: "notice"; text: string; retrying: boolean }
  /** ACP `session_info_update`: the fields it carries (`null` clears the title). */
  | { kind: "sessionInfo"; title?: string | null }
  | { kind: "ignored"; sessionUpdate: string };

/** One mode an agent's session can be in (ACP `SessionMode`). */
export interface ModeInfo {
  id: string;
  name: string;
  description?: string;
}

/** One value of a select configuration option (ACP `SessionConfigSelectOption`), with its group's name if grouped. */
export interface ConfigValueInfo {
  value: string;
  name: string;
  description?: string;
  group?: string;
}

/**
 * A session configuration option (ACP `SessionConfigOption`): a `select` (a dropdown of `options`, `currentValue` one
 * of their values) or a `boolean` toggle. `category` is ACP's UX hint (`mode`, `model`, `model_config`,
 * `thought_level`, or another string).
 */
export type ConfigOptionInfo =
  | { type: "select"; id: string; name: string; description?: string; category?: string; currentValue: string; options: ConfigValueInfo[] }
  | { type: "boolean"; id: string; name: string; description?: string; category?: string; currentValue: boolean };

/** ACP `usage_update`: `used` and `size` in tokens; `cost.amount` in `cost.currency` (ISO 4217, or "credits"…). */
export interface UsageInfo {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/** A model an agent offers through the legacy, unstable `models` field (ACP `ModelInfo`). */
export interface ModelInfo {
  modelId: string;
  name: string;
  description?: string;
}

/**
 * What a `session/new` or `session/load` answer says about the session's settings: its modes (ACP `modes`), its
 * configuration options (ACP `configOptions`) and, for agents that only offer them, the legacy models (the unstable
 * `models`: `availableModels`, `currentModelId`, changed with `session/set_model`).
 */
export interface SessionSetup {
  modes?: { currentModeId: string; availableModes: ModeInfo[] };
  configOptions?: ConfigOptionInfo[];
  models?: { currentModelId: string; availableModels: ModelInfo[] };
}

/**
 * A command an agent announced (ACP `AvailableCommand`), called by sending `/name args` as the prompt; the same shape
 * as the protocol's `AgentCommand` (`notCallable` set for a name `/name` cannot call, field case 22).
 */
export type AgentCommandInfo = AgentCommand;

/** A `session/request_permission` from the agent. */
export interface PermissionRequest {
  sessionId: string;
  toolCallId: string;
  /** The title the request's tool call carries (what the agent asks about), when it has one. */
  title?: string;
  /** The tool call's ACP `ToolKind` as the request states it (`read`, `edit`, `execute`, …), when it does. */
  toolKind?: string;
  /** The files the request is about (the paths of its ACP `locations`), when it names any. */
  paths?: string[];
  /**
   * The request's `toolCall` (an ACP `ToolCallUpdate`) as a `tool_call`: an agent may announce a tool call only by
   * asking permission for it (Gemini CLI does), and then the card is made from it.
   */
  toolCall?: Extract<AgentUpdate, { kind: "toolCall" }>;
  /** The options to show, checked (`permissionRequest.ts`): `other` is a kind ACP does not define, a plain choice. */
  options: { optionId: string; name: string; kind: "allow_once" | "allow_always" | "reject_once" | "reject_always" | "other" }[];
}

/**
 * A request the agent makes of the client for one of its sessions: files (ACP `fs/read_text_file`,
 * `fs/write_text_file`) and terminals (ACP `terminal/*`). Shapes follow ACP's params without `_meta`.
 */
export type ClientRequest =
  | { method: "fs/read_text_file"; sessionId: string; path: string; line?: number | null; limit?: number | null }
  | { method: "fs/write_text_file"; sessionId: string; path: string; content: string }
  | {
      method: "terminal/create";
      sessionId: string;
      command: string;
      args: string[];
      env: { name: string; value: string }[];
      cwd?: string | null;
      outputByteLimit?: number | null;
    }
  | { method: "terminal/output" | "terminal/wait_for_exit" | "terminal/kill" | "terminal/release"; sessionId: string; terminalId: string };

/** The client's answer (ACP `RequestPermissionOutcome`). */
export type PermissionAnswer = { outcome: "selected"; optionId: string } | { outcome: "cancelled" };

/** Callbacks from a running agent connection; all are called in the order the agent sent the messages. */
export interface AcpClientHandlers {
  /**
   * A `session/update`. `late`: turn content (chunks, tool calls, plans) that came when none of the session's prompts
   * was in flight — the agent wrote it after answering its prompt — so it belongs to that ended prompt's turn, never
   * to the next one.
   */
  onUpdate(sessionId: string, update: AgentUpdate, late?: boolean): void;
  /**
   * Files and terminals for the agent. When present, `initialize` advertises `fs.readTextFile`,
   * `fs.writeTextFile` and `terminal`; when absent, none of them (client capabilities are truthful).
   * Resolves with the ACP response object; a thrown `SidekicksError` becomes a JSON-RPC error carrying its sentence.
   */
  onClientRequest?(request: ClientRequest): Promise<unknown>;
  /** What `onClientRequest` serves, advertised in `initialize` (default: files and terminals when it is present). */
  serves?: { fs: boolean; terminal: boolean };
  /** Must eventually resolve; `signal` aborts when the agent cancels the request or the connection closes. */
  onPermissionRequest(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
  /** One line of the agent's stderr, without the newline. */
  onStderr(line: string): void;
  /** A diagnostic for the agent's log (dropped stdout lines, updates for unknown sessions). */
  onLog(level: "debug" | "warn", message: string): void;
}

/**
 * One way to sign in to an agent (ACP `AuthMethod` from `initialize`):
 * - `agent`: the agent signs in itself when the client calls ACP `authenticate` with `id` (a browser flow, say);
 * - `terminal`: the user runs the agent's own command with `args` appended and `env` set, in a terminal
 *   (ACP terminal authentication; a zero exit status means signed in; the agent must be restarted after);
 * - `envVar`: the user provides `vars` as environment variables (ACP RFD "auth methods" `env_var`, or an agent
 *   method whose description names an environment variable, as codex-acp's API-key methods do).
 */
export type AuthMethodInfo =
  | { kind: "agent"; id: string; name: string; description?: string }
  | { kind: "terminal"; id: string; name: string; description?: string; args: string[]; env: Record<string, string> }
  | { kind: "envVar"; id: string; name: string; description?: string; vars: string[]; link?: string };

/** What `initialize` told us about the agent. */
export interface AgentInfo {
  name?: string;
  version?: string;
  protocolVersion: number;
  loadSession: boolean;
  /** ACP `promptCapabilities.embeddedContext`: the agent accepts embedded `resource` blocks in prompts. */
  embeddedContext: boolean;
  /** ACP `agentCapabilities.mcpCapabilities.http`: the agent connects to MCP servers over Streamable HTTP. */
  mcpHttp: boolean;
  /** ACP `promptCapabilities.image`: the agent accepts `image` blocks in prompts. */
  image: boolean;
  authMethods: AuthMethodInfo[];
  /** The `_meta` object of the `initialize` result, if any (the fake agent reports `startupMs` there). */
  meta?: Record<string, unknown>;
}

/** Why a request failed with "authentication required" (JSON-RPC -32000), and how the user can sign in. */
export interface AuthRequired {
  /** Roster name of the agent. */
  agent: string;
  /** The ways to sign in the agent announced in `initialize` (may be empty). */
  methods: AuthMethodInfo[];
  /** The agent's own launch, for terminal methods (run `command` with `args` + the method's args). */
  launch: AgentLaunch;
}
