/**
 * Webview entry point: connects to the host, opens the last channel (else the pinned one, else `#general`), and
 * renders the app once per animation frame at most (the store batches host events per frame and calls `render`
 * synchronously).
 */
// First: the editor's l10n bundle, before any module below renders or calls `l10n.t`.
import "./l10nConfig";
import { render } from "preact";
import { ChannelList } from "./channelList";
import { ChannelStore, type PersistedState, storeStats } from "./channelStore";
import { type AppActions, App } from "./components/App";
import type { ChannelSummary } from "../src/shared/protocol";
import { hostEditorActions, unmatchedPathsNote } from "./editorActions";
import { ComposerLink, hostMessageActions } from "./messageActions";
import { TerminalOutputs } from "./terminalOutputs";
import { HostConnection, vsCodePort } from "./host";
import { SendQueue } from "./sendQueue";
import { markdownStats } from "./markdown";
import { highlightStats } from "./highlight";
import { createTestHandlers } from "./testHooks";
import { installSelectAllGuard } from "./selectAllGuard";
import { installFindKey } from "./findKey";
import { installHistoryFocusKeys } from "./historyFocusKeys";
import { attachmentRequests } from "../src/shared/protocol/requestGuards";
import "@vscode/codicons/dist/codicon.css";
import "./styles/base.css";
import "./styles/composer.css";
import "./styles/messages.css";
import "./styles/messageActions.css";
import "./styles/markdown.css";
import "./styles/cards.css";
import "./styles/switcher.css";
import "./styles/parts.css";
import "./styles/codeBlocks.css";
import "./styles/session.css";
import "./styles/content.css";
import "./styles/highlight.css";

const vscode = acquireVsCodeApi();
installSelectAllGuard();
let persisted = readPersisted(vscode.getState());
/**
 * The channel this page is pinned to (`data-channel`, an editor tab: src/vscode/ChannelPanels.ts). The channel it
 * showed last wins: a tab may have switched channel, and its saved state is what restores it after a reload.
 */
const pinnedChannel = document.getElementById("root")?.dataset.channel || undefined;

const host = new HostConnection(vsCodePort(vscode));
const store = new ChannelStore(host, persist);
installFindKey(() => void store.runCommand("searchHistory", true));
installHistoryFocusKeys();
const list = new ChannelList(host);
let lastSend: Promise<boolean> | undefined;
const sends = new SendQueue((channelId, text, editOf, attachments, undoAnswers) => store.send(text, channelId, editOf, attachments, undoAnswers));
const editor = hostEditorActions(host);
const composer = new ComposerLink();
// A typed `@path` that names no file went as text: the note above the composer says so (issue 21).
store.onUnmatchedPaths = (paths) => editor.refusals.report(unmatchedPathsNote(paths));

const actions: AppActions = {
  send: (channelId, text, editOf, attachments, undoAnswers) => (lastSend = sends.send(channelId, text, editOf, attachments, undoAnswers)),
  composer,
  setAttachments: (channelId, attachments) => store.setAttachments(channelId, attachments),
  attachmentsOf: (channelId) => store.attachmentsOf(channelId),
  clearSendError: () => store.clearSendError(),
  answerPermission: (requestId, optionId, remember) => store.answerPermission(requestId, optionId, remember),
  turn: {
    stop: (messageId) => void store.stop(messageId),
    retry: (messageId) => void store.retry(messageId),
    sendNow: (messageId) => void store.sendNow(messageId),
    message: hostMessageActions(host, editor.refusals, composer, store),
  },
  runCommand: (command) => void store.runCommand(command),
  reopen: () => void store.open(persisted.channel),
  saveDraft: (channelId, draft) => {
    if (!channelId) return persist({ draft: draft === "" ? undefined : draft });
    const drafts = { ...(persisted.drafts ?? {}) };
    if (draft === "") delete drafts[channelId];
    else drafts[channelId] = draft;
    persist({ drafts, draft: undefined });
  },
  switcher: {
    open: (name) => void store.open(name, list.current.channels.find((c) => c.name === name)?.unread),
    create: async (name) => opened(await list.create(name)),
    direct: async (agent) => opened(await list.direct(agent)),
    clearError: () => list.clearError(),
    rename: (channelId, name) => list.rename(channelId, name),
    remove: (channelId) => list.delete(channelId),
    join: (channelId, agent) => void list.join(channelId, agent),
    leave: (channelId, agent) => void list.leave(channelId, agent),
  },
  editor,
  terminals: new TerminalOutputs(host),
  configureSession: (agent, change) => store.configureSession(agent, change),
  scrolledAway: (away) => store.setScrolledAway(away),
  loadOlder: () => void store.loadOlder(),
};

const root = document.getElementById("root") ?? document.body;
/**
 * The composer's text for a channel: its own draft, plus (once) the text typed while no channel was open (the
 * history locked by another window, a failed open), or from before drafts were per channel. With no channel, that
 * pending text.
 */
const draftOf = (channelId: string | undefined): string => {
  if (!channelId) return persisted.draft ?? "";
  const own = persisted.drafts?.[channelId];
  if (!persisted.draft) return own ?? "";
  const joined = own && own !== persisted.draft ? `${own}\n${persisted.draft}` : persisted.draft;
  persist({ drafts: { ...(persisted.drafts ?? {}), [channelId]: joined }, draft: undefined });
  return joined;
};
const paint = (): void => render(<App state={store.current} list={list.current} actions={actions} draftOf={draftOf} />, root);
store.subscribe(() => {
  paint();
  markRead();
});
list.subscribe((next, previous) => {
  paint();
  followList(next.channels, previous.channels);
});
document.addEventListener("visibilitychange", markRead);
paint();

host.handleRequests(createTestHandlers({ flush: () => store.flushNow(), lastSend: () => lastSend }));
host.start();
if (persisted.chips) store.restoreAttachments(persisted.chips);
store.start(persisted.channel ?? pinnedChannel);
list.start();

/** Read-only counters for tests and debugging: store flushes, Markdown renders, code blocks highlighted. */
Object.defineProperty(window, "__sidekicksStats", { value: { store: storeStats, markdown: markdownStats, highlight: highlightStats } });

/** Opens a channel the host just created or found; resolves whether there was one. */
function opened(summary: { name: string } | undefined): boolean {
  if (summary) void store.open(summary.name);
  return summary !== undefined;
}

/** While the open channel is visible, its last settled message counts as seen (`channel/read`). */
function markRead(): void {
  const { phase, channel, messages } = store.current;
  if (phase !== "open" || !channel || document.visibilityState !== "visible") return;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.status === "done" || m.status === "error") return list.markRead(channel.id, m.id);
  }
}

/** The open channel was renamed (remember the new name) or deleted (go back to #general). */
function followList(next: readonly ChannelSummary[], previous: readonly ChannelSummary[]): void {
  const id = store.current.channel?.id;
  if (!id) return;
  const now = next.find((c) => c.id === id);
  const before = previous.find((c) => c.id === id);
  // A rename only: the list may also be reloaded while another channel opens (`channel/reload`), the store still
  // showing the last one.
  if (now && before && now.name !== before.name) persist({ channel: now.name });
  if (!now && previous.some((c) => c.id === id)) void store.open("general");
}

function persist(patch: PersistedState): void {
  persisted = { ...persisted, ...patch };
  vscode.setState(persisted);
}

/** Validates what `getState` returned: a previous version of the webview may have stored anything. */
function readPersisted(value: unknown): PersistedState {
  if (typeof value !== "object" || value === null) return {};
  const v = value as Record<string, unknown>;
  return {
    channel: typeof v.channel === "string" ? v.channel : undefined,
    draft: typeof v.draft === "string" ? v.draft : undefined,
    drafts:
      typeof v.drafts === "object" && v.drafts !== null && !Array.isArray(v.drafts)
        ? Object.fromEntries(Object.entries(v.drafts).filter((e): e is [string, string] => typeof e[1] === "string"))
        : undefined,
    chips: readChips(v.chips),
  };
}

/** Saved chips, each channel's checked as a send's attachments are (`attachmentRequests`); a channel's that fail are left out. */
function readChips(value: unknown): PersistedState["chips"] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const chips: NonNullable<PersistedState["chips"]> = {};
  for (const [channelId, list] of Object.entries(value)) {
    try {
      const checked = attachmentRequests(list, "chips");
      if (checked.length > 0) chips[channelId] = checked;
    } catch {
      // Written by another version in another shape: not shown as chips the host would refuse.
    }
  }
  return chips;
}
