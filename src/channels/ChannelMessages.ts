import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../shared/errors";
import type { Attachment, ChannelView, MessageView } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { ChannelRecord, MessageRecord } from "../store/records";
import { isActive, statusOf } from "../turns/reducer";
import type { TurnExecutor } from "../turns/TurnExecutor";
import { toView } from "../turns/view";
import { findMessage, newAdmission, type ChannelClock } from "./admission";
import { messageToMarkdown } from "./exportMarkdown";
import type { AgentCommands } from "./AgentCommands";
import { routeMessage } from "../shared/mentions";

/** How many messages `open` returns (the latest page). */
export const PAGE_SIZE = 50;

/** The largest page `older` returns, in messages. */
export const OLDER_PAGE_MAX = 500;

/** What {@link ChannelMessages} works with. */
export interface ChannelMessagesPorts {
  store: Store;
  /** The turn executor: admits the turns of a message, and holds the open turns shown over their stored answers. */
  executor: TurnExecutor;
  /** The commands each agent announced (`/cmd` routing). */
  commands: AgentCommands;
  clock: ChannelClock;
  /** A channel's header: its members in roster order with their states (`ChannelDirectory.view`). */
  view(channel: ChannelRecord): Promise<ChannelView>;
  /** Resolves once the channels recovered what the previous activation left open. */
  ready(): Promise<void>;
}

/**
 * A channel's messages (`src/channels/`; the original design's `internal/channels`): sending one (routing it to the members it mentions and
 * admitting one durable turn per recipient in the same batch as the message), opening a channel at its latest page
 * with open answers overlaid, and paging back through older messages.
 */
export class ChannelMessages {
  private readonly lastAddressed = new Map<string, string>();

  constructor(private readonly ports: ChannelMessagesPorts) {}

  /**
   * The channel named `name` with its latest page of messages, oldest first. Answers whose turn is open show what
   * has streamed so far, `queued` or `streaming`.
   * @throws SidekicksError `channel/notFound` when no channel has that name
   */
  async open(name: string): Promise<{ channel: ChannelView; messages: MessageView[]; more: boolean }> {
    const { store } = this.ports;
    await this.ports.ready();
    const channel = await store.channelByName(name);
    if (!channel) throw new SidekicksError("channel/notFound", l10n.t("There is no channel #{0}.", name));
    // One record more than the page tells whether older messages exist without a second scan.
    const stored = await store.latestMessages(channel.id, PAGE_SIZE + 1);
    const more = stored.length > PAGE_SIZE;
    return { channel: await this.ports.view(channel), messages: this.views(more ? stored.slice(1) : stored), more };
  }

  /**
   * The page of messages just before `beforeId` in channel `channelId` (at most `limit`, capped at
   * {@link OLDER_PAGE_MAX}), oldest first, and whether still older ones exist: the history scrolls back page by page
   * instead of the view holding all of it.
   * @throws SidekicksError `channel/notFound` when the channel does not exist
   */
  async older(channelId: string, beforeId: string, limit = PAGE_SIZE): Promise<{ messages: MessageView[]; more: boolean }> {
    const { store } = this.ports;
    await this.ports.ready();
    if (!(await store.channelById(channelId))) throw new SidekicksError("channel/notFound", l10n.t("That channel no longer exists."));
    const size = Math.max(1, Math.min(Math.floor(limit), OLDER_PAGE_MAX));
    const stored = await store.messagesBefore(channelId, beforeId, size + 1);
    const more = stored.length > size;
    return { messages: this.views(more ? stored.slice(1) : stored), more };
  }

  /**
   * A message as a reload would show it: its last saved record (for an answer whose turn runs, its last checkpoint),
   * without what has streamed since. `undefined` when the channel has no such message.
   */
  async saved(channelId: string, messageId: string): Promise<MessageView | undefined> {
    await this.ports.ready();
    const record = await this.ports.store.message(channelId, messageId);
    return record ? toView(record) : undefined;
  }

  /** One message of a channel as the view shows it (an open answer: what has streamed so far), or undefined. */
  async message(channelId: string, messageId: string): Promise<MessageView | undefined> {
    await this.ports.ready();
    const stored = await this.ports.store.message(channelId, messageId);
    return stored ? this.views([stored])[0] : undefined;
  }

  /**
   * The newest message of channel `channelId` for which `test` holds (open answers as they stand now), read back
   * through the history {@link OLDER_PAGE_MAX} messages at a time; undefined when none does.
   */
  async find(channelId: string, test: (message: MessageView) => boolean): Promise<MessageView | undefined> {
    const { store } = this.ports;
    await this.ports.ready();
    let page = await store.latestMessages(channelId, OLDER_PAGE_MAX);
    while (page.length > 0) {
      const hit = this.views(page).reverse().find(test);
      if (hit || page.length < OLDER_PAGE_MAX) return hit;
      page = await store.messagesBefore(channelId, page[0]!.id, OLDER_PAGE_MAX);
    }
    return undefined;
  }

  /** Stored messages as views; answers whose turn is open show what has streamed so far, `queued` or `streaming`. */
  private views(stored: readonly MessageRecord[]): MessageView[] {
    const live = this.ports.executor.state.turns;
    return stored.map((m) => {
      const t = m.turnId ? live[m.turnId] : undefined;
      return t ? toView(t.message, statusOf(t)) : toView(m);
    });
  }

  /**
   * Admits a user message: the message, one turn per recipient and their (empty) answers are written in one
   * batch before anything is sent; turns for idle agents start at once, the others wait queued.
   *
   * `editOf` (Edit and resend, issue 19): the id of an earlier user message of this channel the text was edited from.
   * The new message is a new turn like any other (its mentions decide the agents); the earlier one stays in the
   * history as it was, and the new one stores the link (`editOf`).
   * `attachments` (checked and read by the caller) are kept on the message; each recipient's prompt carries them
   * (`TurnExecutor`).
   * @returns the stored message's id
   * @throws SidekicksError `channel/unknownMember` and `channel/unknownCommand` (with the closest match),
   *   `channel/noRecipient`; `channel/notFound` when `editOf` is not a user message of this channel
   */
  async send(channelId: string, text: string, editOf?: string, attachments: readonly Attachment[] = []): Promise<{ messageId: string }> {
    const { store, clock } = this.ports;
    await this.ports.ready();
    if (editOf !== undefined && (await store.message(channelId, editOf))?.author.kind !== "user") {
      throw new SidekicksError("channel/notFound", l10n.t("The message you edited is no longer in this channel, so nothing was sent."));
    }
    const members = (await store.members(channelId)).map((m) => m.agentName);
    const known = await this.ports.commands.ofAll(members);
    const route = routeMessage(text, members, await this.lastAddressedIn(channelId), (agent) => known[agent]?.filter((c) => !c.notCallable).map((c) => c.name));
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
    const at = clock.now();
    const userMessage: MessageRecord = {
      version: 1,
      id: clock.ulid(at),
      channelId,
      author: { kind: "user" },
      parts: [{ type: "text", text }],
      createdAt: at,
      to: route.agents,
      ...(editOf !== undefined ? { editOf } : {}),
      ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
    };
    this.lastAddressed.set(channelId, route.agents[route.agents.length - 1]!);
    const turns = route.agents.map((agent) =>
      newAdmission(clock, channelId, agent, { prompt: route.prompt, requestMessageId: userMessage.id, rootMessageId: userMessage.id, command: route.command }),
    );
    await this.ports.executor.submit({ type: "admit", at, message: userMessage, turns });
    return { messageId: userMessage.id };
  }

  /**
   * Regenerate (issue 19): the request an agent answered in `messageId` goes to the same agent again as a new turn,
   * admitted durably like any other (one batch, queued behind the agent's running answer in the channel). The earlier
   * answer stays; the new one stores the link (`regenerates`). The prompt, command and delegation are the first
   * turn's. Refused while a turn of that agent for the same request is still queued or running.
   * @returns the new answer's id
   * @throws SidekicksError `channel/notFound` when `messageId` is not an agent's answer with a turn;
   *   `channel/busy` while the agent's answer to that request runs
   */
  async regenerate(messageId: string): Promise<{ messageId: string }> {
    const { store, clock, executor } = this.ports;
    await this.ports.ready();
    const answer = await findMessage(store, messageId);
    const turn = answer?.author.kind === "agent" && answer.turnId ? await store.turn(answer.turnId) : undefined;
    if (!answer || !turn) throw new SidekicksError("channel/notFound", l10n.t("Only an agent's answer can be regenerated."));
    const running = Object.values(executor.state.turns).some((t) => isActive(t) && t.record.agent === turn.agent && t.record.requestMessageId === turn.requestMessageId);
    if (running) throw new SidekicksError("channel/busy", l10n.t("@{0} is still answering this request: stop it or wait for it to finish, then regenerate.", turn.agent));
    const admission = newAdmission(clock, turn.channelId, turn.agent, {
      prompt: turn.prompt,
      requestMessageId: turn.requestMessageId,
      rootMessageId: turn.rootMessageId,
      regenerates: answer.id,
      ...(turn.command ? { command: turn.command } : {}),
      ...(turn.role ? { role: turn.role } : {}),
      ...(turn.parentTurnId ? { parentTurnId: turn.parentTurnId } : {}),
      ...(answer.delegatedBy ? { delegatedBy: answer.delegatedBy, parentMessageId: answer.parentMessageId } : {}),
    });
    await executor.submit({ type: "admit", at: clock.now(), turns: [admission] });
    return { messageId: admission.messageId };
  }

  /**
   * One message as Markdown (`messageToMarkdown`: the export's heading and body, and the body alone), an open answer
   * as it stands now; undefined when no channel has that message.
   */
  async markdown(messageId: string): Promise<{ markdown: string; body: string } | undefined> {
    await this.ports.ready();
    const stored = await findMessage(this.ports.store, messageId);
    if (!stored) return undefined;
    const live = stored.turnId ? this.ports.executor.state.turns[stored.turnId] : undefined;
    return messageToMarkdown(live ? live.message : stored);
  }

  /** The agent addressed last in a channel: remembered, else read from the latest routed user message. */
  private async lastAddressedIn(channelId: string): Promise<string | undefined> {
    if (!this.lastAddressed.has(channelId)) {
      const recent = await this.ports.store.latestMessages(channelId, PAGE_SIZE);
      const last = recent.reverse().find((m) => m.author.kind === "user" && m.to && m.to.length > 0);
      if (last?.to) this.lastAddressed.set(channelId, last.to[last.to.length - 1]!);
    }
    return this.lastAddressed.get(channelId);
  }
}
