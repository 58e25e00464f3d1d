import type { Part } from "../shared/protocol";
import type { MessageRecord } from "./records";

/**
 * What history search matches, shared by the word index and the full scan so both find the same messages
 * (docs/adr/0007-search-index.md): a message's searchable text is its text parts, thoughts, notices, plan entries and
 * the titles of its tool calls, permissions and content blocks; a query term matches a word of it that starts with
 * the term, ignoring case.
 */

/** Longest word prefix the index keeps: a longer query term is looked up by its first letters and checked in full. */
export const INDEXED_WORD_CHARS = 32;

const WORD = /[\p{L}\p{N}_]+/gu;

/** The words of `text`, lower case, in order (duplicates kept). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The text of one part that search looks in, or "" for a part with nothing to search. */
function partText(part: Part): string {
  switch (part.type) {
    case "text":
    case "thought":
    case "notice":
      return part.text;
    case "toolCall":
    case "permission":
      return part.title;
    case "plan":
      return part.entries.map((e) => e.content).join("\n");
    case "content":
      return "name" in part.block ? (part.block.name ?? "") : "";
    default:
      return "";
  }
}

/** A message's searchable text, its parts joined by newlines (text parts first, in order, for the snippet). */
export function searchableText(message: MessageRecord): string {
  const texts = message.parts.filter((p) => p.type === "text").map(partText);
  const others = message.parts.filter((p) => p.type !== "text").map(partText);
  return [...texts, ...others].filter((t) => t !== "").join("\n");
}

/** The distinct words of a message the index keeps (at least 2 characters, cut at {@link INDEXED_WORD_CHARS}). */
export function indexedWords(message: MessageRecord): string[] {
  const out = new Set<string>();
  for (const w of words(searchableText(message))) if (w.length >= 2) out.add(w.slice(0, INDEXED_WORD_CHARS));
  return [...out];
}

/**
 * Whether a message is written in its final form, so the index takes its words: a user or system message, an
 * answer of older schemas (no turn), or an answer whose turn settled (its `outcome` is copied in). A checkpoint of a
 * running answer is indexed when it settles.
 */
export function isIndexable(message: MessageRecord): boolean {
  return message.author.kind !== "agent" || message.turnId === undefined || message.outcome !== undefined;
}

/** The query terms of `text`: its words, lower case, each once. */
export function queryTerms(text: string): string[] {
  return [...new Set(words(text))];
}

/** Whether every term starts a word of `text`. */
export function matchesAll(text: string, terms: readonly string[]): boolean {
  const present = words(text);
  return terms.every((t) => present.some((w) => w.startsWith(t)));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * About `width` characters of `text` around the first word that starts with `term`, on one line, with "…" where it
 * was cut: what a search result shows.
 */
export function snippetOf(text: string, term: string, width = 120): string {
  const found = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(term)}`, "iu").exec(text);
  const at = found?.index ?? 0;
  const start = Math.max(0, at - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  const line = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${line}${end < text.length ? "…" : ""}`;
}
