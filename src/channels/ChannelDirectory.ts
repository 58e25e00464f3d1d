import * as l10n from "@vscode/l10n";
import { monotonicFactory } from "ulid";
import { SidekicksError } from "../shared/errors";
import type { Emitter } from "../events/events";
import { UNREAD_CAP, type AgentState, type ChannelSummary, type ChannelView, type MessageView } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { ChannelRecord, MembershipRecord } from "../store/records";

/** What the directory needs of the agent manager: the roster's names, in order, and their states. */
export interface AgentNames {
  names(): string[];
  state(name: string): AgentState;
}

/** A channel declared in the roster (`channels:` in sidekicks.yaml; the config's `ChannelConfig` fits). */
export interface DeclaredChannel {
  name: string;
  description?: string;
  members: string[];
}

/** The channel every agent of the roster joins. */
export const GENERAL = "general";

/** A channel by id or by name (`general`, or `@agent` for a direct conversation). */
export type ChannelRef = { id?: string; name?: string };

import { CHANNEL_NAME } from "../shared/channelName";

export { CHANNEL_NAME };

/** `value/` key of the declared channels already created once (so deleting one in the UI sticks). */
const DECLARED_KEY = "declaredChannels";
const lastReadKey = (channelId: string) => `lastRead/${channelId}`;

/**
 * The channel directory (`src/channels/`; the original design's `internal/channels`, Channel + Membership): creates, renames and deletes channels,
 * sets descriptions, adds and removes members, opens direct conversations (a channel with one member, indexed by
 * `direct/<agent>`), keeps `#general`'s members in step with the roster, creates the roster's declared channels once,
 * and lists everything with unread counts and busy markers. Emits `channels/changed` after each change and
 * `channel/changed` for the channel that changed.
 */
export class ChannelDirectory {
  private readonly ulid = monotonicFactory();
  /** Unsettled agent message id (streaming or queued) → its channel id: a channel is busy while a member answers there. */
  private readonly streaming = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly agents: AgentNames,
    private readonly emitter: Emitter,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Creates `#general` when missing and makes its members the roster's agents: new agents join, agents gone
   * from the roster leave (their messages stay). Emits `channel/changed`.
   */
  async syncGeneral(agentNames: string[]): Promise<ChannelRecord> {
    let channel = await this.store.channelByName(GENERAL);
    if (!channel) {
      const at = this.now();
      channel = { version: 1, id: this.ulid(at), name: GENERAL, createdAt: at, updatedAt: at };
      await this.store.putChannel(channel);
    }
    const members = await this.store.members(channel.id);
    const current = new Set(members.map((m) => m.agentName));
    for (const name of agentNames) {
      if (!current.has(name)) await this.store.putMember({ version: 1, channelId: channel.id, agentName: name, joinedAt: this.now() });
    }
    for (const m of members) if (!agentNames.includes(m.agentName)) await this.store.deleteMember(channel.id, m.agentName);
    this.emitter.emit("channel/changed", await this.view(channel));
    return channel;
  }

  /** Every channel (#general first, then by name) followed by the direct conversations (by agent name). */
  async list(): Promise<ChannelSummary[]> {
    const records = await this.store.channels();
    const rank = (c: ChannelRecord) => (c.kind === "direct" ? 2 : c.name === GENERAL ? 0 : 1);
    records.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return Promise.all(records.map((c) => this.summary(c)));
  }

  /**
   * The channel `ref` names: by id when given, else by name (`#` ignored).
   * @throws SidekicksError `channel/notFound`
   */
  async resolve(ref: ChannelRef): Promise<ChannelRecord> {
    const found = ref.id !== undefined ? await this.store.channelById(ref.id) : await this.store.channelByName(stripHash(ref.name ?? GENERAL));
    if (!found) throw new SidekicksError("channel/notFound", l10n.t("There is no channel {0}.", ref.name !== undefined ? `#${stripHash(ref.name)}` : String(ref.id)));
    return found;
  }

  /**
   * Creates a channel with optional description and members (roster agents).
   * @throws SidekicksError `channel/invalidName`, `channel/exists`, `channel/unknownMember`
   */
  async create(name: string, options: { description?: string; members?: string[] } = {}): Promise<ChannelSummary> {
    const clean = await this.checkNewName(name);
    const members = options.members ?? [];
    members.forEach((m) => this.checkAgent(m));
    const at = this.now();
    const channel: ChannelRecord = { version: 1, id: this.ulid(at), name: clean, kind: "channel", createdAt: at, updatedAt: at };
    const description = options.description?.trim();
    if (description) channel.description = description;
    await this.store.putChannel(channel, { members: [...new Set(members)].map((m) => member(channel.id, m, at)) });
    return this.changed(channel);
  }

  /**
   * Renames a channel; its id, members and history stay.
   * @throws SidekicksError `channel/notFound`, `channel/invalidName` (also for #general and direct conversations), `channel/exists`
   */
  async rename(ref: ChannelRef, name: string): Promise<ChannelSummary> {
    const channel = await this.resolve(ref);
    this.refuseSpecial(channel, "rename");
    const clean = stripHash(name.trim());
    if (clean === channel.name) return this.summary(channel);
    const renamed: ChannelRecord = { ...channel, name: await this.checkNewName(clean), updatedAt: this.now() };
    await this.store.putChannel(renamed, { previousName: channel.name });
    return this.changed(renamed);
  }

  /** Sets (or clears, with an empty string) a channel's description. */
  async describe(ref: ChannelRef, description: string): Promise<ChannelSummary> {
    const channel = await this.resolve(ref);
    const next: ChannelRecord = { ...channel, updatedAt: this.now() };
    if (description.trim()) next.description = description.trim();
    else delete next.description;
    await this.store.putChannel(next);
    return this.changed(next);
  }

  /**
   * Deletes a channel with its memberships and history. The caller confirms with the user first.
   * @throws SidekicksError `channel/notFound`; `channel/invalidName` for #general; `channel/busy` while a member answers in it
   */
  async delete(ref: ChannelRef): Promise<void> {
    const channel = await this.resolve(ref);
    if (channel.name === GENERAL) throw new SidekicksError("channel/invalidName", l10n.t("#general cannot be deleted: it is where every agent of the roster meets."));
    if (this.isBusy(channel.id)) throw new SidekicksError("channel/busy", l10n.t("An agent is still answering in {0}: stop it first, then delete the channel.", label(channel)));
    await this.store.deleteChannel(channel);
    await this.emitList();
  }

  /**
   * Adds a roster agent to a channel (a no-op when it is already a member).
   * @throws SidekicksError `channel/notFound`, `channel/unknownMember`, `channel/invalidName` for #general and direct conversations
   */
  async join(ref: ChannelRef, agent: string): Promise<ChannelSummary> {
    const channel = await this.resolve(ref);
    this.refuseSpecial(channel, "members");
    this.checkAgent(agent);
    const members = await this.store.members(channel.id);
    if (!members.some((m) => m.agentName === agent)) await this.store.putMember(member(channel.id, agent, this.now()));
    return this.changed(channel);
  }

  /** Removes an agent from a channel; its messages stay. Same refusals as {@link join}, but any name may leave. */
  async leave(ref: ChannelRef, agent: string): Promise<ChannelSummary> {
    const channel = await this.resolve(ref);
    this.refuseSpecial(channel, "members");
    await this.store.deleteMember(channel.id, agent);
    return this.changed(channel);
  }

  /**
   * The direct conversation with `agent` (`direct/<agent>`), created with the agent as its only member when missing.
   * @throws SidekicksError `channel/unknownMember` when the agent is not in the roster
   */
  async direct(agent: string): Promise<ChannelSummary> {
    const id = await this.store.directChannelId(agent);
    const existing = id !== undefined ? await this.store.channelById(id) : undefined;
    if (existing) return this.summary(existing);
    this.checkAgent(agent);
    const at = this.now();
    const channel: ChannelRecord = { version: 1, id: this.ulid(at), name: `@${agent}`, kind: "direct", createdAt: at, updatedAt: at };
    await this.store.putChannel(channel, { members: [member(channel.id, agent, at)], directAgent: agent });
    return this.changed(channel);
  }

  /**
   * Creates the roster's declared channels (`channels:` in sidekicks.yaml) that were never created before, with their
   * description and the members that are roster agents. Afterwards they are ordinary channels: editing or removing
   * the declaration changes nothing, and a declared channel the user deleted is not created again.
   * @returns the names created now
   */
  async syncDeclared(declared: DeclaredChannel[]): Promise<string[]> {
    const done = new Set(asStrings(await this.store.getValue(DECLARED_KEY)));
    const before = done.size;
    const roster = new Set(this.agents.names());
    const created: string[] = [];
    for (const c of declared) {
      if (done.has(c.name) || c.name === GENERAL) continue;
      if (!(await this.store.channelByName(c.name))) {
        await this.create(c.name, { description: c.description, members: c.members.filter((m) => roster.has(m)) });
        created.push(c.name);
      }
      done.add(c.name);
    }
    if (done.size !== before) await this.store.putValue(DECLARED_KEY, [...done]);
    return created;
  }

  /**
   * Records that the user saw a channel up to `messageId` (never moves back).
   * @returns the channel's unread count afterwards
   */
  async markRead(channelId: string, messageId: string): Promise<number> {
    const channel = await this.resolve({ id: channelId });
    const previous = await this.lastRead(channelId);
    if (previous === undefined || messageId > previous) {
      await this.store.putValue(lastReadKey(channelId), messageId);
      await this.emitList();
    }
    return (await this.summary(channel)).unread;
  }

  /** Follows the channel's messages: a started agent message (streaming or queued) makes its channel busy until it finishes. */
  observe(event: "started" | "finished", message: MessageView): void {
    const wasBusy = this.isBusy(message.channelId);
    if (event === "started") this.streaming.set(message.id, message.channelId); // queued or streaming: not settled yet
    if (event === "finished") this.streaming.delete(message.id);
    if (event === "finished" || wasBusy !== this.isBusy(message.channelId)) void this.emitList().catch(() => undefined);
  }

  /** The channel's view for its header: members in roster order with their agents' states. */
  async view(channel: ChannelRecord): Promise<ChannelView> {
    const order = this.agents.names();
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    const members = (await this.store.members(channel.id)).sort((a, b) => rank(a.agentName) - rank(b.agentName));
    return { id: channel.id, name: channel.name, members: members.map((m) => ({ name: m.agentName, state: this.agents.state(m.agentName) })) };
  }

  private async summary(channel: ChannelRecord): Promise<ChannelSummary> {
    const members = (await this.store.members(channel.id)).map((m) => m.agentName);
    const unread = await this.store.countMessagesAfter(channel.id, await this.lastRead(channel.id), UNREAD_CAP, (m) => m.author.kind !== "system");
    const summary: ChannelSummary = { id: channel.id, name: channel.name, kind: channel.kind ?? "channel", members, unread, busy: this.isBusy(channel.id) };
    if (channel.description) summary.description = channel.description;
    return summary;
  }

  private async lastRead(channelId: string): Promise<string | undefined> {
    const value = await this.store.getValue(lastReadKey(channelId));
    return typeof value === "string" ? value : undefined;
  }

  private isBusy(channelId: string): boolean {
    for (const id of this.streaming.values()) if (id === channelId) return true;
    return false;
  }

  private async changed(channel: ChannelRecord): Promise<ChannelSummary> {
    this.emitter.emit("channel/changed", await this.view(channel));
    await this.emitList();
    return this.summary(channel);
  }

  private async emitList(): Promise<void> {
    this.emitter.emit("channels/changed", await this.list());
  }

  private async checkNewName(name: string): Promise<string> {
    const clean = stripHash(name.trim());
    if (!CHANNEL_NAME.test(clean)) {
      throw new SidekicksError("channel/invalidName", l10n.t('"{0}" is not a channel name: use lowercase letters, digits, - and _ (at most 80).', name));
    }
    if (await this.store.channelByName(clean)) throw new SidekicksError("channel/exists", l10n.t("#{0} already exists.", clean));
    return clean;
  }

  private checkAgent(agent: string): void {
    const names = this.agents.names();
    if (!names.includes(agent)) {
      throw new SidekicksError("channel/unknownMember", l10n.t("No agent named @{0} in sidekicks.yaml. Agents: {1}.", agent, names.map((n) => `@${n}`).join(", ") || l10n.t("none yet")));
    }
  }

  private refuseSpecial(channel: ChannelRecord, change: "rename" | "members"): void {
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
}

function member(channelId: string, agentName: string, joinedAt: number): MembershipRecord {
  return { version: 1, channelId, agentName, joinedAt };
}

function stripHash(name: string): string {
  return name.startsWith("#") ? name.slice(1) : name;
}

function label(channel: ChannelRecord): string {
  return channel.kind === "direct" ? channel.name : `#${channel.name}`;
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
