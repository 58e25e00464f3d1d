import * as l10n from "@vscode/l10n";
import { readFile } from "node:fs/promises";
import { monotonicFactory } from "ulid";
import { SidekicksError } from "../errors";
import type { Emitter } from "../events/events";
import type { AgentState, ChannelView, MessageView, SessionChange, SessionStateView } from "../protocol";
import { asSessionState } from "../agents/sessionState";
import type { Store } from "../store/Store";
import type { ChannelRecord, MessageRecord, TurnRecord } from "../store/records";
import { CANCEL_GRACE_MS, isActive, statusOf, type Admission, type RoundAnswer } from "../turns/reducer";
import { IntentLog, describeIntent } from "../turns/intents";
import { asChangedFiles, turnFilesKey } from "../turns/changedFiles";
import { recoveryInput } from "../turns/recovery";
import { TurnFiles } from "../workspace/turnFiles";
import { PermissionMemory } from "../turns/permissionMemory";
import type { PermissionPolicy } from "../turns/permissionPolicy";
import { TurnExecutor, type SessionSource } from "../turns/TurnExecutor";
import { toView } from "../turns/view";
import { AgentCommands } from "./AgentCommands";
import { CONTEXT_SCAN_LIMIT, formatContext, unseenMessages } from "./context";
import { MAX_DELEGATIONS, planDelegation } from "./delegation";
import { routeMessage } from "./mentions";
import { moderatorPrompt, shouldWakeModerator } from "./panel";

export { toView } from "../turns/view";
export { CANCEL_GRACE_MS } from "../turns/reducer";

export { TURN_FILES_BYTES } from "../turns/changedFiles";

/** What channels need of the agent manager (ADR 0003 Amendment 3, `AgentSource`). */
export interface AgentSource extends SessionSource {
  names(): string[];
  state(name: string): AgentState;
  /** The session state of `agent` for `owner` in this activation (AgentManager.sessionState). */
  sessionState?(agent: string, owner: string): SessionStateView | undefined;
  /** Remembers a state an earlier activation stored (AgentManager.seedSessionState). */
  seedSessionState?(state: SessionStateView): void;
  /** Changes a session setting, opening or resuming the session first (AgentManager.configure). */
  configure?(agent: string, owner: string, change: SessionChange, options?: { resumeSessionId?: string }): Promise<{ state: SessionStateView; sessionId: string }>;
}

/** `value/` key of the last known session state of an agent in a channel (issue 6, "Session controls"). */
const sessionStateKey = (channelId: string, agent: string) => `sessionState/${channelId}/${agent}`;

/** Options of {@link ChannelService} beyond its ports. */
export interface ChannelOptions {
  /** This activation's owner id for turn attempts (default: a new ULID). */
  owner?: string;
  /** The moderator of a channel (from the roster's `channels[].moderator`), if it has one. */
  moderatorOf?: (channel: ChannelRecord) => string | undefined;
  /** An agent's `permissions` policy (from the roster; default `ask`). */
  policyOf?: (agent: string) => PermissionPolicy | undefined;
  /** Period of the checkpoint/heartbeat tick, in ms (tests shorten it). */
  tickMs?: number;
}

/** How many messages `open` returns (the latest page). */
export const PAGE_SIZE = 50;

/** The largest page `older` returns, in messages. */
export const OLDER_PAGE_MAX = 500;

/** The channel every agent of the roster joins. */
export const GENERAL = "general";

/**
 * Channels, memberships and messages (ADR 0003 `internal/channels`) over durable turns (`src/turns/`): routes a
 * user message to the members it mentions and admits one turn per recipient in the same batch as the message; the
 * turn executor runs them (one at a time per agent and channel, in parallel across agents), checkpoints their
 * answers, settles them, and recovers turns a previous activation left open. Delegation and the panel's moderator
 * start here, after a turn or a round settles.
 */
export class ChannelService {
  private readonly ulid = monotonicFactory();
  private readonly lastAddressed = new Map<string, string>();
  private readonly executor: TurnExecutor;
  /** Resolves when the sweeper has recovered what the previous activation left open. */
  readonly ready: Promise<void>;
  /** The commands each agent announced, stored per agent. */
  readonly commands: AgentCommands;
  /** Tool intents: effects run for agents, recorded around the effect (brief, "Tool intents"). */
  readonly intents: IntentLog;
  /** The user's Sidekicks permission rules per agent (ADR 0005). */
  readonly permissions: PermissionMemory;
  /** Files changed under each running turn's workspace (fed by the editor's file watcher: {@link filesChanged}). */
  private readonly files: TurnFiles;
  /** Delegations each user message may still cause (its id → count), for the most recent ones. */
  private readonly delegationsLeft = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly agents: AgentSource,
    private readonly emitter: Emitter,
    private readonly log: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
    /** How long Stop waits for the agent's `cancelled` answer before settling anyway, in ms. */
    cancelGraceMs = CANCEL_GRACE_MS,
    private readonly options: ChannelOptions = {},
  ) {
    this.files = new TurnFiles([store.dir]);
    this.commands = new AgentCommands(store);
    this.intents = new IntentLog(store, () => this.ulid(), () => this.now());
    this.permissions = new PermissionMemory(store);
    this.executor = new TurnExecutor(
      {
        store,
        // A session opened for a turn knows the choices stored before (after a reload): they are restored.
        agents: withStoredChoices(agents, (channelId, agent) => this.sessionStates(channelId, [agent])),
        emitter,
        log: (level, line) => this.log(level === "debug" ? line : `${level}: ${line}`),
        now: () => this.now(),
        context: (turn, fresh) => this.unseenContext(turn.channelId, turn.agent, turn.requestMessageId, fresh),
        settled: (turn, message) => this.delegate(turn, message),
        roundSettled: (channelId, root, answers) => this.wakeModerator(channelId, root, answers),
        policyOf: (agent) => options.policyOf?.(agent) ?? "ask",
        permissions: this.permissions,
        intents: this.intents,
        files: this.files,
      },
      { owner: options.owner ?? this.ulid(), cancelGraceMs, tickMs: options.tickMs },
    );
    this.ready = this.recover();
  }

  /**
   * The sweeper (brief, "Recovery"): reads the open turns through the `turn-open/` index; those a previous
   * activation was running are settled `interrupted` with their last checkpoint, queued ones are dispatched.
   */
  private async recover(): Promise<void> {
    const input = await recoveryInput(this.store, this.intents, (file) => readFile(file, "utf8").catch(() => undefined), this.now());
    if (input) await this.executor.submit(input);
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

  /**
   * The channel named `name` with its latest page of messages, oldest first. Answers whose turn is open show what
   * has streamed so far, `queued` or `streaming`.
   */
  async open(name: string): Promise<{ channel: ChannelView; messages: MessageView[]; more: boolean }> {
    await this.ready;
    const channel = await this.store.channelByName(name);
    if (!channel) throw new SidekicksError("channel/noRecipient", l10n.t("There is no channel #{0}.", name));
    // One record more than the page tells whether older messages exist without a second scan.
    const stored = await this.store.latestMessages(channel.id, PAGE_SIZE + 1);
    const more = stored.length > PAGE_SIZE;
    return { channel: await this.view(channel), messages: this.views(more ? stored.slice(1) : stored), more };
  }

  /**
   * The page of messages just before `beforeId` in channel `channelId` (at most `limit`, capped at
   * {@link OLDER_PAGE_MAX}), oldest first, and whether still older ones exist: the history scrolls back page by page
   * instead of the view holding all of it.
   * @throws SidekicksError `channel/noRecipient` when the channel does not exist
   */
  async older(channelId: string, beforeId: string, limit = PAGE_SIZE): Promise<{ messages: MessageView[]; more: boolean }> {
    await this.ready;
    if (!(await this.store.channelById(channelId))) throw new SidekicksError("channel/noRecipient", l10n.t("That channel no longer exists."));
    const size = Math.max(1, Math.min(Math.floor(limit), OLDER_PAGE_MAX));
    const stored = await this.store.messagesBefore(channelId, beforeId, size + 1);
    const more = stored.length > size;
    return { messages: this.views(more ? stored.slice(1) : stored), more };
  }

  /** Stored messages as views; answers whose turn is open show what has streamed so far, `queued` or `streaming`. */
  private views(stored: readonly MessageRecord[]): MessageView[] {
    const live = this.executor.state.turns;
    return stored.map((m) => {
      const t = m.turnId ? live[m.turnId] : undefined;
      return t ? toView(t.message, statusOf(t)) : toView(m);
    });
  }

  /**
   * Admits a user message: the message, one turn per recipient and their (empty) answers are written in one
   * batch before anything is sent; turns for idle agents start at once, the others wait queued.
   * @returns the stored message's id
   * @throws SidekicksError `channel/unknownMember` and `channel/unknownCommand` (with the closest match),
   *   `channel/noRecipient`
   */
  async send(channelId: string, text: string): Promise<{ messageId: string }> {
    await this.ready;
    const members = (await this.store.members(channelId)).map((m) => m.agentName);
    const known = await this.commands.ofAll(members);
    const route = routeMessage(text, members, await this.lastAddressedIn(channelId), (agent) => known[agent]?.map((c) => c.name));
    const list = members.map((m) => `@${m}`).join(", ") || l10n.t("none yet");
    if (route.kind === "error") throw new SidekicksError(route.code, route.message);
    if (route.kind === "none") {
      throw new SidekicksError(
        "channel/noRecipient",
        members.length === 0
          ? l10n.t("No agent in this channel yet: add a member (the + member button, or Sidekicks: Add member…); agents themselves are declared in sidekicks.yaml.")
          : l10n.t("Say who this is for: start with @name. Members: {0}.", list),
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
    this.lastAddressed.set(channelId, route.agents[route.agents.length - 1]!);
    const turns = route.agents.map((agent) =>
      this.admission(channelId, agent, { prompt: route.prompt, requestMessageId: userMessage.id, rootMessageId: userMessage.id, command: route.command }),
    );
    await this.executor.submit({ type: "admit", at, message: userMessage, turns });
    return { messageId: userMessage.id };
  }

  /** Answers a pending permission request (`remember`: and makes a Sidekicks rule). @returns false when not pending or no rule fits */
  async answerPermission(requestId: string, optionId: string, remember = false): Promise<boolean> {
    return (await this.executor.submit({ type: "answer", requestId, optionId, ...(remember ? { remember } : {}) })) ?? false;
  }

  /**
   * Stops an agent message (the user's Stop): a queued turn leaves the queue and is saved as cancelled; a running
   * one gets ACP `session/cancel`, its permission requests are answered `cancelled`, and it settles `cancelled`
   * when the agent answers — or after the cancel grace if the agent ignores the cancel.
   * @returns false when no queued or running turn has that message
   */
  async cancel(messageId: string): Promise<boolean> {
    return (await this.executor.submit({ type: "cancel", messageId, at: this.now() })) ?? false;
  }

  /**
   * Retry (brief, "Recovery") of an interrupted or failed turn, Run again of a cancelled one: a new attempt in the
   * same message, whose prompt tells the agent what the earlier attempt is known to have done (`runAgain.ts`).
   * @returns false when the message has no turn to run again (completed, refused, or running again already)
   */
  async retry(channelId: string, messageId: string): Promise<boolean> {
    await this.ready;
    const message = await this.store.message(channelId, messageId);
    const record = message?.turnId ? await this.store.turn(message.turnId) : undefined;
    if (!message || !record) return false;
    const known = (await this.store.intentsOf(record.id)).filter((i) => i.attempt === record.attempt).map(describeIntent);
    return (await this.executor.submit({ type: "retry", at: this.now(), record, message, known })) ?? false;
  }

  /** Retry by message id alone (the webview's `turn/retry`). */
  async retryMessage(messageId: string): Promise<boolean> {
    const message = await this.findMessage(messageId);
    return message ? this.retry(message.channelId, messageId) : false;
  }

  /** A message by id alone: the channel it lives in is looked up (messages are keyed by channel). */
  private async findMessage(messageId: string): Promise<MessageRecord | undefined> {
    for (const channel of await this.store.channels()) {
      const message = await this.store.message(channel.id, messageId);
      if (message) return message;
    }
    return undefined;
  }

  /** "Send now": a queued answer runs now; the agent's running answer in that channel is stopped first. */
  async sendNow(messageId: string): Promise<boolean> {
    return (await this.executor.submit({ type: "sendNow", messageId, at: this.now() })) ?? false;
  }

  /**
   * The editor's file watcher saw files change (throttled): each joins the list of every turn running in a workspace
   * that holds it (issue 7, "File watching").
   */
  async filesChanged(events: readonly { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void> {
    await this.files.changed(events);
  }

  /**
   * The user saved `file` (absolute) in the editor, holding `text`: while it still holds that, it is not listed as the
   * agent's change of the turns running now.
   */
  documentSaved(file: string, text: string): void {
    this.files.saved(file, text);
  }

  /**
   * The two sides of a changed file's diff: its text from before the turn of `messageId`, and its text now (`""` once
   * deleted). Undefined when the file is not in that turn's list or its earlier text is not known.
   */
  async fileDiff(messageId: string, file: string): Promise<{ path: string; oldText: string | null; newText: string } | undefined> {
    const message = await this.findMessage(messageId);
    if (!message?.turnId) return undefined;
    const kept = asChangedFiles(await this.store.getValue(turnFilesKey(message.turnId))).find((f) => f.path === file);
    if (!kept || kept.before === undefined) return undefined;
    const now = kept.kind === "deleted" ? "" : await readFile(file, "utf8").catch(() => "");
    return { path: file, oldText: kept.before, newText: now };
  }

  /**
   * Changes a setting of `agent`'s session in a channel (ACP `session/set_mode`, `session/set_config_option`, the legacy
   * `session/set_model`); when the session's process has gone, the member's stored session is resumed (or a new one
   * opened) first, and its id stored as a turn would.
   * @returns the session state after the change
   * @throws SidekicksError `channel/unknownMember`, `session/invalidChange`, `agent/request` (refused), and what opening
   *   a session throws
   */
  async configure(channelId: string, agent: string, change: SessionChange): Promise<SessionStateView> {
    await this.ready;
    const member = (await this.store.members(channelId)).find((m) => m.agentName === agent);
    if (!member) throw new SidekicksError("channel/unknownMember", l10n.t("@{0} is not a member of this channel: add it first.", agent));
    if (!this.agents.configure) throw new SidekicksError("agent/unsupported", l10n.t("Session settings cannot be changed here."));
    await this.sessionStates(channelId, [agent]);
    const { state, sessionId } = await this.agents.configure(agent, channelId, change, member.acpSessionId ? { resumeSessionId: member.acpSessionId } : {});
    await this.executor.submit({ type: "sessionOpened", channelId, agent, sessionId });
    return state;
  }

  /**
   * The last known session state of each of `agents` in a channel, by agent name: this activation's (live) when the
   * session was opened here, else the one stored before (`live` false).
   */
  async sessionStates(channelId: string, agents: readonly string[]): Promise<Record<string, SessionStateView>> {
    const out: Record<string, SessionStateView> = {};
    for (const agent of agents) {
      let state = this.agents.sessionState?.(agent, channelId);
      if (!state) {
        state = asSessionState(await this.store.getValue(sessionStateKey(channelId, agent)));
        if (state && state.channelId === channelId && state.agent === agent) this.agents.seedSessionState?.(state);
      }
      if (state && state.channelId === channelId && state.agent === agent) out[agent] = state;
    }
    return out;
  }

  /** Stores a session state (`session:state`) so that it is shown after a reload. */
  async keepSessionState(state: SessionStateView): Promise<void> {
    await this.store.putValue(sessionStateKey(state.channelId, state.agent), { ...state, live: false });
  }

  /** Whether an agent has an open (running or queued) turn in a channel. */
  isBusy(channelId: string): boolean {
    return Object.values(this.executor.state.turns).some((t) => t.record.channelId === channelId && isActive(t));
  }

  /**
   * Stops accepting work: running attempts are settled `interrupted` with everything they received; queued turns
   * stay in the store and run at the next activation (the window is closing or the store is being reopened).
   */
  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.executor.close();
  }

  private admission(
    channelId: string,
    agent: string,
    input: Pick<Admission, "prompt" | "requestMessageId" | "rootMessageId" | "command" | "role" | "parentTurnId" | "delegatedBy" | "parentMessageId">,
  ): Admission {
    const at = this.now();
    return { turnId: this.ulid(at), messageId: this.ulid(at), channelId, agent, ...input };
  }

  /**
   * An agent's final answer that @mentions other members delegates to them: one child turn each, linked to the
   * answer (`delegatedBy`, `parentMessageId`, `parentTurnId`), within {@link MAX_DELEGATIONS} per user message and
   * never straight back to the agent that delegated. What is refused is said in a system message.
   */
  private async delegate(turn: TurnRecord, answer: MessageRecord): Promise<void> {
    const from = answer.author.agentName;
    if (turn.outcome !== "completed" || answer.stopReason !== "end_turn" || turn.role === "moderator") return;
    const text = answer.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (!from || !text.includes("@")) return;
    const members = (await this.store.members(answer.channelId)).map((m) => m.agentName);
    const remaining = this.delegationsLeft.get(turn.rootMessageId) ?? MAX_DELEGATIONS;
    const root = await this.store.message(answer.channelId, turn.rootMessageId);
    const plan = planDelegation({ from, text, delegatedBy: answer.delegatedBy, addressed: root?.author.kind === "user" ? root.to : undefined }, members, remaining);
    if (plan.to.length === 0 && plan.refused.length === 0) return;
    this.delegationsLeft.set(turn.rootMessageId, remaining - plan.to.length);
    if (this.delegationsLeft.size > 1_000) this.delegationsLeft.delete(this.delegationsLeft.keys().next().value!);
    const at = this.now();
    const note: MessageRecord | undefined =
      plan.refused.length > 0 ? { version: 1, id: this.ulid(at), channelId: answer.channelId, author: { kind: "system" }, parts: [{ type: "text", text: plan.refused.join("\n\n") }], createdAt: at } : undefined;
    const turns = plan.to.map((agent) =>
      this.admission(answer.channelId, agent, {
        prompt: `@${from} delegated this to you:\n\n${text}`,
        requestMessageId: answer.id,
        rootMessageId: turn.rootMessageId,
        parentTurnId: turn.id,
        delegatedBy: from,
        parentMessageId: answer.id,
      }),
    );
    await this.executor.submit({ type: "admit", at, message: note, turns });
  }

  /**
   * The panel (brief, "A channel may name a moderator that is woken once every turn of a round has settled"): when
   * the round's last turn settles, the moderator gets a turn of its own. A system message marks the wake-up; the
   * round's messages reach the moderator as re-injected context (what it has not seen, up to that mark).
   */
  private async wakeModerator(channelId: string, rootMessageId: string, answers: RoundAnswer[]): Promise<void> {
    const channel = await this.store.channelById(channelId);
    const moderator = channel ? this.options.moderatorOf?.(channel) : undefined;
    if (!moderator) return;
    const members = (await this.store.members(channelId)).map((m) => m.agentName);
    if (!members.includes(moderator) || !shouldWakeModerator(moderator, answers)) return;
    const at = this.now();
    const others = answers.filter((a) => a.agent !== moderator).map((a) => `@${a.agent}`);
    const mark: MessageRecord = {
      version: 1,
      id: this.ulid(at),
      channelId,
      author: { kind: "system" },
      parts: [{ type: "text", text: l10n.t("Round complete ({0}): @{1}, the moderator, sums up.", [...new Set(others)].join(", "), moderator) }],
      createdAt: at,
    };
    const turn = this.admission(channelId, moderator, { prompt: moderatorPrompt(answers, moderator), requestMessageId: mark.id, rootMessageId, role: "moderator" });
    await this.executor.submit({ type: "admit", at, message: mark, turns: [turn] });
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
   * The channel messages `agent` has not seen before the message `beforeId`, formatted to go before the
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

  private async view(channel: ChannelRecord): Promise<ChannelView> {
    const order = this.agents.names();
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    const members = (await this.store.members(channel.id)).sort((a, b) => rank(a.agentName) - rank(b.agentName));
    return { id: channel.id, name: channel.name, members: members.map((m) => ({ name: m.agentName, state: this.agents.state(m.agentName) })) };
  }
}

/** `agents`, whose `session` first makes the stored session state (the user's choices with it) known to the manager. */
function withStoredChoices(agents: AgentSource, seed: (channelId: string, agent: string) => Promise<unknown>): SessionSource {
  return {
    session: async (agent, owner, sink, options) => {
      await seed(owner, agent);
      return agents.session(agent, owner, sink, options);
    },
    ...(agents.workspaceOf ? { workspaceOf: (agent: string) => agents.workspaceOf!(agent) } : {}),
  };
}
