import * as l10n from "@vscode/l10n";
import { readFile } from "node:fs/promises";
import { AgentManager, type AgentSummary } from "../agents/AgentManager";
import type { LaunchContext } from "../agents/launch";
import { ChannelDirectory } from "../channels/ChannelDirectory";
import { ChannelService, GENERAL } from "../channels/ChannelService";
import { formatProblem, parseRoster, type ConfigProblem, type Roster } from "../config/roster";
import { SidekicksError } from "../errors";
import { EventBus } from "../events/events";
import type { ChannelView, ConfigStatus, HostEventName, HostEvents, SessionChange, ToolCallDiff, ToolCallLocation, WebviewRequests } from "../protocol";
import { Store } from "../store/Store";
import type { PermissionMemory } from "../turns/permissionMemory";
import type { DocumentPort } from "../workspace/fsAccess";
import type { Terminal } from "../workspace/terminals";
import { AgentTerminalOutputs } from "./AgentTerminalOutputs";
import type { WebviewRequestHandlers } from "./WebviewBridge";

/** Turns an image file's absolute path into a URI a webview may load (`Webview.asWebviewUri`), or `undefined`. */
export type IconUri = (file: string) => string | undefined;

/** What the app needs from the editor, implemented in `src/vscode/` (a port: the app never imports `vscode`). */
export interface EditorPort {
  /** Workspace Trust: false means no agent from the workspace's config may start. */
  isTrusted(): boolean;
  /** Runs an editor command the webview offers as a button. */
  runCommand(command: WebviewRequests["command/run"][0]["command"]): Promise<void>;
  /** Writes a line to the Sidekicks log. */
  log(level: "debug" | "info" | "warn" | "error", line: string): void;
  /** Shows the config problems where the editor shows problems (an empty list clears them). */
  showProblems(file: string, problems: ConfigProblem[]): void;
  /** The editor's open documents, for agents' `fs/*` (unsaved buffers, undoable edits); absent: the disk only. */
  documents?: DocumentPort;
  /** Shows an agent's command as an editor terminal. */
  showTerminal?(agent: string, terminal: Terminal): void;
  /** Brings the editor terminal of an agent's terminal to the front; false when it is gone. */
  revealTerminal?(terminalId: string): boolean;
  /** Opens a tool call's diff in the diff editor (virtual documents: `oldText` null is an empty left side). */
  openDiff?(diff: ToolCallDiff): Promise<boolean>;
  /** Opens a file at a 1-based line (the first line when absent); false when the file cannot be opened. */
  openLocation?(location: ToolCallLocation): Promise<boolean>;
  /** Inserts text at the cursor(s) of the active text editor, replacing a selection; false when no editor is open. */
  insertText?(text: string): Promise<boolean>;
  /**
   * Opens a link from agent text: `http(s):`/`mailto:` externally, file links and relative paths in the editor;
   * false for anything else (refused, and logged), which never opens.
   */
  openLink?(href: string): Promise<boolean>;
}

/** The longest text the webview may hand to the editor in one request (diff sides, inserted text), in characters. */
export const EDITOR_TEXT_LIMIT = 16 * 1024 * 1024;

/** Where the app lives. Paths are absolute. */
export interface AppOptions {
  configPath: string;
  storageDir: string;
  launch: LaunchContext;
  editor: EditorPort;
  /** How long an agent may take to answer `initialize`, in ms (default 60 000). */
  initializeTimeoutMs?: number;
  /** While another window holds the history, how often to try opening it again, in ms (default 3 000). */
  lockedRetryMs?: number;
}

/**
 * Validates a session change from the webview (a trust boundary).
 * @throws SidekicksError `session/invalidChange` for anything but a mode id, a config option id with a string or
 *   boolean value, or a model id
 */
export function sessionChange(value: unknown): SessionChange {
  const c = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const id = (v: unknown) => typeof v === "string" && v !== "" && v.length <= 1024;
  if (c.kind === "mode" && id(c.modeId)) return { kind: "mode", modeId: c.modeId as string };
  if (c.kind === "model" && id(c.modelId)) return { kind: "model", modelId: c.modelId as string };
  if (c.kind === "config" && id(c.configId) && (typeof c.value === "boolean" || id(c.value))) return { kind: "config", configId: c.configId as string, value: c.value as string | boolean };
  throw new SidekicksError("session/invalidChange", l10n.t("That session setting is not one Sidekicks knows (a mode, a config option value, or a model)."));
}

/** Default of {@link AppOptions.lockedRetryMs}. */
export const LOCKED_RETRY_MS = 3_000;

/**
 * The services the webview and the commands call (ADR 0003 `internal/app`): loads the roster, owns the agent
 * manager, the store and the channels, and projects domain events to the webview's event names.
 */
export class SidekicksApp {
  readonly events = new EventBus();
  /** Agents' terminal output, for the tool call cards that embed it. */
  private readonly terminalOutputs = new AgentTerminalOutputs(this.events);
  readonly agents: AgentManager;
  private store: Store | undefined;
  private channels: ChannelService | undefined;
  private channelDirectory: ChannelDirectory | undefined;
  private storeError: SidekicksError | undefined;
  private roster: Roster | undefined;
  private config: ConfigStatus;
  private lockedRetry: ReturnType<typeof setInterval> | undefined;
  /** The channel the view opened last (`channel/open`): where `Sidekicks: Mention agent…` sends. */
  private currentChannelId: string | undefined;
  private disposed = false;
  /** The roster read and the store opened ({@link start}). */
  private started: Promise<void> = Promise.resolve();

  private constructor(private readonly options: AppOptions) {
    this.config = { state: "missing", path: options.configPath, problems: [] };
    this.agents = new AgentManager(this.events, {
      launch: options.launch,
      workspace: {
        documents: options.editor.documents,
        onTerminal: (agent, terminal) => {
          this.terminalOutputs.follow(terminal);
          options.editor.showTerminal?.(agent, terminal);
        },
      },
      initializeTimeoutMs: options.initializeTimeoutMs,
      canStart: () =>
        options.editor.isTrusted()
          ? undefined
          : new SidekicksError("agent/untrusted", l10n.t("This workspace is not trusted, so Sidekicks does not start its agents. Trust the workspace (Manage Workspace Trust) to use them.")),
    });
    // An agent's stderr (level info) goes to its own log (src/vscode/AgentLogs.ts); diagnostics go here too.
    this.events.on("agent:log", ({ agent, level, line }) => {
      if (level !== "info") options.editor.log(level, `[${agent}] ${line}`);
    });
    this.events.on("agent:state", ({ agent, state, error }) => {
      options.editor.log(error ? "warn" : "debug", `[${agent}] ${state}${error ? `: ${error.message}` : ""}`);
      void this.refreshChannel();
    });
    // Commands an agent announces are kept per agent in the store, for routing and autocomplete after a reload.
    this.events.on("agent:commands", ({ agent, commands }) => {
      void this.channels?.commands.set(agent, commands).catch((err) => options.editor.log("warn", `[${agent}] commands not stored: ${String(err)}`));
    });
    // Session states are stored per (channel, agent), so the header shows them after a reload.
    this.events.on("session:state", (state) => {
      void this.channels?.keepSessionState(state).catch((err) => options.editor.log("warn", `[${state.agent}] session state not stored: ${String(err)}`));
    });
    this.events.on("message:started", (m) => this.channelDirectory?.observe("started", m));
    this.events.on("message:finished", (m) => this.channelDirectory?.observe("finished", m));
  }

  /**
   * Creates the app and starts reading the roster and opening the store without waiting for them (what `activate`
   * needs: it returns at once). The webview's requests wait for {@link ready}; so must commands that use the store.
   * Problems of the roster or the store become state; anything else rejects {@link ready}.
   */
  static start(options: AppOptions): SidekicksApp {
    const app = new SidekicksApp(options);
    // The roster first: opening the store starts recovery, which runs the turns a reload left queued — their agents
    // must be known by then (and #general's members must not be emptied and re-added at every start).
    app.started = app.reloadConfig().then(() => app.openStore());
    return app;
  }

  /** Creates the app: reads the roster (if any), then opens the store. Never throws: problems become state. */
  static async create(options: AppOptions): Promise<SidekicksApp> {
    const app = SidekicksApp.start(options);
    await app.ready;
    return app;
  }

  /**
   * Settles once the roster was read and the store opened (or found locked, corrupt…: see `configStatus` and the
   * webview's `channel/open`). Rejects only on an unexpected error of that start, which the caller shows.
   */
  get ready(): Promise<void> {
    return this.started;
  }

  /** The folder of the history store (absolute). */
  get storageDir(): string {
    return this.options.storageDir;
  }

  /**
   * Why this window cannot use the channel history, or `undefined` when it is open (or not tried yet: see `ready`):
   * `store/locked` while another window holds it (the message says so, and that it opens here once that window
   * closes), `store/corrupt` when it could not be read. Commands that need the history say this instead of nothing.
   */
  get historyProblem(): SidekicksError | undefined {
    return this.channels ? undefined : this.storeError;
  }

  /** The roster file's state (missing, ok, invalid, untrusted). */
  get configStatus(): ConfigStatus {
    return this.config;
  }

  /**
   * Re-reads the roster file. A valid file replaces the roster (new agents join #general); an invalid one keeps
   * the last valid roster in force and reports its problems with line and column. Emits `config:changed`.
   */
  async reloadConfig(): Promise<ConfigStatus> {
    const file = this.options.configPath;
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch {
      text = undefined;
    }
    let problems: ConfigProblem[] = [];
    if (text === undefined) {
      // The file is gone (deleted, moved): its agents go too — after their running turns — as the banner says.
      this.roster = undefined;
      this.config = { state: "missing", path: file, problems: [] };
    } else {
      const parsed = parseRoster(text, file);
      problems = parsed.problems;
      if (parsed.roster) this.roster = parsed.roster;
      const state = problems.length > 0 ? "invalid" : this.options.editor.isTrusted() ? "ok" : "untrusted";
      this.config = { state, path: file, problems: problems.map(formatProblem) };
    }
    this.options.editor.showProblems(file, problems);
    if (this.roster) this.agents.setLimits(this.roster.limits);
    this.agents.setRoster(this.roster?.agents ?? []);
    if (this.channels) await this.channels.syncGeneral(this.agents.names());
    await this.syncDeclared();
    this.events.emit("config:changed", this.config);
    return this.config;
  }

  /** Every agent of the roster with its state, error and workspace folder, for the Agents view. */
  agentSummaries(): AgentSummary[] {
    return this.agents.summaries();
  }

  /** Closes the store and opens it again (tests; recovery from a lock released by another window). */
  async reopenStore(): Promise<void> {
    await this.closeStore();
    await this.openStore();
    if (this.channels) await this.channels.syncGeneral(this.agents.names());
  }

  /**
   * The channel directory (create, rename, delete, members, direct conversations, unread counts).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  get directory(): ChannelDirectory {
    this.requireChannels();
    return this.channelDirectory!;
  }

  /**
   * The user's Sidekicks permission rules (list, forget; ADR 0005).
   * @throws SidekicksError `store/locked` or `store/corrupt` when the history store is not open
   */
  get permissionMemory(): PermissionMemory {
    return this.requireChannels().permissions;
  }

  /**
   * `Sidekicks: Mention agent…` (issue 4): sends `@agent text` to the channel the view shows (else #general). When
   * the agent is not a member there, it goes to the agent's direct conversation instead.
   * @returns the channel it went to (by name, for the view to follow) and the message id
   * @throws SidekicksError like `ChannelService.send`, and `store/locked` / `store/corrupt`
   */
  async mention(agent: string, text: string): Promise<{ channel: string; messageId: string }> {
    const channels = this.requireChannels();
    const list = await this.directory.list();
    let target = list.find((c) => c.id === this.currentChannelId) ?? list.find((c) => c.name === GENERAL);
    if (!target || !target.members.includes(agent)) target = await this.directory.direct(agent);
    const { messageId } = await channels.send(target.id, `@${agent} ${text}`);
    return { channel: target.name, messageId };
  }

  /**
   * The editor's file watcher saw files change under the workspace (throttled): they join the "files changed" list of
   * the turns running there.
   */
  async filesChanged(events: readonly { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void> {
    await this.channels?.filesChanged(events);
  }

  /**
   * The user saved a document in the editor (`onDidSaveTextDocument`; `file` absolute, `text` what was saved): a
   * running turn does not list it as its agent's change while it holds that text.
   */
  documentSaved(file: string, text: string): void {
    this.channels?.documentSaved(file, text);
  }

  /**
   * Adds each member's roster `icon` and `color` to a channel's view. An image icon is shown only through
   * `iconUri` (a webview cannot load a file path); without it, or when it gives `undefined`, the member has none.
   */
  private withLooks(channel: ChannelView, iconUri: IconUri | undefined): ChannelView {
    const agents = this.roster?.agents;
    if (!agents) return channel;
    const members = channel.members.map((m) => {
      const agent = agents.find((a) => a.name === m.name);
      if (!agent) return m;
      const file = agent.icon?.kind === "file" ? iconUri?.(agent.icon.path) : undefined;
      const icon = agent.icon?.kind === "codicon" ? { codicon: agent.icon.name } : file !== undefined ? { uri: file } : undefined;
      return { ...m, ...(icon ? { icon } : {}), ...(agent.color ? { color: agent.color } : {}) };
    });
    return { ...channel, members };
  }

  /**
   * Handlers for the webview's requests (`src/protocol.ts`, `WebviewRequests`). A webview that loads while the app is
   * starting (activation returns before the store is open) waits for it.
   * @param iconUri turns a roster icon file into a URI the webview may load (the editor's `asWebviewUri`)
   */
  webviewHandlers(iconUri?: IconUri): WebviewRequestHandlers {
    const handlers = this.handlersWhenReady(iconUri);
    const waiting = Object.entries(handlers).map(([method, handler]) => [
      method,
      async (params: unknown) => {
        await this.started;
        return (handler as (p: unknown) => Promise<unknown>)(params);
      },
    ]);
    return Object.fromEntries(waiting) as WebviewRequestHandlers;
  }

  private handlersWhenReady(iconUri?: IconUri): WebviewRequestHandlers {
    const text = (value: unknown, what: string): string => {
      if (typeof value !== "string" || value.trim() === "") throw new SidekicksError("channel/invalidName", `Missing ${what}.`);
      return value;
    };
    return {
      "channel/open": async ({ name, id }) => {
        const channels = this.requireChannels();
        // A channel deleted meanwhile (the view remembered it, or a command deleted it) opens #general instead.
        const target = await this.directory.resolve(typeof id === "string" ? { id } : { name: name ?? GENERAL }).catch(() => undefined);
        const { channel, messages, more } = await channels.open(target?.name ?? GENERAL);
        this.currentChannelId = channel.id;
        const commands = await channels.commands.ofAll(channel.members.map((m) => m.name));
        const sessions = await channels.sessionStates(channel.id, channel.members.map((m) => m.name));
        return { channel: this.withLooks(channel, iconUri), messages, config: this.config, commands, sessions, more };
      },
      "channel/older": async ({ channelId, beforeId, limit }) =>
        this.requireChannels().older(text(channelId, "channel id"), text(beforeId, "message id"), typeof limit === "number" ? limit : undefined),
      "session/configure": async ({ channelId, agent, change }) => ({
        state: await this.requireChannels().configure(text(channelId, "channel id"), text(agent, "agent"), sessionChange(change)),
      }),
      "channels/list": async () => ({ channels: await this.directory.list(), agents: this.agents.names() }),
      "channel/create": async ({ name, description, members }) =>
        this.directory.create(text(name, "channel name"), {
          description: typeof description === "string" ? description : undefined,
          members: Array.isArray(members) ? members.filter((m): m is string => typeof m === "string") : [],
        }),
      "channel/rename": async ({ id, name }) => this.directory.rename({ id: text(id, "channel id") }, text(name, "channel name")),
      "channel/delete": async ({ id }) => {
        await this.directory.delete({ id: text(id, "channel id") });
        return { deleted: true };
      },
      "channel/join": async ({ id, agent }) => this.directory.join({ id: text(id, "channel id") }, text(agent, "agent")),
      "channel/leave": async ({ id, agent }) => this.directory.leave({ id: text(id, "channel id") }, text(agent, "agent")),
      "channel/direct": async ({ agent }) => this.directory.direct(text(agent, "agent")),
      "channel/read": async ({ channelId, messageId }) => ({
        unread: await this.directory.markRead(text(channelId, "channel id"), text(messageId, "message id")),
      }),
      "channel/send": async ({ channelId, text }) => {
        if (typeof channelId !== "string" || typeof text !== "string" || text.trim() === "") {
          throw new SidekicksError("channel/noRecipient", l10n.t("Nothing to send."));
        }
        return this.requireChannels().send(channelId, text);
      },
      "turn/cancel": async ({ messageId }) => ({ cancelled: (await this.channels?.cancel(messageId)) ?? false }),
      "turn/retry": async ({ messageId }) => ({ retried: await this.requireChannels().retryMessage(text(messageId, "message id")) }),
      "turn/sendNow": async ({ messageId }) => ({ sent: await this.requireChannels().sendNow(text(messageId, "message id")) }),
      "terminal/snapshot": async ({ terminalId }) => {
        const kept = this.terminalOutputs.snapshot(text(terminalId, "terminal id"));
        return kept ? { known: true, ...kept } : { known: false, output: "", truncated: false };
      },
      "terminal/show": async ({ terminalId }) => ({ shown: this.options.editor.revealTerminal?.(text(terminalId, "terminal id")) ?? false }),
      "turn/fileDiff": async ({ messageId, path }) => {
        const diff = await this.requireChannels().fileDiff(text(messageId, "message id"), text(path, "path"));
        return { opened: diff ? ((await this.options.editor.openDiff?.(diff)) ?? false) : false };
      },
      "permission/answer": async ({ requestId, optionId, remember }) => ({
        accepted: (await this.channels?.answerPermission(text(requestId, "request id"), text(optionId, "option id"), remember === true)) ?? false,
      }),
      "command/run": async ({ command }) => {
        await this.options.editor.runCommand(command);
        return { done: true };
      },
      ...this.editorHandlers(),
    };
  }

  /**
   * The webview's editor requests (`editor/*`), validated here (the webview is a trust boundary) and handed to the
   * `EditorPort`. Malformed params, or an editor without the method, answer `false` instead of throwing.
   */
  private editorHandlers(): Pick<WebviewRequestHandlers, "editor/openDiff" | "editor/openLocation" | "editor/insert" | "editor/openLink"> {
    const editor = this.options.editor;
    const isText = (v: unknown): v is string => typeof v === "string" && v.length <= EDITOR_TEXT_LIMIT;
    const isPath = (v: unknown): v is string => typeof v === "string" && v.trim() !== "" && v.length <= 4096 && !v.includes("\0");
    const refuse = (what: string): false => {
      editor.log("warn", `webview: ${what} refused: malformed request`);
      return false;
    };
    return {
      "editor/openDiff": async ({ path, oldText, newText }) => {
        if (!isPath(path) || !isText(newText) || !(oldText === null || isText(oldText))) return { opened: refuse("open diff") };
        return { opened: (await editor.openDiff?.({ path, oldText, newText })) ?? false };
      },
      "editor/openLocation": async ({ path, line }) => {
        const validLine = line === undefined || (typeof line === "number" && Number.isInteger(line) && line >= 1);
        if (!isPath(path) || !validLine) return { opened: refuse("open location") };
        return { opened: (await editor.openLocation?.(line === undefined ? { path } : { path, line })) ?? false };
      },
      "editor/insert": async ({ text }) => {
        if (!isText(text) || text === "") return { inserted: refuse("insert") };
        return { inserted: (await editor.insertText?.(text)) ?? false };
      },
      "editor/openLink": async ({ href }) => {
        if (typeof href !== "string" || href.trim() === "" || href.length > 8192) return { opened: refuse("open link") };
        return { opened: (await editor.openLink?.(href)) ?? false };
      },
    };
  }

  /**
   * Subscribes a webview sink to the domain events, mapped to the protocol's event names. Returns an unsubscribe.
   * @param iconUri as for {@link webviewHandlers}
   */
  connectWebview(sink: <E extends HostEventName>(name: E, payload: HostEvents[E]) => void, iconUri?: IconUri): () => void {
    const offs = [
      this.events.on("config:changed", (p) => sink("config/changed", p)),
      this.events.on("channel:changed", (p) => sink("channel/changed", this.withLooks(p, iconUri))),
      this.events.on("agent:state", (p) => sink("agent/state", { agent: p.agent, state: p.state })),
      this.events.on("channels:changed", (channels) => sink("channels/changed", { channels })),
      this.events.on("message:started", (p) => sink("message/started", p)),
      this.events.on("message:delta", (p) => sink("message/delta", p)),
      this.events.on("message:finished", (p) => sink("message/finished", p)),
      this.events.on("agent:commands", (p) => sink("commands/changed", p)),
      this.events.on("session:state", (p) => sink("session/state", p)),
      this.events.on("store:opened", () => sink("channel/reload", { name: GENERAL })),
      this.events.on("terminal:output", (p) => sink("terminal/output", p)),
    ];
    return () => offs.forEach((off) => off());
  }

  /** Stops every agent and closes the store; running answers are saved as interrupted. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.started.catch(() => undefined); // the start reported its own failure

    this.stopWatchingLock();
    await this.closeStore();
    await this.agents.stopAll();
  }

  /**
   * Two windows, one store (issue 5): LevelDB admits one process, so the second window cannot write the history.
   * It says so (`store/locked`), never touches the lock file, and tries again every {@link LOCKED_RETRY_MS}; once
   * the other window lets go, the history opens here and the view reloads (`store:opened`). Nothing is lost: this
   * window wrote nothing meanwhile, and the other window's queued turns wait in the store for whoever opens it.
   */
  private watchLockedStore(): void {
    if (this.lockedRetry || this.disposed) return;
    this.lockedRetry = setInterval(() => void this.retryLockedStore(), this.options.lockedRetryMs ?? LOCKED_RETRY_MS);
    this.lockedRetry.unref?.();
  }

  private async retryLockedStore(): Promise<void> {
    if (this.store || this.disposed) return this.stopWatchingLock();
    await this.openStore();
    if (this.store) {
      this.stopWatchingLock();
      this.options.editor.log("info", "the history store is free again: opened here");
      this.events.emit("store:opened", { storageDir: this.options.storageDir });
    }
  }

  private stopWatchingLock(): void {
    if (this.lockedRetry) clearInterval(this.lockedRetry);
    this.lockedRetry = undefined;
  }

  private requireChannels(): ChannelService {
    if (!this.channels) throw this.storeError ?? new SidekicksError("store/corrupt", l10n.t("The history store is not open."));
    return this.channels;
  }

  private async openStore(): Promise<void> {
    try {
      this.store = await Store.open(this.options.storageDir, (key, reason) => this.options.editor.log("warn", `store: skipped record ${key}: ${reason}`));
      this.storeError = undefined;
      this.channels = new ChannelService(this.store, this.agents, this.events, (line) => this.options.editor.log("warn", line), Date.now, undefined, {
        moderatorOf: (channel) => this.roster?.channels.find((c) => c.name === channel.name)?.moderator,
        policyOf: (agent) => this.roster?.agents.find((a) => a.name === agent)?.permissions,
      });
      this.channelDirectory = new ChannelDirectory(this.store, this.agents, this.events);
      if (this.roster || this.config.state !== "missing") await this.channels.syncGeneral(this.agents.names());
      else await this.channels.syncGeneral([]);
      await this.syncDeclared();
    } catch (err) {
      const wasLocked = this.storeError?.code === "store/locked";
      this.storeError = err instanceof SidekicksError ? err : new SidekicksError("store/corrupt", String(err));
      if (this.storeError.code === "store/locked") {
        this.storeError = new SidekicksError(
          "store/locked",
          l10n.t("This history is open in another VS Code window, which writes it. Sidekicks opens it here as soon as that window closes (it checks every few seconds); nothing is lost meanwhile. In a browser, a crashed tab of this workspace can keep it until you close that tab."),
          this.options.storageDir,
        );
        this.watchLockedStore();
      }
      if (!wasLocked) this.options.editor.log("error", `${this.storeError.message} (${this.options.storageDir})`);
      this.store = undefined;
      this.channels = undefined;
      this.channelDirectory = undefined;
    }
  }

  /** Creates the roster's declared channels that were never created (ChannelDirectory.syncDeclared). */
  private async syncDeclared(): Promise<void> {
    if (!this.channelDirectory || !this.roster) return;
    try {
      const created = await this.channelDirectory.syncDeclared(this.roster.channels);
      if (created.length > 0) this.options.editor.log("info", `created declared channels: ${created.map((n) => `#${n}`).join(", ")}`);
    } catch (err) {
      this.options.editor.log("warn", `declared channels not created: ${String(err)}`);
    }
  }

  private async closeStore(): Promise<void> {
    const { channels, store } = this;
    this.channels = undefined;
    this.channelDirectory = undefined;
    this.store = undefined;
    await channels?.close();
    await store?.close();
  }

  private async refreshChannel(): Promise<void> {
    if (!this.channels) return;
    try {
      await this.channels.syncGeneral(this.agents.names());
    } catch (err) {
      this.options.editor.log("debug", `channel refresh skipped: ${String(err)}`);
    }
  }
}
