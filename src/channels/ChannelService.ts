import { monotonicFactory } from "ulid";
import type { AgentSession, SessionSink } from "../agents/AgentManager";
import { asSidekicksError, SidekicksError } from "../errors";
import type { Emitter } from "../events/events";
import type { AgentState, ChannelView, MessageView } from "../protocol";
import type { Store } from "../store/Store";
import type { ChannelRecord, MembershipRecord, MessageRecord } from "../store/records";
import { AgentCommands } from "./AgentCommands";
import { AgentTurn } from "./AgentTurn";
import { CONTEXT_SCAN_LIMIT, formatContext, unseenMessages } from "./context";
import { MAX_DELEGATIONS, planDelegation } from "./delegation";
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

/** How long Stop waits for the agent to answer `session/cancel` before settling the turn anyway, in ms. */
export const CANCEL_GRACE_MS = 5_000;

/** A turn waiting for its agent to finish an earlier one in the same channel. */
interface QueuedTurn {
  message: MessageRecord;
  prompt: string;
  /** The user message this turn answers: unseen channel messages before it are re-injected. */
  userMessageId: string;
  /** Set for `/cmd`: the prompt goes as typed (no context before it, so the agent sees the command first). */
  command?: string;
  /** The user message at the root of a delegation chain (the one this turn answers, when not delegated). */
  rootMessageId: string;
  cancelled: boolean;
}

/** A turn whose prompt is being sent or streamed. */
interface RunningTurn {
  turn: AgentTurn;
  session?: AgentSession;
  /** Resolved when the user presses Stop. */
  cancelled: Deferred;
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Channels, memberships and messages (ADR 0003 `internal/channels`): routes a user message to the members it
 * mentions, runs one agent turn per recipient in parallel (turns for the same agent in the same channel run one
 * after the other), streams their answers as events, and commits each message when its turn ends (never per chunk).
 */
export class ChannelService {
  private readonly ulid = monotonicFactory();
  private readonly turns = new Map<string, RunningTurn>(); // `${channelId}/${agent}` → running turn
  private readonly lastTurns = new Map<string, AgentTurn>(); // settled turn, for late updates
  private readonly chains = new Map<string, Promise<void>>(); // per key: turns run one after the other
  private readonly queued = new Map<string, QueuedTurn[]>(); // per key: turns waiting for the running one
  private readonly lastAddressed = new Map<string, string>();
  private closed = false;
  /** The commands each agent announced, stored per agent. */
  readonly commands: AgentCommands;
  /** Delegations each user message may still cause (its id → count), for the most recent ones. */
  private readonly delegationsLeft = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly agents: AgentSource,
    private readonly emitter: Emitter,
    private readonly log: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
    /** How long Stop waits for the agent's `cancelled` answer before settling anyway, in ms. */
    private readonly cancelGraceMs = CANCEL_GRACE_MS,
  ) {
    this.commands = new AgentCommands(store);
  }

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
    const running = [...this.turns.values()].filter((r) => r.turn.message.channelId === channel.id).map((r) => toView(r.turn.message, "streaming"));
    const waiting = [...this.queued.values()].flat().filter((q) => q.message.channelId === channel.id).map((q) => toView(q.message, "queued"));
    const live = [...running, ...waiting].sort((a, b) => (a.id < b.id ? -1 : 1));
    return { channel: await this.view(channel), messages: [...stored.map((m) => toView(m)), ...live] };
  }

  /**
   * Admits a user message: stores it, then starts one turn per recipient (not awaited).
   * @returns the stored message's id
   * @throws SidekicksError `channel/unknownMember` and `channel/unknownCommand` (with the closest match),
   *   `channel/noRecipient`
   */
  async send(channelId: string, text: string): Promise<{ messageId: string }> {
    const members = (await this.store.members(channelId)).map((m) => m.agentName);
    const known = await this.commands.ofAll(members);
    const route = routeMessage(text, members, await this.lastAddressedIn(channelId), (agent) => known[agent]?.map((c) => c.name));
    const list = members.map((m) => `@${m}`).join(", ") || "none yet";
    if (route.kind === "error") throw new SidekicksError(route.code, route.message);
    if (route.kind === "none") {
      throw new SidekicksError(
        "channel/noRecipient",
        members.length === 0
          ? "No agent in this channel yet: add a member (the + member button, or Sidekicks: Add member…); agents themselves are declared in sidekicks.yaml."
          : `Say who this is for: start with @name. Members: ${list}.`,
      );
    }
    const at = this.now();
    const userMessage: MessageRecord = {
      version: 1,
      id: this.ulid(at),
      channelId,
      author: { kind: "user" },
      parts: [{ type: "text", text }],
      createdAt: at,
      to: route.agents,
    };
    await this.store.commit({ messages: [userMessage] });
    this.emitter.emit("message:finished", toView(userMessage));
    this.lastAddressed.set(channelId, route.agents[route.agents.length - 1]!);
    for (const agent of route.agents) {
      this.enqueue(channelId, agent, { prompt: route.prompt, userMessageId: userMessage.id, rootMessageId: userMessage.id, command: route.command });
    }
    return { messageId: userMessage.id };
  }

  /** Answers a pending permission request. @returns false when no turn holds it (already answered or gone). */
  answerPermission(requestId: string, optionId: string): boolean {
    for (const { turn } of this.turns.values()) if (turn.hasPermission(requestId)) return turn.answer(requestId, optionId);
    return false;
  }

  /**
   * Stops an agent message (the user's Stop): a queued turn leaves the queue and is saved as cancelled; a running
   * one gets ACP `session/cancel`, its permission requests are answered `cancelled`, and it settles `cancelled`
   * when the agent answers — or after {@link CANCEL_GRACE_MS} if the agent ignores the cancel.
   * @returns false when no queued or running turn has that message
   */
  async cancel(messageId: string): Promise<boolean> {
    for (const [key, list] of this.queued) {
      const index = list.findIndex((q) => q.message.id === messageId);
      if (index === -1) continue;
      const [entry] = list.splice(index, 1);
      if (list.length === 0) this.queued.delete(key);
      entry!.cancelled = true;
      entry!.message.stopReason = "cancelled";
      await this.store.commit({ messages: [entry!.message] });
      this.emitter.emit("message:finished", toView(entry!.message));
      return true;
    }
    for (const running of this.turns.values()) {
      if (running.turn.message.id !== messageId) continue;
      running.turn.cancel();
      running.cancelled.resolve();
      await running.session?.cancel();
      return true;
    }
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
    const messages = running.map(({ turn }) =>
      turn.settle({ error: { code: "turn/interrupted", message: "Interrupted: the window closed or Sidekicks restarted before the answer finished." } }),
    );
    for (const list of this.queued.values()) {
      for (const entry of list) {
        entry.cancelled = true;
        const agent = entry.message.author.agentName ?? "the agent";
        entry.message.error = {
          code: "turn/interrupted",
          message: `Not delivered: the window closed while @${agent} was still busy with an earlier message. Send it again.`,
        };
        messages.push(entry.message);
      }
    }
    this.queued.clear();
    if (messages.length > 0) await this.store.commit({ messages });
  }

  /** Creates the agent's message now (shown `queued` when the agent is busy here) and runs it in turn. */
  private enqueue(
    channelId: string,
    agent: string,
    input: Pick<QueuedTurn, "prompt" | "userMessageId" | "command" | "rootMessageId">,
    delegation?: Pick<MessageRecord, "delegatedBy" | "parentMessageId">,
  ): void {
    const key = `${channelId}/${agent}`;
    const at = this.now();
    const message: MessageRecord = { version: 1, id: this.ulid(at), channelId, author: { kind: "agent", agentName: agent }, parts: [], createdAt: at, ...delegation };
    const entry: QueuedTurn = { message, ...input, cancelled: false };
    const list = this.queued.get(key) ?? [];
    const waits = this.turns.has(key) || list.length > 0;
    list.push(entry);
    this.queued.set(key, list);
    this.emitter.emit("message:started", toView(message, waits ? "queued" : "streaming"));
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.runTurn(key, agent, entry)).catch((err) => this.log(`turn failed unexpectedly: ${String(err)}`));
    this.chains.set(key, next);
  }

  private async runTurn(key: string, agent: string, entry: QueuedTurn): Promise<void> {
    if (entry.cancelled || this.closed) return; // cancelled or interrupted while queued: already saved
    const list = this.queued.get(key) ?? [];
    list.splice(list.indexOf(entry), 1);
    if (list.length === 0) this.queued.delete(key);
    const { message } = entry;
    const turn = new AgentTurn(message, this.emitter, () => this.ulid(), (line) => this.log(`[${agent}] ${line}`));
    const running: RunningTurn = { turn, cancelled: deferred() };
    this.turns.set(key, running);
    this.emitter.emit("message:started", toView(message, "streaming"));
    const sink: SessionSink = {
      onUpdate: (update) => {
        const current = this.turns.get(key)?.turn;
        const target = current ?? this.lastTurns.get(key);
        if (!target) return;
        if (target !== current) {
          this.log(`[${agent}] session/update after the prompt ended: attached to the finished message`);
          target.apply(update);
          void this.persistLate(target);
          return;
        }
        target.apply(update);
      },
      onPermissionRequest: (request, signal) => {
        const target = this.turns.get(key)?.turn;
        return target ? target.requestPermission(request, signal) : Promise.resolve({ outcome: "cancelled" });
      },
    };
    let result: { stopReason?: string; error?: { code: string; message: string; detail?: string } };
    try {
      const session = await this.agents.session(agent, message.channelId, sink);
      running.session = session;
      if (turn.cancelled) {
        result = { stopReason: "cancelled" };
      } else {
        const context = entry.command ? "" : await this.unseenContext(message.channelId, agent, entry.userMessageId, session.fresh);
        const prompt = session.prompt(context + entry.prompt);
        // Stop waits for the agent's `cancelled` answer, but not forever: an agent that ignores session/cancel
        // must not leave a spinner behind.
        const gaveUp = running.cancelled.promise.then(() => delay(this.cancelGraceMs)).then(() => "cancelled" as const);
        result = { stopReason: await Promise.race([prompt, gaveUp]) };
        prompt.catch(() => undefined);
      }
    } catch (err) {
      const e = asSidekicksError(err, "agent/protocol");
      // The user stopped the agent itself (Agents view, Restart): the answer ends as cancelled, not as a crash.
      result = e.code === "agent/stopped" ? { stopReason: "cancelled" } : { error: { code: e.code, message: e.message, detail: e.detail } };
    }
    if (this.turns.get(key) !== running) return; // closed meanwhile: close() settled it
    this.turns.delete(key);
    this.lastTurns.set(key, turn);
    const settled = turn.settle(result);
    // The agent has now seen the channel up to the message it answered — unless it failed (the context comes
    // again next time) or ran a command (which went without context).
    const member = settled.error || entry.command ? undefined : await this.memberAfter(message.channelId, agent, entry.userMessageId);
    await this.store.commit({ messages: [settled], members: member ? [member] : [] });
    this.emitter.emit("message:finished", toView(settled));
    if (!settled.error && settled.stopReason === "end_turn") await this.delegate(entry, settled);
  }

  /**
   * An agent's final answer that @mentions other members delegates to them: one child turn each, linked to the
   * answer (`delegatedBy`, `parentMessageId`), within {@link MAX_DELEGATIONS} per user message and never straight
   * back to the agent that delegated. What is refused is said in a system message.
   */
  private async delegate(entry: QueuedTurn, answer: MessageRecord): Promise<void> {
    const from = answer.author.agentName;
    const text = answer.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (!from || this.closed || !text.includes("@")) return;
    const members = (await this.store.members(answer.channelId)).map((m) => m.agentName);
    const remaining = this.delegationsLeft.get(entry.rootMessageId) ?? MAX_DELEGATIONS;
    const plan = planDelegation({ from, text, delegatedBy: answer.delegatedBy }, members, remaining);
    if (plan.to.length === 0 && plan.refused.length === 0) return;
    this.delegationsLeft.set(entry.rootMessageId, remaining - plan.to.length);
    if (this.delegationsLeft.size > 1_000) this.delegationsLeft.delete(this.delegationsLeft.keys().next().value!);
    if (plan.refused.length > 0) {
      const at = this.now();
      const note: MessageRecord = { version: 1, id: this.ulid(at), channelId: answer.channelId, author: { kind: "system" }, parts: [{ type: "text", text: plan.refused.join("\n\n") }], createdAt: at };
      await this.store.commit({ messages: [note] });
      this.emitter.emit("message:finished", toView(note));
    }
    for (const agent of plan.to) {
      const prompt = `@${from} delegated this to you:\n\n${text}`;
      this.enqueue(answer.channelId, agent, { prompt, userMessageId: answer.id, rootMessageId: entry.rootMessageId }, { delegatedBy: from, parentMessageId: answer.id });
    }
  }

  /** The agent addressed last in a channel: remembered, else read from the latest routed user message. */
  private async lastAddressedIn(channelId: string): Promise<string | undefined> {
    if (!this.lastAddressed.has(channelId)) {
      const recent = await this.store.latestMessages(channelId, PAGE_SIZE);
      const last = recent.reverse().find((m) => m.author.kind === "user" && m.to && m.to.length > 0);
      if (last?.to) this.lastAddressed.set(channelId, last.to[last.to.length - 1]!);
    }
    return this.lastAddressed.get(channelId);
  }

  /**
   * The channel messages `agent` has not seen before the user message `beforeId`, formatted to go before the
   * prompt (see `context.ts`); "" when there are none. A `fresh` session remembers nothing: when the agent answered
   * here before (in a session now gone), the channel's history is repeated, its own answers included.
   */
  private async unseenContext(channelId: string, agent: string, beforeId: string, fresh: boolean): Promise<string> {
    const member = (await this.store.members(channelId)).find((m) => m.agentName === agent);
    const newSession = fresh && member?.lastSeenMessageId !== undefined;
    const lastSeen = newSession ? undefined : member?.lastSeenMessageId;
    // Usually the latest page holds everything unseen; a late joiner's catch-up reads up to CONTEXT_SCAN_LIMIT.
    let recent = await this.store.latestMessages(channelId, PAGE_SIZE);
    if (recent.length === PAGE_SIZE && (lastSeen === undefined || recent[0]!.id > lastSeen)) recent = await this.store.latestMessages(channelId, CONTEXT_SCAN_LIMIT);
    const truncated = recent.length === CONTEXT_SCAN_LIMIT && (lastSeen === undefined || recent[0]!.id > lastSeen);
    return formatContext(unseenMessages(recent, agent, lastSeen, beforeId, newSession), { olderNotRead: truncated, newSession });
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
    const order = this.agents.names();
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    const members = (await this.store.members(channel.id)).sort((a, b) => rank(a.agentName) - rank(b.agentName));
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
    to: m.to,
    ...(m.delegatedBy ? { delegatedBy: m.delegatedBy, parentMessageId: m.parentMessageId } : {}),
    status: status ?? (m.error ? "error" : "done"),
    stopReason: m.stopReason,
    error: m.error,
  };
}
