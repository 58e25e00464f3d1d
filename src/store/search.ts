import type { GuardedLevel, LevelOp } from "./guardedLevel";
import { keys, type MessageRecord } from "./records";
import { INDEXED_WORD_CHARS, indexedWords, isIndexable, matchesAll, queryTerms, searchableText, snippetOf } from "./searchText";

/** What to look for in the history (every field but `text` optional; all of them must hold). */
export interface SearchQuery {
  /** Words; each must start a word of the message (case ignored). */
  text: string;
  /** Only this channel (its id). */
  channelId?: string;
  /** Only messages of this author: `user`, `system`, or an agent's name. */
  author?: string;
  /** Only messages written at or after / before these times (ms since the epoch). */
  since?: number;
  until?: number;
  /** At most this many hits (default 50). */
  limit?: number;
}

/** One message that matches a {@link SearchQuery}. */
export interface SearchHit {
  channelId: string;
  messageId: string;
  /** `user`, `system`, or the agent's name. */
  author: string;
  createdAt: number;
  /** About 120 characters around the first match, on one line. */
  snippet: string;
}

/** The hits, newest first, and whether more were left out by the limit or the index's bounds. */
export interface SearchResult {
  hits: SearchHit[];
  more: boolean;
}

/** How many words starting with a query term the index follows at most (a one-letter term has many). */
const MAX_EXPANSIONS = 200;
const DEFAULT_LIMIT = 50;

/** The index key of one word of a message: `word/<word>/<messageId>`; its value is `<channelId>\t<author>\t<createdAt>`. */
export const wordKey = (word: string, messageId: string): string => `word/${word}/${messageId}`;

/** `search-index`: `{"complete": true}` once every message is indexed; else the key after which backfill goes on. */
export const SEARCH_INDEX_STATE = "search-index";

/** State of the word index (stored under {@link SEARCH_INDEX_STATE}). */
export interface SearchIndexState {
  complete: boolean;
  /** While building: the last message key indexed so far (absent before the first step). */
  after?: string;
}

/** The author of a message as search names it. */
export function authorOf(m: MessageRecord): string {
  return m.author.kind === "agent" ? (m.author.agentName ?? "agent") : m.author.kind;
}

/** `<channelId>\t<author>\t<createdAt>`: split without a JSON parse for each posting a filter looks at. */
function postingValue(m: MessageRecord): string {
  return `${m.channelId}\t${authorOf(m).replace(/\t/g, " ")}\t${m.createdAt}`;
}

/** The index puts for one message (none while it is not in its final form, {@link isIndexable}). */
export function indexPuts(m: MessageRecord): LevelOp[] {
  if (!isIndexable(m)) return [];
  const value = postingValue(m);
  return indexedWords(m).map((w) => ({ type: "put", key: wordKey(w, m.id), value }));
}

/** The index deletes for one message that goes away (its channel is deleted). */
export function indexDels(m: MessageRecord): LevelOp[] {
  return indexedWords(m).map((w) => ({ type: "del", key: wordKey(w, m.id) }));
}

function passes(q: SearchQuery, channelId: string, author: string, createdAt: number): boolean {
  if (q.channelId !== undefined && channelId !== q.channelId) return false;
  if (q.author !== undefined && author.toLowerCase() !== q.author.toLowerCase()) return false;
  if (q.since !== undefined && createdAt < q.since) return false;
  return q.until === undefined || createdAt < q.until;
}

function hitOf(m: MessageRecord, terms: string[]): SearchHit | undefined {
  const text = searchableText(m);
  if (!matchesAll(text, terms)) return undefined;
  return { channelId: m.channelId, messageId: m.id, author: authorOf(m), createdAt: m.createdAt, snippet: snippetOf(text, terms[0]!) };
}

/**
 * The full scan (the baseline, and the answer while the index is being built): reads every message of every
 * channel and keeps those that match, newest first.
 */
export async function scanSearch(db: GuardedLevel, q: SearchQuery, parse: (key: string, value: string) => MessageRecord | undefined): Promise<SearchResult> {
  const terms = queryTerms(q.text);
  if (terms.length === 0) return { hits: [], more: false };
  const hits: SearchHit[] = [];
  const range = q.channelId !== undefined ? keys.messagePrefix(q.channelId) : "msg/";
  for await (const [key, value] of db.iterator({ gte: range, lt: range + "\uffff" })) {
    const m = parse(key, value);
    if (!m || !passes(q, m.channelId, authorOf(m), m.createdAt)) continue;
    const hit = hitOf(m, terms);
    if (hit) hits.push(hit);
  }
  hits.sort((a, b) => b.createdAt - a.createdAt || (a.messageId < b.messageId ? 1 : -1));
  const limit = q.limit ?? DEFAULT_LIMIT;
  return { hits: hits.slice(0, limit), more: hits.length > limit };
}

/** The words of the index that start with `prefix`, in order, at most `max` (one seek from each to the next). */
async function expansions(db: GuardedLevel, prefix: string, max: number): Promise<{ words: string[]; more: boolean }> {
  const out: string[] = [];
  for await (const key of db.skipping({ gte: `word/${prefix}`, lt: `word/${prefix}\uffff` }, (k) => `${k.slice(0, k.indexOf("/", 5))}/\uffff`)) {
    if (out.length === max) return { words: out, more: true };
    out.push(key.slice(5, key.indexOf("/", 5)));
  }
  return { words: out, more: false };
}

/** Postings of one word, newest message first, read a page at a time. */
type Cursor = { pages: AsyncGenerator<[string, string][]>; page: [string, string][]; at: number; head?: [string, string]; id: string };

/** Postings read per native call (the pages after the first; see {@link advance}). */
const POSTING_PAGE = 256;
/** The first page of each word: small, since most searches stop at their first 50 hits among many words. */
const FIRST_PAGE = 8;

async function advance(c: Cursor): Promise<void> {
  c.at++;
  if (c.at >= c.page.length) {
    const r = await c.pages.next();
    c.page = r.done ? [] : r.value;
    c.at = 0;
  }
  c.head = c.page[c.at];
  c.id = c.head ? idOf(c.head[0]) : "";
}

/**
 * The indexed search: follows the postings of every word that starts with the query's longest term, newest
 * message first (a merge of reverse range reads), filters on the channel, author and time kept in each posting,
 * and reads only the messages that pass to check the other terms and cut the snippet. Stops at the limit.
 */
export async function indexSearch(db: GuardedLevel, q: SearchQuery, parse: (key: string, value: string) => MessageRecord | undefined): Promise<SearchResult> {
  const terms = queryTerms(q.text);
  if (terms.length === 0) return { hits: [], more: false };
  const lead = [...terms].sort((a, b) => b.length - a.length)[0]!.slice(0, INDEXED_WORD_CHARS);
  const found = await expansions(db, lead, MAX_EXPANSIONS);
  const limit = q.limit ?? DEFAULT_LIMIT;
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  let more = found.more;
  for await (const [key, value] of newestFirst(db, found.words.map((w) => `word/${w}/`))) {
    const id = idOf(key);
    if (seen.has(id)) continue;
    seen.add(id);
    const [channelId = "", author = "", createdAt = "0"] = value.split("\t");
    if (!passes(q, channelId, author, Number(createdAt))) continue;
    const raw = await db.get(keys.message(channelId, id));
    const m = raw === undefined ? undefined : parse(keys.message(channelId, id), raw);
    const hit = m && hitOf(m, terms);
    if (!hit) continue; // a word the message no longer has, or a message gone
    if (hits.length === limit) {
      more = true;
      break;
    }
    hits.push(hit);
  }
  return { hits, more };
}

/**
 * Messages of every channel matching `q`, newest first: {@link filterSearch} when `q` has filters and no words, else
 * through the word index once it is complete, else by reading every message ({@link scanSearch}) while an older
 * store's index is being built (ADR 0007). `channelIds`: the store's channels (read only for a filter-only search).
 */
export async function searchMessages(db: GuardedLevel, q: SearchQuery, parse: Parse, channelIds: () => Promise<string[]>): Promise<SearchResult> {
  if (queryTerms(q.text).length === 0) return filterSearch(db, q, parse, await channelIds());
  return (await readIndexState(db)).complete ? indexSearch(db, q, parse) : scanSearch(db, q, parse);
}

type Parse = (key: string, value: string) => MessageRecord | undefined;

/**
 * A search with filters and no words (`from:odie`, `in:#general after:2026-01-31`): the newest messages that pass
 * them, read from the end of each channel's messages (one reverse read per channel, merged newest first, as the
 * postings are in {@link indexSearch}) until the limit. No filter at all finds nothing. A filter that few messages pass
 * reads on, at worst every message of the channels searched (the cost of {@link scanSearch}).
 */
export async function filterSearch(db: GuardedLevel, q: SearchQuery, parse: Parse, channelIds: readonly string[]): Promise<SearchResult> {
  if (q.channelId === undefined && q.author === undefined && q.since === undefined && q.until === undefined) return { hits: [], more: false };
  const ids = q.channelId !== undefined ? [q.channelId] : channelIds;
  const limit = q.limit ?? DEFAULT_LIMIT;
  const hits: SearchHit[] = [];
  let more = false;
  for await (const [key, value] of newestFirst(db, ids.map(keys.messagePrefix))) {
    const m = parse(key, value);
    if (!m || !isIndexable(m) || !passes(q, m.channelId, authorOf(m), m.createdAt)) continue;
    if (hits.length === limit) {
      more = true;
      break;
    }
    hits.push({ channelId: m.channelId, messageId: m.id, author: authorOf(m), createdAt: m.createdAt, snippet: snippetOf(searchableText(m), "") });
  }
  return { hits, more };
}

/**
 * The entries under each of `prefixes` (a word's postings, a channel's messages), read backwards a page at a time and
 * merged by the id after their last `/`, the largest (the newest: ULIDs sort by time) first. A `break` in the caller's
 * loop closes every read.
 */
async function* newestFirst(db: GuardedLevel, prefixes: readonly string[]): AsyncGenerator<[string, string]> {
  const cursors: Cursor[] = prefixes.map((p) => ({ pages: db.pages({ gte: p, lt: `${p}\uffff`, reverse: true }, POSTING_PAGE, FIRST_PAGE), page: [], at: -1, id: "" }));
  try {
    await Promise.all(cursors.map(advance));
    for (;;) {
      let best: Cursor | undefined;
      for (const c of cursors) if (c.head && (!best || c.id > best.id)) best = c;
      if (!best) return;
      const head = best.head!;
      await advance(best);
      yield head;
    }
  } finally {
    await Promise.all(cursors.map((c) => c.pages.return(undefined)));
  }
}

function idOf(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}

/** The index's state ({@link SEARCH_INDEX_STATE}); missing or damaged reads as "not built" (puts are idempotent). */
export async function readIndexState(db: GuardedLevel): Promise<SearchIndexState> {
  const raw = await db.get(SEARCH_INDEX_STATE);
  try {
    const state = raw === undefined ? undefined : (JSON.parse(raw) as SearchIndexState);
    if (state && typeof state.complete === "boolean") return state;
  } catch {
    // damaged: built again from the start
  }
  return { complete: false };
}

/** Up to `count` messages after the state's `after` key, and the state once their words are in the index. */
export async function indexStep(
  db: GuardedLevel,
  count: number,
  parse: (key: string, value: string) => MessageRecord | undefined,
): Promise<{ messages: MessageRecord[]; state: SearchIndexState }> {
  const { complete, after } = await readIndexState(db);
  if (complete) return { messages: [], state: { complete } };
  const messages: MessageRecord[] = [];
  let last: string | undefined;
  for await (const [key, value] of db.iterator({ ...(after ? { gt: after } : { gte: "msg/" }), lt: "msg/\uffff", limit: count })) {
    last = key;
    const m = parse(key, value);
    if (m) messages.push(m);
  }
  return { messages, state: last === undefined ? { complete: true } : { complete: false, after: last } };
}
