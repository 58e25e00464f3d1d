/**
 * How a tool call's text content is shown. ACP: a content block's text "may be plain text or formatted with Markdown".
 * Claude Code's is Markdown (every output fenced: ```` ``` ````, ```` ```console ````), and shown as raw text it reads
 * as fences on every card; a plain command output shown as Markdown loses its indentation and line structure (a JSON
 * document's `  "ok": true`). So the text is rendered as Markdown only when it carries Markdown's own signs: a fenced
 * code block, a heading, a link, or bold text. Pure; exported for tests.
 */

/** Markdown's signs that plain command output does not make by accident. */
const MARKDOWN_SIGNS = [
  /^ {0,3}(`{3,}|~{3,})/m, // a fenced code block
  /^ {0,3}#{1,6} \S/m, // an ATX heading
  /\[[^\]\n]+\]\([^)\s]+\)/, // an inline link
  /\*\*[^*\n]+\*\*/, // bold
];

/** True when `text` is Markdown to render; otherwise it is shown as preformatted text. */
export function isMarkdownContent(text: string): boolean {
  return MARKDOWN_SIGNS.some((sign) => sign.test(text));
}
