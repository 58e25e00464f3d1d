/**
 * Counting a channel's messages without reading more of them than needed (issue 21, "Lists that stay fast"): the
 * unread count of the channel list and the context's count of what it left out (`Store.countMessagesAfterExcept`,
 * `Store.countMessagesBetween`).
 */
import type { GuardedLevel } from "./guardedLevel";
import { keys, type MessageRecord } from "./records";

/** What one trip to LevelDB's thread may bring back (as `Store`'s page reads). */
const PAGE_READ_BYTES = 1 << 20;

/** Reads a stored message record (reporting it when it does not parse). */
type ParseMessage = (key: string, value: string) => MessageRecord | undefined;

/**
 * How many messages of a channel come after message `afterId` (all of them when undefined) and were not written by
 * an author of kind `except`, scanning at most `limit` records from there (so capped at `limit`, "99+"). Parses only
 * the records whose text names that kind (`"system"`): an unread count of 99 costs 99 reads, not 99 JSON parses.
 * `scanned` receives the ids of the records read (a cache's later updates).
 */
export async function countAfterExcept(
  db: GuardedLevel,
  at: { channelId: string; afterId: string | undefined; limit: number; except: MessageRecord["author"]["kind"]; scanned?: string[] | undefined },
  parse: ParseMessage,
  onCorrupt: (key: string, reason: string) => void,
): Promise<number> {
  const prefix = keys.messagePrefix(at.channelId);
  const range = at.afterId ? { gt: keys.message(at.channelId, at.afterId) } : { gte: prefix };
  const named = JSON.stringify(at.except);
  let n = 0;
  for await (const [key, value] of db.iterator({ ...range, lt: prefix + "\uffff", limit: at.limit, highWaterMarkBytes: PAGE_READ_BYTES })) {
    at.scanned?.push(key.slice(prefix.length));
    if (!value.includes(named)) {
      // JSON.stringify writes the kind as `"system"`: a record without it was not written by one (a record that
      // is not even an object is skipped and reported, as a parse would).
      if (value.startsWith("{") && value.endsWith("}")) n++;
      else onCorrupt(key, "not JSON");
      continue;
    }
    const record = parse(key, value);
    if (record && record.author.kind !== at.except) n++;
  }
  return n;
}

/**
 * Counts the messages of a channel after message `afterId` (from the first when undefined) and before message
 * `beforeId`, newest first, reading at most `limit`, that `keep` accepts. `keep` gets each record's stored JSON
 * text and a `parse` to read it whole only when the text cannot tell (the context's count of what it left out).
 */
export async function countBetween(
  db: GuardedLevel,
  at: { channelId: string; afterId: string | undefined; beforeId: string; limit: number },
  keep: (json: string, parse: () => MessageRecord | undefined) => boolean,
  parse: ParseMessage,
): Promise<{ counted: number; read: number }> {
  const prefix = keys.messagePrefix(at.channelId);
  const range = at.afterId ? { gt: keys.message(at.channelId, at.afterId) } : { gte: prefix };
  let counted = 0;
  let read = 0;
  for await (const [key, value] of db.iterator({ ...range, lt: keys.message(at.channelId, at.beforeId), reverse: true, limit: at.limit, highWaterMarkBytes: PAGE_READ_BYTES })) {
    read++;
    if (keep(value, () => parse(key, value))) counted++;
  }
  return { counted, read };
}
