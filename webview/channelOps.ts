/**
 * How queued host events change the channel's state (`ChannelStore.flush` applies them once per frame), and the pure
 * rules behind it: the unread marker, the streamed text a committed message leaves out, the sentence announced when
 * an answer settles.
 */
import * as l10n from "@vscode/l10n";
import type { AgentCommand, AgentState, AgentWait, ChannelView, MemberView, ConfigStatus, HostEvents, MessageView, SessionStateView } from "../src/shared/protocol";
import { stripAnsi } from "./ansi";
import { markdownPlainText } from "./markdown";
import { applyDelta, type Draft, materialize, upsertMessage } from "./messageDrafts";
import type { UnreadMarker, ViewState } from "./viewState";

/** A host event queued for the next frame (`channel/older`'s page too). */
export type Op =
  | { type: "started"; message: MessageView }
  | { type: "finished"; message: HostEvents["message/finished"] }
  | { type: "delta"; delta: HostEvents["message/delta"] }
  | { type: "channel"; channel: ChannelView }
  | { type: "agent"; agent: string; state: AgentState; waiting?: AgentWait }
  | { type: "config"; config: ConfigStatus }
  | { type: "commands"; agent: string; commands: AgentCommand[] }
  | { type: "session"; state: SessionStateView }
  | { type: "older"; messages: MessageView[] };

/** Whether the user is away from the latest message: the view hidden, or the history scrolled up. */
export interface Presence {
  hidden: boolean;
  scrolledAway: boolean;
}

/** Whether `presence` says the user is away from the latest message. */
export function isAway(presence: Presence): boolean {
  return presence.hidden || presence.scrolledAway;
}

/** The marker for a snapshot whose last `unreadCount` messages are unseen (read at once if the user is here). */
export function openedUnread(messages: readonly MessageView[], unreadCount: number, away: boolean): UnreadMarker | undefined {
  if (unreadCount <= 0 || messages.length === 0) return undefined;
  const first = messages[Math.max(0, messages.length - unreadCount)]!;
  return { messageId: first.id, read: !away };
}

/**
 * Applies queued host events to `state` in arrival order; text deltas to one message are joined once.
 * @param away whether the user is away from the latest message (for the unread marker)
 * @param onStale called when a committed message relies on text this view does not have as the host does (see
 *   `streamedText`): the caller opens the channel again
 */
export function applyOps(state: ViewState, ops: Op[], away: boolean, onStale: () => void): ViewState {
  const channelId = state.channel?.id;
  const messages = state.messages.slice();
  const drafts = new Map<string, Draft>();
  let { channel, config, announcement, commands, sessions, unread, sendError } = state;
  for (const op of ops) {
    switch (op.type) {
      case "agent":
        if (channel?.members.some((m) => m.name === op.agent && (m.state !== op.state || m.waiting !== op.waiting))) {
          const next = (m: MemberView): MemberView => {
            const { waiting: _was, ...rest } = m;
            return { ...rest, state: op.state, ...(op.waiting ? { waiting: op.waiting } : {}) };
          };
          channel = { ...channel, members: channel.members.map((m) => (m.name === op.agent ? next(m) : m)) };
        }
        break;
      case "channel":
        if (op.channel.id !== channelId) break;
        if (!sameMembers(channel, op.channel)) sendError = undefined; // "no agent named slow" may no longer hold
        channel = op.channel;
        break;
      case "config":
        config = op.config;
        sendError = undefined; // the roster was read again
        break;
      case "commands":
        commands = { ...commands, [op.agent]: op.commands };
        break;
      case "started":
      case "finished": {
        if (op.message.channelId !== channelId) break;
        let message: MessageView = op.message;
        const streamedText = op.type === "finished" ? op.message.streamedText : undefined;
        if (op.type === "finished" && streamedText) {
          // The host left out the text this view already has from the stream: it is taken from the view's copy.
          const draft = drafts.get(op.message.id);
          if (draft) materialize(messages, draft);
          const filled = withStreamedText(op.message, streamedText, messages.find((m) => m.id === op.message.id));
          if (!filled) {
            onStale(); // this view's copy differs: the channel's snapshot has the committed text
            break;
          }
          message = filled;
        }
        drafts.delete(message.id);
        if (!messages.some((m) => m.id === message.id)) unread = unreadAfter(unread, message, away);
        upsertMessage(messages, message);
        announcement = announce(op.type, message) ?? announcement;
        break;
      }
      case "delta":
        if (op.delta.channelId !== channelId) break;
        applyDelta(messages, drafts, op.delta);
        if (op.delta.part?.type === "permission" && op.delta.part.outcome === undefined) {
          const asker = drafts.get(op.delta.messageId)?.message.author;
          if (asker?.kind === "agent") announcement = l10n.t("{0} asks permission", asker.agentName ?? "agent");
        }
        break;
      case "session":
        if (op.state.channelId === channelId) sessions = { ...sessions, [op.state.agent]: op.state };
        break;
      case "older": {
        // A page from before the first loaded message: prepended, without any message already here.
        const known = new Set(messages.map((m) => m.id));
        messages.unshift(...op.messages.filter((m) => m.channelId === channelId && !known.has(m.id)));
        break;
      }
    }
  }
  for (const draft of drafts.values()) materialize(messages, draft);
  return { ...state, channel, config, announcement, commands, messages, sessions, unread, sendError };
}

/**
 * The committed `message` with the text of its text parts taken from `had`, this view's copy of it (the host left
 * them out: `streamedText` gives their lengths); `undefined` when `had`'s text parts differ in number or length.
 */
function withStreamedText(message: HostEvents["message/finished"], lengths: readonly number[], had: MessageView | undefined): MessageView | undefined {
  const texts = had?.parts.filter((part) => part.type === "text") ?? [];
  if (texts.length !== lengths.length || texts.some((part, i) => part.text.length !== lengths[i])) return undefined;
  const { streamedText: _lengths, ...committed } = message;
  let next = 0;
  return { ...committed, parts: message.parts.map((part) => (part.type === "text" ? texts[next++]! : part)) };
}

/** Whether two views of a channel have the same members, by name. */
function sameMembers(a: ChannelView | undefined, b: ChannelView): boolean {
  const names = (c: ChannelView) => c.members.map((m) => m.name).sort().join("\n");
  return a !== undefined && names(a) === names(b);
}

/** The unread marker after a new message arrived (see {@link UnreadMarker}). */
function unreadAfter(unread: UnreadMarker | undefined, message: MessageView, away: boolean): UnreadMarker | undefined {
  if (message.author.kind === "user") return undefined;
  if (away) return !unread || unread.read ? { messageId: message.id, read: false } : unread;
  return unread?.read ? undefined : unread;
}

/** What the live region says when a message settles; nothing while it streams (one sentence per answer). */
function announce(type: "started" | "finished", message: MessageView): string | undefined {
  if (message.author.kind !== "agent") return undefined;
  const name = message.author.agentName ?? "agent";
  if (type === "started") return message.status === "queued" ? l10n.t("{0} will answer after its current message", name) : undefined;
  if (message.error) return l10n.t("{0} failed: {1}", name, message.error.message);
  if (message.stopReason === "cancelled") return l10n.t("{0} stopped", name);
  if (message.parts.some((p) => p.type === "permission" && p.outcome === undefined)) return l10n.t("{0} asks permission", name);
  // The start of the answer, so a screen reader user hears what it says without moving to it (once, when settled).
  // Only the head of each text part is read: collapsing the spaces of a whole 2 MB answer would delay its last frame.
  // It is read as words: Markdown's marks (fences, `#`, `*`, link targets) and terminal escapes are left out.
  let head = "";
  for (const part of message.parts) {
    if (part.type === "text" && head.length <= ANNOUNCE_CHARS * 4) head += ` ${markdownPlainText(stripAnsi(part.text.slice(0, ANNOUNCE_CHARS * 4)))}`;
  }
  const text = head.replace(/\s+/g, " ").trim();
  if (!text) return l10n.t("{0} answered", name);
  return l10n.t("{0} answered: {1}", name, text.length > ANNOUNCE_CHARS ? `${text.slice(0, ANNOUNCE_CHARS)}…` : text);
}

/** How much of an answer's text its announcement reads out, in characters. */
const ANNOUNCE_CHARS = 160;
