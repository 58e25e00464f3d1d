import type { Attachment, Author, ErrorInfo, Part, TurnOutcome } from "../shared/protocol";
import { storedAttachments } from "../shared/protocol/requestGuards";

/** Schema version of the store, written under key `v` (the original design's ADR 0003, "Pebble keys"). */
export const STORE_SCHEMA_VERSION = 4;

/** `channel/<id>` (the original design's ADR 0003 `Channel`). Times are milliseconds since the epoch. */
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

/** `member/<channelId>/<agentName>` (the original design's ADR 0003 `Membership`). */
export interface MembershipRecord {
  version: 1;
  channelId: string;
  agentName: string;
  joinedAt: number;
  acpSessionId?: string;
  lastSeenMessageId?: string;
}

/** `msg/<channelId>/<messageId>` (the original design's ADR 0003 `Message`); written when a turn ends, never per chunk. */
export interface MessageRecord {
  version: 1;
  id: string;
  channelId: string;
  author: Author;
  parts: Part[];
  createdAt: number;
  /** For a user message: the agents it was routed to. */
  to?: string[];
  /** For a user message: what the user attached (issue 21); checked again when read (`storedAttachments`). */
  attachments?: Attachment[];
  /** For an agent message delegated by another agent's final answer: that agent, and its message (the parent). */
  delegatedBy?: string;
  parentMessageId?: string;
  /** `tool`: delegated through the `delegate` tool of Sidekicks' MCP server (issue 22), not by a mention. */
  delegatedVia?: "tool";
  stopReason?: string;
  error?: ErrorInfo;
  /** Schema 3: for an agent message, the turn that produces it (`turn/<turnId>`). */
  turnId?: string;
  /** Schema 3: the turn's outcome once settled, and its attempt number (copied so a page renders without lookups). */
  outcome?: TurnOutcome;
  attempt?: number;
  /** For a user message sent with Edit (issue 19): the earlier user message of the same channel it was edited from. */
  editOf?: string;
  /** For an agent message made by Regenerate (issue 19): the earlier answer to the same request it answers again. */
  regenerates?: string;
}

/** A skill's name and version, as a turn records them (`TurnRecord.skills`). */
export interface SkillVersion {
  name: string;
  version: string;
}

/** Where a turn is (brief, "durable turns"): `pending` (admitted or queued), `running`, `awaiting_input`, `settled`. */
export type TurnStateName = "pending" | "running" | "awaiting_input" | "settled";

/**
 * `turn/<id>`: one agent's durable turn (brief, "Turn vs attempt"). Written in the same batch as the message that
 * admits it, before any dispatch; while it is not settled, `turn-open/<id>` holds its channel id, so the sweeper
 * finds open turns without scanning history. Times are milliseconds since the epoch.
 */
export interface TurnRecord {
  version: 1;
  /** ULID. */
  id: string;
  channelId: string;
  agent: string;
  /** The message this turn answers: the user's message, or the answer that delegated to this agent. */
  requestMessageId: string;
  /** The agent's answer (`msg/<channelId>/<messageId>`), created empty at admission and checkpointed. */
  messageId: string;
  /** The user message at the root of the round (delegation chains and the panel's moderator). */
  rootMessageId: string;
  /** The turn whose final answer (or `delegate` tool call) delegated to this one. */
  parentTurnId?: string;
  /** For a turn delegated through the `delegate` tool (issue 22): the parent's delegation intent, settled with it. */
  parentIntentId?: string;
  /** What is sent to the agent (after any re-injected context). */
  prompt: string;
  /** Set for `/cmd` and `/agent:cmd`: the prompt goes without context so the agent sees the command first. */
  command?: string;
  /** `moderator`: the panel's moderator woken after a round; its answer does not wake it again. */
  role?: "moderator";
  /**
   * The skills attached to the agent when its attempt prompted (issue 22): name and version as their `SKILL.md` said
   * then, so the record says which instructions the answer could follow.
   */
  skills?: SkillVersion[];
  state: TurnStateName;
  outcome?: TurnOutcome;
  stopReason?: string;
  error?: ErrorInfo;
  /** 0 while never claimed; each claim writes attempt + 1 with the claiming host's owner id. */
  attempt: number;
  /** The extension host activation that owns the current attempt. */
  owner?: string;
  /** Last proof of life of the current attempt, in ms since the epoch. */
  heartbeatAt?: number;
  createdAt: number;
  updatedAt: number;
  settledAt?: number;
}

/** What a tool intent is about (brief, "Tool intents"): effects this extension executes for an agent. */
export type IntentKind = "write" | "terminal" | "permission" | "delegate";

/** Phases of a tool intent: recorded before the effect, when it starts, and when its outcome is known. */
export type IntentPhase = "intended" | "running" | "settled";

/**
 * How an intent ended. `applied` / `not_applied` / `uncertain` for a write, decided from the file when recovery
 * finds it unsettled; `done` / `failed` when the effect reported back; `outcome_uncertain` for a command that was
 * running when its host died (never re-run by itself); `not_started` when it never left `intended`.
 */
export type IntentResult = "applied" | "not_applied" | "uncertain" | "done" | "failed" | "outcome_uncertain" | "not_started";

/**
 * `intent/<turnId>/<intentId>`: one effect executed on an agent's behalf, recorded `intended → running → settled`
 * around it; `intent-open/<intentId>` holds `<turnId>` while it is not settled. Hashes are SHA-256 hex of UTF-8 text.
 */
export interface IntentRecord {
  version: 1;
  id: string;
  turnId: string;
  attempt: number;
  /** The agent the effect ran for. */
  agent: string;
  kind: IntentKind;
  phase: IntentPhase;
  /** For a write: the absolute target path (as the agent named it, after confinement). */
  path?: string;
  /** For a write: hash of the file's text before (`null`: the file did not exist). */
  beforeHash?: string | null;
  /** For a write: hash of the text the agent asked to write (`null`: a restore that deletes the file). */
  afterHash?: string | null;
  /**
   * For a write Sidekicks makes to undo or redo a settled turn's change of `path` (issue 19): which. Recovery then
   * sets the file's state on the turn's files card from what the file holds.
   */
  restore?: "undo" | "redo";
  /** For a terminal: the command and its arguments, and the working folder. */
  command?: string;
  args?: string[];
  cwd?: string;
  /** For a permission answer: the request and the option chosen (`cancelled` for none). */
  requestId?: string;
  optionId?: string;
  /**
   * For a delegation (`delegate` tool, issue 22): the member handed the work, the request, the child turn and its
   * answer (linked before the child is admitted), the MCP tool call's request id, and — once the child completed —
   * its final answer text, which a Retry of the parent redelivers instead of running the child again.
   */
  member?: string;
  request?: string;
  childTurnId?: string;
  childMessageId?: string;
  toolCallId?: string;
  answer?: string;
  result?: IntentResult;
  /** Why it failed, or what recovery found. */
  detail?: string;
  createdAt: number;
  updatedAt: number;
}

/** Store keys (the original design's ADR 0003). ULIDs sort by time, so a key range scan returns messages in order. */
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
  turn: (id: string) => `turn/${id}`,
  /** Present while the turn is not settled; its value is the channel id. */
  turnOpen: (id: string) => `turn-open/${id}`,
  turnOpenPrefix: "turn-open/",
  intent: (turnId: string, id: string) => `intent/${turnId}/${id}`,
  intentPrefix: (turnId: string) => `intent/${turnId}/`,
  /** Present while the intent is not settled; its value is the turn id. */
  intentOpen: (id: string) => `intent-open/${id}`,
  intentOpenPrefix: "intent-open/",
} as const;

/** Returns `value` as a `MessageRecord` when it has the shape of one, else undefined (a corrupt record). */
export function asMessageRecord(value: unknown): MessageRecord | undefined {
  if (!isObject(value) || value.version !== 1) return undefined;
  if (typeof value.id !== "string" || typeof value.channelId !== "string" || typeof value.createdAt !== "number") {
    return undefined;
  }
  if (!isObject(value.author) || !Array.isArray(value.parts)) return undefined;
  // A link to another message (Edit, Regenerate) that is not a message id is dropped; the message itself is kept.
  for (const link of ["editOf", "regenerates"] as const) {
    if (link in value && (typeof value[link] !== "string" || !/^[0-9A-HJKMNP-TV-Z]{26}$/.test(value[link] as string))) delete value[link];
  }
  if (value.attachments !== undefined) {
    // Attachments reach agents and the view: each is checked, one of no known shape is left out.
    const attachments = storedAttachments(value.attachments);
    const { attachments: _stored, ...rest } = value;
    return (attachments.length > 0 ? { ...rest, attachments } : rest) as unknown as MessageRecord;
  }
  return value as unknown as MessageRecord;
}

/** Returns `value` as a `TurnRecord` when it has the shape of one. */
export function asTurnRecord(value: unknown): TurnRecord | undefined {
  if (!isObject(value) || value.version !== 1 || typeof value.id !== "string" || typeof value.channelId !== "string") return undefined;
  if (typeof value.agent !== "string" || typeof value.messageId !== "string" || typeof value.state !== "string" || typeof value.attempt !== "number") {
    return undefined;
  }
  return value as unknown as TurnRecord;
}

/** Returns `value` as an `IntentRecord` when it has the shape of one. */
export function asIntentRecord(value: unknown): IntentRecord | undefined {
  if (!isObject(value) || value.version !== 1 || typeof value.id !== "string" || typeof value.turnId !== "string") return undefined;
  if (typeof value.kind !== "string" || typeof value.phase !== "string") return undefined;
  return value as unknown as IntentRecord;
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
