/**
 * Search results as text (issue 21): a hit's snippet is cut from a message's Markdown source, and the list that shows
 * it (VS Code's QuickPick) shows text, where `**`, backticks and `> ` are noise. Pure.
 */

/**
 * A snippet as text, without the Markdown marks an answer's source holds (`**bold**`, `` `code` ``, `> ` quotes,
 * `# ` headings, `[text](url)` links): the list shows it as a line of text, where the marks are noise. A snippet is cut
 * out of the middle of a message, so only marks whose meaning is plain are taken out; the words all stay.
 */
export function plainSnippet(snippet: string): string {
  return snippet
    .replace(/!?\[([^\]]*)\]\([^)\s]*\)/g, "$1")
    .replace(/(`+)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[\s(])(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\2(?=$|\s|[).,;:!?](?:\s|$))/g, "$1$3")
    .replace(/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=$|\s|[).,;:!?](?:\s|$))/g, "$1$2")
    .replace(/(^|[.:!?…]\s+)(?:>|#{1,6})\s+/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
