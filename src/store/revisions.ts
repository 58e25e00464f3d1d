import type { StoreChanges } from "./Store";

/** The prefix of a channel's read marker value (`value/lastRead/<channel id>`, written by the channel directory). */
export const LAST_READ = "lastRead/";

/**
 * Numbers that change with what {@link Store.commit} writes, so what is derived from the history (a channel's unread
 * count and members, the channel list) can be cached against them instead of read again on every list. Kept in
 * memory: a store is the one writer of its folder (a second window is refused, `store/locked`).
 */
export class StoreRevisions {
  private readonly perChannel = new Map<string, number>();
  private list = 0;

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

  /** Called by the store after each committed batch with what it wrote. */
  bump(changes: StoreChanges): void {
    const touched = new Set<string>();
    for (const m of changes.messages ?? []) touched.add(m.channelId);
    for (const m of changes.members ?? []) touched.add(m.channelId);
    for (const m of changes.removedMembers ?? []) touched.add(m.channelId);
    for (const v of changes.values ?? []) if (v.key.startsWith(LAST_READ)) touched.add(v.key.slice(LAST_READ.length));
    for (const { channel } of [...(changes.channels ?? []), ...(changes.deletedChannels ?? [])]) touched.add(channel.id);
    for (const id of touched) this.perChannel.set(id, this.of(id) + 1);
    if ((changes.channels?.length ?? 0) > 0 || (changes.deletedChannels?.length ?? 0) > 0) this.list++;
  }
}
