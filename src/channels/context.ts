/**
 * Context re-injection (brief, "An agent addressed in a channel gets, before the user's text, the channel messages it
 * has not seen yet"; the original design's ADR 0003 `Membership.lastSeenMessageId`). Pure: which messages an agent has not seen, and how
 * they are written before the prompt within a byte budget.
 */
import { describeBlock } from "../shared/contentBlocks";
import { describeAttachment } from "../shared/attachments";
import { terminalScreen } from "../shared/terminalScreen";
import { CONTEXT_FOOTER, CONTEXT_HEADER, CONTEXT_HEADER_NEW_SESSION } from "../shared/preamble";
import { hasSomethingToSay } from "../store/messageMeta";
import type { MessageRecord } from "../store/records";
import { agentTerminalText } from "../turns/agentTerminals";

/** Default bound of the re-injected context, in UTF-8 bytes (issue 4: 32 KB). */
export const CONTEXT_MAX_BYTES = 32 * 1024;

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

interface ToolBlock {
  title: string;
  status: string;
  output: string;
  /** UTF-8 bytes of `output`. */
  outputBytes: number;
  elided: boolean;
}

interface Block {
  author: string;
  text: string;
  tools: ToolBlock[];
  /** Bytes cut from the end of `text`. */
  cut: number;
}

/** What a block adds to the assembled context, in UTF-8 bytes: `\n\n@author:\n` and its rendered tools and text. */
function blockBytes(b: Block): number {
  const parts = b.tools.map(toolBytes);
  parts.push(bytes(b.text));
  return 2 + bytes(b.author) + 2 + parts.reduce((a, n) => a + n, 0) + (parts.length - 1);
}

/** The bytes of one tool call's lines as `render` writes them. */
function toolBytes(t: ToolBlock): number {
  const head = bytes(toolHead(t));
  if (!t.output) return head;
  return t.elided ? head + bytes(elidedNote(t)) : head + 1 + t.outputBytes;
}

function toolHead(t: ToolBlock): string {
  return `[tool call: ${t.title} (${t.status})]`;
}

function elidedNote(t: ToolBlock): string {
  return ` [output left out: ${t.outputBytes} bytes]`;
}

function toBlock(m: MessageRecord): Block {
  const author = m.author.kind === "agent" ? `@${m.author.agentName ?? "agent"}` : m.author.kind;
  // Separate text parts are separate pieces (around a tool call, or a new ACP message): a blank line between them, so
  // "I'll look." and "Done." never read "I'll look.Done.", and Markdown stays Markdown.
  // An image, an embedded file or a link is referred to in one line, never repeated (its base64, its whole text); so
  // is what the user attached (the agents it was for had it in their prompt).
  const text = m.parts
    .flatMap((p) => (p.type === "text" && p.text.trim() !== "" ? [p.text.trim()] : p.type === "content" ? [describeBlock(p.block)] : []))
    .concat(m.attachments && m.attachments.length > 0 ? [m.attachments.map(describeAttachment).join("\n")] : [])
    .join("\n\n");
  const tools = m.parts.flatMap((p) => {
    if (p.type !== "toolCall") return [];
    // What the tool printed: its text content, then what the agent's own terminals reported (codex-acp).
    // As a terminal shows it (field case 21): a progress bar's last frame, not every frame and its escapes.
    const output = terminalScreen([p.content ?? "", ...(p.blocks ?? []).map(describeBlock), agentTerminalText(p)].filter((t) => t !== "").join("\n"));
    return [{ title: p.title, status: p.status, output, outputBytes: bytes(output), elided: false }];
  });
  return { author, text, tools, cut: 0 };
}

function assemble(header: string, blocks: readonly Block[], omitted: number, more: boolean): string {
  const lines = [header];
  if (more) lines.push(`[older messages left out${omitted > 0 ? `, and ${omitted} more` : ""}]`);
  else if (omitted > 0) lines.push(`[${omitted} older message${omitted === 1 ? "" : "s"} left out]`);
  for (const b of blocks) lines.push("", `${b.author}:`, render(b));
  lines.push("", FOOTER, "", "");
  return lines.join("\n");
}

function render(b: Block): string {
  const out: string[] = [];
  for (const t of b.tools) {
    const head = toolHead(t);
    if (!t.output) out.push(head);
    else if (t.elided) out.push(head + elidedNote(t));
    else out.push(`${head}\n${t.output}`);
  }
  let text = b.text;
  if (b.cut > 0) {
    const keep = cutToBytes(text, Math.max(0, bytes(text) - b.cut));
    text = `${keep} [… ${bytes(text) - bytes(keep)} bytes left out]`;
  }
  out.push(text);
  return out.join("\n");
}

/** The longest prefix of `text` within `max` UTF-8 bytes, never splitting a character. */
function cutToBytes(text: string, max: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= max) return text;
  let end = max;
  // Back up to the first byte of the character that would be split (continuation bytes are 10xxxxxx).
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
