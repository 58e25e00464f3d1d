import * as l10n from "@vscode/l10n";
import { describeBlock } from "../shared/contentBlocks";
import type { Part, ToolCallDiff } from "../shared/protocol";
import { stripTerminalEscapes } from "../shared/terminalText";
import { showControls } from "../shared/visibleText";
import type { MessageRecord } from "../store/records";
import type { Store } from "../store/Store";

/** What heads the exported file. */
export interface ExportHeader {
  /** The channel's name (without `#`). */
  channelName: string;
  /** When it was exported (ms since the epoch). */
  exportedAt: number;
  /** Set when only messages since this time are exported. */
  since?: number;
}

/** `2026-11-01 10:00 UTC`: times in the export, the same on every machine. */
export function exportTime(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function authorName(m: MessageRecord): string {
  if (m.author.kind === "agent") return `@${m.author.agentName ?? "agent"}`;
  return m.author.kind === "user" ? l10n.t("You") : l10n.t("Sidekicks");
}

function statusWord(status: string, cancelled?: boolean, noResult?: boolean): string {
  if (cancelled) return l10n.t("cancelled");
  if (noResult) return l10n.t("no result");
  switch (status) {
    case "completed":
      return l10n.t("completed");
    case "failed":
      return l10n.t("failed");
    default:
      return l10n.t("not finished");
  }
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.split(/\r\n|\r|\n/).length;
}

function diffLine(d: ToolCallDiff): string {
  if (d.oldText === null) return l10n.t("new file `{0}`, {1} lines", d.path, lineCount(d.newText));
  return l10n.t("changed `{0}`, {1} → {2} lines", d.path, lineCount(d.oldText), lineCount(d.newText));
}

/** `text` with a closing fence added when it leaves a ``` or ~~~ block open (the next heading would fall inside). */
function closeFences(text: string): string {
  let open: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const fence = fenceOf(line);
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}

/** Whether `line` opens or closes a ``` or ~~~ fence, and with which fence. */
function fenceOf(line: string): string | undefined {
  return /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
}

/**
 * A message's Markdown made to sit under its export heading, shown as the view shows it:
 * - its headings go two levels down (`#` → `###`, at most `######`), so a heading the user or agent wrote (a typed
 *   "## You → …" included) nests under the message's own `##` heading and never reads as another message;
 * - raw HTML (`<b>`, `<img …>`, `<!-- -->`) is escaped as `&lt;`, since the view shows it as text (ADR 0004) and a
 *   Markdown preview would render it; autolinks (`<https://…>`) stay links;
 * - fenced code and `code spans` are left exactly as written, and lines indented as code are left alone.
 */
export function nestedMarkdown(text: string): string {
  let open: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const fence = fenceOf(line);
      if (open !== undefined) {
        if (fence && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
        return line;
      }
      if (fence) {
        open = fence;
        return line;
      }
      if (/^(?: {4}|\t)/.test(line)) return line;
      const heading = /^( {0,3})(#{1,6})(?=[ \t]|$)/.exec(line);
      const shifted = heading ? `${heading[1]}${"#".repeat(Math.min(6, heading[2]!.length + 2))}${line.slice(heading[0].length)}` : line;
      // Outside code spans (runs of backticks closed by the same run), a `<` that starts a tag, a comment or a
      // declaration becomes `&lt;`.
      return shifted
        .split(/(`+[^`]*?`+)/)
        .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/<(?![A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|[^\s<>@]+@[^\s<>@]+>)(?=[A-Za-z/!?])/g, "&lt;")))
        .join("");
    })
    .join("\n");
}

/** One line (or block, for text) of Markdown per part; tool calls and diffs in one line each. */
function partMarkdown(part: Part): string | undefined {
  switch (part.type) {
    case "text":
      return closeFences(nestedMarkdown(part.text)); // Markdown already: its headings nested, its HTML shown as text
    case "thought":
      return `> ${l10n.t("Thought:")} ${part.text.replace(/\s+/g, " ").trim()}`;
    case "toolCall": {
      const diffs = (part.diffs ?? []).map(diffLine);
      const changes = diffs.length > 0 ? ` — ${diffs.join("; ")}` : "";
      return `- ${l10n.t("Tool call: {0} ({1})", part.title, statusWord(part.status, part.cancelled, part.noResult))}${changes}`;
    }
    case "permission": {
      const chosen = part.options.find((o) => o.optionId === part.outcome)?.name;
      const answer = chosen !== undefined ? l10n.t("answered “{0}”", chosen) : part.outcome === undefined ? l10n.t("pending") : l10n.t("not answered");
      return `- ${l10n.t("Permission: {0} ({1})", part.title, answer)}`;
    }
    case "plan":
      return part.entries.map((e) => `- [${e.status === "completed" ? "x" : " "}] ${e.content}`).join("\n");
    case "content":
      return `- ${describeBlock(part.block)}`;
    case "files":
      // What the user decided since goes with each file: an undone change is no longer in the folder.
      return `- ${l10n.t("Files changed: {0}", part.files.map((f) => `\`${f.path}\`${f.state === "undone" ? ` (${l10n.t("undone")})` : f.state === "kept" ? ` (${l10n.t("kept")})` : ""}`).join(", "))}`;
    case "retry":
      return `- ${l10n.t("Attempt {0}", part.attempt)}`;
    case "notice":
      return `> ${part.text}`;
  }
}

/**
 * A channel's messages as a Markdown document (issue 21, "Export"): a heading per message with its author and time,
 * the text as written with its headings nested below the message's and raw HTML shown as text ({@link nestedMarkdown}),
 * a cancelled or refused answer said so, each tool call (with its diffs), permission, plan and content block summarised in one line, an
 * error in a quote. `messages` oldest first, as the store pages them. What the view would not show as it is, the file
 * does not hold either: terminal escape sequences are dropped and control characters (NUL, a lone CR…) and bidi
 * controls written as visible `[U+202E]` markers, as the view shows them (`src/shared/visibleText.ts`), so that
 * `grep` reads the file as text and no override disguises what follows it.
 */
export function channelToMarkdown(header: ExportHeader, messages: readonly MessageRecord[]): string {
  const out: string[] = [`# #${header.channelName}`, ""];
  const range = header.since !== undefined ? l10n.t("messages since {0}", exportTime(header.since)) : l10n.t("all messages");
  out.push(`_${l10n.t("Exported from Sidekicks on {0}: {1} ({2}).", exportTime(header.exportedAt), range, messages.length)}_`, "");
  for (const m of messages) out.push(...messageLines(m));
  return showControls(stripTerminalEscapes(out.join("\n"))).replace(/\n+$/, "\n");
}

/** One message's heading and body, each block followed by an empty line. */
function messageLines(m: MessageRecord): string[] {
  const to = m.to && m.to.length > 0 ? ` → ${m.to.map((a) => `@${a}`).join(", ")}` : "";
  return [`## ${authorName(m)}${to} · ${exportTime(m.createdAt)}`, "", ...bodyLines(m)];
}

/** A message's parts (one block each, see {@link partMarkdown}) and how it ended, each followed by an empty line. */
function bodyLines(m: MessageRecord): string[] {
  const out: string[] = [];
  for (const part of m.parts) {
    const md = partMarkdown(part);
    if (md !== undefined && md.trim() !== "") out.push(md.replace(/\n+$/, ""), "");
  }
  // How it ended, in italics: a quote (`> `) read as quoted text, as the agents quote the user's words so.
  if (m.error) out.push(`*${l10n.t("Error: {0}", m.error.message.replace(/\s+/g, " ").trim())}*`, "");
  else if (m.outcome === "cancelled") out.push(`*${l10n.t("Cancelled")}*`, "");
  else if (m.outcome === "refused") out.push(`*${l10n.t("The agent refused to continue")}*`, "");
  return out;
}

/**
 * One message as Markdown (issue 19, the message actions "Copy as Markdown" and "Open in editor"): `markdown` is the
 * message exactly as {@link channelToMarkdown} exports it (its `##` heading with author, recipients and time, then its
 * body); `body` is the body alone (for "Quote in composer"). Both end with one newline (`body` is `""` when empty).
 */
export function messageToMarkdown(m: MessageRecord): { markdown: string; body: string } {
  const trim = (lines: string[]): string => lines.join("\n").replace(/\n+$/, "\n").replace(/^\n$/, "");
  return { markdown: trim(messageLines(m)), body: trim(bodyLines(m)) };
}


/** Messages read per page while exporting. */
const EXPORT_PAGE = 500;

/**
 * The messages of a channel to export, oldest first: all of them, or those written at or after `since`, read a page
 * at a time from the newest back (`Store.messagesBefore`), stopping at the first page that reaches before `since`.
 */
export async function messagesToExport(store: Store, channelId: string, since?: number): Promise<MessageRecord[]> {
  const pages: MessageRecord[][] = [];
  let page = await store.latestMessages(channelId, EXPORT_PAGE);
  while (page.length > 0) {
    const kept = since === undefined ? page : page.filter((m) => m.createdAt >= since);
    pages.unshift(kept);
    if (kept.length < page.length || page.length < EXPORT_PAGE) break;
    page = await store.messagesBefore(channelId, page[0]!.id, EXPORT_PAGE);
  }
  return pages.flat();
}
