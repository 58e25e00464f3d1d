import type { StoreChanges } from "./Store";
import type { MessageRecord } from "./records";

/** The prefix of a channel's read marker value (`value/lastRead/<channel id>`, written by the channel directory). */
export const LAST_READ = "lastRead/";

/**
 * Numbers that change with what {@link Store.commit} writes, so what is derived from the history (a channel's unread
 * count and members, the channel list) can be cached against them instead of read again on every list. Kept in
 * memory: a store is the one writer of its folder (a second window is refused, `store/locked`).
 */
export class StoreRevisions {
  private readonly perChannel = new Map<string, number>();
  /**
   * Per channel, the messages written since its last other change (membership, read marker, the channel itself),
   * each with the revision its commit made: what lets an unread count follow new messages without reading them.
   */
  private readonly appended = new Map<string, { base: number; messages: AppendedMessage[] }>();
  private list = 0;
  private readonly listeners: ((channelIds: ReadonlySet<string>) => void)[] = [];

  /**
   * Changes whenever a commit writes a message or a membership of channel `channelId`, removes a member, writes its
   * read marker, or changes or deletes the channel.
   */
  of(channelId: string): number {
    return this.perChannel.get(channelId) ?? 0;
  }

  /** Changes whenever a commit creates, changes or deletes a channel. */
  get channels(): number {
    return this.list;
  }

  /**
   * The messages written to channel `channelId` after its revision `revision` (ids, authors' kinds, in commit
   * order, a message rewritten once per write), when nothing else of the channel changed since; undefined otherwise.
   */
  appendedSince(channelId: string, revision: number): readonly AppendedMessage[] | undefined {
    const run = this.appended.get(channelId);
    if (!run || run.base > revision) return undefined;
    return run.messages.filter((m) => m.revision > revision);
  }

  /** Calls `listener` after each commit with the channels whose revision it moved (what a list must look at again). */
  onTouched(listener: (channelIds: ReadonlySet<string>) => void): void {
    this.listeners.push(listener);
  }

  /** Called by the store after each committed batch with what it wrote. */
  bump(changes: StoreChanges): void {
    const touched = new Set<string>();
    const other = new Set<string>(); // touched by more than messages
    for (const m of changes.members ?? []) other.add(m.channelId);
    for (const m of changes.removedMembers ?? []) other.add(m.channelId);
    for (const v of changes.values ?? []) if (v.key.startsWith(LAST_READ)) other.add(v.key.slice(LAST_READ.length));
    for (const { channel } of [...(changes.channels ?? []), ...(changes.deletedChannels ?? [])]) other.add(channel.id);
    for (const m of changes.messages ?? []) touched.add(m.channelId);
    for (const id of other) touched.add(id);
    for (const id of touched) this.perChannel.set(id, this.of(id) + 1);
    for (const id of other) this.appended.delete(id);
    for (const m of changes.messages ?? []) {
      if (other.has(m.channelId)) continue;
      const revision = this.of(m.channelId);
      let run = this.appended.get(m.channelId);
      if (!run) this.appended.set(m.channelId, (run = { base: revision - 1, messages: [] }));
      else if (run.messages.length >= APPENDED_KEPT) this.appended.set(m.channelId, (run = { base: revision, messages: [] })); // from the next commit on
      if (run.base === revision) continue;
      run.messages.push({ id: m.id, kind: m.author.kind, revision });
    }
    if ((changes.channels?.length ?? 0) > 0 || (changes.deletedChannels?.length ?? 0) > 0) this.list++;
    if (touched.size > 0) for (const listener of this.listeners) listener(touched);
  }
}

/** A message a commit wrote (see {@link StoreRevisions.appendedSince}). */
export interface AppendedMessage {
  id: string;
  kind: MessageRecord["author"]["kind"];
  /** The channel's revision after the commit that wrote it. */
  revision: number;
}

/** How many written messages a channel's run keeps before starting again (older revisions then read the store). */
const APPENDED_KEPT = 1_000;
