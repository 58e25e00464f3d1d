import { monotonicFactory } from "ulid";
import type { AgentSession, SessionSink } from "../agents/AgentManager";
import { asSidekicksError, SidekicksError } from "../errors";
import type { Emitter } from "../events/events";
import type { AgentState, ChannelView, MessageView } from "../protocol";
import type { Store } from "../store/Store";
import type { ChannelRecord, MembershipRecord, MessageRecord } from "../store/records";
import { AgentTurn } from "./AgentTurn";
import { routeMessage } from "./mentions";

/** What channels need of the agent manager (ADR 0003 Amendment 3, `AgentSource`). */
export interface AgentSource {
  names(): string[];
  state(name: string): AgentState;
  session(agent: string, owner: string, sink: SessionSink): Promise<AgentSession>;
}

/** How many messages `open` returns (the latest page). */
export const PAGE_SIZE = 50;

/** The channel every agent of the roster joins. */
export const GENERAL = "general";

/**
 * Channels, memberships and messages (ADR 0003 `internal/channels`): routes a user message to the members it
 * mentions, runs one agent turn per recipient in parallel (turns for the same agent in the same channel run one
 * after the other), streams their answers as events, and commits each message when its turn ends (never per chunk).
 */
export class ChannelService {
  private readonly ulid = monotonicFactory();
  private readonly turns = new Map<string, AgentTurn>(); // `${channelId}/${agent}` → running turn
  private readonly lastTurns = new Map<string, AgentTurn>(); // settled turn, for late updates
  private readonly queues = new Map<string, Promise<void>>();
  private readonly lastAddressed = new Map<string, string>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly agents: AgentSource,
    private readonly emitter: Emitter,
    private readonly log: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Creates `#general` when missing and makes its members the roster's agents: new agents join, agents gone
   * from the roster leave (their messages stay). Emits `channel:changed`.
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
    this.emitter.emit("channel:changed", await this.view(channel));
    return channel;
  }

  /** The channel named `name` with its latest page of messages, oldest first (running answers included). */
  async open(name: string): Promise<{ channel: ChannelView; messages: MessageView[] }> {
    const channel = await this.store.channelByName(name);
    if (!channel) throw new SidekicksError("channel/noRecipient", `There is no channel #${name}.`);
    const stored = await this.store.latestMessages(channel.id, PAGE_SIZE);
    const running = [...this.turns.values()].filter((t) => t.message.channelId === channel.id).map((t) => toView(t.message, "streaming"));
    return { channel: await this.view(channel), messages: [...stored.map((m) => toView(m)), ...running] };
  }

  /**
   * Admits a user message: stores it, then starts one turn per recipient (not awaited).
   * @returns the stored message's id
   * @throws SidekicksError `channel/unknownMember` (names the members), `channel/noRecipient`
   */
  async send(channelId: string, text: string): Promise<{ messageId: string }> {
    const members = (await this.store.members(channelId)).map((m) => m.agentName);
    const route = routeMessage(text, members, this.lastAddressed.get(channelId));
    const list = members.map((m) => `@${m}`).join(", ") || "none yet";
    if (route.kind === "unknown") {
      throw new SidekicksError("channel/unknownMember", `No member named ${route.names.map((n) => `@${n}`).join(", ")} in this channel. Members: ${list}.`);
    }
    if (route.kind === "none") {
      throw new SidekicksError(
        "channel/noRecipient",
        members.length === 0
          ? "No agent in this channel yet: add one to sidekicks.yaml (Sidekicks: Create config)."
          : `Say who this is for: start with @name. Members: ${list}.`,
      );
    }
    const at = this.now();
    const userMessage: MessageRecord = { version: 1, id: this.ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text }], createdAt: at };
    await this.store.commit({ messages: [userMessage] });
    this.emitter.emit("message:finished", toView(userMessage));
    this.lastAddressed.set(channelId, route.agents[route.agents.length - 1]!);
    for (const agent of route.agents) this.enqueue(channelId, agent, route.prompt);
    return { messageId: userMessage.id };
  }

  /** Answers a pending permission request. @returns false when no turn holds it (already answered or gone). */
  answerPermission(requestId: string, optionId: string): boolean {
    for (const turn of this.turns.values()) if (turn.hasPermission(requestId)) return turn.answer(requestId, optionId);
    return false;
  }

  /**
   * Stops accepting work and settles running turns as interrupted, keeping what they received (the window is
   * closing or the store is being reopened).
   */
  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.turns.values()];
    this.turns.clear();
    const messages = running.map((t) => t.settle({ error: { code: "turn/interrupted", message: "Interrupted: the window closed or Sidekicks restarted before the answer finished." } }));
    if (messages.length > 0) await this.store.commit({ messages });
  }

  private enqueue(channelId: string, agent: string, prompt: string): void {
    const key = `${channelId}/${agent}`;
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.runTurn(channelId, agent, prompt)).catch((err) => this.log(`turn failed unexpectedly: ${String(err)}`));
    this.queues.set(key, next);
  }

  private async runTurn(channelId: string, agent: string, prompt: string): Promise<void> {
    if (this.closed) return;
    const key = `${channelId}/${agent}`;
    const at = this.now();
    const message: MessageRecord = { version: 1, id: this.ulid(at), channelId, author: { kind: "agent", agentName: agent }, parts: [], createdAt: at };
    const turn = new AgentTurn(message, this.emitter, () => this.ulid(), (line) => this.log(`[${agent}] ${line}`));
    this.turns.set(key, turn);
    this.emitter.emit("message:started", toView(message, "streaming"));
    const sink: SessionSink = {
      onUpdate: (update) => {
        const target = this.turns.get(key) ?? this.lastTurns.get(key);
        if (!target) return;
        if (target !== this.turns.get(key)) {
          this.log(`[${agent}] session/update after the prompt ended attached to the finished message (field case 1)`);
          target.apply(update);
          void this.persistLate(target);
          return;
        }
        target.apply(update);
      },
      onPermissionRequest: (request, signal) => {
        const target = this.turns.get(key);
        return target ? target.requestPermission(request, signal) : Promise.resolve({ outcome: "cancelled" });
      },
    };
    let result: { stopReason?: string; error?: { code: string; message: string; detail?: string } };
    try {
      const session = await this.agents.session(agent, channelId, sink);
      result = { stopReason: await session.prompt(prompt) };
    } catch (err) {
      const e = asSidekicksError(err, "agent/protocol");
      result = { error: { code: e.code, message: e.message, detail: e.detail } };
    }
    if (this.turns.get(key) !== turn) return; // closed meanwhile: close() settled it
    this.turns.delete(key);
    this.lastTurns.set(key, turn);
    const settled = turn.settle(result);
    const member = await this.memberAfter(channelId, agent, settled.id);
    await this.store.commit({ messages: [settled], members: member ? [member] : [] });
    this.emitter.emit("message:finished", toView(settled));
  }

  private async persistLate(turn: AgentTurn): Promise<void> {
    if (this.closed) return;
    await this.store.commit({ messages: [turn.message] });
    this.emitter.emit("message:finished", toView(turn.message));
  }

  private async memberAfter(channelId: string, agent: string, lastSeenMessageId: string): Promise<MembershipRecord | undefined> {
    const member = (await this.store.members(channelId)).find((m) => m.agentName === agent);
    return member ? { ...member, lastSeenMessageId } : undefined;
  }

  private async view(channel: ChannelRecord): Promise<ChannelView> {
    const members = await this.store.members(channel.id);
    return { id: channel.id, name: channel.name, members: members.map((m) => ({ name: m.agentName, state: this.agents.state(m.agentName) })) };
  }
}

/** Projects a stored message to the webview's shape. */
export function toView(m: MessageRecord, status?: MessageView["status"]): MessageView {
  return {
    id: m.id,
    channelId: m.channelId,
    author: m.author,
    parts: m.parts.map((p) => ({ ...p })),
    createdAt: m.createdAt,
    status: status ?? (m.error ? "error" : "done"),
    stopReason: m.stopReason,
    error: m.error,
  };
}
