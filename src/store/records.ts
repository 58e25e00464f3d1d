import type { Author, ErrorInfo, Part } from "../protocol";

/** Schema version of the store, written under key `v` (ADR 0003, "Pebble keys"). */
export const STORE_SCHEMA_VERSION = 2;

/** `channel/<id>` (ADR 0003 `Channel`). Times are milliseconds since the epoch. */
export interface ChannelRecord {
  version: 1;
  id: string;
  name: string;
  description?: string;
  /** Schema 2: `direct` for a direct conversation (one member, indexed by `direct/<agent>`); absent means `channel`. */
  kind?: "channel" | "direct";
  createdAt: number;
  updatedAt: number;
}

/** `member/<channelId>/<agentName>` (ADR 0003 `Membership`). */
export interface MembershipRecord {
  version: 1;
  channelId: string;
  agentName: string;
  joinedAt: number;
  acpSessionId?: string;
  lastSeenMessageId?: string;
}

/** `msg/<channelId>/<messageId>` (ADR 0003 `Message`); written when a turn ends, never per chunk. */
export interface MessageRecord {
  version: 1;
  id: string;
  channelId: string;
  author: Author;
  parts: Part[];
  createdAt: number;
  /** For a user message: the agents it was routed to. */
  to?: string[];
  /** For an agent message delegated by another agent's final answer: that agent, and its message (the parent). */
  delegatedBy?: string;
  parentMessageId?: string;
  stopReason?: string;
  error?: ErrorInfo;
}

/** Store keys (ADR 0003). ULIDs sort by time, so a key range scan returns messages in order. */
export const keys = {
  version: "v",
  channel: (id: string) => `channel/${id}`,
  channelName: (name: string) => `channel-name/${name}`,
  member: (channelId: string, agent: string) => `member/${channelId}/${agent}`,
  memberPrefix: (channelId: string) => `member/${channelId}/`,
  message: (channelId: string, messageId: string) => `msg/${channelId}/${messageId}`,
  messagePrefix: (channelId: string) => `msg/${channelId}/`,
  channelPrefix: "channel/",
  direct: (agent: string) => `direct/${agent}`,
  value: (key: string) => `value/${key}`,
} as const;

/** Returns `value` as a `MessageRecord` when it has the shape of one, else undefined (a corrupt record). */
export function asMessageRecord(value: unknown): MessageRecord | undefined {
  if (!isObject(value) || value.version !== 1) return undefined;
  if (typeof value.id !== "string" || typeof value.channelId !== "string" || typeof value.createdAt !== "number") {
    return undefined;
  }
  if (!isObject(value.author) || !Array.isArray(value.parts)) return undefined;
  return value as unknown as MessageRecord;
}

/** Returns `value` as a `ChannelRecord` when it has the shape of one. */
export function asChannelRecord(value: unknown): ChannelRecord | undefined {
  if (!isObject(value) || value.version !== 1 || typeof value.id !== "string" || typeof value.name !== "string") {
    return undefined;
  }
  return value as unknown as ChannelRecord;
}

/** Returns `value` as a `MembershipRecord` when it has the shape of one. */
export function asMembershipRecord(value: unknown): MembershipRecord | undefined {
  if (!isObject(value) || value.version !== 1 || typeof value.agentName !== "string") return undefined;
  return value as unknown as MembershipRecord;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
