/**
 * Context re-injection (brief, "An agent addressed in a channel gets, before the user's text, the channel messages it
 * has not seen yet"; the original design's ADR 0003 `Membership.lastSeenMessageId`). Pure: which messages an agent has not seen, and how
 * they are written before the prompt within a byte budget.
 */
import { CONTEXT_BUDGET_BYTES, blockBytes, bytes, renderBlock, toBlock, toolBytes } from "../store/contextBlock";
import { CONTEXT_FOOTER, CONTEXT_HEADER, CONTEXT_HEADER_NEW_SESSION } from "../shared/preamble";
import { hasSomethingToSay } from "../store/messageMeta";
import type { MessageRecord } from "../store/records";
import type { Block } from "../store/contextBlock";

/** Default bound of the re-injected context, in UTF-8 bytes (issue 4: 32 KB). */
export const CONTEXT_MAX_BYTES = CONTEXT_BUDGET_BYTES;

/** How many stored messages are read back at most when looking for unseen ones (the newest first). */
export const CONTEXT_SCAN_LIMIT = 1_000;

/**
 * The messages of `messages` (oldest first, ids are ULIDs) that `agent` has not seen before the message `beforeId`:
 * after `lastSeenId` (all when undefined), before `beforeId`, not written by `agent`, and with something to say
 * (users' messages; other agents' answers with text or a content block such as an image; a failed answer only with
 * what it got before failing).
 * `includeOwn` keeps the agent's own answers too (its session is new: it remembers none of them).
 */
export function unseenMessages(messages: readonly MessageRecord[], agent: string, lastSeenId: string | undefined, beforeId: string, includeOwn = false): MessageRecord[] {
  return messages.filter(
    (m) =>
      (lastSeenId === undefined || m.id > lastSeenId) &&
      m.id < beforeId &&
      (includeOwn || !(m.author.kind === "agent" && m.author.agentName === agent)) &&
      hasSomethingToSay(m),
  );
}

/**
 * Whether the stored message `json` is one {@link unseenMessages} keeps (its ids already checked), telling from its
 * text when it can and calling `parse` otherwise. JSON.stringify writes structure unescaped and string contents
 * with their quotes escaped, so a text part that starts with a visible character shows as `"type":"text","text":"x`,
 * and the author as `"agentName":"<agent>"`; anything else (own answers, text that starts with a space, other parts)
 * is parsed and checked exactly.
 */
export function keptByText(json: string, agent: string, includeOwn: boolean, parse: () => MessageRecord | undefined): boolean {
  if ((includeOwn || !json.includes(`"agentName":${JSON.stringify(agent)}`)) && VISIBLE_TEXT_PART.test(json)) return true;
  const m = parse();
  return m !== undefined && unseenMessages([m], agent, undefined, "\uffff", includeOwn).length === 1;
}

const VISIBLE_TEXT_PART = /"type":"text","text":"[^"\\\s]/;

/** Options of {@link formatContext}. */
export interface ContextFormat {
  /** Upper bound of the whole block in UTF-8 bytes (default {@link CONTEXT_MAX_BYTES}). */
  maxBytes?: number;
  /** True when older unseen messages were not even read (beyond {@link CONTEXT_SCAN_LIMIT}): the note says so. */
  olderNotRead?: boolean;
  /**
   * How many unseen messages older than `messages` were counted but not read (beyond the budget already filled by
   * the newer ones): they are said to be left out with the others.
   */
  olderLeftOut?: number;
  /** True when the agent's session is new (it remembers nothing here): the header says the history is repeated. */
  newSession?: boolean;
}

const HEADER = CONTEXT_HEADER;
const HEADER_NEW_SESSION = CONTEXT_HEADER_NEW_SESSION;
export { CONTEXT_FOOTER };
const FOOTER = CONTEXT_FOOTER;

/**
 * `text` without the channel-context blocks Sidekicks itself wrote into prompts (from a header such as
 * "[Messages in this channel …]" through the footer, or to the end when the footer is missing): an agent that
 * echoes its prompt repeats other members' names, and those mentions are not the agent's own (delegation).
 */
export function withoutInjectedContext(text: string): string {
  if (!text.includes(HEADER) && !text.includes(HEADER_NEW_SESSION)) return text;
  const out: string[] = [];
  let inside = false;
  for (const line of text.split("\n")) {
    if (inside) {
      const end = line.indexOf(FOOTER);
      if (end !== -1) {
        inside = false;
        out.push(line.slice(end + FOOTER.length));
      }
      continue;
    }
    const start = [line.indexOf(HEADER), line.indexOf(HEADER_NEW_SESSION)].filter((i) => i !== -1);
    if (start.length === 0) {
      out.push(line);
      continue;
    }
    // The block may start mid-line ("You said: [Messages in this channel …]"): what precedes it stays.
    out.push(line.slice(0, Math.min(...start)));
    inside = true;
  }
  return out.join("\n");
}

/**
 * Writes `messages` (oldest first) as a block to put before the user's text, or "" when there are none. Each
 * message is headed by its author (`user`, `@agent`). When the block exceeds `maxBytes`: tool outputs are left out
 * first (largest first, each replaced by a note with its size), then the oldest messages (one note with their
 * count), and a single message still too large is cut at the end (with the number of bytes left out).
 */
export function formatContext(messages: readonly MessageRecord[], options: ContextFormat = {}): string {
  const maxBytes = options.maxBytes ?? CONTEXT_MAX_BYTES;
  if (messages.length === 0) return "";
  const blocks = messages.map(toBlock);
  const more = options.olderNotRead ?? false;
  const older = options.olderLeftOut ?? 0;
  const header = options.newSession ? HEADER_NEW_SESSION : HEADER;
  // Sizes are kept as sums (each block's bytes, updated as tool outputs are left out), so fitting a channel that
  // holds megabytes of answers costs one pass over its text, not one assembly of the whole block per step.
  const sizes = blocks.map(blockBytes);
  let total = sizes.reduce((a, b) => a + b, 0);
  const size = (dropped: number) => bytes(assemble(header, [], older + dropped, more)) + total;
  // 1. tool outputs, largest first
  const outputs = blocks.flatMap((b, i) => b.tools.map((tool) => ({ tool, block: i }))).sort((a, b) => b.tool.outputBytes - a.tool.outputBytes);
  for (const { tool, block } of outputs) {
    if (size(0) <= maxBytes) break;
    const before = toolBytes(tool);
    tool.elided = true;
    const delta = toolBytes(tool) - before;
    sizes[block]! += delta;
    total += delta;
  }
  // 2. the oldest messages, keeping at least the newest one
  let dropped = 0;
  while (size(dropped) > maxBytes && dropped < blocks.length - 1) {
    total -= sizes[dropped]!;
    dropped++;
  }
  // 3. the newest message itself, cut at the end
  const last = blocks[blocks.length - 1]!;
  const over = size(dropped) - maxBytes;
  if (over > 0) last.cut = over + 64; // room for the note
  return assemble(header, blocks.slice(dropped), older + dropped, more);
}

/**
 * The fewest UTF-8 bytes message `m` adds to a context block (its tool outputs left out, nothing cut). Once the
 * newest unseen messages add up to more than the budget, every tool output is left out and older messages can only
 * be dropped, so they need not be read (`unseenContext.ts`).
 */
export function leastContextBytes(m: MessageRecord): number {
  const block = toBlock(m);
  for (const tool of block.tools) tool.elided = true;
  return blockBytes(block);
}

function assemble(header: string, blocks: readonly Block[], omitted: number, more: boolean): string {
  return assembleRendered(header, blocks.map(renderBlock), omitted, more);
}

function assembleRendered(header: string, rendered: readonly string[], omitted: number, more: boolean): string {
  const lines = [header];
  if (more) lines.push(`[older messages left out${omitted > 0 ? `, and ${omitted} more` : ""}]`);
  else if (omitted > 0) lines.push(`[${omitted} older message${omitted === 1 ? "" : "s"} left out]`);
  for (const r of rendered) lines.push("", r);
  lines.push("", FOOTER, "", "");
  return lines.join("\n");
}

/**
 * The context block of messages already rendered at their smallest (`leastRendering`, kept by the store beside each
 * message), newest first with the bytes each adds, after `older` unseen ones not given: the same text
 * {@link formatContext} writes for those messages when even their smallest renderings are over `maxBytes` (every
 * tool output left out, the oldest dropped and counted), or undefined when it would cut the newest one (then the
 * messages themselves are needed).
 */
export function formatRendered(newestFirst: readonly { text: string; bytes: number }[], older: number, options: { newSession?: boolean; maxBytes?: number } = {}): string | undefined {
  const maxBytes = options.maxBytes ?? CONTEXT_MAX_BYTES;
  const header = options.newSession ? HEADER_NEW_SESSION : HEADER;
  const kept = [...newestFirst].reverse();
  let total = kept.reduce((a, r) => a + r.bytes, 0);
  const size = (dropped: number) => bytes(assembleRendered(header, [], older + dropped, false)) + total;
  let dropped = 0;
  while (size(dropped) > maxBytes && dropped < kept.length - 1) total -= kept[dropped++]!.bytes;
  if (kept.length === 0 || size(dropped) > maxBytes) return undefined;
  return assembleRendered(header, kept.slice(dropped).map((r) => r.text), older + dropped, false);
}
