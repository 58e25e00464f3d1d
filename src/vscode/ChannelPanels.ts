import * as vscode from "vscode";
import type { WebviewBridge } from "../app/WebviewBridge";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { ChannelSummary, HostEvents, HostRequestMethod, HostRequests } from "../shared/protocol";
import { permissionTab } from "./permissionTab";
import { connectWebview } from "./webviewConnection";

/** What the integration tests see of an open channel tab. */
export interface PanelSnapshot {
  /** The tab's title: `#name`, or `@agent` for a direct conversation. */
  title: string;
  /** The channel the tab shows (by name). */
  channel: string;
  /** Whether it is the active editor tab. */
  active: boolean;
}

/** The user-facing strings of the channel tabs, in one place (translated when read: `vscode.l10n`). */
const TEXT = {
  get noChannel() {
    return vscode.l10n.t("Sidekicks is not running: open a folder with a sidekicks.yaml.");
  },
  get pick() {
    return vscode.l10n.t("Open which channel in an editor tab?");
  },
  /** The history is not usable here (`SidekicksApp.historyProblem`: open in another window, unreadable). */
  noHistory(reason: string) {
    return vscode.l10n.t("Cannot open a channel in an editor tab: {0}", reason);
  },
};

/** The name a person reads for a channel: `#general`, `@demo` (same rule as webview/channelLabel.ts). */
const label = (name: string) => (name.startsWith("@") ? name : `#${name}`);

interface OpenPanel {
  panel: vscode.WebviewPanel;
  /** The channel the tab shows (by name), updated when its webview opens another one or it is renamed. */
  channel: string;
  channelId?: string;
  bridge?: WebviewBridge;
  /** A permission card to focus once the tab's webview says `ready` (it reloads when a hidden tab is revealed). */
  pendingPermission?: HostEvents["permission/focus"];
  /** Names the tab's channel had before a rename: a webview revived after it asks for the old one. */
  formerNames?: Set<string>;
}

/**
 * Channels in editor tabs (`WebviewPanel` `sidekicks.channelPanel`, issue 6): the side view's webview app pinned to
 * one channel, one {@link WebviewBridge} per tab, titled with the channel's name (it follows a switch or a rename).
 * Also the tabs' `WebviewPanelSerializer`: after a window reload VS Code hands back each tab with the state its
 * webview saved (`setState`: `{channel}`), and the tab shows that channel again.
 */
export class ChannelPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  static readonly viewType = "sidekicks.channelPanel";
  private readonly panels = new Set<OpenPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** The app once started; rejects with the reason it could not start. */
    private readonly app: () => Promise<SidekicksApp>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Shows channel `name` in an editor tab: the tab already showing it, else a new one beside the active editor. */
  open(name: string): void {
    const existing = [...this.panels].find((p) => p.channel === name);
    if (existing) return existing.panel.reveal();
    const panel = vscode.window.createWebviewPanel(ChannelPanels.viewType, label(name), vscode.ViewColumn.Active);
    this.attach(panel, name);
  }

  /** Restores a tab after a reload (`registerWebviewPanelSerializer`): `state` is what its webview saved. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = typeof state === "object" && state !== null ? (state as { channel?: unknown }).channel : undefined;
    this.attach(panel, typeof saved === "string" && saved !== "" ? saved : "general");
  }

  /**
   * Reveals the editor tab showing the channel of permission request `target` and focuses its card there
   * (`permission/focus`): at once when the tab's webview is live, else once it says `ready` after the reveal.
   * @param channelName the request's channel by name, to find a tab restored after a reload
   * @returns false when no tab shows that channel (the side view should show the request)
   */
  focusPermission(target: HostEvents["permission/focus"], channelName: string | undefined): boolean {
    const tabs = [...this.panels].map((p) => ({ open: p, channel: p.channel, channelId: p.channelId, active: p.panel.active, visible: p.panel.visible }));
    const open = permissionTab(tabs, target.channelId, channelName)?.open;
    if (!open) return false;
    // A hidden tab's webview is not live (no retainContextWhenHidden): it reloads when revealed and says `ready`.
    const live = open.panel.visible && open.bridge?.isReady === true;
    open.panel.reveal(undefined, false);
    if (live) open.bridge?.event("permission/focus", target);
    else open.pendingPermission = target;
    return true;
  }

  /** The channels shown by tabs visible now (in any editor group), for notifications. */
  visibleChannelIds(): string[] {
    return [...this.panels].filter((p) => p.panel.visible && p.channelId !== undefined).map((p) => p.channelId!);
  }

  /** Sends a request to the tab showing `channel` (the integration tests read and drive its real DOM). */
  request<M extends HostRequestMethod>(channel: string, method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]> {
    const open = [...this.panels].find((p) => p.channel === channel);
    if (!open?.bridge) return Promise.reject(new Error(`no editor tab shows ${label(channel)}`));
    return open.bridge.request(method, params);
  }

  /** The open tabs, for the integration tests. */
  snapshot(): PanelSnapshot[] {
    return [...this.panels].map((p) => ({ title: p.panel.title, channel: p.channel, active: p.panel.active }));
  }

  dispose(): void {
    for (const open of [...this.panels]) open.panel.dispose();
  }

  private attach(panel: vscode.WebviewPanel, channel: string): void {
    const open: OpenPanel = { panel, channel };
    this.panels.add(open);
    panel.title = label(channel);
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "sidekicks.svg");
    const app = this.app();
    const connection = connectWebview(panel.webview, {
      extensionUri: this.extensionUri,
      app,
      log: this.log,
      channel,
      onReady: (bridge) => {
        const permission = open.pendingPermission;
        open.pendingPermission = undefined;
        if (permission) bridge.event("permission/focus", permission);
      },
      // The tab follows its webview: a switch to another channel (or #general after a delete) renames the tab.
      onOpened: (opened) => {
        // Once the webview has opened a channel again, the old names are its own past: a channel given one of them
        // since is another channel.
        open.formerNames = undefined;
        this.show(open, opened);
      },
      openName: (name) => (open.formerNames?.has(name) ? open.channel : name),
      // "Reopen" (the store opened after being locked) means this tab's channel, not the side view's default.
      event: (bridge, name, payload) =>
        name === "channel/reload" ? bridge.event("channel/reload", { name: open.channel }) : bridge.event(name, payload),
    });
    open.bridge = connection.bridge;
    let renamed = (): void => undefined;
    void app.then(
      (started) => {
        if (!this.panels.has(open)) return;
        renamed = started.events.on("channels/changed", (channels) => {
          const now = channels.find((c) => c.id === open.channelId);
          if (now && now.name !== open.channel) (open.formerNames ??= new Set()).add(open.channel);
          if (now) this.show(open, now);
        });
      },
      () => undefined, // the webview shows why
    );
    const disposed = panel.onDidDispose(() => {
      this.panels.delete(open);
      connection.dispose();
      renamed();
      disposed.dispose();
    });
  }

  private show(open: OpenPanel, channel: Pick<ChannelSummary, "id" | "name">): void {
    open.channel = channel.name;
    open.channelId = channel.id;
    if (open.panel.title !== label(channel.name)) open.panel.title = label(channel.name);
  }
}

/**
 * `Sidekicks: Open Channel in Editor` (`sidekicks.openChannelInEditor`): opens a channel in an editor tab — the one
 * given as argument (a name), else the one the side view shows, else one picked from the list. While the history is
 * not usable here (open in another window), it says so in a warning instead of opening an empty tab.
 */
export function registerPanelCommand(
  context: vscode.ExtensionContext,
  panels: ChannelPanels,
  currentChannel: () => string | undefined,
  whenReady: () => Promise<SidekicksApp | undefined>,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand("sidekicks.openChannelInEditor", async (arg?: unknown) => {
      const app = await whenReady();
      const problem = app?.historyProblem;
      if (problem) return void vscode.window.showWarningMessage(TEXT.noHistory(problem.message));
      let name = typeof arg === "string" && arg !== "" ? arg : currentChannel();
      if (name === undefined) {
        if (!app) return void vscode.window.showWarningMessage(TEXT.noChannel);
        try {
          const picked = await vscode.window.showQuickPick(
            (await app.directory.list()).map((c) => ({ label: label(c.name), description: c.description, name: c.name })),
            { placeHolder: TEXT.pick },
          );
          name = picked?.name;
        } catch (err) {
          return void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
        }
      }
      if (name !== undefined) panels.open(name);
    }),
  );
}
