import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { SidekicksApp } from "./app/SidekicksApp";
import { resolveConfigLocation } from "./config/location";
import { CONFIG_TEMPLATE } from "./config/template";
import type { HostRequestMethod, HostRequests } from "./protocol";
import { registerAgentUi, type AgentItemSnapshot } from "./vscode/agentCommands";
import { registerChannelCommands } from "./vscode/channelCommands";
import { ChannelViewProvider } from "./vscode/ChannelViewProvider";
import { DIFF_SCHEME } from "./vscode/DiffDocuments";
import { EditorAdapter } from "./vscode/EditorAdapter";
import { FileWatchers } from "./vscode/FileWatchers";
import { PermissionStatus } from "./vscode/PermissionStatus";
import { registerRosterCommands } from "./vscode/rosterCommands";

/** What `activate` returns outside production mode, for the integration tests. */
export interface SidekicksTestApi {
  /** Sends a `HostRequests` request to the live webview (reads and drives its real DOM). */
  webview<M extends HostRequestMethod>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  /** Closes the store, opens it again, and makes the webview re-open the channel from it. */
  reopenStore(): Promise<void>;
  /** The Agents view's items as VS Code shows them (label, description, tooltip, contextValue). */
  agents(): AgentItemSnapshot[];
}

let app: SidekicksApp | undefined;

/**
 * Activates Sidekicks: the log, the config watcher, the app (roster, agents, store, channels), the channel view and
 * the commands. Starts no agent process: agents start on first use. Reports its own failure instead of throwing
 * (rust-analyzer's `activate`).
 */
export async function activate(context: vscode.ExtensionContext): Promise<{ testing?: SidekicksTestApi }> {
  // The domain's sentences (`@vscode/l10n`) follow the editor's language too; English needs no bundle.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel("Sidekicks", { log: true });
  const editor = new EditorAdapter(log);
  context.subscriptions.push(log, editor, vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, editor.diffs));
  const view = new ChannelViewProvider(context.extensionUri, () => app, log);
  context.subscriptions.push(view, vscode.window.registerWebviewViewProvider(ChannelViewProvider.viewType, view));
  registerCommands(context, log);
  const agentUi = registerAgentUi(context, () => app);
  registerChannelCommands(context, () => app, (name) => view.showChannel(name));
  const permissionStatus = new PermissionStatus(view, (name) => view.showChannel(name), () => app);
  const fileWatchers = new FileWatchers(() => app);
  context.subscriptions.push(permissionStatus, fileWatchers);
  try {
    const configPath = resolveConfigPath();
    const storageDir = historyFolder(context, configPath);
    app = await SidekicksApp.create({
      configPath,
      storageDir,
      editor,
      launch: {
        workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? path.dirname(configPath),
        nodePath: process.execPath,
        demoAgentPath: vscode.Uri.joinPath(context.extensionUri, "dist", "demo-agent.js").fsPath,
        env: process.env,
      },
    });
    agentUi.attach(app);
    permissionStatus.attach(app);
    fileWatchers.attach(app);
    log.info(`roster ${configPath}: ${app.configStatus.state}; history in ${storageDir}`);
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(configPath)), path.basename(configPath)),
    );
    const reload = () => void app?.reloadConfig();
    context.subscriptions.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
    context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(reload));
  } catch (err) {
    log.error(`Sidekicks failed to start: ${err instanceof Error ? err.stack : String(err)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t("Sidekicks failed to start: {0}", err instanceof Error ? err.message : String(err)), vscode.l10n.t("Show log")).then((choice) => {
      if (choice) log.show();
    });
    return {};
  }
  if (context.extensionMode === vscode.ExtensionMode.Production) return {};
  return {
    testing: {
      webview: (method, params) => view.request(method, params),
      reopenStore: async () => {
        await app?.reopenStore();
        view.event("channel/reload", { name: "general" });
      },
      agents: () => agentUi.snapshot(),
    },
  };
}

/** Stops every agent process and closes the store (running answers are saved as interrupted). */
export async function deactivate(): Promise<void> {
  const current = app;
  app = undefined;
  await current?.dispose();
}

/**
 * Where the history of a roster lives: the extension's global storage, one folder per roster file (the first 12 hex
 * of its path's SHA-256). Global, not per window: two windows on the same roster then share one store, so the second
 * finds it locked and says so (a per-window folder would give it a separate, empty history). A history kept in the
 * window's workspace storage by an earlier version is moved here once.
 */
function historyFolder(context: vscode.ExtensionContext, configPath: string): string {
  const key = createHash("sha256").update(configPath).digest("hex").slice(0, 12);
  const folder = path.join(context.globalStorageUri.fsPath, "histories", key);
  const earlier = context.storageUri ? path.join(context.storageUri.fsPath, key) : undefined;
  if (earlier && existsSync(earlier) && !existsSync(folder)) {
    try {
      mkdirSync(path.dirname(folder), { recursive: true });
      renameSync(earlier, folder);
    } catch {
      return earlier; // another filesystem, or in use: keep reading it where it is
    }
  }
  return folder;
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
      await app?.reloadConfig();
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
