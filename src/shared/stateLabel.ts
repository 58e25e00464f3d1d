/**
 * An agent's state in words, one word per state wherever it is shown: the Agents view, the member badges of the
 * channel header (webview) and their tooltips. Imports only `@vscode/l10n` and types, so the webview bundles it too.
 */
import * as l10n from "@vscode/l10n";
import type { AgentState, AgentWait } from "./protocol";

/** "stopped", "starting…", "ready", "busy", "error", in the editor's language. */
export function agentStateLabel(state: AgentState): string {
  switch (state) {
    case "stopped":
      return l10n.t("stopped");
    case "starting":
      return l10n.t("starting…");
    case "ready":
      return l10n.t("ready");
    case "busy":
      return l10n.t("busy");
    case "error":
      return l10n.t("error");
  }
}

/** What a running agent is waiting for, in words: "starting session…", "waiting for the agent to stop…". */
export function agentWaitLabel(waiting: AgentWait): string {
  switch (waiting) {
    case "authenticate":
      return l10n.t("signing in…");
    case "session/new":
      return l10n.t("starting session…");
    case "session/load":
      return l10n.t("loading session…");
    case "session/set_mode":
    case "session/set_config_option":
    case "session/set_model":
      return l10n.t("changing session settings…");
    case "session/cancel":
      return l10n.t("waiting for the agent to stop…");
  }
}

/** The state's word, or while a running agent (`ready`, `busy`) keeps Sidekicks waiting, what it waits for. */
export function agentStatusLabel(state: AgentState, waiting?: AgentWait): string {
  return waiting !== undefined && (state === "ready" || state === "busy") ? agentWaitLabel(waiting) : agentStateLabel(state);
}

/**
 * What the Agents view says of an agent: the fields of `AgentSummary` it reads (not imported: the webview's
 * type check would pull in the agent processes' Node.js modules).
 */
export interface AgentDescriptionInput {
  state: AgentState;
  waiting?: AgentWait;
  error?: { message: string };
  pending?: "restart" | "remove";
}

/** The Agents view's description: "ready", "busy · restarts after its turn (definition changed)", "error: Agent "x" exited with code 3." */
export function describeAgent(agent: AgentDescriptionInput): string {
  const state = agent.state === "error" && agent.error ? l10n.t("error: {0}", agent.error.message) : agentStatusLabel(agent.state, agent.waiting);
  const pending =
    agent.pending === "restart"
      ? ` · ${l10n.t("restarts after its turn (definition changed)")}`
      : agent.pending === "remove"
        ? ` · ${l10n.t("removed, stops after this turn")}`
        : "";
  return state + pending;
}
