/**
 * Markdown → sanitized HTML for message text, whole or while it streams.
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

/** Counters the tests read to check that streaming renders stay bounded. */
export const markdownStats = { renders: 0 };

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
  });
}

/**
 * URLs an `href` or `src` may keep: `http(s):`, `mailto:`, `file:`, and scheme-less paths (relative, absolute,
 * `#anchor`). Narrower than DOMPurify's default (no `tel:`, `ftp:`, `xmpp:`, …), plus `file:`, which the host opens in
 * the editor. Links never navigate the view: the host decides what opens (`editor/openLink`).
 */
const ALLOWED_URI = /^(?:(?:https?|mailto|file):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** Sanitizes HTML produced from untrusted Markdown; returns an HTML string safe to assign to `innerHTML`. */
export function sanitize(html: string): string {
  installHooks();
  return showBidiControls(DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "button", "textarea", "select", "option", "dialog", "template", "slot"],
    FORBID_ATTR: ["style", "id", "name", "tabindex", "autofocus", "popover", "form"],
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: ALLOWED_URI,
  }));
}

/** Renders Markdown `text` to sanitized HTML (one full render). */
export function renderMarkdown(text: string): string {
  markdownStats.renders++;
  return sanitize(marked.parse(text, { async: false }));
}

function renderTokens(tokens: Token[]): string {
  return tokens.length ? sanitize(marked.parser(tokens)) : "";
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
 * extends the previous one; anything else restarts from scratch). Returns HTML chunks: every chunk but the last is
 * final and keeps its exact string, so a keyed renderer only touches the DOM of the last one or two.
 *
 * Cost per call: lexing and rendering the open tail, not the whole text. Reference-style links defined after
 * their use and lists split by a blank line may render differently until the final full render.
 */
export class StreamingMarkdown {
  private text = "";
  private stableLength = 0;
  private readonly stable: string[] = [];
  private tailHtml = "";

  /**
   * Returns the HTML chunks for `text`: lexes and renders the open tail once (counted as one render in
   * `markdownStats`), or nothing when `text` is unchanged. Only the open tail is compared with the previous text:
   * a change inside blocks already kept is not noticed (streamed text only grows).
   */
  update(text: string): readonly string[] {
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
        // In groups of at most STABLE_CHUNK_CHARS of source, so a long text given at once (a reopened view) is
        // many chunks too, and the browser can skip the ones off screen.
        let group: Token[] = [];
        let groupChars = 0;
        for (const token of closedTokens) {
          if (group.length && groupChars + token.raw.length > STABLE_CHUNK_CHARS) {
            this.keep(renderTokens(group));
            group = [];
            groupChars = 0;
          }
          group.push(token);
          groupChars += token.raw.length;
        }
        this.keep(renderTokens(group));
        this.stableLength += raw.length;
        this.tailHtml = renderTokens(tokens.slice(closed));
        return this.chunks();
      }
    }
    this.tailHtml = tokens ? renderTokens(tokens) : sanitize(marked.parse(tail, { async: false }));
    return this.chunks();
  }

  /** Keeps closed blocks' HTML as a new chunk: a kept chunk never changes, so its DOM is never replaced. */
  private keep(html: string): void {
    if (html) this.stable.push(html);
  }

  private chunks(): readonly string[] {
    return [...this.stable, this.tailHtml];
  }

  private reset(): void {
    this.text = "";
    this.stableLength = 0;
    this.stable.length = 0;
    this.tailHtml = "";
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
