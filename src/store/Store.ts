import * as l10n from "@vscode/l10n";
import { existsSync } from "node:fs";
import path from "node:path";
import { GuardedLevel } from "./guardedLevel";
import { SidekicksError } from "../shared/errors";
import { migrate } from "./migrations";
import { needsRepairMarkerOf, openLevel, type StoreRecovery } from "./openLevel";
import { rescueChannels } from "./channelRescue";
import { StoreRevisions } from "./revisions";
import { commitOps, type StoreChanges } from "./commitOps";
import { META_INDEX_COMPLETE, META_INDEX_STATE, latestMeta, metaIndexStep, type MessageMeta, type MetaIndexState } from "./messageMeta";
import { asChannelTally, contextKeys, contextEntryPages, type ChannelTally, type ContextEntry } from "./contextEntries";
import { countAfterExcept, countBetween } from "./messageCounts";
import { SEARCH_INDEX_STATE, indexStep, readIndexState, scanSearch, searchMessages, type SearchIndexState, type SearchQuery, type SearchResult } from "./search";
import {
  STORE_SCHEMA_VERSION,
  asChannelRecord,
  asMembershipRecord,
  asIntentRecord,
  asMessageRecord,
  asTurnRecord,
  keys,
  type ChannelRecord,
  type MembershipRecord,
  type IntentRecord,
  type MessageRecord,
  type TurnRecord,
} from "./records";

export type { StoreChanges };

/**
 * What one trip to LevelDB's thread may bring back when reading a bounded range of messages (a page, an unread
 * count): the range comes back in a trip or two instead of one per 16 KiB, each a wait on the thread pool.
 */
const PAGE_READ_BYTES = 1 << 20;

/** Receives one line per record the store had to skip (corrupt JSON, wrong shape). */
export type CorruptRecordSink = (key: string, reason: string) => void;

/**
 * The history store: channels, memberships and messages in LevelDB (`classic-level`) under the original design's ADR 0003 keys.
 * Knows nothing of ACP. Values are JSON with a `version`; a record that does not parse or has the wrong shape is
 * skipped and reported through `onCorrupt`, never fatal to the rest of the history.
 */
export class Store {
  private batchCount = 0;
  private commitTail: Promise<unknown> = Promise.resolve();
  /** What each commit changed, as numbers to cache against (a channel's unread count, the channel list). */
  readonly revisions = new StoreRevisions();

  private constructor(
    private readonly db: GuardedLevel,
    private readonly onCorrupt: CorruptRecordSink,
    /** The store's folder (absolute as given to {@link Store.open}): never one of an agent's changed files. */
    readonly dir: string,
    /** Set when this open found the folder damaged: the original is aside, this store is its repaired copy. */
    readonly recovery?: StoreRecovery,
    /** Whether every message has its meta and context entries (`messageMeta.ts`): set once they are built. */
    private metaComplete = false,
  ) {}

  /**
   * Opens (creating if needed) the store in `dir` and checks its schema version. A damaged folder is never opened
   * over or deleted: it is moved aside, a repaired copy is opened, and {@link recovery} says so (`openLevel.ts`).
   * @throws SidekicksError `store/locked` when another process (a second window) holds the folder;
   *   `store/unavailable` when it cannot be read or written; `store/damaged` when it is damaged and the repair
   *   failed (the original is kept); `store/corrupt` when it was written by a newer schema.
   */
  static async open(dir: string, onCorrupt: CorruptRecordSink = () => undefined): Promise<Store> {
    try {
      return await Store.openOnce(dir, onCorrupt);
    } catch (err) {
      // A read of the open itself met a damaged table: the marker it left makes this second open repair a copy.
      if (err instanceof SidekicksError && err.code === "store/damaged" && existsSync(needsRepairMarkerOf(dir))) return Store.openOnce(dir, onCorrupt);
      throw err;
    }
  }

  private static async openOnce(dir: string, onCorrupt: CorruptRecordSink): Promise<Store> {
    const { db, recovery } = await openLevel(dir);
    const level = new GuardedLevel(db, path.resolve(dir));
    try {
      const version = await level.get(keys.version);
      if (version === undefined) {
        const indexed: SearchIndexState = { complete: true }; // a new store's index starts complete
        const meta = { type: "put" as const, key: META_INDEX_STATE, value: META_INDEX_COMPLETE }; // and so do its meta entries
        await level.batch([{ type: "put", key: keys.version, value: String(STORE_SCHEMA_VERSION) }, { type: "put", key: SEARCH_INDEX_STATE, value: JSON.stringify(indexed) }, meta], true);
      } else if (Number(version) < STORE_SCHEMA_VERSION) {
        try {
          await migrate(db, Number(version), STORE_SCHEMA_VERSION);
        } catch (err) {
          throw new SidekicksError("store/corrupt", l10n.t("Cannot upgrade the history from schema {0}: {1}", version, (err as Error).message), dir, { cause: err });
        }
      } else if (Number(version) > STORE_SCHEMA_VERSION) {
        throw new SidekicksError(
          "store/corrupt",
          l10n.t("The history was written by a newer Sidekicks (schema {0}, this one reads {1}). Update the extension.", version, STORE_SCHEMA_VERSION),
          dir,
        );
      }
      await rescueChannels(level, onCorrupt, recovery !== undefined);
      // A repaired copy may have lost index entries with its tables: the word index is built again (ADR 0007), and so
      // are the meta and context entries and the tallies, from none (the counts read the messages meanwhile).
      if (recovery !== undefined) {
        for (const prefix of ["meta/", "ctx/", "tally/"]) await level.clear({ gte: prefix, lt: prefix + "\uffff" });
        await level.batch([{ type: "put", key: SEARCH_INDEX_STATE, value: JSON.stringify({ complete: false }) }, { type: "del", key: META_INDEX_STATE }], true);
      }
      const store = new Store(level, onCorrupt, path.resolve(dir), recovery, (await level.get(META_INDEX_STATE)) === META_INDEX_COMPLETE);
      return store;
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }

  /** Closes the database; later calls fail. */
  async close(): Promise<void> {
    await this.db.raw.close();
  }

  /** The channel named `name`, or undefined. */
  async channelByName(name: string): Promise<ChannelRecord | undefined> {
    const id = await this.db.get(keys.channelName(name));
    if (id === undefined) return undefined;
    return this.read(keys.channel(id), asChannelRecord);
  }

  /** The channel with id `id`, or undefined. */
  async channelById(id: string): Promise<ChannelRecord | undefined> {
    return this.read(keys.channel(id), asChannelRecord);
  }

  /** Every channel and direct conversation (unordered: ids are ULIDs, so creation order). */
  async channels(): Promise<ChannelRecord[]> {
    const out: ChannelRecord[] = [];
    for await (const [key, value] of this.db.iterator({ gte: keys.channelPrefix, lt: keys.channelPrefix + "\uffff" })) {
      const record = this.parse(key, value, asChannelRecord);
      if (record) out.push(record);
    }
    return out;
  }

  /** The id of the direct conversation with `agent` (`direct/<agent>`), or undefined. */
  async directChannelId(agent: string): Promise<string | undefined> {
    return this.db.get(keys.direct(agent));
  }

  /** A small value under `value/<key>` (stored as `{version: 1, value}`), or undefined. */
  async getValue(key: string): Promise<unknown> {
    const record = await this.read(keys.value(key), (v) => (isVersioned(v) ? v : undefined));
    return record?.value;
  }

  /** Every small value whose key starts with `prefix` (under `value/`), in key order; unreadable ones are skipped. */
  async values(prefix: string): Promise<unknown[]> {
    const out: unknown[] = [];
    const from = keys.value(prefix);
    for await (const [key, value] of this.db.iterator({ gte: from, lt: from + "\uffff" })) {
      const record = this.parse(key, value, (v) => (isVersioned(v) ? v : undefined));
      if (record) out.push(record.value);
    }
    return out;
  }

  /**
   * How many messages of a channel come after message `afterId` (all of them when undefined) and were not written by
   * an author of kind `except`, scanning at most `limit` records (so capped at `limit`, "99+"), parsing only the
   * records whose text names that kind (`messageCounts.ts`). `scanned` receives the ids of the records read.
   */
  async countMessagesAfterExcept(channelId: string, afterId: string | undefined, limit: number, except: MessageRecord["author"]["kind"], scanned?: string[]): Promise<number> {
    return countAfterExcept(this.db, { channelId, afterId, limit, except, scanned }, this.parseMessage, this.onCorrupt);
  }

  /**
   * Counts the messages of a channel after message `afterId` (from the first when undefined) and before message
   * `beforeId`, newest first, reading at most `limit`, that `keep` accepts (given the stored JSON and a `parse`).
   */
  async countMessagesBetween(channelId: string, afterId: string | undefined, beforeId: string, limit: number, keep: (json: string, parse: () => MessageRecord | undefined) => boolean): Promise<{ counted: number; read: number }> {
    return countBetween(this.db, { channelId, afterId, beforeId, limit }, keep, this.parseMessage);
  }

  /**
   * The context entries (`contextEntries.ts`: author, has it something to say, smallest rendering) of the channel's
   * latest `limit` messages, newest first, a page per read of about the context's budget; nothing when this store's
   * index is not complete (see {@link latestMeta}), and a page undefined when an entry does not check.
   */
  async *contextEntries(channelId: string, limit: number): AsyncGenerator<ContextEntry[] | undefined> {
    if (this.metaComplete) yield* contextEntryPages(this.db, channelId, limit);
    else yield undefined;
  }

  /** The channel's tally (`contextEntries.ts`), or undefined when the index is not complete or it does not check. */
  async tally(channelId: string): Promise<ChannelTally | undefined> {
    return this.metaComplete ? asChannelTally(await this.db.get(contextKeys.tally(channelId))) : undefined;
  }

  /**
   * The meta entries (`messageMeta.ts`: author, has it something to say, text bytes) of the channel's latest `limit`
   * messages after message `afterId` (all when undefined), newest first, in one read: undefined when this store's
   * meta index is not complete (a store created before it, or a repaired one), where the caller reads the messages.
   */
  async latestMeta(channelId: string, afterId: string | undefined, limit: number): Promise<MessageMeta[] | undefined> {
    if (!this.metaComplete) return undefined;
    return latestMeta(this.db, channelId, afterId, limit, (id) => this.message(channelId, id));
  }

  /** Memberships of a channel, ordered by agent name. */
  async members(channelId: string): Promise<MembershipRecord[]> {
    const prefix = keys.memberPrefix(channelId);
    const out: MembershipRecord[] = [];
    for await (const [key, value] of this.db.iterator({ gte: prefix, lt: prefix + "\uffff" })) {
      const record = this.parse(key, value, asMembershipRecord);
      if (record) out.push(record);
    }
    return out;
  }

  /**
   * Writes messages, memberships, turns, intents and values in one atomic batch (a turn's settlement: the message, the turn and the
   * agent's `lastSeenMessageId` move together). Counted in {@link batches} (the bench's `turn.storeWritesPerTurn`).
   * @throws SidekicksError `store/staleAttempt` when `fence` does not match the stored turn (nothing is written);
   *   `store/writeFailed` when the batch, or an earlier write, failed (a full disk): nothing later reports success
   */
  async commit(changes: StoreChanges): Promise<void> {
    // One at a time: a commit reads what it replaces (a message's context entry, its channel's tally) before its batch.
    const run = this.commitTail.then(() => this.commitNow(changes));
    this.commitTail = run.catch(() => undefined);
    return run;
  }

  private async commitNow(changes: StoreChanges): Promise<void> {
    if (changes.fence) {
      const { turnId, attempt, owner } = changes.fence;
      const stored = await this.turn(turnId);
      if (stored && (stored.attempt !== attempt || stored.owner !== owner)) {
        throw new SidekicksError(
          "store/staleAttempt",
          `Turn ${turnId}: attempt ${attempt} of ${owner} may not write; the store has attempt ${stored.attempt} of ${stored.owner ?? "nobody"}.`,
        );
      }
    }
    const ops = await commitOps(changes, this.db, this.parseMessage);
    if (ops.length > 0) {
      // A settlement (the answer the user saw end), an admission (the user's message) and a channel made, changed or
      // deleted are flushed to the disk before they count as saved, so they survive a power cut; checkpoints and
      // heartbeats are not (about 0.3 ms a commit: docs/reliability.md, "Store faults").
      const settles = (changes.turns ?? []).some((t) => t.state === "settled") || (changes.messages ?? []).some((m) => m.author.kind === "user");
      const sync = settles || (changes.channels?.length ?? 0) > 0 || (changes.deletedChannels?.length ?? 0) > 0;
      await this.db.batch(ops, sync);
      this.batchCount++;
      this.revisions.bump(changes);
      if (changes.metaIndex?.state.complete) this.metaComplete = true;
    }
  }

  /**
   * Messages of every channel matching `query`, newest first (`searchMessages`): the filters alone when it has no
   * words, else through the word index once it is complete, else by reading every message while an older store's
   * index is being built (ADR 0007).
   */
  async search(query: SearchQuery): Promise<SearchResult> {
    return searchMessages(this.db, query, this.parseMessage, async () => (await this.channels()).map((c) => c.id));
  }

  /** The same search by reading every message (the baseline of `search.100kMs`). */
  async scanSearch(query: SearchQuery): Promise<SearchResult> {
    return scanSearch(this.db, query, this.parseMessage);
  }

  /** Whether the word index holds every message, and where its building is. */
  async searchIndexState(): Promise<SearchIndexState> {
    return readIndexState(this.db);
  }

  /**
   * The next step of building the index: up to `count` messages after the state's `after` key, and the state once
   * they are indexed (complete when none are left). Committed through the write lane (`changes.searchIndex`).
   */
  async searchIndexStep(count: number): Promise<{ messages: MessageRecord[]; state: SearchIndexState }> {
    return indexStep(this.db, count, this.parseMessage);
  }

  /** Whether every message has its meta and context entries (else `MetaIndexBuild` builds them). */
  get metaIndexComplete(): boolean {
    return this.metaComplete;
  }

  /** The next step of building the meta index (`metaIndexStep`), committed as `changes.metaIndex` through the lane. */
  async metaIndexStep(count: number): Promise<{ messages: MessageRecord[]; state: MetaIndexState }> {
    return metaIndexStep(this.db, count, this.parseMessage);
  }

  private readonly parseMessage = (key: string, value: string): MessageRecord | undefined => this.parse(key, value, asMessageRecord);

  /** How many write batches {@link commit} has written since the store opened. */
  get batches(): number {
    return this.batchCount;
  }

  /** The turn `id`, or undefined. */
  async turn(id: string): Promise<TurnRecord | undefined> {
    return this.read(keys.turn(id), asTurnRecord);
  }

  /** One message, or undefined. */
  async message(channelId: string, messageId: string): Promise<MessageRecord | undefined> {
    return this.read(keys.message(channelId, messageId), asMessageRecord);
  }

  /** The tool intents of a turn, oldest first. */
  async intentsOf(turnId: string): Promise<IntentRecord[]> {
    const prefix = keys.intentPrefix(turnId);
    const out: IntentRecord[] = [];
    for await (const [key, value] of this.db.iterator({ gte: prefix, lt: prefix + "\uffff" })) {
      const record = this.parse(key, value, asIntentRecord);
      if (record) out.push(record);
    }
    return out;
  }

  /** Every tool intent that is not settled (recovery's view, through the `intent-open/` index). */
  async openIntents(): Promise<IntentRecord[]> {
    const out: IntentRecord[] = [];
    for await (const [key, turnId] of this.db.iterator({ gte: keys.intentOpenPrefix, lt: keys.intentOpenPrefix + "\uffff" })) {
      const intent = await this.read(keys.intent(turnId, key.slice(keys.intentOpenPrefix.length)), asIntentRecord);
      if (intent && intent.phase !== "settled") out.push(intent);
      else if (!intent) this.onCorrupt(key, "open intent without an intent record");
    }
    return out;
  }

  /**
   * Every turn that is not settled, oldest first, read through the `turn-open/` index (the sweeper's view: it never
   * scans history). An index entry whose turn record is missing or corrupt is reported and skipped.
   */
  async openTurns(): Promise<TurnRecord[]> {
    const out: TurnRecord[] = [];
    for await (const [key] of this.db.iterator({ gte: keys.turnOpenPrefix, lt: keys.turnOpenPrefix + "\uffff" })) {
      const id = key.slice(keys.turnOpenPrefix.length);
      const turn = await this.turn(id);
      if (turn && turn.state !== "settled") out.push(turn);
      else if (!turn) this.onCorrupt(key, "open turn without a turn record");
    }
    return out;
  }

  /**
   * The latest `limit` messages of a channel, oldest first: a reverse range scan with a limit, so opening a
   * channel costs the page, not the history.
   */
  async latestMessages(channelId: string, limit: number): Promise<MessageRecord[]> {
    const prefix = keys.messagePrefix(channelId);
    const out: MessageRecord[] = [];
    for (const [key, value] of await this.db.entries({ gte: prefix, lt: prefix + "\uffff", reverse: true, limit, highWaterMarkBytes: PAGE_READ_BYTES })) {
      const record = this.parse(key, value, asMessageRecord);
      if (record) out.push(record);
    }
    return out.reverse();
  }

  /**
   * Up to `limit` messages of a channel that come before message `beforeId`, oldest first: a reverse range scan that
   * ends at `beforeId`, so loading an older page costs the page, however long the history (issue 6, history).
   */
  async messagesBefore(channelId: string, beforeId: string, limit: number): Promise<MessageRecord[]> {
    const prefix = keys.messagePrefix(channelId);
    const out: MessageRecord[] = [];
    for (const [key, value] of await this.db.entries({ gte: prefix, lt: keys.message(channelId, beforeId), reverse: true, limit, highWaterMarkBytes: PAGE_READ_BYTES })) {
      const record = this.parse(key, value, asMessageRecord);
      if (record) out.push(record);
    }
    return out.reverse();
  }

  private async read<T>(key: string, check: (v: unknown) => T | undefined): Promise<T | undefined> {
    const value = await this.db.get(key);
    return value === undefined ? undefined : this.parse(key, value, check);
  }

  private parse<T>(key: string, value: string, check: (v: unknown) => T | undefined): T | undefined {
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      this.onCorrupt(key, "not JSON");
      return undefined;
    }
    const record = check(json);
    if (!record) this.onCorrupt(key, "unexpected shape or version");
    return record;
  }
}

function isVersioned(v: unknown): v is { version: 1; value: unknown } {
  return typeof v === "object" && v !== null && (v as { version?: unknown }).version === 1 && "value" in v;
}
