import type * as acp from "@agentclientprotocol/sdk";
import type { ContentBlockView } from "../shared/protocol";
import { describeBlock } from "../shared/contentBlocks";
import { cleanCommands } from "./commands";
import { contentOf } from "./contentBlocks";
import type { AgentTerminalReport, AgentUpdate, ConfigOptionInfo, ConfigValueInfo, ModeInfo, ModelInfo, PlanEntryInfo, SessionSetup, ToolDiffInfo, ToolLocationInfo, UsageInfo } from "./types";

/**
 * Reduces an ACP `SessionUpdate` to the shapes the channel shows: message and thought chunks, tool calls (with their
 * diffs and locations kept as structures), plans, commands, and the session's settings and meters (mode, config
 * options, usage, title). Kinds not rendered (user message replays, notices, …) come back as `ignored` so the caller
 * can log them.
 *
 * `tool_call_update` (ACP: "only the fields being changed"): `content` and `locations` are set only when the update
 * carries them, and then replace the earlier ones whole (field case 2); `null` counts as omitted.
 */
export function toAgentUpdate(update: acp.SessionUpdate): AgentUpdate {
  switch (update.sessionUpdate) {
    case "agent_message_chunk": {
      const content = contentOf(update.content);
      return "block" in content ? { kind: "content", block: content.block, ...chunkMessageId(update) } : { kind: "text", text: content.text, ...chunkMessageId(update) };
    }
    case "agent_thought_chunk":
      // A thought is read as text: a block in one is named (`[image: image/png, 2 KB]`), not shown.
      return { kind: "thought", text: contentText(update.content), ...chunkMessageId(update) };
    case "plan":
      return { kind: "plan", entries: planEntries(update.entries) };
    case "tool_call":
      return {
        kind: "toolCall",
        isUpdate: false,
        toolCallId: update.toolCallId,
        title: update.title,
        toolKind: update.kind ?? undefined,
        status: update.status ?? "pending",
        ...toolContent(update.content, false),
        ...toolLocations(update.locations),
        ...agentTerminal(update.toolCallId, update._meta),
      };
    case "tool_call_update":
      return {
        kind: "toolCall",
        isUpdate: true,
        toolCallId: update.toolCallId,
        title: update.title ?? undefined,
        toolKind: update.kind ?? undefined,
        status: update.status ?? undefined,
        ...toolContent(update.content, true),
        ...toolLocations(update.locations),
        ...agentTerminal(update.toolCallId, update._meta),
      };
    case "available_commands_update": {
      const { commands, problems } = cleanCommands(update.availableCommands);
      return problems.length > 0 ? { kind: "commands", commands, problems } : { kind: "commands", commands };
    }
    case "current_mode_update":
      return { kind: "mode", currentModeId: update.currentModeId };
    case "config_option_update":
      return { kind: "configOptions", configOptions: configOptions(update.configOptions) };
    case "usage_update": {
      const usage = usageInfo(update);
      return usage ? { kind: "usage", usage } : { kind: "ignored", sessionUpdate: update.sessionUpdate };
    }
    case "session_info_update": {
      const notice = codexNotice(update._meta);
      if (notice) return notice;
      return "title" in update && (typeof update.title === "string" || update.title === null) ? { kind: "sessionInfo", title: update.title } : { kind: "sessionInfo" };
    }
    default:
      return { kind: "ignored", sessionUpdate: update.sessionUpdate };
  }
}

/**
 * The settings a `session/new` or `session/load` answer describes (ACP `modes`, `configOptions`, and the unstable
 * `models`, which the SDK does not type: read from the raw answer). Malformed pieces are left out, never thrown.
 */
export function toSessionSetup(response: unknown): SessionSetup {
  const r = (typeof response === "object" && response !== null ? response : {}) as Record<string, unknown>;
  const setup: SessionSetup = {};
  const modes = r.modes as { currentModeId?: unknown; availableModes?: unknown } | null | undefined;
  if (modes && typeof modes.currentModeId === "string" && Array.isArray(modes.availableModes)) {
    setup.modes = { currentModeId: modes.currentModeId, availableModes: modes.availableModes.filter(isNamed("id")).map((m): ModeInfo => withDescription({ id: m.id, name: m.name }, m.description)) };
  }
  if (Array.isArray(r.configOptions)) setup.configOptions = configOptions(r.configOptions);
  const models = r.models as { currentModelId?: unknown; availableModels?: unknown } | null | undefined;
  if (models && typeof models.currentModelId === "string" && Array.isArray(models.availableModels)) {
    setup.models = {
      currentModelId: models.currentModelId,
      availableModels: models.availableModels.filter(isNamed("modelId")).map((m): ModelInfo => withDescription({ modelId: m.modelId, name: m.name }, m.description)),
    };
  }
  return setup;
}

/** ACP `SessionConfigOption`s: selects (flat or grouped values) and booleans; anything else is left out. */
export function configOptions(list: readonly unknown[] | null | undefined): ConfigOptionInfo[] {
  if (!Array.isArray(list)) return [];
  const out: ConfigOptionInfo[] = [];
  for (const raw of list) {
    if (!isNamed("id")(raw)) continue;
    const o = raw as Record<string, unknown> & { id: string; name: string };
    const base = {
      id: o.id,
      name: o.name,
      ...(typeof o.description === "string" ? { description: o.description } : {}),
      ...(typeof o.category === "string" ? { category: o.category } : {}),
    };
    if (o.type === "boolean" && typeof o.currentValue === "boolean") out.push({ type: "boolean", ...base, currentValue: o.currentValue });
    else if ((o.type === "select" || o.type === undefined) && typeof o.currentValue === "string" && Array.isArray(o.options)) {
      out.push({ type: "select", ...base, currentValue: o.currentValue, options: selectValues(o.options) });
    }
  }
  return out;
}

/** Flat values, or groups of values (ACP `SessionConfigSelectGroup`) flattened with their group's name. */
function selectValues(options: unknown[]): ConfigValueInfo[] {
  const out: ConfigValueInfo[] = [];
  for (const item of options) {
    if (typeof item !== "object" || item === null) continue;
    const g = item as { name?: unknown; options?: unknown; value?: unknown; description?: unknown };
    if (Array.isArray(g.options) && typeof g.name === "string") {
      for (const v of g.options) if (isNamed("value")(v)) out.push(withDescription({ value: v.value, name: v.name, group: g.name }, v.description));
    } else if (isNamed("value")(item)) out.push(withDescription({ value: item.value, name: item.name }, (item as { description?: unknown }).description));
  }
  return out;
}

/** ACP `UsageUpdate` → {@link UsageInfo}; undefined when `used` or `size` is not a number of tokens. */
function usageInfo(update: { used?: unknown; size?: unknown; cost?: unknown }): UsageInfo | undefined {
  const { used, size, cost } = update;
  if (typeof used !== "number" || typeof size !== "number" || !(used >= 0) || !(size >= 0)) return undefined;
  const c = cost as { amount?: unknown; currency?: unknown } | null | undefined;
  return c && typeof c.amount === "number" && Number.isFinite(c.amount) && typeof c.currency === "string" ? { used, size, cost: { amount: c.amount, currency: c.currency } } : { used, size };
}

/** A guard for objects with a string `key` and a string `name`. */
function isNamed<K extends string>(key: K): (v: unknown) => v is Record<K | "name", string> & { description?: unknown } {
  return (v: unknown): v is Record<K | "name", string> & { description?: unknown } =>
    typeof v === "object" && v !== null && typeof (v as Record<string, unknown>)[key] === "string" && typeof (v as Record<string, unknown>).name === "string";
}

function withDescription<T extends object>(value: T, description: unknown): T & { description?: string } {
  return typeof description === "string" && description !== "" ? { ...value, description } : value;
}

/** The paths of ACP `ToolCallLocation`s (raw: anything not a location is left out), for a permission request. */
export function toolLocationPaths(locations: unknown): string[] {
  return toolLocations(Array.isArray(locations) ? (locations as acp.ToolCallLocation[]) : undefined).locations?.map((l) => l.path) ?? [];
}

/**
 * The terminal report in a tool call's `_meta` (see {@link AgentTerminalReport}), checked where it enters: the output
 * must be a string, the exit code a whole number or null; a report whose pieces name different terminals keeps the
 * first id. Nothing when the `_meta` carries none of the keys.
 */
export function agentTerminal(toolCallId: string, meta: unknown): { agentTerminal?: AgentTerminalReport } {
  if (typeof meta !== "object" || meta === null) return {};
  const m = meta as Record<string, unknown>;
  const record = (key: string) => (typeof m[key] === "object" && m[key] !== null ? (m[key] as Record<string, unknown>) : undefined);
  const info = record("terminal_info");
  const output = record("terminal_output_delta") ?? record("terminal_output");
  const exit = record("terminal_exit");
  if (!info && !output && !exit) return {};
  const id = [output, exit, info].map((r) => r?.terminal_id).find((v): v is string => typeof v === "string" && v !== "") ?? toolCallId;
  const report: AgentTerminalReport = { terminalId: id };
  if (typeof output?.data === "string" && output.data !== "") report.data = output.data;
  if (exit) {
    const code = exit.exit_code;
    report.exit = { exitCode: typeof code === "number" && Number.isInteger(code) ? code : null, signal: typeof exit.signal === "string" && exit.signal !== "" ? exit.signal : null };
  }
  return { agentTerminal: report };
}

/**
 * codex-acp's error report in a `session_info_update`'s `_meta.codex.error` ({message, additionalDetails?, willRetry})
 * as a notice: the only word it gives while it cannot reach its model and retries, for minutes, with no text in the
 * answer. Checked where it enters; undefined when absent or malformed.
 */
export function codexNotice(meta: unknown): Extract<AgentUpdate, { kind: "notice" }> | undefined {
  const codex = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>).codex : undefined;
  const error = typeof codex === "object" && codex !== null ? (codex as Record<string, unknown>).error : undefined;
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as Record<string, unknown>;
  if (typeof e.message !== "string" || e.message.trim() === "") return undefined;
  const details = typeof e.additionalDetails === "string" && e.additionalDetails.trim() !== "" ? ` (${e.additionalDetails.trim()})` : "";
  return { kind: "notice", text: `${e.message.trim()}${details}`.slice(0, 2_000), retrying: e.willRetry === true };
}

/** The chunk's ACP `messageId` when it is a non-empty string (anything else counts as none). */
function chunkMessageId(chunk: { messageId?: unknown }): { messageId?: string } {
  return typeof chunk.messageId === "string" && chunk.messageId !== "" ? { messageId: chunk.messageId } : {};
}

/** A content block as text: its text, or the one-line description of a block that is not text. */
function contentText(block: unknown): string {
  const content = contentOf(block);
  return "block" in content ? describeBlock(content.block) : content.text;
}

/**
 * Splits a tool call's content into the text of its `content` blocks, the blocks that are not text (images, files,
 * links: `blocks`), its `diff` blocks and its `terminal` blocks (by id). Nothing when the content is omitted; otherwise
 * `blocks`, `diffs` and `terminals` are always set, and `content` too for an update (`""` when no block is text), so
 * that the update replaces what an earlier one said.
 */
function toolContent(content: acp.ToolCallContent[] | null | undefined, isUpdate: boolean): { content?: string; blocks?: ContentBlockView[]; diffs?: ToolDiffInfo[]; terminals?: string[] } {
  if (!Array.isArray(content)) return {};
  const texts: string[] = [];
  const blocks: ContentBlockView[] = [];
  const diffs: ToolDiffInfo[] = [];
  const terminals: string[] = [];
  for (const c of content) {
    if (typeof c !== "object" || c === null) continue;
    if (c.type === "content") {
      const read = contentOf(c.content);
      if ("block" in read) blocks.push(read.block);
      else texts.push(read.text);
    } else if (c.type === "diff") {
      if (typeof c.path === "string" && typeof c.newText === "string") diffs.push({ path: c.path, oldText: typeof c.oldText === "string" ? c.oldText : null, newText: c.newText });
    } else if (c.type === "terminal" && typeof c.terminalId === "string") terminals.push(c.terminalId);
  }
  const text = texts.length > 0 ? texts.join("\n") : isUpdate ? "" : undefined;
  return text === undefined ? { blocks, diffs, terminals } : { content: text, blocks, diffs, terminals };
}

/** ACP `ToolCallLocation`s without `_meta`; a line that is not a positive integer is left out. */
function toolLocations(locations: acp.ToolCallLocation[] | null | undefined): { locations?: ToolLocationInfo[] } {
  if (!Array.isArray(locations)) return {};
  return {
    locations: locations
      .filter((l) => typeof l === "object" && l !== null && typeof l.path === "string" && l.path !== "")
      .map((l) => (typeof l.line === "number" && Number.isInteger(l.line) && l.line >= 1 ? { path: l.path, line: l.line } : { path: l.path })),
  };
}

const PRIORITIES = new Set(["high", "medium", "low"]);
const PLAN_STATUSES = new Set(["pending", "in_progress", "completed"]);

/** ACP `PlanEntry`s without `_meta`; an unknown priority reads `medium`, an unknown status `pending`. */
function planEntries(entries: acp.PlanEntry[] | null | undefined): PlanEntryInfo[] {
  if (!Array.isArray(entries)) return [];
  return entries.map((e) => ({
    content: typeof e.content === "string" ? e.content : String(e.content),
    priority: PRIORITIES.has(e.priority) ? e.priority : "medium",
    status: PLAN_STATUSES.has(e.status) ? e.status : "pending",
  }));
}
