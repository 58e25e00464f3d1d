import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { PendingPermission } from "../events/events";
import type { ChannelPanels } from "./ChannelPanels";
import type { ChannelViewProvider } from "./ChannelViewProvider";

/**
 * Every permission request waiting for the user, across agents and channels, visible at once (issue 6): a status bar
 * item ("2 agents waiting"), a badge on the channel view, and `Sidekicks: Go to next permission request`, which opens
 * the channel of the oldest one and focuses its card's first option (`permission/focus`): in the editor tab showing that
 * channel if there is one, else in the side view. While the history is open in another window (whose agents ask
 * there) it says so. Follows the app's `permissions/pending` event.
 */
export class PermissionStatus implements vscode.Disposable {
  static readonly nextCommand = "sidekicks.nextPermission";
  private readonly item = vscode.window.createStatusBarItem("sidekicks.permissions", vscode.StatusBarAlignment.Left, 100);
  private waiting: PendingPermission[] = [];
  private off: (() => void) | undefined;
  private readonly command: vscode.Disposable;

  constructor(
    private readonly view: ChannelViewProvider,
    private readonly panels: Pick<ChannelPanels, "focusPermission">,
    private readonly follow: (name: string) => void,
    private readonly getApp: () => SidekicksApp | undefined,
  ) {
    this.item.name = vscode.l10n.t("Sidekicks: permission requests");
    this.item.command = PermissionStatus.nextCommand;
    this.command = vscode.commands.registerCommand(PermissionStatus.nextCommand, () => this.next());
  }

  /** Follows `app`'s pending permission requests. */
  attach(app: SidekicksApp): void {
    this.off?.();
    this.off = app.events.on("permissions/pending", ({ waiting }) => this.show(waiting));
  }

  private show(waiting: PendingPermission[]): void {
    this.waiting = waiting;
    const agents = new Set(waiting.map((w) => w.agent));
    if (waiting.length === 0) {
      this.item.hide();
      this.view.setBadge(undefined);
      return;
    }
    const who = agents.size === 1 ? vscode.l10n.t("@{0} is waiting", [...agents][0]!) : vscode.l10n.t("{0} agents waiting", agents.size);
    this.item.text = `$(bell-dot) ${who}`;
    const list = waiting.map((w) => `@${w.agent}: ${w.title}`).join("\n");
    this.item.tooltip =
      waiting.length === 1
        ? vscode.l10n.t("A permission request waits for your answer:\n{0}\nClick to go to the oldest.", list)
        : vscode.l10n.t("{0} permission requests wait for your answer:\n{1}\nClick to go to the oldest.", waiting.length, list);
    this.item.show();
    this.view.setBadge({
      value: waiting.length,
      tooltip: waiting.length === 1 ? vscode.l10n.t("1 permission request waiting") : vscode.l10n.t("{0} permission requests waiting", waiting.length),
    });
  }

  private async next(): Promise<void> {
    const first = this.waiting[0];
    const app = this.getApp();
    // While another window holds the history, its agents' requests wait there, not "nowhere".
    const problem = app?.historyProblem;
    if (problem) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Cannot go to the next permission request: {0}", problem.message));
      return;
    }
    if (!first || !app) {
      void vscode.window.showInformationMessage(vscode.l10n.t("No permission request is waiting."));
      return;
    }
    const channel = (await app.directory.list()).find((c) => c.id === first.channelId);
    const target = { channelId: first.channelId, messageId: first.messageId, requestId: first.requestId };
    if (this.panels.focusPermission(target, channel?.name)) return;
    if (channel) this.follow(channel.name);
    this.view.focusPermission(target);
    await vscode.commands.executeCommand("sidekicks.channel.focus");
  }

  dispose(): void {
    this.off?.();
    this.item.dispose();
    this.command.dispose();
  }
}
