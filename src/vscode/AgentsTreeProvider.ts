import * as vscode from "vscode";
import type { AgentSummary } from "../agents/AgentManager";
import { describeAgent } from "../shared/stateLabel";
import type { AgentState } from "../shared/protocol";
import { formatCosts, type Cost } from "../shared/usageTotals";

/** What the tree reads: the app's agent summaries (undefined before the app is up). */
export type AgentSummarySource = () => AgentSummary[] | undefined;

/** Counts the worktrees' distance from their base before the tree reads the summaries (errors are the agent's). */
export type WorktreeCounter = (agents: readonly AgentSummary[]) => Promise<void>;

const ICONS: Record<AgentState, [string, string?]> = {
  stopped: ["circle-outline"],
  starting: ["loading~spin"],
  ready: ["pass-filled", "testing.iconPassed"],
  busy: ["sync~spin", "charts.blue"],
  error: ["error", "errorForeground"],
};

/**
 * The Agents view (`sidekicks.agents`): one item per roster agent with its state as icon and description, the error
 * and its detail as tooltip, and `contextValue` `agent-<state>` for the inline and context actions declared in
 * package.json (start, stop, restart, show log, open workspace as folder). Refreshed on `agent/state` and
 * `config/changed`.
 */
export class AgentsTreeProvider implements vscode.TreeDataProvider<AgentSummary>, vscode.Disposable {
  static readonly viewType = "sidekicks.agents";
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly source: AgentSummarySource,
    private readonly countWorktrees?: WorktreeCounter,
    /** What an agent cost so far across its channels, and in how many channels (issue 21); none when unknown. */
    private readonly costOf: (agent: string) => { total: Cost[]; channels: number } = () => ({ total: [], channels: 0 }),
  ) {}

  /** Re-reads every item (state changes are rare: one per transition). */
  refresh(): void {
    this.changed.fire();
  }

  /** The items as last counted, without counting again. */
  items(): AgentSummary[] {
    return this.source() ?? [];
  }

  /** The items, each worktree's distance from its base counted first. */
  async getChildren(element?: AgentSummary): Promise<AgentSummary[]> {
    if (element) return [];
    const first = this.source() ?? [];
    if (!this.countWorktrees || !first.some((a) => a.worktree?.path)) return first;
    await this.countWorktrees(first);
    return this.source() ?? [];
  }

  getTreeItem(agent: AgentSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(agent.name, vscode.TreeItemCollapsibleState.None);
    item.id = `agent/${agent.name}`;
    const tree = agent.worktree?.branch !== undefined ? worktreeLabel(agent.worktree) : undefined;
    item.description = tree ? `${describeAgent(agent)} · ${tree}` : describeAgent(agent);
    // Waiting for an answer with a deadline (issue 18: "starting session…") spins, as starting does.
    const [icon, color] = agent.waiting && (agent.state === "ready" || agent.state === "busy") ? ICONS.starting : ICONS[agent.state];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.tooltip = tooltip(agent, this.costOf(agent.name));
    item.contextValue = `agent-${agent.state}${agent.worktree ? "-worktree" : ""}`;
    item.accessibilityInformation = { label: `${agent.name}, ${describeAgent(agent)}` };
    item.command = { command: "sidekicks.showAgentLog", title: vscode.l10n.t("Show agent log"), arguments: [agent.name] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function tooltip(agent: AgentSummary, cost: { total: Cost[]; channels: number }): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(agent.name)}** — ${escape(describeAgent(agent))}\n\n`);
  if (agent.error?.detail) md.appendCodeblock(agent.error.detail.slice(-1500), "text");
  md.appendMarkdown(`$(folder) ${escape(agent.workspace)}`);
  const w = agent.worktree;
  if (w?.branch !== undefined) {
    md.appendMarkdown(`  \n$(git-branch) ${escape(vscode.l10n.t("{0}: {1} ahead of {2}, {3} behind; {4} uncommitted", w.branch, w.ahead ?? "?", w.base ?? "?", w.behind ?? "?", w.uncommitted ?? "?"))}`);
  }
  if (agent.pid !== undefined) md.appendMarkdown(`  \n$(pulse) pid ${agent.pid}`);
  if (cost.total.length > 0) {
    const text = cost.channels === 1 ? vscode.l10n.t("Cost so far: {0} in 1 channel", formatCosts(cost.total)) : vscode.l10n.t("Cost so far: {0} across {1} channels", formatCosts(cost.total), cost.channels);
    md.appendMarkdown(`  \n$(credit-card) ${escape(text)}`);
  }
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}

/** `⎇ sidekicks/claude ↑2 ↓1`: the branch and, once counted, how far it is from its base. */
function worktreeLabel(w: NonNullable<AgentSummary["worktree"]>): string {
  const counts = w.ahead !== undefined ? ` ↑${w.ahead} ↓${w.behind ?? 0}${w.uncommitted ? " *" : ""}` : "";
  return `⎇ ${w.branch}${counts}`;
}
