/** The channel view: header, config banner, history, composer, and a status line for screen readers. */
import * as l10n from "@vscode/l10n";
import "@vscode-elements/elements/dist/vscode-button/index.js";
import { h } from "preact";
import { useMemo } from "preact/hooks";
import { channelLabel } from "../channelLabel";
import { EditorContext, type EditorActions } from "../editorActions";
import { ActionNote } from "./ActionNote";
import { TerminalContext, type TerminalOutputs } from "../terminalOutputs";
import type { ChannelListState } from "../channelList";
import type { HostCommand, ViewState } from "../channelStore";
import type { AttachmentRequest, MessageView, SessionChange } from "../../src/shared/protocol";
import { type ChannelManagement, ChannelHeader, type MemberEditing, type MemberSessions } from "./ChannelHeader";
import { ChannelSwitcher, type SwitcherActions } from "./ChannelSwitcher";
import { Composer } from "./Composer";
import { ConfigBanner } from "./ConfigBanner";
import { ChildAnswersContext, type ChildAnswers } from "./DelegateChild";
import { History } from "./History";
import type { TurnControls } from "./MessageItem";
import type { AnswerPermission } from "./PermissionCard";
import type { ComposerLink } from "../messageActions";

/** The actions the view takes; stable across renders so memoized messages are not re-rendered. */
export interface AppActions {
  /** Sends a message written in `channelId` (`channel/send`, after the sends before it); resolves whether it was accepted. */
  send: (channelId: string | undefined, text: string, editOf?: string, attachments?: readonly AttachmentRequest[], undoAnswers?: boolean) => Promise<boolean>;
  /** Where the message actions reach the shown composer (Quote in composer, Edit). */
  composer?: ComposerLink;
  /** Replaces the composer's chips of a channel (issue 21). */
  setAttachments: (channelId: string, attachments: readonly AttachmentRequest[]) => void;
  /** The composer's chips of a channel now (not at the next frame). */
  attachmentsOf: (channelId: string | undefined) => readonly AttachmentRequest[];
  /** Drops the composer's send error (the draft was edited). */
  clearSendError: () => void;
  answerPermission: AnswerPermission;
  turn: TurnControls;
  runCommand: (command: HostCommand) => void;
  reopen: () => void;
  /**
   * Saves the composer's text for a channel (`""` clears it); with no channel open (the history locked by another
   * window, a failed open) the text is kept for the first channel that opens.
   */
  saveDraft: (channelId: string | undefined, draft: string) => void;
  switcher: SwitcherActions;
  /** Diffs, locations, code insertion and links, through the host (`editor/*`). */
  editor: EditorActions;
  /** Live output of agents' terminals embedded in tool calls. */
  terminals: TerminalOutputs;
  /** Changes a member's session setting (`session/configure`); resolves the refusal, or undefined when accepted. */
  configureSession: (agent: string, change: SessionChange) => Promise<string | undefined>;
  /** The history left the latest message (`true`) or came back to it (`false`): for the unread marker. */
  scrolledAway?: (away: boolean) => void;
  /** Loads the page of history before the first loaded message (`channel/older`); one at a time. */
  loadOlder?: () => void;
}

const NO_CHIPS: readonly AttachmentRequest[] = [];

/** Renders one `ViewState` and the channel list; `draftOf` gives a channel's saved composer text. */
export function App({ state, list, actions, draftOf }: { state: ViewState; list: ChannelListState; actions: AppActions; draftOf: (channelId: string | undefined) => string }) {
  const channelId = state.channel?.id;
  // Before a channel is open (or when it could not be), the one asked for: an editor tab pinned to #work says #work.
  const channelName = state.channel?.name ?? state.requested ?? "general";
  const editing = memberEditing(state, list, actions);
  // `h`, not JSX: Preact 11 types a context provider's result as `ComponentChildren`, which JSX does not accept.
  const childAnswers = useMemo(() => childAnswersOf(state.messages, actions.turn), [state.messages, actions.turn]);
  return h(
    TerminalContext.Provider,
    { value: actions.terminals },
    h(
    ChildAnswersContext.Provider,
    { value: childAnswers },
    h(
    EditorContext.Provider,
    { value: actions.editor },
    <div class="app" data-phase={state.phase} data-snapshot={state.snapshot}>
      <ChannelSwitcher list={list} current={state.channel?.id} actions={actions.switcher} />
      <ChannelHeader key={state.channel?.id} channel={state.channel} description={list.channels.find((c) => c.id === state.channel?.id)?.description} requested={state.requested} editing={editing} manage={management(state, list, actions)} sessions={memberSessions(state, actions)} />
      <ConfigBanner config={state.config} error={state.commandError} run={actions.runCommand} />
      {state.phase === "failed" ? (
        <div class="open-error" role="alert">
          <p>{l10n.t("Could not open {0}: {1}", channelLabel(channelName), state.openError ?? "")}</p>
          <vscode-button secondary onClick={actions.reopen}>
            {l10n.t("Retry")}
          </vscode-button>
        </div>
      ) : state.phase === "opening" && !state.channel ? (
        <div class="history history-loading">{l10n.t("Opening {0}…", channelLabel(channelName))}</div>
      ) : (
        <History channelName={channelName} messages={state.messages} answerPermission={actions.answerPermission} turn={actions.turn} memberCount={state.channel?.members.length} members={state.channel?.members} unread={state.unread} onScrolledAway={actions.scrolledAway} focusRequest={state.focusRequest} older={state.older} onLoadOlder={actions.loadOlder} />
      )}
      <ActionNote />
      <Composer
        key={channelId ?? "none"}
        channelName={channelName}
        closed={channelId ? undefined : l10n.t("No channel is open here yet: what you write is kept, and can be sent once the channel opens.")}
        initialDraft={draftOf(channelId)}
        send={(text, editOf, attachments, undoAnswers) => actions.send(channelId, text, editOf, attachments, undoAnswers)}
        link={actions.composer}
        attachments={channelId ? (state.attachments[channelId] ?? NO_CHIPS) : NO_CHIPS}
        setAttachments={(list) => channelId && actions.setAttachments(channelId, list)}
        attachmentsNow={() => actions.attachmentsOf(channelId)}
        focusRequest={state.composerFocus?.channelId === channelId ? state.composerFocus : undefined}
        saveDraft={(draft) => actions.saveDraft(channelId, draft)}
        sendError={state.sendError}
        clearSendError={actions.clearSendError}
        members={members(state)}
        commands={state.commands}
        running={runningAnswers(state.messages)}
        stop={(ids) => ids.forEach((id) => actions.turn.stop(id))}
      />
      <div class="visually-hidden" role="status" aria-live="polite">
        {state.announcement}
      </div>
    </div>,
    ),
    ),
  );
}

/** The loaded messages by id (built on first look) and Stop, for the answers nested under delegate cards. */
function childAnswersOf(messages: readonly MessageView[], turn: TurnControls): ChildAnswers {
  let byId: Map<string, MessageView> | undefined;
  return {
    find: (id) => (byId ??= new Map(messages.map((m) => [m.id, m]))).get(id),
    stop: (id) => turn.stop(id),
  };
}

/** The members' session states and who is waiting for the user (a pending permission request in a streaming answer). */
function memberSessions(state: ViewState, actions: AppActions): MemberSessions {
  return { states: state.sessions, waiting: waitingAgents(state.messages), configure: actions.configureSession };
}

const waitingCache = new WeakMap<readonly MessageView[], ReadonlySet<string>>();
function waitingAgents(messages: readonly MessageView[]): ReadonlySet<string> {
  let set = waitingCache.get(messages);
  if (!set) {
    const agents = new Set<string>();
    for (const m of messages) {
      if (m.status !== "streaming" || !m.author.agentName) continue;
      if (m.parts.some((p) => p.type === "permission" && p.outcome === undefined)) agents.add(m.author.agentName);
    }
    waitingCache.set(messages, (set = agents));
  }
  return set;
}

const runningCache = new WeakMap<readonly MessageView[], readonly string[]>();
/**
 * The ids of the channel's agent answers that a Stop stops (streaming or queued), queued ones first: stopping a
 * running answer first would let the host start a queued one before its own Stop arrives.
 */
function runningAnswers(messages: readonly MessageView[]): readonly string[] {
  let ids = runningCache.get(messages);
  if (!ids) {
    const queued = messages.filter((m) => m.status === "queued").map((m) => m.id);
    const streaming = messages.filter((m) => m.status === "streaming").map((m) => m.id);
    runningCache.set(messages, (ids = [...queued, ...streaming]));
  }
  return ids;
}

/** The open channel's members with their state, for the composer's `@` completion (stable per channel object). */
const memberCache = new WeakMap<object, { name: string; detail: string }[]>();
function members(state: ViewState): { name: string; detail: string }[] {
  const channel = state.channel;
  if (!channel) return [];
  let list = memberCache.get(channel);
  if (!list) memberCache.set(channel, (list = channel.members.map((m) => ({ name: m.name, detail: m.state }))));
  return list;
}

/**
 * Rename and delete for the open channel, as the host allows them: nothing for #general, no rename for a direct
 * conversation (`ChannelDirectory.rename/delete`). Absent until the channel list knows the channel.
 */
function management(state: ViewState, list: ChannelListState, actions: AppActions): ChannelManagement | undefined {
  const channel = state.channel;
  const summary = channel && list.channels.find((c) => c.id === channel.id);
  if (!channel || !summary || (summary.kind === "channel" && channel.name === "general")) return undefined;
  return {
    summary,
    channels: list.channels,
    ...(summary.kind === "channel" ? { rename: (name: string) => actions.switcher.rename(channel.id, name) } : {}),
    remove: () => actions.switcher.remove(channel.id),
  };
}

/** Member editing for the open channel when it is an ordinary channel (not #general, not a direct conversation). */
function memberEditing(state: ViewState, list: ChannelListState, actions: AppActions): MemberEditing | undefined {
  const channel = state.channel;
  const summary = channel && list.channels.find((c) => c.id === channel.id);
  if (!channel || !summary || summary.kind !== "channel" || channel.name === "general") return undefined;
  const members = new Set(channel.members.map((m) => m.name));
  return {
    candidates: list.agents.filter((a) => !members.has(a)),
    join: (agent) => actions.switcher.join(channel.id, agent),
    leave: (agent) => actions.switcher.leave(channel.id, agent),
  };
}
