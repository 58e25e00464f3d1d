import type { Store } from "../store/Store";
import type { MessageRecord } from "../store/records";
import { CONTEXT_MAX_BYTES, CONTEXT_SCAN_LIMIT, formatContext, keptByText, leastContextBytes, unseenMessages } from "./context";
import { PAGE_SIZE } from "./ChannelMessages";

/**
 * The channel messages `agent` has not seen before the message `beforeId`, formatted to go before the
 * prompt (see `context.ts`); "" when there are none. A `fresh` session remembers nothing: when the agent answered
 * here before (in a session now gone), the channel's history is repeated, its own answers included. (The turn
 * executor's `context` port.)
 */
export async function unseenContext(store: Store, channelId: string, agent: string, beforeId: string, fresh: boolean): Promise<string> {
  const member = (await store.members(channelId)).find((m) => m.agentName === agent);
  const newSession = fresh && member?.lastSeenMessageId !== undefined;
  const lastSeen = newSession ? undefined : member?.lastSeenMessageId;
  // Read backwards a page at a time, only until the unseen messages read fill the budget even with their tool
  // outputs left out (then every older one would be dropped: those are only counted), the messages the agent saw,
  // the channel's start, or CONTEXT_SCAN_LIMIT messages. Before, a long catch-up read and formatted 1,000.
  const unseen: MessageRecord[][] = [];
  let read = 0;
  let least = 0;
  let cursor: string | undefined;
  for (;;) {
    const want = Math.min(PAGE_SIZE, CONTEXT_SCAN_LIMIT - read);
    const page = cursor === undefined ? await store.latestMessages(channelId, want) : await store.messagesBefore(channelId, cursor, want);
    read += page.length;
    const fresh = unseenMessages(page, agent, lastSeen, beforeId, newSession);
    unseen.unshift(fresh);
    for (const m of fresh) least += leastContextBytes(m);
    const done = page.length < want || (lastSeen !== undefined && page[0]!.id <= lastSeen);
    if (done) return formatContext(unseen.flat(), { newSession });
    if (read >= CONTEXT_SCAN_LIMIT) return formatContext(unseen.flat(), { olderNotRead: true, newSession });
    cursor = page[0]!.id;
    if (least > CONTEXT_MAX_BYTES) {
      // Every older unseen message would be dropped: only counted (for the note), never parsed when its text tells.
      const left = CONTEXT_SCAN_LIMIT - read;
      const older = await store.countMessagesBetween(channelId, lastSeen, cursor, left, (json, parse) => keptByText(json, agent, newSession, parse));
      return formatContext(unseen.flat(), { olderLeftOut: older.counted, olderNotRead: older.read === left, newSession });
    }
  }
}
