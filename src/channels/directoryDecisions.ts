import * as l10n from "@vscode/l10n";
import { CHANNEL_NAME } from "../shared/channelName";
import { SidekicksError } from "../shared/errors";
import type { ChannelRecord, MembershipRecord } from "../store/records";
import type { StoreChanges } from "../store/Store";
import type { Decision } from "../store/StoreWriter";

/**
 * The channel directory's decisions (pure): each takes what the directory read inside the store's write lane and the
 * request, and returns the one batch to commit with the result, or throws the refusal. `id` and `at` (a new ULID and
 * the time) are made by the caller, so a decision is a function of its arguments.
 */

/** The channel every agent of the roster joins. */
export const GENERAL = "general";

/** `value/` key of the declared channels already created once (so deleting one in the UI sticks). */
export const DECLARED_KEY = "declaredChannels";

/** `value/` key of the last message the user saw in a channel. */
export const lastReadKey = (channelId: string) => `lastRead/${channelId}`;

/** A channel declared in the roster (`channels:` in sidekicks.yaml; the config's `ChannelConfig` fits). */
export interface DeclaredChannel {
  name: string;
  description?: string;
  members: string[];
}

/** A new record's identity: its ULID and creation time (ms). */
export interface NewId {
  id: string;
  at: number;
}

/** `#general` created when missing, its members made the roster's agents (new ones join, gone ones leave). */
export function decideSyncGeneral(read: { general?: ChannelRecord; members: MembershipRecord[] }, agentNames: string[], next: NewId): Decision<ChannelRecord> {
  const channel = read.general ?? { version: 1, id: next.id, name: GENERAL, createdAt: next.at, updatedAt: next.at };
  const current = new Set(read.members.map((m) => m.agentName));
  return {
    changes: {
      ...(read.general ? {} : { channels: [{ channel }] }),
      members: agentNames.filter((name) => !current.has(name)).map((name) => member(channel.id, name, next.at)),
      removedMembers: read.members.filter((m) => !agentNames.includes(m.agentName)).map((m) => ({ channelId: channel.id, agentName: m.agentName })),
    },
    result: channel,
  };
}

/**
 * A new channel with optional description and members (roster agents); `taken` tells whether its name is in use.
 * @throws SidekicksError `channel/invalidName`, `channel/exists`, `channel/unknownMember`
 */
export function decideCreate(
  read: { taken: boolean },
  request: { name: string; description?: string; members?: string[]; roster: string[] },
  next: NewId,
): Decision<ChannelRecord> {
  const name = checkNewName(request.name, read.taken);
  const members = request.members ?? [];
  members.forEach((m) => checkAgent(request.roster, m));
  const channel: ChannelRecord = { version: 1, id: next.id, name, kind: "channel", createdAt: next.at, updatedAt: next.at };
  const description = request.description?.trim();
  if (description) channel.description = description;
  return { changes: { channels: [{ channel }], members: [...new Set(members)].map((m) => member(channel.id, m, next.at)) }, result: channel };
}

/**
 * A channel renamed (nothing written when the name is the same: `renamed` false); its id, members and history stay.
 * @throws SidekicksError `channel/invalidName` (also for #general and direct conversations), `channel/exists`
 */
export function decideRename(read: { channel: ChannelRecord; taken: boolean }, name: string, at: number): Decision<{ channel: ChannelRecord; renamed: boolean }> {
  const { channel } = read;
  refuseSpecial(channel, "rename");
  if (cleanName(name) === channel.name) return { changes: {}, result: { channel, renamed: false } };
  const renamed: ChannelRecord = { ...channel, name: checkNewName(cleanName(name), read.taken), updatedAt: at };
  return { changes: { channels: [{ channel: renamed, previousName: channel.name }] }, result: { channel: renamed, renamed: true } };
}

/** A channel's description set, or cleared with an empty string. */
export function decideDescribe(channel: ChannelRecord, description: string, at: number): Decision<ChannelRecord> {
  const next: ChannelRecord = { ...channel, updatedAt: at };
  if (description.trim()) next.description = description.trim();
  else delete next.description;
  return { changes: { channels: [{ channel: next }] }, result: next };
}

/**
 * A channel deleted with its memberships, its read marker, the direct indexes that point to it (of `members`), and its
 * history, in one batch.
 * @throws SidekicksError `channel/invalidName` for #general; `channel/busy` while a member answers in it
 */
export function decideDelete(read: { channel: ChannelRecord; members: string[]; directOf: Record<string, string | undefined>; busy: boolean }): Decision<void> {
  const { channel } = read;
  if (channel.name === GENERAL) throw new SidekicksError("channel/invalidName", l10n.t("#general cannot be deleted: it is where every agent of the roster meets."));
  if (read.busy) throw new SidekicksError("channel/busy", l10n.t("An agent is still answering in {0}: stop it first, then delete the channel.", label(channel)));
  const directAgents = read.members.filter((agent) => read.directOf[agent] === channel.id);
  return { changes: { deletedChannels: [{ channel, directAgents }] }, result: undefined };
}

/**
 * A roster agent added to a channel (nothing written when it is a member already).
 * @throws SidekicksError `channel/unknownMember`, `channel/invalidName` for #general and direct conversations
 */
export function decideJoin(read: { channel: ChannelRecord; members: MembershipRecord[] }, agent: string, roster: string[], at: number): Decision<ChannelRecord> {
  refuseSpecial(read.channel, "members");
  checkAgent(roster, agent);
  const joined = read.members.some((m) => m.agentName === agent);
  return { changes: joined ? {} : { members: [member(read.channel.id, agent, at)] }, result: read.channel };
}

/** An agent removed from a channel (any name may leave); its messages stay. Same refusals as {@link decideJoin}. */
export function decideLeave(channel: ChannelRecord, agent: string): Decision<ChannelRecord> {
  refuseSpecial(channel, "members");
  return { changes: { removedMembers: [{ channelId: channel.id, agentName: agent }] }, result: channel };
}

/**
 * The direct conversation with `agent`: the one that exists, else a new one (`created`) with the agent as its only member.
 * @throws SidekicksError `channel/unknownMember` when a new one is needed and the agent is not in the roster
 */
export function decideDirect(existing: ChannelRecord | undefined, agent: string, roster: string[], next: NewId): Decision<{ channel: ChannelRecord; created: boolean }> {
  if (existing) return { changes: {}, result: { channel: existing, created: false } };
  checkAgent(roster, agent);
  const channel: ChannelRecord = { version: 1, id: next.id, name: `@${agent}`, kind: "direct", createdAt: next.at, updatedAt: next.at };
  return { changes: { channels: [{ channel, directAgent: agent }], members: [member(channel.id, agent, next.at)] }, result: { channel, created: true } };
}

/**
 * The declared channels never created before, created (with their roster members) in one batch with the list of
 * those done; a declared channel the user deleted is not created again. `taken`: the declared names in use now;
 * `ids`: one new identity per declared entry, in order. A declared `general` describes #general (`read.general`)
 * once, when it has no description of its own.
 * @returns the channels created now, and #general when it was described
 * @throws SidekicksError `channel/invalidName` for a declared name that is not a channel name
 */
export function decideDeclared(
  read: { done: string[]; taken: ReadonlySet<string>; general?: ChannelRecord },
  declared: DeclaredChannel[],
  roster: string[],
  ids: NewId[],
): Decision<ChannelRecord[]> {
  const done = new Set(read.done);
  const before = done.size;
  const created: ChannelRecord[] = [];
  const changes: Required<Pick<StoreChanges, "channels" | "members">> = { channels: [], members: [] };
  declared.forEach((c, i) => {
    if (done.has(c.name)) return;
    if (c.name === GENERAL) {
      // #general declared to describe it (its members are every agent): its description once, when it has none of
      // its own, the user's own never overwritten. Its moderator is read from the roster each round.
      if (!c.description?.trim() || !read.general) return;
      if (!read.general.description) {
        const described = decideDescribe(read.general, c.description, ids[i]!.at);
        changes.channels.push(...(described.changes.channels ?? []));
        created.push(described.result);
      }
      done.add(c.name);
      return;
    }
    if (!read.taken.has(c.name)) {
      const made = decideCreate({ taken: false }, { name: c.name, description: c.description, members: c.members.filter((m) => roster.includes(m)), roster }, ids[i]!);
      changes.channels.push(...(made.changes.channels ?? []));
      changes.members.push(...(made.changes.members ?? []));
      created.push(made.result);
    }
    done.add(c.name);
  });
  return { changes: { ...changes, ...(done.size !== before ? { values: [{ key: DECLARED_KEY, value: [...done] }] } : {}) }, result: created };
}

/** The user's read marker of `channel` moved from `previous` to `messageId` (never back): `moved` says whether it did. */
export function decideMarkRead(read: { channel: ChannelRecord; previous?: string }, messageId: string): Decision<{ channel: ChannelRecord; moved: boolean }> {
  const { channel, previous } = read;
  const moved = previous === undefined || messageId > previous;
  return { changes: moved ? { values: [{ key: lastReadKey(channel.id), value: messageId }] } : {}, result: { channel, moved } };
}

/** A name without its leading `#` and surrounding spaces. */
export function cleanName(name: string): string {
  const trimmed = name.trim();
  return trimmed.startsWith("#") ? trimmed.slice(1) : trimmed;
}

/** `#name`, or `@agent` for a direct conversation. */
export function label(channel: ChannelRecord): string {
  return channel.kind === "direct" ? channel.name : `#${channel.name}`;
}

function checkNewName(name: string, taken: boolean): string {
  const clean = cleanName(name);
  if (!CHANNEL_NAME.test(clean)) {
    throw new SidekicksError("channel/invalidName", l10n.t('"{0}" is not a channel name: use lowercase letters, digits, - and _ (at most 80).', name));
  }
  if (taken) throw new SidekicksError("channel/exists", l10n.t("#{0} already exists.", clean));
  return clean;
}

function checkAgent(names: string[], agent: string): void {
  if (!names.includes(agent)) {
    throw new SidekicksError("channel/unknownMember", l10n.t("No agent named @{0} in sidekicks.yaml. Agents: {1}.", agent, names.map((n) => `@${n}`).join(", ") || l10n.t("none yet")));
  }
}

function refuseSpecial(channel: ChannelRecord, change: "rename" | "members"): void {
  if (channel.name === GENERAL) {
    throw new SidekicksError(
      "channel/invalidName",
      change === "rename"
        ? l10n.t("#general cannot be renamed: its members are the roster's agents.")
        : l10n.t("#general cannot be given members by hand: its members are the roster's agents."),
    );
  }
  if (channel.kind === "direct") {
    throw new SidekicksError(
      "channel/invalidName",
      change === "rename" ? l10n.t("A direct conversation cannot be renamed.") : l10n.t("A direct conversation cannot be given members by hand."),
    );
  }
}

function member(channelId: string, agentName: string, joinedAt: number): MembershipRecord {
  return { version: 1, channelId, agentName, joinedAt };
}
