import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { ChannelDirectory } from "../channels/ChannelDirectory";
import { channelNameInputProblem, normaliseChannelName } from "../shared/channelName";
import { GENERAL } from "../channels/ChannelDirectory";
import type { ChannelSummary } from "../shared/protocol";
import { describeRemembered } from "../turns/permissionMemory";

/** Shows a channel in the view (`channel/reload {name}`, held until the view is loaded). */
export type FollowChannel = (name: string) => void;

const label = (c: ChannelSummary) => (c.kind === "direct" ? c.name : `#${c.name}`);

/**
 * Registers the channel commands of the palette: `Sidekicks: New channel`, `Open channel…`, `Open direct
 * conversation…`, `Rename channel…`, `Set channel description…`, `Delete channel…` (modal confirmation), `Add member…` and
 * `Remove member…`, and `Remembered permissions…` (list and forget Sidekicks' permission rules), and `Mention agent…`.
 * Each calls the app's {@link ChannelDirectory}; the channel view follows through `follow`. Errors are shown as
 * notifications with the domain's sentence.
 */
export function registerChannelCommands(context: vscode.ExtensionContext, getApp: () => Promise<SidekicksApp | undefined>, follow: FollowChannel): void {
  const show = (name: string) => {
    follow(name);
    void vscode.commands.executeCommand("sidekicks.channel.focus");
  };
  const command = (id: string, run: (directory: ChannelDirectory, app: SidekicksApp) => Promise<void>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async () => {
        const app = await getApp(); // activation returns before the app is ready
        if (!app) return void vscode.window.showWarningMessage(vscode.l10n.t("Sidekicks is not running: open a folder with a sidekicks.yaml."));
        try {
          await run(app.directory, app);
        } catch (err) {
          void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
        }
      }),
    );

  command("sidekicks.rememberedPermissions", async (_directory, app) => {
    const rules = await app.permissionMemory.list(app.agents.names());
    if (rules.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t("No Sidekicks permission rules. “Always allow this request” on a permission card makes one: it answers that agent's same request (same tool kind, title and files) from then on."),
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      rules.map((rule) => ({ ...describeRemembered(rule), rule })),
      { title: vscode.l10n.t("Remembered permissions: select the rules to forget"), canPickMany: true },
    );
    if (!picked || picked.length === 0) return;
    for (const { rule } of picked) await app.permissionMemory.forget(rule);
    void vscode.window.showInformationMessage(
      picked.length === 1
        ? vscode.l10n.t("Forgot 1 rule: those requests are asked again.")
        : vscode.l10n.t("Forgot {0} rules: those requests are asked again.", picked.length),
    );
  });

  command("sidekicks.newChannel", async (directory, app) => {
    const channels = await directory.list();
    const name = await vscode.window.showInputBox({
      title: vscode.l10n.t("New channel"),
      prompt: vscode.l10n.t("Lowercase letters, digits, - and _"),
      placeHolder: "design-review",
      validateInput: (v) => channelNameInputProblem(v, channels),
    });
    if (name === undefined) return;
    const members = await pickAgents(app.agents.names(), [], vscode.l10n.t("Members of #{0} (you can add more later)", name.trim().replace(/^#/, "")));
    if (members === undefined) return;
    const description = await vscode.window.showInputBox({ title: vscode.l10n.t("Description (optional)"), prompt: vscode.l10n.t("What the channel is for; Escape to skip") });
    const created = await directory.create(name, { members, description });
    show(created.name);
  });

  command("sidekicks.openChannel", async (directory) => {
    const picked = await pickChannel(directory, vscode.l10n.t("Open which channel?"), () => true);
    if (picked) show(picked.name);
  });

  command("sidekicks.mention", async (_directory, app) => {
    const names = app.agents.names();
    if (names.length === 0) return void vscode.window.showWarningMessage(vscode.l10n.t("No agents yet: declare one in sidekicks.yaml (Sidekicks: Add agent…)."));
    const agent = await vscode.window.showQuickPick(names, { title: vscode.l10n.t("Mention agent"), placeHolder: vscode.l10n.t("Which agent?") });
    if (!agent) return;
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t("Message for @{0}", agent),
      prompt: vscode.l10n.t("Sent to the channel the Sidekicks view shows (the agent's direct conversation if it is not a member there)"),
    });
    if (!text || text.trim() === "") return;
    const { channel } = await app.mention(agent, text.trim());
    show(channel);
  });

  command("sidekicks.openDirect", async (directory, app) => {
    const agent = await vscode.window.showQuickPick(app.agents.names(), { title: vscode.l10n.t("Open direct conversation"), placeHolder: vscode.l10n.t("Talk to which agent?") });
    if (agent) show((await directory.direct(agent)).name);
  });

  command("sidekicks.renameChannel", async (directory) => {
    const picked = await pickChannel(directory, vscode.l10n.t("Rename which channel?"), (c) => c.kind === "channel" && c.name !== GENERAL);
    if (!picked) return;
    const channels = await directory.list();
    const name = await vscode.window.showInputBox({
      title: vscode.l10n.t("Rename #{0}", picked.name),
      value: picked.name,
      validateInput: (v) => channelNameInputProblem(v, channels, picked.id),
    });
    if (name === undefined || normaliseChannelName(name) === picked.name) return;
    show((await directory.rename({ id: picked.id }, name)).name);
  });

  command("sidekicks.describeChannel", async (directory) => {
    const picked = await pickChannel(directory, vscode.l10n.t("Describe which channel?"), (c) => c.kind === "channel");
    if (!picked) return;
    const description = await vscode.window.showInputBox({ title: vscode.l10n.t("Description of #{0}", picked.name), value: picked.description ?? "", prompt: vscode.l10n.t("Empty to clear") });
    if (description === undefined) return;
    await directory.describe({ id: picked.id }, description);
  });

  command("sidekicks.deleteChannel", async (directory) => {
    const remove = vscode.l10n.t("Delete");
    const picked = await pickChannel(directory, vscode.l10n.t("Delete which channel?"), (c) => c.name !== GENERAL);
    if (!picked) return;
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t("Delete {0} and its history?", label(picked)),
      { modal: true, detail: vscode.l10n.t("Its messages are removed from this workspace's Sidekicks history. This cannot be undone.") },
      remove,
    );
    if (choice !== remove) return;
    await directory.delete({ id: picked.id });
    show(GENERAL);
  });

  command("sidekicks.addMember", async (directory, app) => {
    const picked = await pickChannel(directory, vscode.l10n.t("Add a member to which channel?"), (c) => c.kind === "channel" && c.name !== GENERAL);
    if (!picked) return;
    const agents = await pickAgents(app.agents.names().filter((a) => !picked.members.includes(a)), [], vscode.l10n.t("Add to #{0}", picked.name));
    if (!agents?.length) return;
    for (const agent of agents) await directory.join({ id: picked.id }, agent);
    show(picked.name);
  });

  command("sidekicks.removeMember", async (directory) => {
    const picked = await pickChannel(directory, vscode.l10n.t("Remove a member from which channel?"), (c) => c.kind === "channel" && c.name !== GENERAL && c.members.length > 0);
    if (!picked) return;
    const agent = await vscode.window.showQuickPick(picked.members, { title: vscode.l10n.t("Remove from #{0}", picked.name), placeHolder: vscode.l10n.t("Its messages stay in the channel") });
    if (!agent) return;
    await directory.leave({ id: picked.id }, agent);
    show(picked.name);
  });
}

async function pickChannel(directory: ChannelDirectory, placeHolder: string, filter: (c: ChannelSummary) => boolean): Promise<ChannelSummary | undefined> {
  const channels = (await directory.list()).filter(filter);
  if (channels.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No channel fits: create one with Sidekicks: New channel."));
    return undefined;
  }
  const items = channels.map((c) => ({
    label: label(c),
    description: [c.busy ? vscode.l10n.t("answering") : "", c.unread > 0 ? vscode.l10n.t("{0} unread", c.unread) : "", c.description ?? ""].filter(Boolean).join(" · "),
    detail: c.members.length ? c.members.map((m) => `@${m}`).join(" ") : vscode.l10n.t("no members"),
    channel: c,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.channel;
}

async function pickAgents(agents: string[], picked: string[], title: string): Promise<string[] | undefined> {
  if (agents.length === 0) return [];
  const items = agents.map((a) => ({ label: a, picked: picked.includes(a) }));
  return (await vscode.window.showQuickPick(items, { title, canPickMany: true, placeHolder: vscode.l10n.t("Pick agents") }))?.map((i) => i.label);
}
