/**
 * `meta/<channelId>/<messageId>`: a few bytes beside each message (who wrote it and whether it has something to
 * say), written in the message's batch, so that counting a channel's older messages (the channel context's
 * "[N older messages left out]") reads a small key per message instead of the whole message (issue 21, "Lists that
 * stay fast"). A derived index: complete only in a store that wrote it from its creation (`META_INDEX_STATE`);
 * elsewhere the counts read the messages as before.
 */
import type { GuardedLevel, LevelOp } from "./guardedLevel";
import type { MessageRecord } from "./records";

/**
 * Where building the index of a store that has none (created before it, an older `"complete"`, or repaired) is:
 * complete, or not, with the key of the last message done (`msg/<channel>/<message>`). Built once after the open, a
 * step at a time in the write lane (`metaIndexBuild.ts`), like the word index of ADR 0007.
 */
export interface MetaIndexState {
  complete: boolean;
  after?: string;
}

/** The state of the index as stored under {@link META_INDEX_STATE}. */
export async function readMetaIndexState(db: GuardedLevel): Promise<MetaIndexState> {
  const value = await db.get(META_INDEX_STATE);
  if (value === META_INDEX_COMPLETE) return { complete: true };
  try {
    const after = (JSON.parse(value ?? "{}") as { after?: unknown }).after;
    return typeof after === "string" && after.startsWith("msg/") ? { complete: false, after } : { complete: false };
  } catch {
    return { complete: false }; // ("complete" of a store from before the context entries, too)
  }
}

/** The value written under {@link META_INDEX_STATE} for `state`. */
export function metaIndexStateValue(state: MetaIndexState): string {
  return state.complete ? META_INDEX_COMPLETE : JSON.stringify({ after: state.after });
}

/**
 * The next step of building the index: up to `count` messages after the state's `after` key (every channel, in key
 * order), and the state once they have their entries (complete when none are left).
 */
export async function metaIndexStep(db: GuardedLevel, count: number, parse: (key: string, value: string) => MessageRecord | undefined): Promise<{ messages: MessageRecord[]; state: MetaIndexState }> {
  const { complete, after } = await readMetaIndexState(db);
  if (complete) return { messages: [], state: { complete } };
  const messages: MessageRecord[] = [];
  let last: string | undefined;
  for (const [key, value] of await db.entries({ ...(after ? { gt: after } : { gte: "msg/" }), lt: "msg/\uffff", limit: count, highWaterMarkBytes: 1 << 20 })) {
    last = key;
    const m = parse(key, value);
    if (m) messages.push(m);
  }
  return { messages, state: last === undefined ? { complete: true } : { complete: false, after: last } };
}

/**
 * The key (beside the records) whose value {@link META_INDEX_COMPLETE} says every message has its meta entry and its
 * context entry (`contextEntries.ts`), and every channel its tally. (`"complete"`, written before the context
 * entries, said only the first: such a store builds the rest at its open like an older one.)
 */
export const META_INDEX_STATE = "meta-index";

/** The value of {@link META_INDEX_STATE} once the index is complete. */
export const META_INDEX_COMPLETE = "complete+context";

/**
 * What a message's meta entry says: its id, its author, whether it has something to say ({@link hasSomethingToSay}),
 * and the UTF-8 bytes of its text parts, trimmed (a lower bound of what it adds to a context block).
 */
export interface MessageMeta {
  id: string;
  kind: MessageRecord["author"]["kind"];
  agentName?: string;
  says: boolean;
  textBytes: number;
}

/** The meta entry of `m` (what {@link metaPut} writes). */
export function metaOf(m: MessageRecord): MessageMeta {
  let textBytes = 0;
  for (const p of m.parts) if (p.type === "text") textBytes += Buffer.byteLength(p.text.trim(), "utf8");
  return { id: m.id, kind: m.author.kind, says: hasSomethingToSay(m), textBytes, ...(m.author.agentName !== undefined ? { agentName: m.author.agentName } : {}) };
}

/** The keys of the meta index. */
export const metaKeys = {
  meta: (channelId: string, messageId: string) => `meta/${channelId}/${messageId}`,
  prefix: (channelId: string) => `meta/${channelId}/`,
};

/**
 * Whether a message has something to say to a reader of the channel: a text part that is not blank, or a content
 * block (an image, a file). The channel context leaves the others out (`unseenMessages`).
 */
export function hasSomethingToSay(m: MessageRecord): boolean {
  return m.parts.some((p) => (p.type === "text" && p.text.trim() !== "") || p.type === "content");
}

/** The operation writing `m`'s meta entry (beside its record, in the same batch). */
export function metaPut(m: MessageRecord): LevelOp {
  const meta = metaOf(m);
  // `<says 0|1> <text bytes> <author kind> <agent name>`: read by the hundred, so not JSON (the name is last and
  // taken whole; the id is the key's).
  return { type: "put", key: metaKeys.meta(m.channelId, m.id), value: `${meta.says ? 1 : 0} ${meta.textBytes} ${meta.kind}${meta.agentName !== undefined ? ` ${meta.agentName}` : ""}` };
}

/** A stored meta entry of message `id` checked (it comes from the disk), or undefined when it is not one. */
export function asMessageMeta(id: string, value: string): MessageMeta | undefined {
  const bytesEnd = value.indexOf(" ", 2);
  const kindEnd = value.indexOf(" ", bytesEnd + 1);
  const says = value[0];
  const textBytes = Number(value.slice(2, bytesEnd));
  const kind = value.slice(bytesEnd + 1, kindEnd === -1 ? undefined : kindEnd);
  if (value[1] !== " " || (says !== "0" && says !== "1") || bytesEnd === -1 || !Number.isSafeInteger(textBytes) || textBytes < 0) return undefined;
  if (kind !== "user" && kind !== "agent" && kind !== "system") return undefined;
  return { id, kind, says: says === "1", textBytes, ...(kindEnd !== -1 ? { agentName: value.slice(kindEnd + 1) } : {}) };
}

/**
 * The meta entries of a channel's latest messages after message `afterId` (all when undefined), newest first, at most
 * `limit`, in one read (they are small); an entry that does not check is taken from its message (`message`), and
 * left out when that is gone or corrupt too. Only meaningful when the index is complete.
 */
export async function latestMeta(
  db: GuardedLevel,
  channelId: string,
  afterId: string | undefined,
  limit: number,
  message: (messageId: string) => Promise<MessageRecord | undefined>,
): Promise<MessageMeta[]> {
  const prefix = metaKeys.prefix(channelId);
  const from = afterId !== undefined ? { gt: metaKeys.meta(channelId, afterId) } : { gte: prefix };
  const out: MessageMeta[] = [];
  for (const [key, value] of await db.entries({ ...from, lt: prefix + "\uffff", reverse: true, limit, highWaterMarkBytes: 1 << 20 })) {
    const id = key.slice(prefix.length);
    const meta = asMessageMeta(id, value) ?? (await message(id).then((m) => m && metaOf(m)));
    if (meta) out.push(meta);
  }
  return out;
}
