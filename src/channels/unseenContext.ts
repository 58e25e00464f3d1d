import type { Store } from "../store/Store";
import type { MessageMeta } from "../store/messageMeta";
import type { MessageRecord } from "../store/records";
import { CONTEXT_MAX_BYTES, CONTEXT_SCAN_LIMIT, formatContext, formatRendered, keptByText, leastContextBytes, unseenMessages } from "./context";
import type { ChannelTally, ContextEntry } from "../store/contextEntries";
import { PAGE_SIZE } from "./ChannelMessages";

/**
 * The channel messages `agent` has not seen before the message `beforeId`, formatted to go before the
 * prompt (see `context.ts`); "" when there are none. A `fresh` session remembers nothing: when the agent answered
 * here before (in a session now gone), the channel's history is repeated, its own answers included. (The turn
 * executor's `context` port.)
 */
export async function unseenContext(store: Store, channelId: string, agent: string, beforeId: string, fresh: boolean): Promise<string> {
  // A fresh session reads from the channel's end whatever the agent saw: its first entries are read beside its
  // membership (and so is the tally, which a long history needs).
  const pages = store.contextEntries(channelId, CONTEXT_SCAN_LIMIT);
  const early = fresh ? Promise.all([pages.next(), store.tally(channelId)]) : undefined;
  early?.catch(() => undefined); // (awaited below)
  try {
    const member = (await store.members(channelId)).find((m) => m.agentName === agent);
    const newSession = fresh && member?.lastSeenMessageId !== undefined;
    const lastSeen = newSession ? undefined : member?.lastSeenMessageId;
    if (lastSeen === undefined) {
      const [first, tally] = early ? await early : [await pages.next(), undefined];
      const built = await fromEntries(store, { channelId, agent, beforeId, newSession }, first, pages, tally);
      if (built !== undefined) return built;
    }
    return await fromMessages(store, { channelId, agent, beforeId, newSession, lastSeen });
  } finally {
    await early?.catch(() => undefined);
    await pages.return(undefined);
  }
}

/** The catch-up through the meta entries, or by reading the messages (see {@link unseenContext}). */
async function fromMessages(store: Store, at: { channelId: string; agent: string; beforeId: string; newSession: boolean; lastSeen: string | undefined }): Promise<string> {
  const { channelId, agent, beforeId, newSession, lastSeen } = at;
  const metas = await store.latestMeta(channelId, lastSeen, CONTEXT_SCAN_LIMIT);
  if (metas) return fromMeta(store, metas, { channelId, agent, beforeId, newSession });
  // Read backwards a page at a time, only until the unseen messages read fill the budget even with their tool
  // outputs left out (then every older one would be dropped: those are only counted), the messages the agent saw,
  // the channel's start, or CONTEXT_SCAN_LIMIT messages. Before, a long catch-up read and formatted 1,000.
  const unseen: MessageRecord[][] = [];
  const leastOf = new Map<MessageRecord, number>();
  let read = 0;
  let least = 0;
  let cursor: string | undefined;
  for (;;) {
    const want = Math.min(PAGE_SIZE, CONTEXT_SCAN_LIMIT - read);
    const page = cursor === undefined ? await store.latestMessages(channelId, want) : await store.messagesBefore(channelId, cursor, want);
    read += page.length;
    const fresh = unseenMessages(page, agent, lastSeen, beforeId, newSession);
    unseen.unshift(fresh);
    for (const m of fresh) {
      const bytes = leastContextBytes(m);
      leastOf.set(m, bytes);
      least += bytes;
    }
    const done = page.length < want || (lastSeen !== undefined && page[0]!.id <= lastSeen);
    if (done) return formatContext(unseen.flat(), { newSession });
    if (read >= CONTEXT_SCAN_LIMIT) return formatContext(unseen.flat(), { olderNotRead: true, newSession });
    cursor = page[0]!.id;
    if (least > CONTEXT_MAX_BYTES) {
      // Every older unseen message would be dropped: only counted (for the note), never parsed when its text tells.
      const left = CONTEXT_SCAN_LIMIT - read;
      const older = await store.countMessagesBetween(channelId, lastSeen, cursor, left, (json, parse) => keptByText(json, agent, newSession, parse));
      return fitted(unseen.flat(), leastOf, older.counted, { olderNotRead: older.read === left, newSession });
    }
  }
}

/**
 * With the meta index (`src/store/messageMeta.ts`): `metas` (the window's latest entries after what the agent saw,
 * newest first, in one read) tell which messages are unseen and a lower bound of what each adds (its text), so only
 * the newest unseen ones that surely fill the budget are read, in one read, and the older ones are counted from
 * their entries. Three reads whatever the history's length: the members, the entries, the messages.
 */
async function fromMeta(store: Store, metas: readonly MessageMeta[], at: { channelId: string; agent: string; beforeId: string; newSession: boolean }): Promise<string> {
  const kept = (m: MessageMeta) => m.id < at.beforeId && m.says && (at.newSession || !(m.kind === "agent" && m.agentName === at.agent));
  const olderNotRead = metas.length === CONTEXT_SCAN_LIMIT;
  // The newest unseen messages whose text alone is over the budget (all of them when it is not): `oldest` is the
  // index of the oldest of them in `metas`, the others are only counted.
  let oldest = -1;
  let sum = 0;
  for (const [i, m] of metas.entries()) {
    if (!kept(m)) continue;
    if (sum > CONTEXT_MAX_BYTES) break;
    oldest = i;
    sum += m.textBytes;
  }
  if (oldest === -1) return "";
  const older = metas.slice(oldest + 1).filter(kept).length;
  const span = metas.slice(metas.findIndex((m) => m.id < at.beforeId), oldest + 1).length;
  const from = metas[oldest]!.id;
  const read = (await store.messagesBefore(at.channelId, at.beforeId, span)).filter((m) => m.id >= from);
  const messages = unseenMessages(read, at.agent, undefined, at.beforeId, at.newSession);
  // When older ones are left, the text of these is over the budget, so is what they add (`leastContextBytes` is at
  // least their text): every older one would be dropped, and formatting these is the same text as formatting all.
  return formatContext(messages, { olderNotRead, newSession: at.newSession, ...(older > 0 ? { olderLeftOut: older } : {}) });
}

/**
 * `formatContext` of `messages` (oldest first) after `older` unseen ones not read. When their fewest bytes together
 * are over the budget, every older one would be dropped: only the newest that alone fill it are formatted, the ones
 * before counted with `older` (the same text as formatting them all).
 */
function fitted(messages: readonly MessageRecord[], leastOf: ReadonlyMap<MessageRecord, number>, older: number, format: { olderNotRead: boolean; newSession: boolean }): string {
  let from = messages.length;
  let sum = 0;
  while (from > 0 && sum <= CONTEXT_MAX_BYTES) sum += leastOf.get(messages[--from]!)!;
  if (sum <= CONTEXT_MAX_BYTES) return formatContext(messages, { ...format, ...(older > 0 ? { olderLeftOut: older } : {}) });
  return formatContext(messages.slice(from), { ...format, olderLeftOut: older + from });
}

/**
 * With the context entries (`src/store/contextEntries.ts`), when every message of the channel is unseen (a new
 * session, or an agent that never read here) and the channel is within the window: reads the entries newest first
 * until the smallest renderings of the unseen ones are over the budget, and writes those (the oldest dropped as
 * `formatContext` drops them), counting the older ones from the channel's tally. When they all fit, reads just those
 * messages and formats them. Undefined when it cannot tell (an index not complete, a damaged entry, a channel
 * beyond the window, the newest message alone over the budget): the caller reads the messages.
 */
async function fromEntries(
  store: Store,
  at: { channelId: string; agent: string; beforeId: string; newSession: boolean },
  first: IteratorResult<ContextEntry[] | undefined>,
  pages: AsyncGenerator<ContextEntry[] | undefined>,
  early: ChannelTally | undefined,
): Promise<string | undefined> {
  const kept = (e: ContextEntry) => e.says && (at.newSession || !(e.kind === "agent" && e.agentName === at.agent));
  const chosen: { text: string; bytes: number }[] = []; // newest first
  let sum = 0;
  let keptAfter = 0; // kept but at or after the request (not part of its context)
  let unseen = 0; // entries before the request, read
  let read = 0;
  for (let next = first; !next.done; next = await pages.next()) {
    const page = next.value;
    if (!page) return undefined;
    read += page.length;
    for (const e of page) {
      if (e.id < at.beforeId) unseen++;
      if (!kept(e)) continue;
      if (e.id >= at.beforeId) {
        keptAfter++;
        continue;
      }
      // A message whose rendering is over the budget was not kept: it fills the budget alone.
      chosen.push(e.least ?? { text: "", bytes: CONTEXT_MAX_BYTES + 1 });
      sum += chosen.at(-1)!.bytes;
      if (sum <= CONTEXT_MAX_BYTES) continue;
      const tally = early ?? (await store.tally(at.channelId));
      if (!tally || tally.messages >= CONTEXT_SCAN_LIMIT) return undefined;
      const all = tally.says - (at.newSession ? 0 : (tally.saysBy[at.agent] ?? 0)) - keptAfter;
      if (all < chosen.length) return undefined;
      return formatRendered(chosen, all - chosen.length, { newSession: at.newSession });
    }
  }
  // The whole channel is read (a store without the entries reads nothing) and it fits once some tool outputs are left
  // out, or whole: its messages are formatted.
  if (first.done) return undefined;
  if (unseen === 0) return "";
  if (read >= CONTEXT_SCAN_LIMIT) return undefined; // (the window's older messages may not be all)
  const messages = await store.messagesBefore(at.channelId, at.beforeId, unseen);
  return formatContext(unseenMessages(messages, at.agent, undefined, at.beforeId, at.newSession), { newSession: at.newSession });
}
