import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { ChannelDirectory } from "../channels/ChannelDirectory";
import { CHANNEL_NAME } from "../channels/channelName";
import { GENERAL } from "../channels/ChannelService";
import type { ChannelSummary } from "../protocol";

/** Shows a channel in the view (`channel/reload {name}`, held until the view is loaded). */
export type FollowChannel = (name: string) => void;

const label = (c: ChannelSummary) => (c.kind === "direct" ? c.name : `#${c.name}`);

/**
 * Registers the channel commands of the palette: `Sidekicks: New channel`, `Open channel…`, `Open direct
 * conversation…`, `Rename channel…`, `Set channel description…`, `Delete channel…` (modal confirmation), `Add member…` and
 * `Remove member…`, and `Remembered permissions…` (list and forget "always" choices), and `Mention agent…`.
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
        if (!app) return void vscode.window.showWarningMessage("Sidekicks is not running: open a folder with a sidekicks.yaml.");
        try {
          await run(app.directory, app);
        } catch (err) {
          void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
        }
      }),
    );

  command("sidekicks.rememberedPermissions", async (_directory, app) => {
    const choices = await app.permissionMemory.list(app.agents.names());
    if (choices.length === 0) {
      void vscode.window.showInformationMessage(
        "No remembered permission choices. Choosing “Always allow” or “Always reject” on a request remembers it for that agent and tool kind.",
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({
        label: `@${choice.agent}: always ${choice.decision} ${choice.toolKind} tools`,
        description: "select to forget",
        choice,
      })),
      { title: "Remembered permissions: select the choices to forget", canPickMany: true },
    );
    if (!picked || picked.length === 0) return;
    for (const { choice } of picked) await app.permissionMemory.forget(choice.agent, choice.toolKind);
    void vscode.window.showInformationMessage(`Forgot ${picked.length === 1 ? "1 choice" : `${picked.length} choices`}: those requests are asked again.`);
  });

  command("sidekicks.newChannel", async (directory, app) => {
    const name = await vscode.window.showInputBox({
      title: "New channel",
      prompt: "Lowercase letters, digits, - and _",
      placeHolder: "design-review",
      validateInput: (v) => (CHANNEL_NAME.test(v.trim().replace(/^#/, "")) ? undefined : "Use lowercase letters, digits, - and _ (at most 80)."),
    });
    if (name === undefined) return;
    const members = await pickAgents(app.agents.names(), [], `Members of #${name.trim().replace(/^#/, "")} (you can add more later)`);
    if (members === undefined) return;
    const description = await vscode.window.showInputBox({ title: "Description (optional)", prompt: "What the channel is for; Escape to skip" });
    const created = await directory.create(name, { members, description });
    show(created.name);
  });

  command("sidekicks.openChannel", async (directory) => {
    const picked = await pickChannel(directory, "Open which channel?", () => true);
    if (picked) show(picked.name);
  });

  command("sidekicks.mention", async (_directory, app) => {
    const names = app.agents.names();
    if (names.length === 0) return void vscode.window.showWarningMessage("No agents yet: declare one in sidekicks.yaml (Sidekicks: Add agent…).");
    const agent = await vscode.window.showQuickPick(names, { title: "Mention agent", placeHolder: "Which agent?" });
    if (!agent) return;
    const text = await vscode.window.showInputBox({ title: `Message for @${agent}`, prompt: "Sent to the channel the Sidekicks view shows (the agent's direct conversation if it is not a member there)" });
    if (!text || text.trim() === "") return;
    const { channel } = await app.mention(agent, text.trim());
    show(channel);
  });

  command("sidekicks.openDirect", async (directory, app) => {
    const agent = await vscode.window.showQuickPick(app.agents.names(), { title: "Open direct conversation", placeHolder: "Talk to which agent?" });
    if (agent) show((await directory.direct(agent)).name);
  });

  command("sidekicks.renameChannel", async (directory) => {
    const picked = await pickChannel(directory, "Rename which channel?", (c) => c.kind === "channel" && c.name !== GENERAL);
    if (!picked) return;
    const name = await vscode.window.showInputBox({
      title: `Rename #${picked.name}`,
      value: picked.name,
      validateInput: (v) => (CHANNEL_NAME.test(v.trim().replace(/^#/, "")) ? undefined : "Use lowercase letters, digits, - and _ (at most 80)."),
    });
    if (name === undefined) return;
    show((await directory.rename({ id: picked.id }, name)).name);
  });

  command("sidekicks.describeChannel", async (directory) => {
    const picked = await pickChannel(directory, "Describe which channel?", (c) => c.kind === "channel");
    if (!picked) return;
    const description = await vscode.window.showInputBox({ title: `Description of #${picked.name}`, value: picked.description ?? "", prompt: "Empty to clear" });
    if (description === undefined) return;
    await directory.describe({ id: picked.id }, description);
  });

  command("sidekicks.deleteChannel", async (directory) => {
    const picked = await pickChannel(directory, "Delete which channel?", (c) => c.name !== GENERAL);
    if (!picked) return;
    const choice = await vscode.window.showWarningMessage(
      `Delete ${label(picked)} and its history?`,
      { modal: true, detail: "Its messages are removed from this workspace's Sidekicks history. This cannot be undone." },
      "Delete",
    );
    if (choice !== "Delete") return;
    await directory.delete({ id: picked.id });
    show(GENERAL);
  });

  command("sidekicks.addMember", async (directory, app) => {
    const picked = await pickChannel(directory, "Add a member to which channel?", (c) => c.kind === "channel" && c.name !== GENERAL);
    if (!picked) return;
    const agents = await pickAgents(app.agents.names().filter((a) => !picked.members.includes(a)), [], `Add to #${picked.name}`);
    if (!agents?.length) return;
    for (const agent of agents) await directory.join({ id: picked.id }, agent);
    show(picked.name);
  });

  command("sidekicks.removeMember", async (directory) => {
    const picked = await pickChannel(directory, "Remove a member from which channel?", (c) => c.kind === "channel" && c.name !== GENERAL && c.members.length > 0);
    if (!picked) return;
    const agent = await vscode.window.showQuickPick(picked.members, { title: `Remove from #${picked.name}`, placeHolder: "Its messages stay in the channel" });
    if (!agent) return;
    await directory.leave({ id: picked.id }, agent);
    show(picked.name);
  });
}

async function pickChannel(directory: ChannelDirectory, placeHolder: string, filter: (c: ChannelSummary) => boolean): Promise<ChannelSummary | undefined> {
  const channels = (await directory.list()).filter(filter);
  if (channels.length === 0) {
    void vscode.window.showInformationMessage("No channel fits: create one with Sidekicks: New channel.");
    return undefined;
  }
  const items = channels.map((c) => ({
    label: label(c),
    description: [c.busy ? "answering" : "", c.unread > 0 ? `${c.unread} unread` : "", c.description ?? ""].filter(Boolean).join(" · "),
    detail: c.members.length ? c.members.map((m) => `@${m}`).join(" ") : "no members",
    channel: c,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.channel;
}

async function pickAgents(agents: string[], picked: string[], title: string): Promise<string[] | undefined> {
  if (agents.length === 0) return [];
  const items = agents.map((a) => ({ label: a, picked: picked.includes(a) }));
  return (await vscode.window.showQuickPick(items, { title, canPickMany: true, placeHolder: "Pick agents" }))?.map((i) => i.label);
}
