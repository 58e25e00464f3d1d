import * as l10n from "@vscode/l10n";
import { monotonicFactory } from "ulid";
import { SidekicksError } from "../shared/errors";
import type { Emitter } from "../events/events";
import { type AgentState, type ChannelSummary, type ChannelView, type MessageView } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { StoreWriter } from "../store/StoreWriter";
import type { ChannelRecord } from "../store/records";
import { CHANNEL_NAME } from "../shared/channelName";
import { ChannelSummaries, type ChannelCounts } from "./channelSummaries";
import {
  DECLARED_KEY,
  GENERAL,
  cleanName,
  decideCreate,
  decideDeclared,
  decideDelete,
  decideDescribe,
  decideDirect,
  decideJoin,
  decideLeave,
  decideMarkRead,
  decideRename,
  decideSyncGeneral,
  lastReadKey,
  type DeclaredChannel,
  type NewId,
} from "./directoryDecisions";

export { CHANNEL_NAME, GENERAL, type DeclaredChannel };

/** What the directory needs of the agent manager: the roster's names, in order, and their states. */
export interface AgentNames {
  names(): string[];
  state(name: string): AgentState;
}

/** A channel by id or by name (`general`, or `@agent` for a direct conversation). */
export type ChannelRef = { id?: string; name?: string };

/**
 * The channel directory (`src/channels/`; the original design's `internal/channels`, Channel + Membership): creates, renames and deletes channels,
 * sets descriptions, adds and removes members, opens direct conversations (a channel with one member, indexed by
 * `direct/<agent>`), keeps `#general`'s members in step with the roster, creates the roster's declared channels once,
 * and lists everything with unread counts and busy markers. Emits `channels/changed` (the whole list) after a channel
 * was created, renamed, described or deleted, `channels/updated` (the lines that changed) after counts, members or busy
 * markers moved, and `channel/changed` for the channel that changed.
 *
 * Every change is one {@link StoreWriter.write} (issue 16, "the reducer decides, the executor applies"): what it needs
 * is read in the store's write lane, a pure function of `directoryDecisions.ts` decides, its batch is committed, and
 * only then are the events emitted. A write that fails rejects the caller (`store/writeFailed`) and changes nothing.
 */
export class ChannelDirectory {
  private readonly ulid = monotonicFactory();
  /** Unsettled agent message id (streaming or queued) → its channel id: a channel is busy while a member answers there. */
  private readonly streaming = new Map<string, string>();
  private readonly store: Store;
  /** The list's reads, cached against the store's revisions: a change re-reads only what it touched. */
  private readonly summaries: ChannelSummaries;
  /** The last line built for each channel, with what it was built from (see `summarise`). */
  private readonly lines = new Map<string, { channel: ChannelRecord; counts: ChannelCounts; summary: ChannelSummary }>();
  /** The list last announced, the channel records' revision it was built at, and each line's index (see `emitList`). */
  private announced: { revision: number; records: readonly ChannelRecord[]; list: readonly ChannelSummary[]; index: ReadonlyMap<string, number> } | undefined;
  /** Channels a commit touched or whose busy marker may have moved since the last announcement: the lines to look at. */
  private dirty = new Set<string>();
  private announcing: Promise<void> = Promise.resolve();

  /**
   * @param writer the store's one write lane, shared with the turn executor (`src/app/composeChannels.ts`); the
   *   directory reads its `store`
   */
  constructor(
    private readonly writer: StoreWriter,
    private readonly agents: AgentNames,
    private readonly emitter: Emitter,
    private readonly now: () => number = Date.now,
  ) {
    this.store = writer.store;
    this.summaries = new ChannelSummaries(this.store);
    this.store.revisions.onTouched((ids) => {
      for (const id of ids) this.dirty.add(id);
    });
  }

  /**
   * Creates `#general` when missing and makes its members the roster's agents: new agents join, agents gone
   * from the roster leave (their messages stay). Emits `channel/changed`.
   */
  async syncGeneral(agentNames: string[]): Promise<ChannelRecord> {
    const next = this.newId();
    const channel = await this.writer.write(
      async (store) => {
        const general = await store.channelByName(GENERAL);
        return { general, members: general ? await store.members(general.id) : [] };
      },
      (read) => decideSyncGeneral(read, agentNames, next),
    );
    this.emitter.emit("channel/changed", await this.view(channel));
    return channel;
  }

  /** Every channel (#general first, then by name) followed by the direct conversations (by agent name). */
  async list(): Promise<ChannelSummary[]> {
    // Channels whose counts are cached and current are summarised without waiting; only the others read the store.
    const records = await this.summaries.channels();
    if (this.lines.size > records.length) for (const id of [...this.lines.keys()]) if (!records.some((c) => c.id === id)) this.lines.delete(id); // deleted channels
    const out = records.map((c) => this.summarise(c, this.summaries.current(c.id)));
    await Promise.all(out.flatMap((known, i) => (known ? [] : [this.summary(records[i]!).then((s) => (out[i] = s))])));
    return out as ChannelSummary[];
  }

  /**
   * The channel `ref` names: by id when given, else by name (`#` ignored).
   * @throws SidekicksError `channel/notFound`
   */
  async resolve(ref: ChannelRef): Promise<ChannelRecord> {
    return resolveIn(this.store, ref);
  }

  /**
   * Creates a channel with optional description and members (roster agents).
   * @throws SidekicksError `channel/invalidName`, `channel/exists`, `channel/unknownMember`
   */
  async create(name: string, options: { description?: string; members?: string[] } = {}): Promise<ChannelSummary> {
    const next = this.newId();
    const request = { name, ...options, roster: this.agents.names() };
    const channel = await this.writer.write(
      async (store) => ({ taken: (await store.channelByName(cleanName(name))) !== undefined }),
      (read) => decideCreate(read, request, next),
    );
    return this.changed(channel);
  }

  /**
   * Renames a channel; its id, members and history stay.
   * @throws SidekicksError `channel/notFound`, `channel/invalidName` (also for #general and direct conversations), `channel/exists`
   */
  async rename(ref: ChannelRef, name: string): Promise<ChannelSummary> {
    const at = this.now();
    const { channel, renamed } = await this.writer.write(
      async (store) => ({ channel: await resolveIn(store, ref), taken: (await store.channelByName(cleanName(name))) !== undefined }),
      (read) => decideRename(read, name, at),
    );
    return renamed ? this.changed(channel) : this.summary(channel);
  }

  /** Sets (or clears, with an empty string) a channel's description. */
  async describe(ref: ChannelRef, description: string): Promise<ChannelSummary> {
    const at = this.now();
    const next = await this.writer.write(
      (store) => resolveIn(store, ref),
      (channel) => decideDescribe(channel, description, at),
    );
    return this.changed(next);
  }

  /**
   * Deletes a channel with its memberships and history. The caller confirms with the user first.
   * @throws SidekicksError `channel/notFound`; `channel/invalidName` for #general; `channel/busy` while a member answers in it
   */
  async delete(ref: ChannelRef): Promise<void> {
    await this.writer.write(
      async (store) => {
        const channel = await resolveIn(store, ref);
        const members = (await store.members(channel.id)).map((m) => m.agentName);
        const directOf: Record<string, string | undefined> = {};
        for (const agent of members) directOf[agent] = await store.directChannelId(agent);
        return { channel, members, directOf, busy: this.isBusy(channel.id) };
      },
      decideDelete,
    );
    await this.emitList();
  }

  /**
   * Adds a roster agent to a channel (a no-op when it is already a member).
   * @throws SidekicksError `channel/notFound`, `channel/unknownMember`, `channel/invalidName` for #general and direct conversations
   */
  async join(ref: ChannelRef, agent: string): Promise<ChannelSummary> {
    const at = this.now();
    const roster = this.agents.names();
    const channel = await this.writer.write(
      async (store) => {
        const found = await resolveIn(store, ref);
        return { channel: found, members: await store.members(found.id) };
      },
      (read) => decideJoin(read, agent, roster, at),
    );
    return this.changed(channel);
  }

  /** Removes an agent from a channel; its messages stay. Same refusals as {@link join}, but any name may leave. */
  async leave(ref: ChannelRef, agent: string): Promise<ChannelSummary> {
    const channel = await this.writer.write(
      (store) => resolveIn(store, ref),
      (found) => decideLeave(found, agent),
    );
    return this.changed(channel);
  }

  /**
   * The direct conversation with `agent` (`direct/<agent>`), created with the agent as its only member when missing.
   * @throws SidekicksError `channel/unknownMember` when the agent is not in the roster
   */
  async direct(agent: string): Promise<ChannelSummary> {
    const next = this.newId();
    const roster = this.agents.names();
    const { channel, created } = await this.writer.write(
      async (store) => {
        const id = await store.directChannelId(agent);
        return id !== undefined ? await store.channelById(id) : undefined;
      },
      (existing) => decideDirect(existing, agent, roster, next),
    );
    return created ? this.changed(channel) : this.summary(channel);
  }

  /**
   * Creates the roster's declared channels (`channels:` in sidekicks.yaml) that were never created before, with their
   * description and the members that are roster agents, in one batch. Afterwards they are ordinary channels: editing
   * or removing the declaration changes nothing, and a declared channel the user deleted is not created again.
   * A declared `general` gives #general its description once, when it has none of its own.
   * @returns the names created (or, for #general, described) now
   */
  async syncDeclared(declared: DeclaredChannel[]): Promise<string[]> {
    const ids = declared.map(() => this.newId());
    const roster = this.agents.names();
    const created = await this.writer.write(
      async (store) => {
        const taken = new Set<string>();
        for (const c of declared) if (await store.channelByName(c.name)) taken.add(c.name);
        const general = declared.some((c) => c.name === GENERAL) ? await store.channelByName(GENERAL) : undefined;
        return { done: asStrings(await store.getValue(DECLARED_KEY)), taken, ...(general ? { general } : {}) };
      },
      (read) => decideDeclared(read, declared, roster, ids),
    );
    for (const channel of created) await this.changed(channel);
    return created.map((c) => c.name);
  }

  /**
   * Records that the user saw a channel up to `messageId` (never moves back).
   * @returns the channel's unread count afterwards
   */
  async markRead(channelId: string, messageId: string): Promise<number> {
    const { channel, moved } = await this.writer.write(
      async (store) => ({ channel: await resolveIn(store, { id: channelId }), previous: await lastReadOf(store, channelId) }),
      (read) => decideMarkRead(read, messageId),
    );
    if (moved) await this.emitList();
    return (await this.summary(channel)).unread;
  }

  /** Follows the channel's messages: a started agent message (streaming or queued) makes its channel busy until it finishes. */
  observe(event: "started" | "finished", message: MessageView): void {
    const wasBusy = this.isBusy(message.channelId);
    if (event === "started") this.streaming.set(message.id, message.channelId); // queued or streaming: not settled yet
    if (event === "finished") this.streaming.delete(message.id);
    this.dirty.add(message.channelId);
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
    return this.summarise(channel, await this.summaries.counts(channel.id))!;
  }

  /**
   * The channel's line from its counts (undefined without them). The same object comes back while its record, counts
   * and busy marker are the same ones: a list of 500 channels where one changed builds one line, not 500.
   */
  private summarise(channel: ChannelRecord, counts: ChannelCounts | undefined): ChannelSummary | undefined {
    if (!counts) return undefined;
    const busy = this.isBusy(channel.id);
    const last = this.lines.get(channel.id);
    if (last && last.channel === channel && last.counts === counts && last.summary.busy === busy) return last.summary;
    const summary: ChannelSummary = { id: channel.id, name: channel.name, kind: channel.kind ?? "channel", members: [...counts.members], unread: counts.unread, busy };
    if (channel.description) summary.description = channel.description;
    this.lines.set(channel.id, { channel, counts, summary });
    return summary;
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

  /**
   * Announces the list: whole (`channels/changed`) when a channel was created, renamed, described or deleted, else
   * only the lines that changed since the last announcement (`channels/updated`; nothing when none did). A turn moves
   * a channel's unread count or busy marker a few times: with 500 channels each time cost a list of 500 lines,
   * serialized and posted to every view (issue 21, "Lists that stay fast"). Announcements go out one at a time, in
   * order, each compared with the one before, so a line built earlier never follows a newer one.
   */
  private emitList(): Promise<void> {
    const next = this.announcing.then(() => this.announce());
    this.announcing = next.catch(() => undefined);
    return next;
  }

  private async announce(): Promise<void> {
    const revision = this.store.revisions.channels;
    const previous = this.announced;
    // Taken before reading: a change meanwhile is looked at next time.
    const dirty = this.dirty;
    this.dirty = new Set();
    const records = await this.summaries.channels();
    // The records are cached per revision: the same array means the same channels in the same order.
    if (previous?.revision !== revision || previous.records !== records) {
      const list = await this.list();
      this.announced = { revision, records, list, index: new Map(records.map((c, i) => [c.id, i])) };
      return this.emitter.emit("channels/changed", list);
    }
    // Only the channels a commit touched since or whose busy marker may have moved are read again: not a pass over
    // every line (issue 21: a turn's end in a list of 500 costs what it costs in a list of 5).
    const list = [...previous.list];
    const updated: ChannelSummary[] = [];
    for (const id of dirty) {
      const i = previous.index.get(id);
      if (i === undefined) continue; // a channel not in this list (deleted meanwhile: the next list says so)
      const line = await this.summary(records[i]!);
      if (!sameLine(previous.list[i]!, line)) updated.push(line);
      list[i] = line;
    }
    this.announced = { ...previous, list };
    if (updated.length > 0) this.emitter.emit("channels/updated", updated);
  }

  private newId(): NewId {
    const at = this.now();
    return { id: this.ulid(at), at };
  }
}

/** The channel `ref` names in `store`. @throws SidekicksError `channel/notFound` */
async function resolveIn(store: Store, ref: ChannelRef): Promise<ChannelRecord> {
  const found = ref.id !== undefined ? await store.channelById(ref.id) : await store.channelByName(stripHash(ref.name ?? GENERAL));
  if (!found) throw new SidekicksError("channel/notFound", l10n.t("There is no channel {0}.", ref.name !== undefined ? `#${stripHash(ref.name)}` : String(ref.id)));
  return found;
}

function stripHash(name: string): string {
  return name.startsWith("#") ? name.slice(1) : name;
}

async function lastReadOf(store: Store, channelId: string): Promise<string | undefined> {
  const value = await store.getValue(lastReadKey(channelId));
  return typeof value === "string" ? value : undefined;
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Whether two lines of the list show the same (a line is built again when its record was read again). */
function sameLine(a: ChannelSummary, b: ChannelSummary): boolean {
  if (a === b) return true;
  return a.name === b.name && a.kind === b.kind && a.description === b.description && a.unread === b.unread && a.busy === b.busy && a.members.length === b.members.length && a.members.every((m, i) => m === b.members[i]);
}
