import { UNREAD_CAP } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { ChannelRecord } from "../store/records";
import { GENERAL, lastReadKey } from "./directoryDecisions";

/** What a channel's line in the list needs from the history: its members' names and its unread count. */
export interface ChannelCounts {
  members: string[];
  unread: number;
}

/**
 * The channel list's reads, cached against the store's revisions (`src/store/revisions.ts`): the channel records
 * are read again only after a channel was created, changed or deleted, and a channel's members and unread count only
 * after a commit touched that channel (a message, a membership, its read marker). So a turn's list updates cost the
 * channel that changed, not all of them (issue 21, "Lists that stay fast"), however often the list is asked for.
 */
export class ChannelSummaries {
  private sorted?: { revision: number; records: Promise<ChannelRecord[]> };
  private readonly counted = new Map<string, Counted>();

  constructor(private readonly store: Store) {}

  /** Every channel (#general first, then by name) followed by the direct conversations (by agent name). */
  async channels(): Promise<readonly ChannelRecord[]> {
    const revision = this.store.revisions.channels;
    if (this.sorted?.revision !== revision) {
      const records = this.store.channels().then((all) => {
        const rank = (c: ChannelRecord) => (c.kind === "direct" ? 2 : c.name === GENERAL ? 0 : 1);
        all.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const ids = new Set(all.map((c) => c.id));
        for (const id of this.counted.keys()) if (!ids.has(id)) this.counted.delete(id);
        return all;
      });
      this.sorted = { revision, records };
      records.catch(() => this.sorted?.records === records && (this.sorted = undefined));
    }
    return this.sorted.records;
  }

  /** The channel's counts when they are cached and still current, without waiting: the list's common case. */
  current(channelId: string): ChannelCounts | undefined {
    const cached = this.counted.get(channelId);
    return cached?.revision === this.store.revisions.of(channelId) ? cached.settled : undefined;
  }

  /** The channel's members (agent names, by name) and unread count (capped at {@link UNREAD_CAP}, system notes not counted). */
  async counts(channelId: string): Promise<ChannelCounts> {
    const revision = this.store.revisions.of(channelId);
    const cached = this.counted.get(channelId);
    if (cached?.revision === revision) return cached.counts;
    const followed = cached && this.follow(cached, revision, channelId);
    if (followed) {
      this.counted.set(channelId, followed);
      return followed.counts;
    }
    const scan: Scan = { lastRead: undefined, kinds: new Map() };
    const entry: Counted = { revision, counts: this.read(channelId, scan), scan };
    this.counted.set(channelId, entry);
    entry.counts.then(
      (settled) => (entry.settled = settled),
      () => this.counted.get(channelId) === entry && this.counted.delete(channelId),
    );
    return entry.counts;
  }

  private async read(channelId: string, scan: Scan): Promise<ChannelCounts> {
    const members = (await this.store.members(channelId)).map((m) => m.agentName);
    const lastRead = await this.store.getValue(lastReadKey(channelId));
    scan.lastRead = typeof lastRead === "string" ? lastRead : undefined;
    const ids: string[] = [];
    const unread = await this.store.countMessagesAfterExcept(channelId, scan.lastRead, UNREAD_CAP, "system", ids);
    // The kinds are only needed for the records a later commit rewrites: unknown (not "system") until then.
    for (const id of ids) scan.kinds.set(id, "user");
    return { members, unread };
  }

  /**
   * The counts at `revision` from `cached` (settled) when only messages were written to the channel since (a turn's
   * answer, a user's message): a new message after the read marker adds one, a rewritten one nothing, without
   * reading the store. Undefined when it cannot tell (anything else changed, a system note rewritten, a message
   * written inside a window of {@link UNREAD_CAP} records already full): the store is read.
   */
  private follow(cached: Counted, revision: number, channelId: string): Counted | undefined {
    if (!cached.settled || !cached.scan) return undefined;
    const appended = this.store.revisions.appendedSince(channelId, cached.revision);
    if (!appended) return undefined;
    const { lastRead } = cached.scan;
    const kinds = new Map(cached.scan.kinds);
    let unread = cached.settled.unread;
    let newest = "";
    for (const id of kinds.keys()) if (id > newest) newest = id;
    for (const m of appended) {
      if (lastRead !== undefined && m.id <= lastRead) continue;
      const known = kinds.get(m.id);
      if (known !== undefined) {
        if ((known === "system") !== (m.kind === "system")) return undefined;
        continue;
      }
      if (kinds.size >= UNREAD_CAP) {
        if (m.id > newest) continue; // beyond the window counted: the count stays capped
        return undefined;
      }
      kinds.set(m.id, m.kind);
      if (m.id > newest) newest = m.id;
      if (m.kind !== "system") unread++;
    }
    const counts: ChannelCounts = { members: cached.settled.members, unread };
    return { revision, counts: Promise.resolve(counts), settled: counts, scan: { lastRead, kinds } };
  }
}

/** What a count read: the read marker, and the records after it (up to the cap) with their authors' kinds. */
interface Scan {
  lastRead: string | undefined;
  kinds: Map<string, string>;
}

interface Counted {
  revision: number;
  counts: Promise<ChannelCounts>;
  settled?: ChannelCounts;
  scan?: Scan;
}
