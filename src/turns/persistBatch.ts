import type { Store, StoreChanges } from "../store/Store";
import type { MembershipRecord } from "../store/records";
import type { Decision } from "../store/StoreWriter";
import type { EngineEffect } from "./reducerState";

/** A `persist` effect of the turn reducer. */
export type PersistEffect = Extract<EngineEffect, { type: "persist" }>;

/** The stored memberships a `persist` effect moves (its `advanceMember`, its `session`), as read in the write lane. */
export interface HeldMembers {
  seen?: MembershipRecord;
  session?: MembershipRecord;
}

/**
 * Reads the memberships `effect` changes. Called inside the store's write lane, so that a member removed meanwhile is
 * read as gone and not written back.
 */
export async function readHeldMembers(store: Store, effect: PersistEffect): Promise<HeldMembers> {
  const find = async (channelId: string, agent: string) => (await store.members(channelId)).find((m) => m.agentName === agent);
  const { advanceMember: seen, session } = effect;
  return {
    ...(seen ? { seen: await find(seen.channelId, seen.agent) } : {}),
    ...(session ? { session: await find(session.channelId, session.agent) } : {}),
  };
}

/**
 * The one batch of a `persist` effect (pure): its messages, turns, intents and values, and the members it moves — the
 * last seen message, the session id where it differs — only those still stored (a member that left stays gone).
 */
export function decidePersist(effect: PersistEffect, held: HeldMembers): Decision<void> {
  const members: MembershipRecord[] = [];
  if (effect.advanceMember && held.seen) members.push({ ...held.seen, lastSeenMessageId: effect.advanceMember.lastSeenMessageId });
  const { session } = effect;
  if (session && held.session && held.session.acpSessionId !== session.acpSessionId) {
    const same = members.findIndex((m) => m.channelId === session.channelId && m.agentName === session.agent);
    if (same >= 0) members[same] = { ...members[same]!, acpSessionId: session.acpSessionId };
    else members.push({ ...held.session, acpSessionId: session.acpSessionId });
  }
  const changes: StoreChanges = { messages: effect.messages, turns: effect.turns, intents: effect.intents, members, values: effect.values, fence: effect.fence };
  return { changes, result: undefined };
}
