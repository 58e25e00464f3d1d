import * as vscode from "vscode";
import { AuthRequiredError, describeAuthMethod } from "../acp/auth";
import type { AuthMethodInfo, AuthRequired } from "../acp/types";
import type { AgentSummary } from "../agents/AgentManager";
import { describeAgent } from "../shared/stateLabel";
import type { SidekicksApp } from "../app/SidekicksApp";
import { SidekicksError } from "../shared/errors";
import { AgentLogs } from "./AgentLogs";
import { AgentsTreeProvider } from "./AgentsTreeProvider";
import { CostLedger } from "../shared/usageTotals";
import type { DiffDocuments } from "./DiffDocuments";
import { registerWorktreeCommands } from "./worktreeCommands";

/** A command's argument: an agent name (palette, webview, tests) or the tree item's element (the Agents view). */
type AgentArg = string | AgentSummary | undefined;

/** What the integration tests read of the Agents view: each item as VS Code shows it. */
export interface AgentItemSnapshot {
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
}

/** The agent UI once registered; {@link attach} connects it to the app when the app is up. */
export interface AgentUi {
  attach(app: SidekicksApp): void;
  /** The Agents view's items, read through its provider (tests). */
  snapshot(): AgentItemSnapshot[];
}

/**
 * Registers the agent side of the editor: the Agents view (`sidekicks.agents`), the per-agent logs, the commands
 * `Sidekicks: Show agent log`, `Start agent`, `Stop agent`, `Restart agent`, `Open agent workspace as folder` (a
 * quick pick of agents when not invoked from the view), and the sign-in notification for agents that answer
 * "authentication required". Everything is owned by `context.subscriptions`.
 */
export function registerAgentUi(
  context: vscode.ExtensionContext,
  getApp: () => SidekicksApp | undefined,
  whenReady: () => Promise<SidekicksApp | undefined> = async () => getApp(),
  diffs?: DiffDocuments,
): AgentUi {
  const logs = new AgentLogs();
  const costs = new CostLedger();
  const tree = new AgentsTreeProvider(
    () => getApp()?.agentSummaries(),
    async (agents) => {
      const app = getApp();
      if (app) await Promise.all(agents.filter((a) => a.worktree?.path).map((a) => app.agents.worktreeStatus(a.name).catch(() => undefined)));
    },
    (agent) => ({ total: costs.totalOf(agent), channels: costs.channelsOf(agent) }),
  );
  const view = vscode.window.createTreeView(AgentsTreeProvider.viewType, { treeDataProvider: tree, showCollapseAll: false });
  context.subscriptions.push(logs, tree, view);
  const auth = new AuthPrompts(getApp);

  const command = (id: string, run: (arg: AgentArg) => Promise<unknown> | unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, (arg: AgentArg) => run(arg)));
  const withAgent = (placeholder: string, filter: (a: AgentSummary) => boolean, run: (app: SidekicksApp, name: string) => Promise<unknown> | void) =>
    async (arg: AgentArg) => {
      const app = await whenReady(); // activation returns before the app is ready
      if (!app) return void vscode.window.showWarningMessage(vscode.l10n.t("Sidekicks has no roster loaded yet: open a folder with a sidekicks.yaml."));
      const name = await pickAgent(app, arg, placeholder, filter);
      if (!name) return;
      try {
        await run(app, name);
      } catch (err) {
        reportFailure(err, name, logs);
      } finally {
        tree.refresh();
      }
    };

  command("sidekicks.showAgentLog", withAgent(vscode.l10n.t("Show the log of which agent?"), () => true, (_app, name) => logs.show(name)));
  command("sidekicks.startAgent", withAgent(vscode.l10n.t("Start which agent?"), (a) => a.state === "stopped" || a.state === "error", (app, name) => app.agents.start(name)));
  command("sidekicks.stopAgent", withAgent(vscode.l10n.t("Stop which agent?"), (a) => a.state !== "stopped", (app, name) => app.agents.stop(name)));
  command("sidekicks.restartAgent", withAgent(vscode.l10n.t("Restart which agent?"), () => true, (app, name) => app.agents.restart(name)));
  command(
    "sidekicks.openAgentWorkspace",
    withAgent(vscode.l10n.t("Open the workspace of which agent?"), () => true, async (app, name) => {
      // An agent's worktree is made at its first turn; asked to open it before, it is made now.
      if (app.agentSummaries().find((a) => a.name === name)?.worktree) await app.agents.ensureWorktree(name);
      const agent = app.agentSummaries().find((a) => a.name === name);
      if (!agent) return;
      const uri = vscode.Uri.file(agent.workspace);
      const already = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath === uri.fsPath;
      const choice = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t("Open in a new window"), action: "window" as const },
          ...(already ? [] : [{ label: vscode.l10n.t("Add to this workspace"), description: vscode.l10n.t("as another folder of this window"), action: "add" as const }]),
        ],
        { title: vscode.l10n.t("Workspace of @{0}: {1}", name, agent.workspace), placeHolder: already ? vscode.l10n.t("This folder is already open in this window") : undefined },
      );
      if (choice?.action === "window") await vscode.commands.executeCommand("vscode.openFolder", uri, { forceNewWindow: true });
      else if (choice?.action === "add") vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri, name: `@${name}` });
    }),
  );

  command(
    "sidekicks.removeAgentWorktree",
    withAgent(vscode.l10n.t("Remove the worktree of which agent?"), (a) => a.worktree !== undefined, async (app, name) => {
      let removed;
      try {
        removed = await app.agents.removeWorktree(name);
      } catch (err) {
        if (!(err instanceof SidekicksError) || err.code !== "worktree/dirty") throw err;
        // Uncommitted work is never deleted without the user's say-so.
        const discard = vscode.l10n.t("Remove and Discard Changes");
        const choice = await vscode.window.showWarningMessage(err.message, { modal: true, detail: vscode.l10n.t("Removing the worktree deletes these uncommitted changes; its branch and commits are kept:\n{0}", err.detail ?? "") }, discard);
        if (choice !== discard) return;
        removed = await app.agents.removeWorktree(name, true);
      }
      if (removed) void vscode.window.showInformationMessage(vscode.l10n.t("Removed agent {0}'s worktree {1}; its branch {2} is kept.", name, removed.path, removed.branch ?? "-"));
      else void vscode.window.showInformationMessage(vscode.l10n.t("Agent {0} has no worktree to remove.", name));
    }),
  );

  // Review and apply an agent's worktree (issue 20, "Bring it back").
  if (diffs) registerWorktreeCommands<AgentArg>(command, (placeholder, run) => withAgent(placeholder, (a) => a.worktree !== undefined, run), diffs);

  return {
    attach(app) {
      const offs = [
        app.events.on("agent/log", (e) => logs.log(e)),
        app.events.on("agent/state", (e) => {
          logs.state(e);
          tree.refresh();
        }),
        app.events.on("agent/waiting", () => tree.refresh()),
        app.events.on("config/changed", () => tree.refresh()),
        app.agents.onAuthRequired((info) => void auth.show(info)),
        app.events.on("session/state", (state) => {
          if (costs.update(state)) tree.refresh();
        }),
      ];
      // What each agent cost in earlier activations, for its tooltip (the store may be locked: then none).
      void app.ready
        .then(() => app.storedSessionStates())
        .then((states) => {
          for (const state of states) costs.seed(state);
          tree.refresh();
        })
        .catch(() => undefined);
      context.subscriptions.push({ dispose: () => offs.forEach((off) => off()) });
      tree.refresh();
    },
    snapshot() {
      return tree.items().map((agent) => {
        const item = tree.getTreeItem(agent);
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? "");
        return { label: String(item.label), description: String(item.description ?? ""), tooltip, contextValue: item.contextValue ?? "" };
      });
    },
  };
}

/** The agent named by `arg`, or the user's pick among the agents `filter` keeps (all agents if it keeps none). */
async function pickAgent(app: SidekicksApp, arg: AgentArg, placeholder: string, filter: (a: AgentSummary) => boolean): Promise<string | undefined> {
  if (typeof arg === "string") return arg;
  if (arg && typeof arg.name === "string") return arg.name;
  const all = app.agentSummaries();
  if (all.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No agents in sidekicks.yaml yet."), vscode.l10n.t("Open config")).then((c) => c && vscode.commands.executeCommand("sidekicks.openConfig"));
    return undefined;
  }
  const candidates = all.filter(filter).length > 0 ? all.filter(filter) : all;
  if (candidates.length === 1) return candidates[0]!.name;
  const picked = await vscode.window.showQuickPick(
    candidates.map((a) => ({ label: a.name, description: describeAgent(a), detail: a.workspace })),
    { placeHolder: placeholder },
  );
  return picked?.label;
}

function reportFailure(err: unknown, agent: string, logs: AgentLogs): void {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof SidekicksError && err.detail) logs.channel(agent).error(`[sidekicks] ${message}\n${err.detail}`);
  if (err instanceof AuthRequiredError) return; // the sign-in notification says it
  void vscode.window.showErrorMessage(message, vscode.l10n.t("Show agent log")).then((choice) => choice && logs.show(agent));
}

/**
 * The sign-in notification (issue 3, "Authentication"): names the agent's auth methods; a terminal method opens a
 * VS Code terminal running the agent's own command with the method's args and env; an environment-variable method
 * names the variables; an agent method calls ACP `authenticate`. Then offers Retry, which restarts the agent and
 * opens a test session. One notification per agent at a time.
 */
class AuthPrompts {
  private readonly open = new Set<string>();

  constructor(private readonly getApp: () => SidekicksApp | undefined) {}

  async show(auth: AuthRequired): Promise<void> {
    if (this.open.has(auth.agent)) return;
    this.open.add(auth.agent);
    try {
      const single = auth.methods.length === 1 ? auth.methods[0] : undefined;
      const signIn = single ? buttonFor(single) : vscode.l10n.t("Sign in…");
      const retry = vscode.l10n.t("Retry");
      const choice = await vscode.window.showWarningMessage(
        auth.methods.length
          ? vscode.l10n.t('Agent "{0}" needs you to sign in before it can answer. Ways: {1}.', auth.agent, auth.methods.map(describeAuthMethod).join("; "))
          : vscode.l10n.t('Agent "{0}" needs you to sign in before it can answer. It announced no sign-in method: see its documentation.', auth.agent),
        ...(auth.methods.length ? [signIn] : []),
        retry,
      );
      if (choice === retry) return void (await this.retry(auth, true));
      if (!choice) return;
      const method = single ?? (await pickMethod(auth.methods));
      if (method) await this.signIn(auth, method);
    } finally {
      this.open.delete(auth.agent);
    }
  }

  private async signIn(auth: AuthRequired, method: AuthMethodInfo): Promise<void> {
    const app = this.getApp();
    if (!app) return;
    if (method.kind === "terminal") {
      const terminal = vscode.window.createTerminal({
        name: vscode.l10n.t("Sign in: {0}", auth.agent),
        shellPath: auth.launch.command,
        shellArgs: [...auth.launch.args, ...method.args],
        cwd: auth.launch.cwd,
        env: { ...auth.launch.env, ...method.env },
      });
      terminal.show();
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('Sign in to "{0}" in the terminal "{1}", then retry.', auth.agent, vscode.l10n.t("Sign in: {0}", auth.agent)),
        vscode.l10n.t("Retry"),
      );
      if (choice) await this.retry(auth, true);
    } else if (method.kind === "envVar") {
      const vars = method.vars.length ? method.vars.join(", ") : vscode.l10n.t("the variable its documentation names");
      const example = method.vars[0] ? ` (${vscode.l10n.t("e.g. {0}", `${method.vars[0]}: \${env:${method.vars[0]}}`)})` : "";
      const [openConfig, getKey, retry] = [vscode.l10n.t("Open config"), vscode.l10n.t("Get a key"), vscode.l10n.t("Retry")];
      const buttons = [openConfig, ...(method.link ? [getKey] : []), retry];
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Set {0} for agent "{1}": in the environment VS Code starts from, or under env: in sidekicks.yaml{2}. A changed sidekicks.yaml restarts the agent by itself.',
          vars,
          auth.agent,
          example,
        ),
        ...buttons,
      );
      if (choice === openConfig) await vscode.commands.executeCommand("sidekicks.openConfig");
      else if (choice === getKey && method.link) await vscode.env.openExternal(vscode.Uri.parse(method.link));
      else if (choice === retry) await this.retry(auth, true);
    } else {
      try {
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Signing in to "{0}" ({1})…', auth.agent, method.name) }, () =>
          app.agents.authenticate(auth.agent, method.id),
        );
      } catch (err) {
        void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
        return;
      }
      await this.retry(auth, false);
    }
  }

  /** Restarts the agent (new credentials need a new process, ACP v1) and opens a test session. */
  private async retry(auth: AuthRequired, restart: boolean): Promise<void> {
    const app = this.getApp();
    if (!app) return;
    try {
      if (restart) await app.agents.restart(auth.agent);
      await app.agents.probeSession(auth.agent);
      void vscode.window.showInformationMessage(vscode.l10n.t('Agent "{0}" is signed in. Send your message again.', auth.agent));
    } catch (err) {
      this.open.delete(auth.agent);
      if (err instanceof AuthRequiredError) return void (await this.show(err.auth));
      void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
    }
  }
}

function buttonFor(method: AuthMethodInfo): string {
  if (method.kind === "envVar" && method.vars.length) return vscode.l10n.t("Set {0}…", method.vars.join(", "));
  return method.kind === "terminal" ? vscode.l10n.t("{0} (terminal)", method.name) : method.name;
}

async function pickMethod(methods: AuthMethodInfo[]): Promise<AuthMethodInfo | undefined> {
  const picked = await vscode.window.showQuickPick(
    methods.map((m) => ({
      label: m.name,
      description:
        m.kind === "terminal" ? vscode.l10n.t("in a terminal") : m.kind === "envVar" ? vscode.l10n.t("set {0}", m.vars.join(", ")) : vscode.l10n.t("the agent signs you in"),
      detail: m.description,
      method: m,
    })),
    { placeHolder: vscode.l10n.t("How do you want to sign in?") },
  );
  return picked?.method;
}
