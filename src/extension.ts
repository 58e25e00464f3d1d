import { existsSync, mkdirSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { startSidekicks } from "./app/compose";
import type { SidekicksApp } from "./app/SidekicksApp";
import { resolveConfigLocation } from "./config/location";
import { CONFIG_TEMPLATE } from "./config/template";
import { historyDirFor, historyHome, historyOffer, type MovedHistory } from "./store/historyHomes";
import type { HostRequestMethod, HostRequests } from "./shared/protocol";
import { registerAgentUi, type AgentItemSnapshot } from "./vscode/agentCommands";
import { registerChannelCommands } from "./vscode/channelCommands";
import { registerHistoryCommands } from "./vscode/historyCommands";
import { registerAttachCommands } from "./vscode/attachCommands";
import { ChannelPanels, registerPanelCommand, type PanelSnapshot } from "./vscode/ChannelPanels";
import { ChannelViewProvider } from "./vscode/ChannelViewProvider";
import { DIFF_SCHEME } from "./vscode/DiffDocuments";
import { EditorAdapter } from "./vscode/EditorAdapter";
import { FileWatchers } from "./vscode/FileWatchers";
import { offerMovedHistory } from "./vscode/historyFollow";
import { Notifications } from "./vscode/Notifications";
import { PermissionStatus } from "./vscode/PermissionStatus";
import { registerRosterCommands } from "./vscode/rosterCommands";
import { WalkthroughContext } from "./vscode/walkthroughContext";

/** What `activate` returns outside production mode, for the integration tests. */
export interface SidekicksTestApi {
  /** Sends a `HostRequests` request to the live webview (reads and drives its real DOM). */
  webview<M extends HostRequestMethod>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  /** Sends a `HostRequests` request to the editor tab showing channel `channel` (`Sidekicks: Open Channel in Editor`). */
  panel<M extends HostRequestMethod>(channel: string, method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  /** The open channel tabs: their title, the channel they show, whether they are the active one. */
  panels(): PanelSnapshot[];
  /** Closes the store, opens it again, and makes the webview re-open the channel from it. */
  reopenStore(): Promise<void>;
  /**
   * Renames channel `name` to `newName` as the channel header's rename does (`channel/rename`,
   * `ChannelDirectory.rename`); rejects with its refusal, or when Sidekicks did not start.
   */
  renameChannel(name: string, newName: string): Promise<void>;
  /**
   * The text parts of message `messageId` of channel `channel` (by name) as saved in the store — for an answer that
   * is streaming, its last checkpoint (what a reload would show); `undefined` when there is no such message.
   */
  savedText(channel: string, messageId: string): Promise<string | undefined>;
  /** Resolves once the app started by `activate` is ready (roster read, store opened); rejects if it failed. */
  ready(): Promise<void>;
  /** The Agents view's items as VS Code shows them (label, description, tooltip, contextValue). */
  agents(): AgentItemSnapshot[];
  /**
   * Resolves once the start-of-turn snapshot of every turn running now is taken: in git the prompt does not wait for
   * it, and a scripted agent that writes at once may beat it (its files' earlier texts are then unknown, "late").
   */
  turnsSnapshotted(): Promise<void>;
}

let app: SidekicksApp | undefined;
/** The app once its roster is read and its store opened; rejects with the reason it could not start. */
let started: Promise<SidekicksApp> | undefined;
/** {@link started}, or undefined when the app could not start (the error was shown once). */
let ready: Promise<SidekicksApp | undefined> = Promise.resolve(undefined);
let deactivated = false;

/**
 * Activates Sidekicks: the log, the views, the commands and the channel tabs' serializer, registered at once; the app
 * (roster, agents, store, channels) starts on the next turn of the event loop and is not awaited (`activation.ms`,
 * issue 8): the views show their loading state and the commands wait for it. Starts no agent process: agents start
 * on first use. Reports its own failure, and that of the deferred start, instead of throwing (rust-analyzer's
 * `activate`).
 */
export function activate(context: vscode.ExtensionContext): { testing?: SidekicksTestApi } {
  deactivated = false;
  // The domain's sentences (`@vscode/l10n`) follow the editor's language too; English needs no bundle.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel("Sidekicks", { log: true });
  const editor = new EditorAdapter(log);
  context.subscriptions.push(log, editor, vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, editor.diffs));
  const whenStarted = () => started ?? Promise.reject(new Error("Sidekicks is not active."));
  const view = new ChannelViewProvider(context.extensionUri, whenStarted, log);
  const panels = new ChannelPanels(context.extensionUri, whenStarted, log);
  context.subscriptions.push(
    view,
    vscode.window.registerWebviewViewProvider(ChannelViewProvider.viewType, view),
    panels,
    vscode.window.registerWebviewPanelSerializer(ChannelPanels.viewType, panels),
  );
  const whenReady = () => ready;
  registerCommands(context, log);
  const agentUi = registerAgentUi(context, () => app, whenReady, editor.diffs);
  registerChannelCommands(context, whenReady, (name) => view.showChannel(name));
  registerHistoryCommands(context, whenReady, (name, target) => {
    view.showChannel(name);
    view.revealMessage(target);
    void vscode.commands.executeCommand("sidekicks.channel.focus");
  });
  registerPanelCommand(context, panels, () => view.currentChannel, whenReady);
  registerAttachCommands(context, whenReady, {
    attach: (target, name) => {
      if (view.currentChannel !== name) view.showChannel(name);
      view.attach(target);
    },
    currentChannel: () => view.currentChannel,
  });
  const permissionStatus = new PermissionStatus(view, panels, (name) => view.showChannel(name), () => app);
  const fileWatchers = new FileWatchers(() => app, log);
  const walkthrough = new WalkthroughContext();
  const notifications = new Notifications(view, panels);
  context.subscriptions.push(permissionStatus, fileWatchers, walkthrough, notifications);

  started = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    if (deactivated) throw new Error("Sidekicks was deactivated before it started.");
    const current = startApp(context, editor, log);
    await current.ready;
    agentUi.attach(current);
    permissionStatus.attach(current);
    notifications.attach(current);
    fileWatchers.attach(current);
    walkthrough.attach(current);
    log.info(`roster ${current.configStatus.path}: ${current.configStatus.state}; history in ${current.storageDir}`);
    return current;
  });
  ready = started.catch((err: unknown) => {
    if (deactivated) return undefined;
    log.error(`Sidekicks failed to start: ${err instanceof Error ? err.stack : String(err)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t("Sidekicks failed to start: {0}", err instanceof Error ? err.message : String(err)), vscode.l10n.t("Show log")).then((choice) => {
      if (choice) log.show();
    });
    return undefined;
  });

  if (context.extensionMode === vscode.ExtensionMode.Production) return {};
  return {
    testing: {
      webview: (method, params) => view.request(method, params),
      panel: (channel, method, params) => panels.request(channel, method, params),
      panels: () => panels.snapshot(),
      reopenStore: async () => {
        await (await ready)?.reopenStore();
        view.event("channel/reload", { name: "general" });
      },
      renameChannel: async (name, newName) => {
        const current = await ready;
        if (!current) throw new Error("Sidekicks did not start.");
        await current.directory.rename({ name }, newName);
      },
      savedText: async (channel, messageId) => {
        const current = await ready;
        if (!current) throw new Error("Sidekicks did not start.");
        const record = await current.directory.resolve({ name: channel });
        const saved = await current.messages.saved(record.id, messageId);
        return saved?.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
      },
      agents: () => agentUi.snapshot(),
      turnsSnapshotted: async () => {
        const current = await ready;
        if (!current) throw new Error("Sidekicks did not start.");
        await current.turnsSnapshotted();
      },
      ready: async () => void (await started),
    },
  };
}

/**
 * Creates the app for the workspace's roster and starts it (`startSidekicks`, the composition root; not awaited:
 * `SidekicksApp.ready`), and watches the roster file and Workspace Trust to reload it.
 * @throws Error when the roster's location cannot be resolved (a bad `sidekicks.configPath`)
 */
function startApp(context: vscode.ExtensionContext, editor: EditorAdapter, log: vscode.LogOutputChannel): SidekicksApp {
  const configPath = resolveConfigPath();
  const { histories, stayed } = moveEarlierHistory(context, configPath);
  // Asked before the history opens (it would be created); answered while Sidekicks runs on this folder's own.
  let offer: MovedHistory[] = [];
  try {
    if (!stayed) offer = historyOffer(histories, configPath);
  } catch (err) {
    log.warn(`looking for the history of a moved folder failed: ${String(err)}`);
  }
  const current = startSidekicks({
    configPath,
    storageDir: stayed ?? historyHome(histories, configPath),
    editor,
    launch: {
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? path.dirname(configPath),
      nodePath: process.execPath,
      demoAgentPath: vscode.Uri.joinPath(context.extensionUri, "dist", "demo-agent.js").fsPath,
      env: process.env,
    },
  });
  app = current;
  if (offer.length > 0) void offerMovedHistory(histories, configPath, offer, log);
  const watcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(vscode.Uri.file(path.dirname(configPath)), path.basename(configPath)),
  );
  const reload = () => void ready.then((up) => up?.reloadConfig());
  context.subscriptions.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(reload));
  return current;
}

/** Stops every agent process and closes the store (running answers are saved as interrupted). */
export async function deactivate(): Promise<void> {
  deactivated = true;
  await ready;
  const current = app;
  app = undefined;
  await current?.dispose();
}

/**
 * Where the histories live: the extension's global storage, one folder per roster file (the first 12 hex of its
 * path's SHA-256; `src/store/historyHomes.ts`, which also follows a moved folder's history the user adopted). Global,
 * not per window: two windows on the same roster then share one store, so the second finds it locked and says so (a
 * per-window folder would give it a separate, empty history). A history kept in the window's workspace storage by an
 * earlier version is moved here once.
 * @returns the folder holding the histories; `stayed`: the earlier history, when it could not be moved (another
 *   filesystem, in use): it is read where it is
 */
function moveEarlierHistory(context: vscode.ExtensionContext, configPath: string): { histories: string; stayed?: string } {
  const histories = path.join(context.globalStorageUri.fsPath, "histories");
  const folder = historyDirFor(histories, configPath);
  const earlier = context.storageUri ? path.join(context.storageUri.fsPath, path.basename(folder)) : undefined;
  if (earlier && existsSync(earlier) && !existsSync(folder)) {
    try {
      mkdirSync(histories, { recursive: true });
      renameSync(earlier, folder);
    } catch {
      return { histories, stayed: earlier }; // another filesystem, or in use: keep reading it where it is
    }
  }
  return { histories };
}

/** The roster file: setting `sidekicks.configPath`, else `sidekicks.yaml`, else `.vscode/sidekicks.yaml` (src/config/location.ts). */
function resolveConfigPath(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const setting = vscode.workspace.getConfiguration("sidekicks", folder).get<string>("configPath");
  return resolveConfigLocation({ folder: folder?.fsPath, setting, home: homedir(), exists: existsSync }).file;
}

function registerCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const command = (id: string, run: () => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));
  command("sidekicks.createConfig", async () => {
    const file = app?.configStatus.path ?? safeConfigPath();
    if (!file) return void vscode.window.showErrorMessage(vscode.l10n.t("Open a folder first: the roster lives in the workspace."));
    const uri = vscode.Uri.file(file);
    try {
      await vscode.workspace.fs.stat(uri);
      void vscode.window.showInformationMessage(vscode.l10n.t("{0} already exists; opening it.", path.basename(file)));
    } catch {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(CONFIG_TEMPLATE));
      await (await ready)?.reloadConfig();
    }
    await vscode.window.showTextDocument(uri);
  });
  registerRosterCommands(context, { configPath: () => app?.configStatus.path ?? safeConfigPath(), reload: async () => app?.reloadConfig() });
  command("sidekicks.showLog", () => log.show());
  command("sidekicks.focus", () => vscode.commands.executeCommand(`${ChannelViewProvider.viewType}.focus`));
}

function safeConfigPath(): string | undefined {
  try {
    return resolveConfigPath();
  } catch {
    return undefined;
  }
}
