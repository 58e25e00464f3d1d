import type * as acp from "@agentclientprotocol/sdk";
import type { AgentUpdate, PermissionRequest } from "./types";

/**
 * Reduces an ACP `SessionUpdate` to the shapes the channel shows. Kinds the skeleton does not render yet
 * (thoughts, plans, modes, usage) come back as `ignored` so the caller can log them.
 */
export function toAgentUpdate(update: acp.SessionUpdate): AgentUpdate {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      return { kind: "text", text: contentBlockText(update.content) };
    case "tool_call":
      return {
        kind: "toolCall",
        isUpdate: false,
        toolCallId: update.toolCallId,
        title: update.title,
        toolKind: update.kind ?? undefined,
        status: update.status ?? "pending",
        content: toolContentText(update.content),
      };
    case "tool_call_update":
      return {
        kind: "toolCall",
        isUpdate: true,
        toolCallId: update.toolCallId,
        title: update.title ?? undefined,
        toolKind: update.kind ?? undefined,
        status: update.status ?? undefined,
        content: toolContentText(update.content),
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

function toolContentText(content: acp.ToolCallContent[] | null | undefined): string | undefined {
  if (!content || content.length === 0) return undefined;
  return content
    .map((c) => {
      if (c.type === "content") return contentBlockText(c.content);
      if (c.type === "diff") return `diff ${c.path}`;
      return `terminal ${c.terminalId}`;
    })
    .join("\n");
}
