/**
 * Page script of markdownDom.test.mjs (bundled by the test with esbuild): renders one Markdown text two ways and
 * returns both as canonical strings.
 *
 * - `built`: what the webview shows, `renderMarkdown` (webview/markdown.ts): tokens → nodes, no HTML parse.
 * - `reference`: what it showed before (session 4's webview/markdown.ts): `marked`'s own HTML renderer with raw HTML
 *   escaped, parsed and sanitized by DOMPurify with the same rules (its own instance, so the webview's is untouched),
 *   and one later rule: a network image becomes a link to it (`remoteImages`).
 * - `streamed`: the text fed to `StreamingMarkdown` in pieces, as an answer arrives, then rendered final.
 */
import createDOMPurify from "dompurify";
import { Marked } from "marked";
import { showBidiControls } from "../../webview/ansi";
import { renderMarkdown, StreamingMarkdown, type MarkdownChunk } from "../../webview/markdown";
import { markdownDocument } from "../../bench/renderMarkdownDoc";

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text, block }) {
      const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      return block ? `<p>${escaped.trimEnd().replace(/\n/g, "<br>")}</p>\n` : escaped;
    },
  },
});

const purify = createDOMPurify(window);
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
purify.addHook("uponSanitizeAttribute", (node, data) => {
  if (data.attrName === "class") data.keepAttr = node.nodeName === "CODE" && /^language-[\w#+.-]+$/.test(data.attrValue);
});
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeName === "IMG") {
    const src = node.getAttribute("src") ?? "";
    // The policy since the trial of 2026-11-30: a network image is never fetched; it becomes a link (see `remoteImages`).
    if (/^https?:/i.test(src)) node.setAttribute("data-remote", src);
    if (!/^data:image\//i.test(src)) node.removeAttribute("src");
  } else if (node.nodeName === "A") {
    const href = node.getAttribute("href");
    if (href) node.setAttribute("title", href);
    node.setAttribute("rel", "noopener noreferrer");
  } else if (node.nodeName === "INPUT") {
    if (node.getAttribute("type") !== "checkbox") node.remove();
    else node.setAttribute("disabled", "");
  }
  for (const attr of Array.from(node.attributes ?? [])) if (BIDI.test(attr.value)) node.setAttribute(attr.name, showBidiControls(attr.value));
});
purify.addHook("afterSanitizeElements", (node) => {
  if (node.nodeType === 3 && BIDI.test(node.nodeValue ?? "")) node.nodeValue = showBidiControls(node.nodeValue ?? "");
});
const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "form", "button", "textarea", "select", "option", "dialog", "template", "slot"],
  FORBID_ATTR: ["style", "id", "name", "tabindex", "autofocus", "popover", "form"],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|file):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  RETURN_DOM_FRAGMENT: true as const,
};

/**
 * A node tree as a string that ignores what the browser does not show: attribute order, how text is split into
 * nodes, and the line breaks `marked` writes between block elements (text that is only white space containing a line
 * break, outside `pre`).
 */
function canonical(node: Node): string {
  let out = "";
  let text = "";
  const flush = (inPre: boolean) => {
    if (text && (inPre || !/^\s*$/.test(text) || !text.includes("\n"))) out += JSON.stringify(text);
    text = "";
  };
  const walk = (n: Node, inPre: boolean) => {
    for (const child of Array.from(n.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        text += child.nodeValue ?? "";
        continue;
      }
      flush(inPre);
      if (child.nodeType !== Node.ELEMENT_NODE) {
        out += `<!${child.nodeType}>`;
        continue;
      }
      const el = child as Element;
      const attrs = Array.from(el.attributes, (a) => `${a.name}=${JSON.stringify(a.value)}`).sort();
      out += `<${el.localName}${attrs.length ? " " + attrs.join(" ") : ""}>`;
      walk(el, inPre || el.localName === "pre");
      flush(inPre || el.localName === "pre");
      out += `</${el.localName}>`;
    }
  };
  walk(node, false);
  flush(false);
  return out;
}

function mounted(chunks: readonly MarkdownChunk[]): string {
  return chunks.map((chunk) => {
    const el = document.createElement("div");
    chunk.mountInto(el);
    return canonical(el);
  }).join("");
}

function built(text: string): string {
  return mounted(renderMarkdown(text));
}

function reference(text: string): string {
  return canonical(remoteImages(purify.sanitize(marked.parse(text) as string, CONFIG)));
}

/** Each network image as the link the view shows instead: an image icon and the alt text (else the file name). */
function remoteImages(fragment: DocumentFragment): DocumentFragment {
  for (const img of Array.from(fragment.querySelectorAll("img[data-remote]"))) {
    const url = img.getAttribute("data-remote") ?? "";
    const a = document.createElement("a");
    a.className = "md-remote-image";
    a.setAttribute("href", url);
    a.setAttribute("title", `Image not loaded: ${url}`);
    a.setAttribute("rel", "noopener noreferrer");
    const icon = a.appendChild(document.createElement("span"));
    icon.className = "codicon codicon-file-media";
    icon.setAttribute("aria-hidden", "true");
    const file = url.replace(/[?#].*$/, "").split("/").pop() ?? "";
    a.append(img.getAttribute("alt") || decodeURIComponent(file) || url);
    img.replaceWith(a);
  }
  return fragment;
}

/** `text` streamed in pieces of `size` characters (each piece's chunks put in the page as a view would), then final. */
function streamed(text: string, size: number): string {
  const markdown = new StreamingMarkdown();
  const homes = new WeakSet<MarkdownChunk>();
  for (let end = size; end < text.length; end += size) {
    for (const chunk of markdown.update(text.slice(0, end))) {
      if (homes.has(chunk)) continue;
      homes.add(chunk);
      chunk.mountInto(document.createElement("div"));
    }
  }
  return mounted(markdown.update(text));
}

/** Elements in a canonical string, for the count the test prints. */
function elementCount(canon: string): number {
  return canon.match(/<[a-z]/g)?.length ?? 0;
}

Object.assign(window, { oracle: { built, reference, streamed, elementCount, benchDocument: markdownDocument } });
