import type { AgentManager, AgentSummary } from "../agents/AgentManager";
import { GENERAL, type ChannelDirectory } from "../channels/ChannelDirectory";
import type { ChannelMessages } from "../channels/ChannelMessages";
import type { Channels } from "./composeChannels";
import type { SidekicksError } from "../shared/errors";
import type { EventBus } from "../events/events";
import type { ConfigStatus, SessionStateView } from "../shared/protocol";
import type { PermissionMemory } from "../turns/permissionMemory";
import type { AgentTerminalOutputs } from "./AgentTerminalOutputs";
import type { EditorPort, IconUri } from "./EditorPort";
import type { RosterLoader } from "./RosterLoader";
import type { StoreLifecycle } from "./StoreLifecycle";
import type { WebviewRequestHandlers } from "./WebviewBridge";
import { connectWebview, type WebviewSink } from "./webviewApi/webviewEvents";
import { viewHandlers, webviewHandlers } from "./webviewApi/webviewHandlers";
import type { ShownChannel } from "./webviewApi/ports";
import { applyAnswer, type TurnApplyCounts } from "./turnApply";
import type { AnswerWithFiles } from "../channels/TurnRestore";

/** The editor port, where `src/vscode/` and the tests import it from. */
export type { EditorPort, IconUri } from "./EditorPort";

/** The parts of the app, built by the composition root (`compose.ts`, `startSidekicks`). */
export interface SidekicksAppParts {
  /** The folder of the history store (absolute). */
  storageDir: string;
  editor: EditorPort;
  events: EventBus;
  agents: AgentManager;
  roster: RosterLoader;
  history: StoreLifecycle;
  terminalOutputs: AgentTerminalOutputs;
  /** The workspace's folders (absolute): what the view may open files in. */
  workspaceRoots: () => string[];
}

/**
 * What the editor's commands and views call (`src/app/`; the original design's `internal/app`): the roster's and the history's state, the
 * channel directory, `Sidekicks: Mention agent…`, the editor's file events, and the webview's requests and events.
 * Its parts (roster, store lifecycle, channels, webview API) are built by `compose.ts`; this class only starts them
 * in order and answers for them.
 */
export class SidekicksApp {
  readonly events: EventBus;
  readonly agents: AgentManager;
  /** The channel the view opened last (`channel/open`): where `Sidekicks: Mention agent…` sends. */
  private readonly shown: ShownChannel = { id: undefined };
  /** The roster read and the store opened ({@link start}). */
  private started: Promise<void> = Promise.resolve();
  private settleFileEvents: ((folder: string) => Promise<boolean>) | undefined;

  constructor(private readonly parts: SidekicksAppParts) {
    this.events = parts.events;
    this.agents = parts.agents;
  }

  /**
   * Starts reading the roster and opening the store without waiting for them. The roster first: opening the store
   * starts recovery, which runs the turns a reload left queued — their agents must be known by then (and #general's
   * members must not be emptied and re-added at every start).
   */
  start(): void {
    this.started = this.parts.roster.reload().then(() => this.parts.history.open());
  }

  /**
   * Settles once the roster was read and the store opened (or found locked, corrupt…: see `configStatus` and the
   * webview's `channel/open`). Rejects only on an unexpected error of that start, which the caller shows.
   */
  get ready(): Promise<void> {
    return this.started;
  }

  /**
   * "Apply to my folder" of answer `messageId` (issue 20, "Per turn too"; see `applyAnswer`).
   * @throws SidekicksError as `applyAnswer`; `store/locked` or `store/corrupt` when the history store is not open
   */
  applyAnswer(messageId: string): Promise<TurnApplyCounts> {
    return applyAnswer(this.parts, messageId);
  }

  /**
   * The latest answers of `agent` that changed files, newest first (what "Apply Agent Worktree…" offers per answer).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  answersWithFiles(agent: string): Promise<AnswerWithFiles[]> {
    return this.parts.history.require().restore.answersWithFiles(agent);
  }

  /** The folder of the history store (absolute). */
  get storageDir(): string {
    return this.parts.storageDir;
  }

  /**
   * Why this window cannot use the channel history, or `undefined` when it is open (or not tried yet: see `ready`):
   * `store/locked` while another window holds it (the message says so, and that it opens here once that window
   * closes), `store/corrupt` when it could not be read. Commands that need the history say this instead of nothing.
   */
  get historyProblem(): SidekicksError | undefined {
    return this.parts.history.problem;
  }

  /** The roster file's state (missing, ok, invalid, untrusted). */
  get configStatus(): ConfigStatus {
    return this.parts.roster.config;
  }

  /**
   * Re-reads the roster file. A valid file replaces the roster (new agents join #general); an invalid one keeps
   * the last valid roster in force and reports its problems with line and column. Emits `config/changed`.
   */
  reloadConfig(): Promise<ConfigStatus> {
    return this.parts.roster.reload();
  }

  /** Every agent of the roster with its state, error and workspace folder, for the Agents view. */
  agentSummaries(): AgentSummary[] {
    return this.agents.summaries();
  }

  /** Closes the store and opens it again (tests; recovery from a lock released by another window). */
  reopenStore(): Promise<void> {
    return this.parts.history.reopen();
  }

  /**
   * The channel directory (create, rename, delete, members, direct conversations, unread counts).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  get directory(): ChannelDirectory {
    return this.parts.history.require().directory;
  }

  /**
   * The channels' messages (send, open, page back, what is saved of a message).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  get messages(): ChannelMessages {
    return this.parts.history.require().messages;
  }

  /**
   * History search over every channel, and the Markdown export of a channel (issue 21).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  get history(): Pick<Channels, "search" | "exportChannel"> {
    return this.parts.history.require();
  }

  /**
   * Every session state stored (channels and agents: settings, usage and what earlier sessions cost), for the cost
   * totals per agent (issue 21).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  storedSessionStates(): Promise<SessionStateView[]> {
    return this.parts.history.require().sessions.storedStates();
  }

  /**
   * The user's Sidekicks permission rules (list, forget; ADR 0005).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  get permissionMemory(): PermissionMemory {
    return this.parts.history.require().permissions;
  }

  /**
   * `Sidekicks: Mention agent…` (issue 4): sends `@agent text` to the channel the view shows (else #general). When
   * the agent is not a member there, it goes to the agent's direct conversation instead.
   * @returns the channel it went to (by name, for the view to follow) and the message id
   * @throws SidekicksError like `ChannelMessages.send`, and `store/locked` / `store/corrupt`
   */
  async mention(agent: string, text: string): Promise<{ channel: string; messageId: string }> {
    const channels = this.parts.history.require();
    const list = await channels.directory.list();
    let target = list.find((c) => c.id === this.shown.id) ?? list.find((c) => c.name === GENERAL);
    if (!target || !target.members.includes(agent)) target = await channels.directory.direct(agent);
    const { messageId } = await channels.messages.send(target.id, `@${agent} ${text}`);
    return { channel: target.name, messageId };
  }

  /**
   * The editor's file watcher saw files change under the workspace (throttled): they join the "files changed" list of
   * the turns running there.
   */
  async filesChanged(events: readonly { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void> {
    await this.parts.history.current?.files.filesChanged(events);
  }

  /**
   * Sets how a turn's end learns that the editor's file watcher has delivered every earlier event (the editor layer's
   * `FileWatchers.settle`; undefined: it cannot learn it, and asks git about the whole tree).
   */
  settleFileEventsWith(settle: ((folder: string) => Promise<boolean>) | undefined): void {
    this.settleFileEvents = settle;
  }

  /** Proof that the file watcher's events for `folder` have all arrived (see {@link settleFileEventsWith}); false without one. */
  settleFiles(folder: string): Promise<boolean> {
    return this.settleFileEvents?.(folder) ?? Promise.resolve(false);
  }

  /** Resolves once the start-of-turn snapshot of every running turn is taken (the test API's sync point). */
  async turnsSnapshotted(): Promise<void> {
    await this.parts.history.current?.files.snapshotted();
  }

  /**
   * The user saved a document in the editor (`onDidSaveTextDocument`; `file` absolute, `text` what was saved): a
   * running turn does not list it as its agent's change while it holds that text.
   */
  documentSaved(file: string, text: string): void {
    this.parts.history.current?.files.documentSaved(file, text);
  }

  /**
   * Handlers for the webview's requests (`src/shared/protocol`, `WebviewRequests`; `webviewApi/`), unguarded: they
   * trust the caller about which channel, message, file or text it names. A webview's bridge gets
   * {@link viewHandlers} instead. A webview that loads while the app is starting waits for it.
   * @param iconUri turns a roster icon file into a URI the webview may load (the editor's `asWebviewUri`)
   */
  webviewHandlers(iconUri?: IconUri): WebviewRequestHandlers {
    return webviewHandlers(this.ports(iconUri), () => this.started);
  }

  /**
   * The handlers of one connected view (the side view, an editor tab), for its `WebviewBridge`: every request checked
   * where it enters (the protocol's guard, then what this view shows and may ask: `webviewApi/viewGuard.ts`). Call
   * once per view: the result knows which channel that view shows.
   * @param iconUri as for {@link webviewHandlers}
   */
  viewHandlers(iconUri?: IconUri): WebviewRequestHandlers {
    return viewHandlers(this.ports(iconUri), () => this.started);
  }

  private ports(iconUri: IconUri | undefined) {
    const { history, roster, agents, editor, terminalOutputs, workspaceRoots } = this.parts;
    return { history, roster, agents, editor, terminalOutputs, shown: this.shown, iconUri, workspaceRoots };
  }

  /**
   * Subscribes a webview sink to the domain events, mapped to the protocol's event names. Returns an unsubscribe.
   * @param iconUri as for {@link webviewHandlers}
   */
  connectWebview(sink: WebviewSink, iconUri?: IconUri): () => void {
    return connectWebview(this.events, () => this.parts.roster.roster, sink, iconUri);
  }

  /** Stops every agent and closes the store; running answers are saved as interrupted. */
  async dispose(): Promise<void> {
    await this.parts.history.dispose(this.started);
    await this.agents.stopAll();
  }
}
