import * as vscode from "vscode";
import type { AgentSummary } from "../agents/AgentManager";
import { describeAgent } from "../shared/stateLabel";
import type { AgentState } from "../shared/protocol";

/** What the tree reads: the app's agent summaries (undefined before the app is up). */
export type AgentSummarySource = () => AgentSummary[] | undefined;

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

  constructor(private readonly source: AgentSummarySource) {}

  /** Re-reads every item (state changes are rare: one per transition). */
  refresh(): void {
    this.changed.fire();
  }

  getChildren(element?: AgentSummary): AgentSummary[] {
    return element ? [] : (this.source() ?? []);
  }

  getTreeItem(agent: AgentSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(agent.name, vscode.TreeItemCollapsibleState.None);
    item.id = `agent/${agent.name}`;
    item.description = describeAgent(agent);
    // Waiting for an answer with a deadline (issue 18: "starting session…") spins, as starting does.
    const [icon, color] = agent.waiting && (agent.state === "ready" || agent.state === "busy") ? ICONS.starting : ICONS[agent.state];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.tooltip = tooltip(agent);
    item.contextValue = `agent-${agent.state}`;
    item.accessibilityInformation = { label: `${agent.name}, ${describeAgent(agent)}` };
    item.command = { command: "sidekicks.showAgentLog", title: vscode.l10n.t("Show agent log"), arguments: [agent.name] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function tooltip(agent: AgentSummary): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(agent.name)}** — ${escape(describeAgent(agent))}\n\n`);
  if (agent.error?.detail) md.appendCodeblock(agent.error.detail.slice(-1500), "text");
  md.appendMarkdown(`$(folder) ${escape(agent.workspace)}`);
  if (agent.pid !== undefined) md.appendMarkdown(`  \n$(pulse) pid ${agent.pid}`);
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}
