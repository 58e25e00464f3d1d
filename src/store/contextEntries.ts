/**
 * Beside each message, what a long catch-up needs of it (issue 21, "the first turn after a long session reads up to
 * 1,000 whole messages to build 32 KB of context"), written in the message's batch like its meta entry:
 * - `ctx/<channelId>/<messageId>`: its author, whether it has something to say, and its smallest rendering in the
 *   channel context (`leastRendering`: every tool output left out) with the bytes it adds. A catch-up whose budget is
 *   full reads these newest first (about 1 KB each) instead of parsing whole messages and their tool outputs.
 * - `tally/<channelId>`: how many messages the channel has, how many have something to say, and of those how many
 *   each agent wrote; so the "[N older messages left out]" of a catch-up is a subtraction, not a read of every older
 *   entry. Kept by reading the `ctx/` entries a commit replaces (a message counts once, from its first entry), under
 *   the store's one-at-a-time commits.
 * A rendering over the context's budget is not kept (such a message is dropped or cut, and cutting reads it whole).
 */
import { hasSomethingToSay, metaOf } from "./messageMeta";
import type { GuardedLevel, LevelOp } from "./guardedLevel";
import type { MessageRecord } from "./records";
import { CONTEXT_BUDGET_BYTES, leastRendering } from "./contextBlock";

/** The keys of the context entries and the tallies. */
export const contextKeys = {
  entry: (channelId: string, messageId: string) => `ctx/${channelId}/${messageId}`,
  prefix: (channelId: string) => `ctx/${channelId}/`,
  tally: (channelId: string) => `tally/${channelId}`,
};

/** A message's context entry, read back. */
export interface ContextEntry {
  id: string;
  kind: MessageRecord["author"]["kind"];
  agentName?: string;
  says: boolean;
  /** Its smallest rendering and the bytes it adds to a context block; undefined when over the budget (not kept). */
  least?: { text: string; bytes: number };
}

/** A channel's counts (see the file comment). */
export interface ChannelTally {
  messages: number;
  says: number;
  /** Messages with something to say, per agent that wrote them. */
  saysBy: Record<string, number>;
}

/** The value of `m`'s context entry: a JSON head line `[says, kind, agentName, bytes]`, then the rendering. */
export function contextEntryValue(m: MessageRecord): string {
  const says = hasSomethingToSay(m);
  // Its text alone over the budget (a long answer, at each checkpoint): not rendered at all.
  const least = metaOf(m).textBytes > CONTEXT_BUDGET_BYTES ? { text: "", bytes: Infinity } : leastRendering(m);
  const kept = least.bytes <= CONTEXT_BUDGET_BYTES;
  return `${JSON.stringify([says ? 1 : 0, m.author.kind, m.author.agentName ?? null, kept ? least.bytes : -1])}\n${kept ? least.text : ""}`;
}

/** A stored context entry of message `id` checked (it comes from the disk), or undefined when it is not one. */
export function asContextEntry(id: string, value: string): ContextEntry | undefined {
  const end = value.indexOf("\n");
  if (end === -1) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(value.slice(0, end));
  } catch {
    return undefined;
  }
  if (!Array.isArray(head) || head.length !== 4) return undefined;
  const [says, kind, agentName, bytes] = head as unknown[];
  if ((says !== 0 && says !== 1) || (kind !== "user" && kind !== "agent" && kind !== "system")) return undefined;
  if ((agentName !== null && typeof agentName !== "string") || typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < -1) return undefined;
  const text = value.slice(end + 1);
  if (bytes !== -1 && bytes !== 2 + Buffer.byteLength(text, "utf8")) return undefined;
  return { id, kind, says: says === 1, ...(agentName !== null ? { agentName } : {}), ...(bytes !== -1 ? { least: { text, bytes } } : {}) };
}

/** A stored tally checked, or undefined. */
export function asChannelTally(value: string | undefined): ChannelTally | undefined {
  if (value === undefined) return undefined;
  let t: unknown;
  try {
    t = JSON.parse(value);
  } catch {
    return undefined;
  }
  const count = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (typeof t !== "object" || t === null) return undefined;
  const { version, messages, says, saysBy } = t as Record<string, unknown>;
  if (version !== 1 || !count(messages) || !count(says) || typeof saysBy !== "object" || saysBy === null) return undefined;
  if (!Object.values(saysBy).every(count)) return undefined;
  // Agent names are keys: a prototype-less object, so a name such as `__proto__` is a key like any other.
  return { messages: messages as number, says: says as number, saysBy: Object.assign(Object.create(null) as Record<string, number>, saysBy) };
}

/**
 * The operations writing the context entries of `messages` and the tallies they change, after reading the entries
 * they replace (one read). `onlyNew` writes only the messages that have no entry yet (building the entries of an
 * older store: a message committed since has its entry, which is newer). Must run with no other commit in between
 * its read and its batch (`Store.commit` runs one at a time).
 */
export async function contextEntryOps(db: GuardedLevel, messages: readonly MessageRecord[], onlyNew = false): Promise<LevelOp[]> {
  if (messages.length === 0) return [];
  const latest = new Map<string, MessageRecord>(); // the last write of each message in this batch is what stays
  for (const m of messages) latest.set(contextKeys.entry(m.channelId, m.id), m);
  const entryKeys = [...latest.keys()];
  const before = await db.getMany(entryKeys);
  const tallies = new Map<string, ChannelTally>();
  const tallyOf = async (channelId: string) => {
    let t = tallies.get(channelId);
    if (!t) {
      t = asChannelTally(await db.get(contextKeys.tally(channelId))) ?? { messages: 0, says: 0, saysBy: Object.create(null) as Record<string, number> };
      tallies.set(channelId, t);
    }
    return t;
  };
  const ops: LevelOp[] = [];
  for (const [i, key] of entryKeys.entries()) {
    const m = latest.get(key)!;
    const old = before[i] === undefined ? undefined : asContextEntry(m.id, before[i]!);
    if (onlyNew && before[i] !== undefined) continue;
    const t = await tallyOf(m.channelId);
    if (old) count(t, old.says, old.kind === "agent" ? old.agentName : undefined, -1);
    else if (before[i] === undefined) t.messages++; // (a damaged entry was counted when it was written)
    count(t, hasSomethingToSay(m), m.author.kind === "agent" ? m.author.agentName : undefined, +1);
    ops.push({ type: "put", key, value: contextEntryValue(m) });
  }
  for (const [channelId, t] of tallies) ops.push({ type: "put", key: contextKeys.tally(channelId), value: JSON.stringify({ version: 1, ...t }) });
  return ops;
}

function count(t: ChannelTally, says: boolean, agentName: string | undefined, by: 1 | -1): void {
  if (!says) return;
  t.says = Math.max(0, t.says + by);
  if (agentName !== undefined) t.saysBy[agentName] = Math.max(0, (t.saysBy[agentName] ?? 0) + by);
}

/** What one read of {@link contextEntryPages} brings back at most: a little over the context's budget. */
const PAGE_BYTES = CONTEXT_BUDGET_BYTES + (4 << 10);

/**
 * The context entries of a channel's latest `limit` messages, newest first, a page per read of about the context's
 * budget in bytes (so a catch-up reads about what it writes); a page is undefined when one of its entries does not
 * check (the caller reads the messages).
 */
export async function* contextEntryPages(db: GuardedLevel, channelId: string, limit: number): AsyncGenerator<ContextEntry[] | undefined> {
  const prefix = contextKeys.prefix(channelId);
  for await (const page of db.pages({ gte: prefix, lt: prefix + "\uffff", reverse: true, limit, highWaterMarkBytes: PAGE_BYTES }, limit)) {
    const out: ContextEntry[] = [];
    for (const [key, value] of page) {
      const entry = asContextEntry(key.slice(prefix.length), value);
      if (!entry) {
        yield undefined;
        return;
      }
      out.push(entry);
    }
    yield out;
  }
}
