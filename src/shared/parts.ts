/**
 * The one rule for where a whole part goes in a message's parts (issue 16: it was written three times, in the host's
 * answer building, the bridge's delta coalescing and the webview's drafts). Each `message/delta` with a `part` carries
 * the whole part, so a part either replaces the one it updates or is added at the end:
 * - a tool call or a permission request replaces the one with its id within the current attempt (after the last
 *   retry divider; an earlier attempt's cards stay as they ended);
 * - a thought replaces the last part when that is a thought of the same ACP message (thought chunks coalesce);
 * - a plan, a notice and the files card are one per message: each replaces the message's own; a plan with no entries
 *   removes the message's plan (ACP: each plan update is the whole plan, so an empty one clears it; field case 24);
 * - a text part is a new message of the agent, a content block (an image, a file) a new block, and a retry divider a
 *   new attempt: always added.
 * Imports nothing but the protocol's types.
 */
import type { Part } from "./protocol";

/** Whether `next` updates the same part as `earlier` (the same card, the same thought, the message's plan…). */
export function samePart(earlier: Part, next: Part): boolean {
  switch (next.type) {
    case "toolCall":
      return earlier.type === "toolCall" && earlier.toolCallId === next.toolCallId;
    case "permission":
      return earlier.type === "permission" && earlier.requestId === next.requestId;
    case "thought":
      return earlier.type === "thought" && earlier.messageId === next.messageId;
    case "plan":
    case "notice":
    case "files":
      return earlier.type === next.type;
    case "text":
    case "retry":
    case "content":
      return false;
  }
}

/** The index of the part `part` replaces in `parts`, or -1 when it is added at the end (the rule above). */
export function indexOfPart(parts: readonly Part[], part: Part): number {
  if (part.type === "thought") {
    const last = parts[parts.length - 1];
    return last && samePart(last, part) ? parts.length - 1 : -1;
  }
  if (part.type === "plan" || part.type === "notice" || part.type === "files") return parts.findIndex((p) => samePart(p, part));
  for (let i = parts.length - 1; i >= 0 && parts[i]!.type !== "retry"; i--) if (samePart(parts[i]!, part)) return i;
  return -1;
}

/**
 * `parts` with `part` put where {@link indexOfPart} says: a new array. A plan with no entries is not put anywhere: it
 * removes the plan `parts` had (field case 24, "an empty list clears it").
 */
export function withPart<P extends Part>(parts: readonly P[], part: P): P[] {
  const next = parts.slice();
  const at = indexOfPart(next, part);
  if (part.type === "plan" && part.entries.length === 0) {
    if (at >= 0) next.splice(at, 1);
  } else if (at >= 0) next[at] = part;
  else next.push(part);
  return next;
}
