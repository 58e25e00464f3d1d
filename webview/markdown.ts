/**
 * Markdown → sanitized nodes for message text, whole or while it streams.
 *
 * `marked` turns text into HTML, showing raw HTML tags as text; `DOMPurify` then keeps only inert HTML (defence in
 * depth, as links and images still come from Markdown syntax): no scripts, no event handlers, no
 * `javascript:` links, no inline styles (the CSP would block them anyway), no ids/names/classes an agent could use
 * to spoof or clobber the UI, images only from `https:` or `data:` (what the CSP allows), links only to `http(s):`,
 * `mailto:`, `file:` or a path (their clicks go to the host, `editor/openLink`).
 *
 * `StreamingMarkdown` renders a growing text without re-rendering all of it on every frame: blocks the lexer has
 * already closed (a later block follows them) are rendered once and kept; only the open tail is re-rendered.
 */
import { showBidiControls, stripAnsi } from "./ansi";
import DOMPurify from "dompurify";
import { Marked, type Token } from "marked";

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML in agent text is shown as text: "the <T> parameter" stays readable, and hostile tags never reach
    // a parser (DOMPurify's inert document still reports CSP violations for inline handlers and styles it sees).
    html({ text, block }) {
      const escaped = escapeHtml(text);
      return block ? `<p>${escaped.trimEnd().replace(/\n/g, "<br>")}</p>\n` : escaped;
    },
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Counters the tests read to check that streaming renders stay bounded: renders, and characters of HTML sanitized. */
export const markdownStats = { renders: 0, sanitized: 0 };

let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook("uponSanitizeAttribute", (node, data) => {
    // Keep only marked's `language-xxx` class on code blocks: agent text must not borrow the UI's classes.
    if (data.attrName === "class") {
      data.keepAttr = node.nodeName === "CODE" && /^language-[\w#+.-]+$/.test(data.attrValue);
    }
  });
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName === "IMG") {
      const src = node.getAttribute("src") ?? "";
      if (!/^(https:|data:image\/)/i.test(src)) node.removeAttribute("src");
    } else if (node.nodeName === "A") {
      const href = node.getAttribute("href");
      if (href) node.setAttribute("title", href);
      node.setAttribute("rel", "noopener noreferrer");
    } else if (node.nodeName === "INPUT") {
      // GFM task lists render `<input type="checkbox" disabled>`; nothing else may become a form control.
      if (node.getAttribute("type") !== "checkbox") node.remove();
      else node.setAttribute("disabled", "");
    }
    // Bidi controls (as characters, or from a character reference such as `&#x202E;`, which only the parse turns
    // into the character) are shown as visible markers (`showBidiControls`) in attribute values and, below, in text.
    if (showingBidi) {
      for (const attr of Array.from(node.attributes ?? [])) {
        if (BIDI.test(attr.value)) node.setAttribute(attr.name, showBidiControls(attr.value));
      }
    }
  });
  DOMPurify.addHook("afterSanitizeElements", (node) => {
    if (showingBidi && node.nodeType === 3 && BIDI.test(node.nodeValue ?? "")) node.nodeValue = showBidiControls(node.nodeValue ?? "");
  });
}

/** Whether a text holds a bidi control character (see `showBidiControls`). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

/** A bidi control character, or a character reference (hexadecimal or decimal) that parses into one. */
const BIDI_IN_MARKUP = /[\u202a-\u202e\u2066-\u2069]|&#(?:x0*(?:202[a-e]|206[6-9])(?![\da-f])|0*(?:823[4-8]|829[4-7])(?!\d))/i;

/** Set while {@link sanitizeToFragment} sanitizes markup that may hold a bidi control (the hooks then show them). */
let showingBidi = false;

/**
 * URLs an `href` or `src` may keep: `http(s):`, `mailto:`, `file:`, and scheme-less paths (relative, absolute,
 * `#anchor`). Narrower than DOMPurify's default (no `tel:`, `ftp:`, `xmpp:`, …), plus `file:`, which the host opens in
 * the editor. Links never navigate the view: the host decides what opens (`editor/openLink`).
 */
const ALLOWED_URI = /^(?:(?:https?|mailto|file):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "form", "button", "textarea", "select", "option", "dialog", "template", "slot"],
  FORBID_ATTR: ["style", "id", "name", "tabindex", "autofocus", "popover", "form"],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
};

/**
 * Sanitizes HTML produced from untrusted Markdown into nodes ready to insert (the rules are in the module comment).
 * Nodes, not a string: serializing the result and parsing it again (`innerHTML`) would cost a long answer about as
 * much as the sanitizing itself. The nodes belong to DOMPurify's inert document until inserted.
 */
export function sanitizeToFragment(html: string): DocumentFragment {
  installHooks();
  showingBidi = BIDI_IN_MARKUP.test(html);
  try {
    return DOMPurify.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true });
  } finally {
    showingBidi = false;
  }
}

/**
 * One chunk of rendered Markdown: consecutive closed blocks (or the open tail) as sanitized nodes. A chunk is
 * sanitized the first time it is put in the page, not before (a chunk of a message outside the virtual list's
 * window costs only its `marked` output), and at most once: its nodes are moved, not parsed again.
 */
export class HtmlChunk {
  private home: Element | null = null;

  /**
   * @param markup `marked`'s HTML for the chunk: not yet sanitized, never inserted as it is.
   * @param sourceChars characters of Markdown source the chunk renders (for an estimate of its height, in
   *   `Markdown.tsx`, while the browser has not laid it out).
   */
  constructor(private readonly markup: string, readonly sourceChars: number) {}

  /** Whether the chunk renders nothing (no blocks). */
  get empty(): boolean {
    return this.markup === "";
  }

  /**
   * Replaces `el`'s children with the chunk's nodes: sanitized the first time (then `prepare` may add to them while
   * they are not in the page yet); afterwards the nodes are moved from the element that held them when it has left
   * the page, or copied (already sanitized and prepared) when it has not.
   */
  mountInto(el: Element, prepare?: (nodes: DocumentFragment) => void): void {
    if (this.home === el) return;
    const previous = this.home;
    if (!previous) {
      markdownStats.sanitized += this.markup.length;
      const nodes = sanitizeToFragment(this.markup);
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
export function renderMarkdown(text: string): HtmlChunk[] {
  markdownStats.renders++;
  return chunkTokens(marked.lexer(text));
}

/** Consecutive closed tokens in chunks of at most about `STABLE_CHUNK_CHARS` characters of source. */
function chunkTokens(tokens: Token[]): HtmlChunk[] {
  const chunks: HtmlChunk[] = [];
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

function renderTokens(tokens: Token[]): HtmlChunk {
  return new HtmlChunk(tokens.length ? marked.parser(tokens) : "", tokens.reduce((n, t) => n + t.raw.length, 0));
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
  private readonly stable: HtmlChunk[] = [];
  private tail: HtmlChunk = new HtmlChunk("", 0);

  /**
   * Returns the chunks for `text`: lexes and renders the open tail once (counted as one render in
   * `markdownStats`), or nothing when `text` is unchanged. Only the open tail is compared with the previous text:
   * a change inside blocks already kept is not noticed (streamed text only grows).
   */
  update(text: string): readonly HtmlChunk[] {
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
    this.tail = tokens ? renderTokens(tokens) : new HtmlChunk(marked.parse(tail, { async: false }), tail.length);
    return this.chunks();
  }

  private chunks(): readonly HtmlChunk[] {
    return [...this.stable, this.tail];
  }

  private reset(): void {
    this.text = "";
    this.stableLength = 0;
    this.stable.length = 0;
    this.tail = new HtmlChunk("", 0);
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
