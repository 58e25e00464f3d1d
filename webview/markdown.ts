/**
 * Markdown → DOM nodes for message text, whole or while it streams.
 *
 * `marked` lexes the text into tokens; `markdownDom.ts` builds the nodes from them, with no HTML parse, so nothing an
 * agent writes can become markup: raw HTML shows as the text it is, and links and images come only from Markdown
 * syntax, their URLs kept only when DOMPurify's attribute policy (configured here) accepts them: links to `http(s):`,
 * `mailto:`, `file:` or a path (their clicks go to the host, `editor/openLink`). Images show only from `data:image/`
 * URLs; a network image becomes a link to it and is never fetched (what the CSP allows). No ids, names, classes (but a code block's `language-…`), styles or handlers are ever set
 * (docs/adr/0004-markdown-to-dom.md).
 *
 * `StreamingMarkdown` renders a growing text without re-rendering all of it on every frame: blocks the lexer has
 * already closed (a later block follows them) are rendered once and kept; only the open tail is re-rendered.
 */
import { stripAnsi } from "./ansi";
import DOMPurify from "dompurify";
import { Marked, type Token, type Tokens } from "marked";
import { buildMarkdown, decodeReferences, plainText } from "./markdownDom";

/** Only its lexer is used here: no HTML is ever written from agent text (its renderer would pass raw HTML through). */
const marked = new Marked({ gfm: true, breaks: true, async: false });

/** Counters the tests read to check that streaming renders stay bounded: renders, and characters of source built into nodes. */
export const markdownStats = { renders: 0, built: 0 };

/**
 * URLs an `href` or `src` may keep: `http(s):`, `mailto:`, `file:`, and scheme-less paths (relative, absolute,
 * `#anchor`). Narrower than DOMPurify's default (no `tel:`, `ftp:`, `xmpp:`, …), plus `file:`, which the host opens in
 * the editor. Links never navigate the view: the host decides what opens (`editor/openLink`).
 */
const ALLOWED_URI = /^(?:(?:https?|mailto|file):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/**
 * DOMPurify's policy as `markdownDom.ts` asks it about each URL (`DOMPurify.isValidAttribute`). Set once: this
 * webview's DOMPurify sanitizes nothing else.
 */
DOMPurify.setConfig({ USE_PROFILES: { html: true }, ALLOW_DATA_ATTR: false, ALLOWED_URI_REGEXP: ALLOWED_URI });

/**
 * One chunk of rendered Markdown: consecutive closed blocks (or the open tail) as their tokens until the chunk is
 * first put in the page, then as nodes. A chunk is built at most once (a chunk of a message outside the virtual
 * list's window costs only its tokens); its nodes are moved, or copied, afterwards.
 */
export class MarkdownChunk {
  private tokens: readonly Token[] | null;
  private home: Element | null = null;
  /** Whether the chunk renders nothing (no blocks). */
  readonly empty: boolean;

  /**
   * @param tokens `marked`'s block tokens for the chunk
   * @param sourceChars characters of Markdown source the chunk renders (for an estimate of its height, in
   *   `Markdown.tsx`, while the browser has not laid it out).
   */
  constructor(tokens: readonly Token[], readonly sourceChars: number) {
    this.tokens = tokens;
    this.empty = tokens.every((token) => token.type === "space" || token.type === "def");
  }

  /**
   * Replaces `el`'s children with the chunk's nodes: built the first time (then `prepare` may add to them while
   * they are not in the page yet); afterwards the nodes are moved from the element that held them when it has left
   * the page, or copied (already prepared) when it has not.
   */
  mountInto(el: Element, prepare?: (nodes: DocumentFragment) => void): void {
    if (this.home === el) return;
    const previous = this.home;
    if (!previous) {
      markdownStats.built += this.sourceChars;
      const nodes = buildMarkdown(this.tokens ?? []);
      this.tokens = null; // the nodes hold it all now
      prepare?.(nodes);
      el.replaceChildren(nodes);
    } else if (previous.isConnected) {
      el.replaceChildren(...Array.from(previous.childNodes, (node) => node.cloneNode(true)));
    } else {
      el.replaceChildren(...Array.from(previous.childNodes));
    }
    this.home = el;
  }
}

/**
 * Renders a whole Markdown `text` (a message that did not stream in this view): lexed once, so reference-style links
 * resolve across the whole text, then rendered in chunks of at most about `STABLE_CHUNK_CHARS` of source, so that
 * the browser can skip laying out the chunks that are off screen.
 */
export function renderMarkdown(text: string): MarkdownChunk[] {
  markdownStats.renders++;
  return chunkTokens(marked.lexer(text));
}

/**
 * The words of a Markdown text as a reader hears them, for the screen reader's announcement of an answer: no `#`,
 * `*`, fences or link targets, code and table cells as their text, blocks separated by a space.
 */
export function markdownPlainText(text: string): string {
  return plainBlocks(marked.lexer(text)).replace(/\s+/g, " ").trim();
}

function plainBlocks(tokens: readonly Token[]): string {
  let out = "";
  for (const token of tokens) {
    if (token.type === "list") out += ` ${(token as Tokens.List).items.map((item) => plainBlocks(item.tokens)).join(" ")}`;
    else if (token.type === "table") {
      const table = token as Tokens.Table;
      out += ` ${[table.header, ...table.rows].flat().map((cell) => decodeReferences(plainText(cell.tokens))).join(" ")}`;
    } else if (token.type === "code" || token.type === "html") out += ` ${(token as Tokens.Code).text}`;
    else if ("tokens" in token && token.tokens) out += ` ${token.type === "blockquote" ? plainBlocks(token.tokens) : decodeReferences(plainText(token.tokens))}`;
    else if (token.type !== "space" && token.type !== "def" && token.type !== "hr" && token.type !== "checkbox") out += ` ${token.raw}`;
  }
  return out;
}

/** Consecutive closed tokens in chunks of at most about `STABLE_CHUNK_CHARS` characters of source. */
function chunkTokens(tokens: Token[]): MarkdownChunk[] {
  const chunks: MarkdownChunk[] = [];
  let group: Token[] = [];
  let groupChars = 0;
  const close = () => {
    if (group.length) chunks.push(renderTokens(group));
    group = [];
    groupChars = 0;
  };
  for (const token of tokens) {
    if (group.length && groupChars + token.raw.length > STABLE_CHUNK_CHARS) close();
    group.push(token);
    groupChars += token.raw.length;
  }
  close();
  return chunks;
}

function renderTokens(tokens: Token[]): MarkdownChunk {
  return new MarkdownChunk(tokens, tokens.reduce((n, t) => n + t.raw.length, 0));
}

/** A long text given at once is kept in chunks of at most about this many characters of source. */
const STABLE_CHUNK_CHARS = 16_384;

/**
 * `stripAnsi` (escape sequences removed, bidi controls shown) of a text that grows by appends, at the cost of what
 * was appended: the text up to its last line break is stripped once and kept (escape sequences do not span lines).
 * A text that does not extend the previous one is stripped whole.
 */
export class StreamingAnsiStrip {
  private raw = "";
  private doneRaw = 0;
  private doneText = "";

  /** The stripped `raw`; `raw` normally extends the previous call's. */
  strip(raw: string): string {
    if (raw.length < this.raw.length || !raw.startsWith(this.raw.slice(this.doneRaw), this.doneRaw)) {
      this.doneRaw = 0;
      this.doneText = "";
    }
    this.raw = raw;
    const cut = raw.lastIndexOf("\n") + 1;
    if (cut > this.doneRaw) {
      this.doneText += stripAnsi(raw.slice(this.doneRaw, cut));
      this.doneRaw = cut;
    }
    return this.doneText + stripAnsi(raw.slice(this.doneRaw));
  }
}

/**
 * Incremental renderer for one streaming text. Call `update(text)` with the whole text so far (each call's text
 * extends the previous one; anything else restarts from scratch). Returns chunks: every chunk but the last is
 * final and stays the same object, so a keyed renderer only touches the DOM of the last one or two.
 *
 * Cost per call: lexing and rendering the open tail, not the whole text. Reference-style links defined after
 * their use and lists split by a blank line may render differently until the final full render.
 */
export class StreamingMarkdown {
  private text = "";
  private stableLength = 0;
  private readonly stable: MarkdownChunk[] = [];
  private tail: MarkdownChunk = new MarkdownChunk([], 0);

  /**
   * Returns the chunks for `text`: lexes and renders the open tail once (counted as one render in
   * `markdownStats`), or nothing when `text` is unchanged. Only the open tail is compared with the previous text:
   * a change inside blocks already kept is not noticed (streamed text only grows).
   */
  update(text: string): readonly MarkdownChunk[] {
    // Compared from the open tail on: the kept blocks are final, and comparing all of a 1 MB text every frame would
    // make a frame's cost grow with the message.
    const open = this.text.slice(this.stableLength);
    if (text.length === this.text.length && text.endsWith(open)) return this.chunks();
    if (text.length < this.text.length || !text.startsWith(open, this.stableLength)) this.reset();
    this.text = text;
    markdownStats.renders++;
    const tail = text.slice(this.stableLength);
    const tokens = tail.includes("\r") ? null : marked.lexer(tail);
    const closed = tokens ? closedTokenCount(tokens) : 0;
    if (tokens && closed > 0) {
      const closedTokens = tokens.slice(0, closed);
      const raw = closedTokens.map((t) => t.raw).join("");
      if (tail.startsWith(raw)) {
        // In chunks of at most STABLE_CHUNK_CHARS of source, so a long text given at once (a reopened view) is
        // many chunks too, and the browser can skip the ones off screen.
        for (const chunk of chunkTokens(closedTokens)) if (!chunk.empty) this.stable.push(chunk);
        this.stableLength += raw.length;
        this.tail = renderTokens(tokens.slice(closed));
        return this.chunks();
      }
    }
    this.tail = new MarkdownChunk(tokens ?? marked.lexer(tail), tail.length);
    return this.chunks();
  }

  private chunks(): readonly MarkdownChunk[] {
    return [...this.stable, this.tail];
  }

  private reset(): void {
    this.text = "";
    this.stableLength = 0;
    this.stable.length = 0;
    this.tail = new MarkdownChunk([], 0);
  }
}

/**
 * How many leading tokens are closed: every token before the last non-space one, minus a trailing list (a blank
 * line and another item would continue it) and the spaces before it.
 */
function closedTokenCount(tokens: Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]?.type === "space") last--;
  let count = last; // tokens[0 .. last-1]
  while (count > 0 && (tokens[count - 1]?.type === "space" || tokens[count - 1]?.type === "list")) count--;
  return Math.max(count, 0);
}
