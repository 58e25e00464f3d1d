/**
 * `session/request_permission` read where it enters (issue 18, "every question shown has a way out"). The SDK's own
 * schema refuses a request with one option of a kind it does not know, a nameless option or a tool call without an
 * id with "Invalid params" — to the agent, with no word to the user and nothing in the log — so Sidekicks reads the
 * raw params itself and shows what makes sense:
 * - an option of an unknown kind is a plain choice (`kind: "other"`: never chosen by a policy or a rule, ADR 0005);
 *   a nameless one is named by its id; one without an id, or with an id seen before, is left out;
 * - at most {@link MAX_OPTIONS} options and a title of at most {@link MAX_TITLE} characters are kept;
 * - a tool call without an id gets one (`permission-<n>`), so the card and the answer still meet.
 * What was changed is in `problems` (one log line). A request left with no option at all is still handed on: the turn
 * answers it `cancelled` at once, with a note on its card, instead of waiting for an answer no one can give.
 */
import type { AgentUpdate, PermissionRequest } from "./types";
import { toAgentUpdate, toolLocationPaths } from "./updates";

/** Most options one request shows; the rest are left out (and said so in the log). */
export const MAX_OPTIONS = 20;

/** Longest title kept, in UTF-16 code units: the card folds a long one, with its buttons always in view. */
export const MAX_TITLE = 10_000;

/** Longest option id and name kept (an id longer than this is left out, a name is cut). */
const MAX_OPTION_ID = 1_000;
const MAX_OPTION_NAME = 200;

const STATUSES = new Set(["pending", "in_progress", "completed", "failed"]);
const KINDS = new Set(["allow_once", "allow_always", "reject_once", "reject_always"]);

let synthetic = 0;

/**
 * Reads raw `session/request_permission` params. Undefined when they name no session (there is no turn to ask in:
 * the caller cancels and logs); otherwise the request to show, with what was changed to show it.
 */
export function readPermissionRequest(raw: unknown): { request: PermissionRequest; problems: string[] } | undefined {
  const params = record(raw);
  if (!params || typeof params.sessionId !== "string" || params.sessionId === "") return undefined;
  const problems: string[] = [];
  const tool = record(params.toolCall) ?? {};
  let toolCallId = typeof tool.toolCallId === "string" && tool.toolCallId !== "" ? tool.toolCallId : undefined;
  if (toolCallId === undefined) {
    toolCallId = `permission-${++synthetic}`;
    problems.push(`the request names no tool call: shown as ${toolCallId}`);
  }
  let title = typeof tool.title === "string" && tool.title.trim() !== "" ? tool.title : undefined;
  if (title !== undefined && title.length > MAX_TITLE) {
    problems.push(`its title of ${title.length} characters cut at ${MAX_TITLE}`);
    title = title.slice(0, MAX_TITLE);
  }
  const options = readOptions(params.options, problems);
  const paths = toolLocationPaths(tool.locations);
  const toolKind = typeof tool.kind === "string" && tool.kind !== "" ? tool.kind : undefined;
  // The card an agent may announce only by asking (Gemini CLI): from the checked fields only.
  const toolCall = toAgentUpdate({
    sessionUpdate: "tool_call",
    toolCallId,
    title: title ?? "",
    status: typeof tool.status === "string" && STATUSES.has(tool.status) ? tool.status : "pending",
    ...(toolKind !== undefined ? { kind: toolKind } : {}),
    ...(Array.isArray(tool.content) ? { content: tool.content } : {}),
    ...(Array.isArray(tool.locations) ? { locations: tool.locations } : {}),
    ...(record(tool._meta) ? { _meta: tool._meta } : {}),
  } as never) as Extract<AgentUpdate, { kind: "toolCall" }>;
  return {
    request: {
      sessionId: params.sessionId,
      toolCallId,
      ...(title !== undefined ? { title } : {}),
      ...(toolKind !== undefined ? { toolKind } : {}),
      ...(paths.length > 0 ? { paths } : {}),
      toolCall,
      options,
    },
    problems,
  };
}

/** The options that can be shown, in order; what was left out or changed goes to `problems`. */
function readOptions(raw: unknown, problems: string[]): PermissionRequest["options"] {
  const list = Array.isArray(raw) ? raw : [];
  if (!Array.isArray(raw)) problems.push("its options are not a list");
  const out: PermissionRequest["options"] = [];
  const seen = new Set<string>();
  let noId = 0;
  let again = 0;
  for (const item of list) {
    const o = record(item);
    const optionId = o && typeof o.optionId === "string" && o.optionId !== "" && o.optionId.length <= MAX_OPTION_ID ? o.optionId : undefined;
    if (!o || optionId === undefined) {
      noId++;
      continue;
    }
    if (seen.has(optionId)) {
      again++;
      continue;
    }
    seen.add(optionId);
    const name = typeof o.name === "string" && o.name.trim() !== "" ? o.name.slice(0, MAX_OPTION_NAME) : optionId.slice(0, MAX_OPTION_NAME);
    if (!(typeof o.name === "string" && o.name.trim() !== "")) problems.push(`the option "${optionId.slice(0, 80)}" has no name: named by its id`);
    const known = typeof o.kind === "string" && KINDS.has(o.kind);
    if (!known) problems.push(`the option "${optionId.slice(0, 80)}" of kind ${JSON.stringify(o.kind ?? null).slice(0, 80)} shown as a plain choice`);
    out.push({ optionId, name, kind: known ? (o.kind as PermissionRequest["options"][number]["kind"]) : "other" });
  }
  if (noId > 0) problems.push(`${noId} option${noId === 1 ? "" : "s"} without an id left out`);
  if (again > 0) problems.push(`${again} option${again === 1 ? "" : "s"} with an id offered before left out`);
  if (out.length > MAX_OPTIONS) {
    problems.push(`${out.length - MAX_OPTIONS} options beyond the first ${MAX_OPTIONS} left out`);
    out.length = MAX_OPTIONS;
  }
  return out;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
