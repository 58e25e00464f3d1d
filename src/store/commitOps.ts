/**
 * What one {@link Store.commit} writes: the changes a caller hands over ({@link StoreChanges}) and the LevelDB
 * operations they become, every key that moves with a record in the same batch (open-turn and open-intent entries,
 * name and direct indexes, the word index of ADR 0007, the messages' meta and context entries and their channels' tallies, a deleted channel's memberships and
 * messages).
 */
import type { GuardedLevel, LevelOp } from "./guardedLevel";
import { LAST_READ } from "./revisions";
import { META_INDEX_STATE, metaIndexStateValue, metaKeys, metaPut, type MetaIndexState } from "./messageMeta";
import { contextEntryOps, contextKeys } from "./contextEntries";
import { SEARCH_INDEX_STATE, indexDels, indexPuts, type SearchIndexState } from "./search";
import { keys, type ChannelRecord, type IntentRecord, type MembershipRecord, type MessageRecord, type TurnRecord } from "./records";

/** Changes written in one atomic batch (see `Store.commit`). */
export interface StoreChanges {
  messages?: MessageRecord[];
  members?: MembershipRecord[];
  /** Turn records; a settled one also drops its `turn-open/` index entry, an open one writes it. */
  turns?: TurnRecord[];
  /** Tool intents; a settled one drops its `intent-open/` entry, an open one writes it. */
  intents?: IntentRecord[];
  /** Small JSON values under `value/<key>` (stored as `{version: 1, value}`; {@link Store.getValue}), in the batch. */
  values?: { key: string; value: unknown }[];
  /**
   * Channels with their name index; `previousName` (a rename) drops the old name index, `directAgent` writes the
   * `direct/<agent>` index of a direct conversation.
   */
  channels?: { channel: ChannelRecord; previousName?: string; directAgent?: string }[];
  /** Memberships removed (their messages stay). */
  removedMembers?: { channelId: string; agentName: string }[];
  /**
   * Channels deleted, each in the same batch with its name index, its read marker, the `direct/<agent>` indexes of
   * `directAgents` (those that point to it), and every membership and message it has (read by range here).
   */
  deletedChannels?: { channel: ChannelRecord; directAgents: string[] }[];
  /**
   * Fencing (brief, "Only the owning attempt may settle the turn"): the batch is written only if the stored turn
   * still has this attempt number and owner; otherwise nothing is written and `store/staleAttempt` is thrown.
   */
  fence?: { turnId: string; attempt: number; owner: string };
  /** A step of building the word index of an older store (ADR 0007): these messages' words, and the state after. */
  searchIndex?: { messages: MessageRecord[]; state: SearchIndexState };
  /**
   * A step of building the meta index of a store without it (`messageMeta.ts`): the meta and context entries of these
   * messages (those that have no context entry yet: one committed since has its own), their tallies, the state after.
   */
  metaIndex?: { messages: MessageRecord[]; state: MetaIndexState };
}

/**
 * Appends `more` to `ops` one by one: a message's index operations are one per distinct word, and `push(...more)`
 * passes each as an argument, which overflows the stack past about 120,000 (a 1 MB answer of distinct words did).
 */
function append(ops: LevelOp[], more: readonly LevelOp[]): void {
  for (const op of more) ops.push(op);
}

/**
 * The operations of one commit of `changes`, in order. Reads only to delete a channel's memberships and messages
 * (a range of `db`); `parseMessage` reads a message record (its words leave the index with it), undefined when
 * corrupt.
 */
export async function commitOps(changes: StoreChanges, db: GuardedLevel, parseMessage: (key: string, value: string) => MessageRecord | undefined): Promise<LevelOp[]> {
  const ops: LevelOp[] = [];
  for (const t of changes.turns ?? []) {
    ops.push({ type: "put", key: keys.turn(t.id), value: JSON.stringify(t) });
    if (t.state === "settled") ops.push({ type: "del", key: keys.turnOpen(t.id) });
    else ops.push({ type: "put", key: keys.turnOpen(t.id), value: t.channelId });
  }
  for (const m of changes.messages ?? []) {
    ops.push({ type: "put", key: keys.message(m.channelId, m.id), value: JSON.stringify(m) }, metaPut(m));
    append(ops, indexPuts(m));
  }
  append(ops, await contextEntryOps(db, changes.messages ?? []));
  if (changes.metaIndex) {
    for (const m of changes.metaIndex.messages) ops.push(metaPut(m));
    append(ops, await contextEntryOps(db, changes.metaIndex.messages, true));
    ops.push({ type: "put", key: META_INDEX_STATE, value: metaIndexStateValue(changes.metaIndex.state) });
  }
  if (changes.searchIndex) {
    for (const m of changes.searchIndex.messages) append(ops, indexPuts(m));
    ops.push({ type: "put", key: SEARCH_INDEX_STATE, value: JSON.stringify(changes.searchIndex.state) });
  }
  for (const i of changes.intents ?? []) {
    ops.push({ type: "put", key: keys.intent(i.turnId, i.id), value: JSON.stringify(i) });
    if (i.phase === "settled") ops.push({ type: "del", key: keys.intentOpen(i.id) });
    else ops.push({ type: "put", key: keys.intentOpen(i.id), value: i.turnId });
  }
  for (const m of changes.members ?? []) {
    ops.push({ type: "put", key: keys.member(m.channelId, m.agentName), value: JSON.stringify(m) });
  }
  // Channels, removed members, deleted channels (with every membership and message key: gone in the same batch).
  for (const { channel, previousName, directAgent } of changes.channels ?? []) {
    ops.push({ type: "put", key: keys.channel(channel.id), value: JSON.stringify(channel) }, { type: "put", key: keys.channelName(channel.name), value: channel.id });
    if (previousName !== undefined && previousName !== channel.name) ops.push({ type: "del", key: keys.channelName(previousName) });
    if (directAgent !== undefined) ops.push({ type: "put", key: keys.direct(directAgent), value: channel.id });
  }
  for (const m of changes.removedMembers ?? []) ops.push({ type: "del", key: keys.member(m.channelId, m.agentName) });
  for (const { channel, directAgents } of changes.deletedChannels ?? []) {
    ops.push({ type: "del", key: keys.channel(channel.id) }, { type: "del", key: keys.channelName(channel.name) }, { type: "del", key: keys.value(LAST_READ + channel.id) });
    for (const agent of directAgents) ops.push({ type: "del", key: keys.direct(agent) });
    for (const prefix of [metaKeys.prefix(channel.id), contextKeys.prefix(channel.id)]) {
      for await (const [key] of db.iterator({ gte: prefix, lt: prefix + "\uffff" })) ops.push({ type: "del", key });
    }
    ops.push({ type: "del", key: contextKeys.tally(channel.id) });
    for (const prefix of [keys.memberPrefix(channel.id), keys.messagePrefix(channel.id)]) {
      for await (const [key, value] of db.iterator({ gte: prefix, lt: prefix + "\uffff" })) {
        ops.push({ type: "del", key });
        const m = prefix === keys.memberPrefix(channel.id) ? undefined : parseMessage(key, value);
        if (m) append(ops, indexDels(m)); // its words leave the index with it
      }
    }
  }
  for (const v of changes.values ?? []) ops.push({ type: "put", key: keys.value(v.key), value: JSON.stringify({ version: 1, value: v.value }) });
  return ops;
}
