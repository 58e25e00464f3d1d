/**
 * One message as a block of the channel context (`src/channels/context.ts`): its author, its text and its tool calls
 * with what they printed. Pure, shared by the context's formatting and the store, which keeps each message's
 * smallest rendering beside it (`contextEntries.ts`, issue 21) so a long catch-up reads those, not the
 * messages.
 */
import { describeBlock } from "../shared/contentBlocks";
import { describeAttachment } from "../shared/attachments";
import { terminalScreen } from "../shared/terminalScreen";
import type { Attachment, Author, Part } from "../shared/protocol";

/** The channel context's bound, in UTF-8 bytes (issue 4: 32 KB; `CONTEXT_MAX_BYTES`). */
export const CONTEXT_BUDGET_BYTES = 32 * 1024;

/** What a block is made from: a stored message's author, parts and attachments. */
export interface BlockSource {
  author: Author;
  parts: readonly Part[];
  attachments?: readonly Attachment[];
}

/** One tool call of a block: its head line and its output (left out with a note when `elided`). */
export interface ToolBlock {
  title: string;
  status: string;
  output: string;
  /** UTF-8 bytes of `output`. */
  outputBytes: number;
  elided: boolean;
}

/** One message of the context: `author` is `user`, `system` or `@agent`. */
export interface Block {
  author: string;
  text: string;
  tools: ToolBlock[];
  /** Bytes cut from the end of `text`. */
  cut: number;
}

/** The block of message `m`, every tool output whole. */
export function toBlock(m: BlockSource): Block {
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
    const terminals = (p.agentTerminals ?? []).map((t) => t.output).join("\n");
    const output = terminalScreen([p.content ?? "", ...(p.blocks ?? []).map(describeBlock), terminals].filter((t) => t !== "").join("\n"));
    return [{ title: p.title, status: p.status, output, outputBytes: bytes(output), elided: false }];
  });
  return { author, text, tools, cut: 0 };
}

/** What a block adds to the assembled context, in UTF-8 bytes: `\n\n@author:\n` and its rendered tools and text. */
export function blockBytes(b: Block): number {
  const parts = b.tools.map(toolBytes);
  parts.push(bytes(b.text));
  return 2 + bytes(b.author) + 2 + parts.reduce((a, n) => a + n, 0) + (parts.length - 1);
}

/** The bytes of one tool call's lines as {@link render} writes them. */
export function toolBytes(t: ToolBlock): number {
  const head = bytes(toolHead(t));
  if (!t.output) return head;
  return t.elided ? head + bytes(elidedNote(t)) : head + 1 + t.outputBytes;
}

/** A block as it stands in the context after its blank line: `@author:`, then its tools and text. */
export function renderBlock(b: Block): string {
  return `${b.author}:\n${render(b)}`;
}

/**
 * The smallest rendering of message `m` ({@link renderBlock} with every tool output left out, nothing cut) and the
 * bytes it adds to a context block (its blank line included: {@link blockBytes} of the same block).
 */
export function leastRendering(m: BlockSource): { text: string; bytes: number } {
  const block = toBlock(m);
  for (const tool of block.tools) tool.elided = true;
  const text = renderBlock(block);
  return { text, bytes: 2 + bytes(text) };
}

function toolHead(t: ToolBlock): string {
  return `[tool call: ${t.title} (${t.status})]`;
}

function elidedNote(t: ToolBlock): string {
  return ` [output left out: ${t.outputBytes} bytes]`;
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

/** UTF-8 bytes of `text`. */
export function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
