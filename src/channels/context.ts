/**
 * Context re-injection (brief, "An agent addressed in a channel gets, before the user's text, the channel messages it
 * has not seen yet"; ADR 0003 `Membership.lastSeenMessageId`). Pure: which messages an agent has not seen, and how
 * they are written before the prompt within a byte budget.
 */
import type { MessageRecord } from "../store/records";

/** Default bound of the re-injected context, in UTF-8 bytes (issue 4: 32 KB). */
export const CONTEXT_MAX_BYTES = 32 * 1024;

/** How many stored messages are read back at most when looking for unseen ones (the newest first). */
export const CONTEXT_SCAN_LIMIT = 1_000;

/**
 * The messages of `messages` (oldest first, ids are ULIDs) that `agent` has not seen before the message `beforeId`:
 * after `lastSeenId` (all when undefined), before `beforeId`, not written by `agent`, and with something to say
 * (users' messages; other agents' answers with text; a failed answer only with the text it got before failing).
 * `includeOwn` keeps the agent's own answers too (its session is new: it remembers none of them).
 */
export function unseenMessages(messages: readonly MessageRecord[], agent: string, lastSeenId: string | undefined, beforeId: string, includeOwn = false): MessageRecord[] {
  return messages.filter(
    (m) =>
      (lastSeenId === undefined || m.id > lastSeenId) &&
      m.id < beforeId &&
      (includeOwn || !(m.author.kind === "agent" && m.author.agentName === agent)) &&
      m.parts.some((p) => p.type === "text" && p.text.trim() !== ""),
  );
}

/** Options of {@link formatContext}. */
export interface ContextFormat {
  /** Upper bound of the whole block in UTF-8 bytes (default {@link CONTEXT_MAX_BYTES}). */
  maxBytes?: number;
  /** True when older unseen messages were not even read (beyond {@link CONTEXT_SCAN_LIMIT}): the note says so. */
  olderNotRead?: boolean;
  /** True when the agent's session is new (it remembers nothing here): the header says the history is repeated. */
  newSession?: boolean;
}

const HEADER = "[Messages in this channel since you last answered, oldest first]";
const HEADER_NEW_SESSION = "[Your session was restarted. The messages of this channel so far, oldest first, yours included]";
/** The line that ends the re-injected block; what follows it is the user's own text (the demo agent splits on it). */
export const CONTEXT_FOOTER = "[End of channel messages. The message for you follows.]";
const FOOTER = CONTEXT_FOOTER;

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
  const header = options.newSession ? HEADER_NEW_SESSION : HEADER;
  const size = (dropped: number) => bytes(assemble(header, blocks.slice(dropped), dropped, more));
  // 1. tool outputs, largest first
  const outputs = blocks.flatMap((b) => b.tools).sort((a, b) => bytes(b.output) - bytes(a.output));
  for (const tool of outputs) {
    if (size(0) <= maxBytes) break;
    tool.elided = true;
  }
  // 2. the oldest messages, keeping at least the newest one
  let dropped = 0;
  while (size(dropped) > maxBytes && dropped < blocks.length - 1) dropped++;
  // 3. the newest message itself, cut at the end
  const last = blocks[blocks.length - 1]!;
  const over = size(dropped) - maxBytes;
  if (over > 0) last.cut = over + 64; // room for the note
  return assemble(header, blocks.slice(dropped), dropped, more);
}

interface ToolBlock {
  title: string;
  status: string;
  output: string;
  elided: boolean;
}

interface Block {
  author: string;
  text: string;
  tools: ToolBlock[];
  /** Bytes cut from the end of `text`. */
  cut: number;
}

function toBlock(m: MessageRecord): Block {
  const author = m.author.kind === "agent" ? `@${m.author.agentName ?? "agent"}` : m.author.kind;
  const text = m.parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("")
    .trim();
  const tools = m.parts.flatMap((p) => (p.type === "toolCall" ? [{ title: p.title, status: p.status, output: p.content ?? "", elided: false }] : []));
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
    const head = `[tool call: ${t.title} (${t.status})]`;
    if (!t.output) out.push(head);
    else if (t.elided) out.push(`${head} [output left out: ${bytes(t.output)} bytes]`);
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
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const n = bytes(ch);
    if (used + n > max) break;
    used += n;
    end += ch.length;
  }
  return text.slice(0, end);
}

const encoder = new TextEncoder();

function bytes(text: string): number {
  return encoder.encode(text).length;
}
