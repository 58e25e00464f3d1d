import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import { asNotifySetting, newPermissionNotices, noticeOfFinished, NoticeBatcher, shouldNotify, summarize, type Notice, type Watching } from "../app/notifications";
import type { ChannelPanels } from "./ChannelPanels";
import type { ChannelViewProvider } from "./ChannelViewProvider";

/**
 * VS Code notifications for agents that finished or need the user while the user looks elsewhere (issue 21): follows
 * the app's `message/finished` and `permissions/pending`, decides with `src/app/notifications.ts` (setting
 * `sidekicks.notifications`, the window's focus, the channels shown in a visible view or tab), gathers bursts into
 * one notification, and its "Open" action shows the channel at the message (a permission: its card).
 */
export class Notifications implements vscode.Disposable {
  private readonly seen = new Set<string>();
  private readonly batcher: NoticeBatcher;
  private offs: (() => void)[] = [];
  private app: SidekicksApp | undefined;

  constructor(
    private readonly view: ChannelViewProvider,
    private readonly panels: Pick<ChannelPanels, "focusPermission" | "visibleChannelIds">,
  ) {
    this.batcher = new NoticeBatcher((burst) => void this.show(burst), { set: (run, ms) => setTimeout(run, ms), clear: (h) => clearTimeout(h as NodeJS.Timeout) });
  }

  /** Follows `app`'s settled answers and permission requests. */
  attach(app: SidekicksApp): void {
    this.detach();
    this.app = app;
    this.offs = [
      app.events.on("message/finished", (m) => {
        const notice = noticeOfFinished(m);
        if (notice) this.consider(notice);
      }),
      app.events.on("permissions/pending", ({ waiting }) => {
        for (const notice of newPermissionNotices(waiting, this.seen)) this.consider(notice);
      }),
    ];
  }

  private consider(notice: Notice): void {
    if (shouldNotify(notice, this.watching(), this.setting())) this.batcher.add(notice);
  }

  private setting() {
    return asNotifySetting(vscode.workspace.getConfiguration("sidekicks").get("notifications"));
  }

  private watching(): Watching {
    const shown = this.view.visibleChannelId;
    return { windowFocused: vscode.window.state.focused, visibleChannelIds: [...(shown ? [shown] : []), ...this.panels.visibleChannelIds()] };
  }

  private async show(burst: Notice[]): Promise<void> {
    const app = this.app;
    if (!app) return;
    // The user may have come to look meanwhile (or answered the request): only what they still miss is shown.
    const watching = this.watching();
    const setting = this.setting();
    const stillWaiting = new Set(this.seen);
    const missed = burst.filter((n) => shouldNotify(n, watching, setting) && (n.kind !== "permission" || stillWaiting.has(n.requestId)));
    if (missed.length === 0) return;
    const names = new Map((await app.directory.list().catch(() => [])).map((c) => [c.id, c.name]));
    const notification = summarize(missed, (id) => names.get(id));
    const open = notification.target.kind === "permission" ? vscode.l10n.t("Show request") : vscode.l10n.t("Open channel");
    const settings = vscode.l10n.t("Notification settings");
    const show = notification.level === "info" ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    const choice = await show(notification.text, open, settings);
    if (choice === settings) return void vscode.commands.executeCommand("workbench.action.openSettings", "sidekicks.notifications");
    if (choice === open) await this.open(notification.target, names.get(notification.target.channelId));
  }

  private async open(target: Notice, channelName: string | undefined): Promise<void> {
    if (target.kind === "permission") {
      const request = { channelId: target.channelId, messageId: target.messageId, requestId: target.requestId };
      if (this.panels.focusPermission(request, channelName)) return;
      if (channelName !== undefined) this.view.showChannel(channelName);
      this.view.focusPermission(request);
    } else {
      if (channelName !== undefined) this.view.showChannel(channelName);
      this.view.revealMessage({ channelId: target.channelId, messageId: target.messageId });
    }
    await vscode.commands.executeCommand("sidekicks.channel.focus");
  }

  private detach(): void {
    for (const off of this.offs) off();
    this.offs = [];
  }

  dispose(): void {
    this.detach();
    this.batcher.dispose();
  }
}
