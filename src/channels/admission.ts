import type { Store } from "../store/Store";
import type { MessageRecord } from "../store/records";
import type { Admission } from "../turns/reducer";

/**
 * Where the channel units take their ids and times from: one monotonic ULID factory shared by all of them (so the
 * messages, turns and intents of one activation sort in the order they were made), and the clock.
 */
export interface ChannelClock {
  /** A new ULID; `at` (ms since the epoch) is its time part, now when absent. */
  ulid(at?: number): string;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The fields of an admission its caller chooses (the ids and the channel and agent come from {@link newAdmission}). */
export type AdmissionInput = Pick<Admission, "prompt" | "requestMessageId" | "rootMessageId" | "command" | "role" | "parentTurnId" | "delegatedBy" | "parentMessageId" | "parentIntentId" | "regenerates">;

/** A turn to admit for `agent` in `channelId`, with a new turn id and a new id for its answer. */
export function newAdmission(clock: ChannelClock, channelId: string, agent: string, input: AdmissionInput): Admission {
  const at = clock.now();
  return { turnId: clock.ulid(at), messageId: clock.ulid(at), channelId, agent, ...input };
}

/** A message by id alone: the channel it lives in is looked up (messages are keyed by channel). */
export async function findMessage(store: Store, messageId: string): Promise<MessageRecord | undefined> {
  for (const channel of await store.channels()) {
    const message = await store.message(channel.id, messageId);
    if (message) return message;
  }
  return undefined;
}
