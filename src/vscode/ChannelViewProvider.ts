import * as vscode from "vscode";
import type { WebviewBridge } from "../app/WebviewBridge";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { HostEventName, HostEvents, HostRequestMethod, HostRequests } from "../shared/protocol";
import { ShownChannel } from "./shownChannel";
import { connectWebview } from "./webviewConnection";

/**
 * The sidebar's channel view (`WebviewView` `sidekicks.channel`): one {@link WebviewBridge} per resolved webview,
 * connected to the app's events for as long as the webview lives. The page loads at once and shows its loading state
 * until the app has started (webviewConnection.ts).
 */
export class ChannelViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = "sidekicks.channel";
  private bridge: WebviewBridge | undefined;
  private view: vscode.WebviewView | undefined;
  private badge: vscode.ViewBadge | undefined;
  /** A channel to show once the view says `ready` (a command ran while the view was not loaded). */
  private pendingChannel: string | undefined;
  /** A permission card to focus once the view says `ready`, after {@link pendingChannel}. */
  private pendingPermission: HostEvents["permission/focus"] | undefined;
  /** A message to reveal once the view says `ready`, after {@link pendingChannel} (a search result chosen). */
  private pendingReveal: HostEvents["message/reveal"] | undefined;
  /** Context for the composer to add once the view says `ready`, after {@link pendingChannel} (an editor command). */
  private pendingAttach: HostEvents["composer/attach"][] = [];
  private readonly disposables: vscode.Disposable[] = [];
  /** The channel the view opened last, under its current name, for `Sidekicks: Open Channel in Editor`. */
  private readonly channel = new ShownChannel();

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** The app once started; rejects with the reason it could not start. */
    private readonly app: () => Promise<SidekicksApp>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const app = this.app();
    const connection = connectWebview(view.webview, {
      extensionUri: this.extensionUri,
      app,
      log: this.log,
      onReady: (bridge) => {
        this.log.debug("channel view ready");
        const name = this.pendingChannel;
        this.pendingChannel = undefined;
        if (name !== undefined) bridge.event("channel/reload", { name });
        const permission = this.pendingPermission;
        this.pendingPermission = undefined;
        if (permission) bridge.event("permission/focus", permission);
        const reveal = this.pendingReveal;
        this.pendingReveal = undefined;
        if (reveal) bridge.event("message/reveal", reveal);
        for (const attach of this.pendingAttach.splice(0)) bridge.event("composer/attach", attach);
      },
      onOpened: (opened) => this.channel.opened(opened),
    });
    // A rename keeps the shown channel (the webview opens nothing then): the command must use its new name.
    let live = true;
    let unsubscribe = (): void => undefined;
    void app.then(
      (started) => {
        if (live) unsubscribe = started.events.on("channels/changed", (channels) => this.channel.changed(channels));
      },
      () => undefined, // the webview shows why
    );
    const bridge = connection.bridge;
    this.bridge = bridge;
    this.view = view;
    view.badge = this.badge;
    view.onDidDispose(() => {
      live = false;
      unsubscribe();
      connection.dispose();
      if (this.bridge === bridge) this.bridge = undefined;
      if (this.view === view) this.view = undefined;
    }, undefined, this.disposables);
  }

  /** The channel the view shows (opened last), if it has opened one. */
  get currentChannel(): string | undefined {
    return this.channel.name;
  }

  /** The channel the view shows while it is visible (not collapsed, not behind another view), for notifications. */
  get visibleChannelId(): string | undefined {
    return this.view?.visible ? this.channel.id : undefined;
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

  /** Focuses a permission card in the view (`permission/focus`): now when it is loaded, else once it says `ready`. */
  focusPermission(target: HostEvents["permission/focus"]): void {
    if (this.bridge?.isReady) this.bridge.event("permission/focus", target);
    else this.pendingPermission = target;
  }

  /** Reveals a message in the view (`message/reveal`, loading its page): now when it is loaded, else once it says `ready`. */
  revealMessage(target: HostEvents["message/reveal"]): void {
    if (this.bridge?.isReady) this.bridge.event("message/reveal", target);
    else this.pendingReveal = target;
  }

  /** Hands context to the view's composer (`composer/attach`): now when it is loaded, else once it says `ready`. */
  attach(target: HostEvents["composer/attach"]): void {
    if (this.bridge?.isReady) this.bridge.event("composer/attach", target);
    else this.pendingAttach.push(target);
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
