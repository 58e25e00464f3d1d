import * as vscode from "vscode";
import { WebviewBridge } from "../app/WebviewBridge";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { HostEventName, HostEvents, HostRequestMethod, HostRequests } from "../protocol";
import { webviewHtml } from "./webviewHtml";

/**
 * The sidebar's channel view (`WebviewView` `sidekicks.channel`): one {@link WebviewBridge} per resolved webview,
 * connected to the app's events for as long as the webview lives.
 */
export class ChannelViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = "sidekicks.channel";
  private bridge: WebviewBridge | undefined;
  private view: vscode.WebviewView | undefined;
  private badge: vscode.ViewBadge | undefined;
  /** A channel to show once the view says `ready` (a command ran while the view was not loaded). */
  private pendingChannel: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly getApp: () => SidekicksApp | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const app = this.getApp();
    if (!app) return;
    // The roster's image icons load from their folders (as of now: a folder added later needs the view reopened).
    const iconFolders = app.iconFolders().map((folder) => vscode.Uri.file(folder));
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "dist"), vscode.Uri.joinPath(this.extensionUri, "media"), ...iconFolders],
    };
    const iconUri = (file: string): string | undefined =>
      iconFolders.some((folder) => file.startsWith(folder.fsPath)) ? view.webview.asWebviewUri(vscode.Uri.file(file)).toString() : undefined;
    const bridge = new WebviewBridge(
      (message) => void view.webview.postMessage(message),
      app.webviewHandlers(iconUri),
      () => {
        this.log.debug("channel view ready");
        const name = this.pendingChannel;
        this.pendingChannel = undefined;
        if (name !== undefined) bridge.event("channel/reload", { name });
      },
      (line) => this.log.warn(line),
    );
    this.bridge = bridge;
    this.view = view;
    view.badge = this.badge;
    const disconnect = app.connectWebview((name, payload) => bridge.event(name, payload), iconUri);
    const onMessage = view.webview.onDidReceiveMessage((message) => bridge.receive(message));
    view.webview.html = webviewHtml(view.webview, this.extensionUri);
    view.onDidDispose(() => {
      disconnect();
      onMessage.dispose();
      bridge.dispose();
      if (this.bridge === bridge) this.bridge = undefined;
      if (this.view === view) this.view = undefined;
    }, undefined, this.disposables);
  }

  /** The view's badge (permission requests waiting), kept for a view resolved later. */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    if (this.view) this.view.badge = badge;
  }

  /** Posts an event to the live view, if any. */
  event<E extends HostEventName>(name: E, payload: HostEvents[E]): void {
    this.bridge?.event(name, payload);
  }

  /** Re-opens the view on channel `name` (`channel/reload`): now when it is loaded, else as soon as it says `ready`. */
  showChannel(name: string): void {
    if (this.bridge?.isReady) this.bridge.event("channel/reload", { name });
    else this.pendingChannel = name;
  }

  /** Sends a request to the live view (used by the integration tests to read and drive the real DOM). */
  request<M extends HostRequestMethod>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]> {
    if (!this.bridge) return Promise.reject(new Error("the Sidekicks view is not open"));
    return this.bridge.request(method, params);
  }

  dispose(): void {
    this.bridge?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
