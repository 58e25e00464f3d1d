import type { Store } from "../store/Store";
import { CONTEXT_SCAN_LIMIT, formatContext, unseenMessages } from "./context";
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
  // Usually the latest page holds everything unseen; a late joiner's catch-up reads up to CONTEXT_SCAN_LIMIT.
  let recent = await store.latestMessages(channelId, PAGE_SIZE);
  if (recent.length === PAGE_SIZE && (lastSeen === undefined || recent[0]!.id > lastSeen)) recent = await store.latestMessages(channelId, CONTEXT_SCAN_LIMIT);
  const truncated = recent.length === CONTEXT_SCAN_LIMIT && (lastSeen === undefined || recent[0]!.id > lastSeen);
  return formatContext(unseenMessages(recent, agent, lastSeen, beforeId, newSession), { olderNotRead: truncated, newSession });
}
