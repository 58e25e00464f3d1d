import type * as acp from "@agentclientprotocol/sdk";
import type { AgentUpdate, PermissionRequest, PlanEntryInfo, ToolDiffInfo, ToolLocationInfo } from "./types";

/**
 * Reduces an ACP `SessionUpdate` to the shapes the channel shows: message and thought chunks, tool calls (with their
 * diffs and locations kept as structures), plans and commands. Kinds not rendered yet (modes, usage, …) come back
 * as `ignored` so the caller can log them.
 *
 * `tool_call_update` (ACP: "only the fields being changed"): `content` and `locations` are set only when the update
 * carries them, and then replace the earlier ones whole (field case 2); `null` counts as omitted.
 */
export function toAgentUpdate(update: acp.SessionUpdate): AgentUpdate {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      return { kind: "text", text: contentBlockText(update.content) };
    case "agent_thought_chunk":
      return { kind: "thought", text: contentBlockText(update.content) };
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
      };
    case "available_commands_update":
      return {
        kind: "commands",
        commands: update.availableCommands.map((c) => {
          const name = c.name.replace(/^\//, "");
          const hint = c.input && "hint" in c.input && typeof c.input.hint === "string" ? c.input.hint : undefined;
          return hint ? { name, description: c.description, hint } : { name, description: c.description };
        }),
      };
    default:
      return { kind: "ignored", sessionUpdate: update.sessionUpdate };
  }
}

/** Maps `session/request_permission` params to Sidekicks' `PermissionRequest`. */
export function toPermissionRequest(params: acp.RequestPermissionRequest): PermissionRequest {
  return {
    sessionId: params.sessionId,
    toolCallId: params.toolCall.toolCallId,
    title: params.toolCall.title ?? "Permission requested",
    ...(params.toolCall.kind ? { toolKind: params.toolCall.kind } : {}),
    options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
  };
}

function contentBlockText(block: acp.ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    default:
      return `[${block.type}]`;
  }
}

/**
 * Splits a tool call's content into the text of its `content` blocks, its `diff` blocks and its `terminal` blocks (by
 * id). Nothing when the content is omitted; otherwise `diffs` and `terminals` are always set, and `content` too for an
 * update (`""` when no block is text), so that the update replaces what an earlier one said.
 */
function toolContent(content: acp.ToolCallContent[] | null | undefined, isUpdate: boolean): { content?: string; diffs?: ToolDiffInfo[]; terminals?: string[] } {
  if (!Array.isArray(content)) return {};
  const texts: string[] = [];
  const diffs: ToolDiffInfo[] = [];
  const terminals: string[] = [];
  for (const c of content) {
    if (c.type === "content") texts.push(contentBlockText(c.content));
    else if (c.type === "diff") {
      if (typeof c.path === "string" && typeof c.newText === "string") diffs.push({ path: c.path, oldText: typeof c.oldText === "string" ? c.oldText : null, newText: c.newText });
    } else if (c.type === "terminal" && typeof c.terminalId === "string") terminals.push(c.terminalId);
  }
  const text = texts.length > 0 ? texts.join("\n") : isUpdate ? "" : undefined;
  return text === undefined ? { diffs, terminals } : { content: text, diffs, terminals };
}

/** ACP `ToolCallLocation`s without `_meta`; a line that is not a positive integer is left out. */
function toolLocations(locations: acp.ToolCallLocation[] | null | undefined): { locations?: ToolLocationInfo[] } {
  if (!Array.isArray(locations)) return {};
  return {
    locations: locations
      .filter((l) => typeof l.path === "string" && l.path !== "")
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
