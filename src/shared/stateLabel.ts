/**
 * An agent's state in words, one word per state wherever it is shown: the Agents view, the member badges of the
 * channel header (webview) and their tooltips. Imports only `@vscode/l10n` and types, so the webview bundles it too.
 */
import * as l10n from "@vscode/l10n";
import type { AgentState } from "./protocol";

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

/**
 * What the Agents view says of an agent: the fields of `AgentSummary` it reads (not imported: the webview's
 * type check would pull in the agent processes' Node.js modules).
 */
export interface AgentDescriptionInput {
  state: AgentState;
  error?: { message: string };
  pending?: "restart" | "remove";
}

/** The Agents view's description: "ready", "busy · restarts after its turn (definition changed)", "error: Agent "x" exited with code 3." */
export function describeAgent(agent: AgentDescriptionInput): string {
  const state = agent.state === "error" && agent.error ? l10n.t("error: {0}", agent.error.message) : agentStateLabel(agent.state);
  const pending =
    agent.pending === "restart"
      ? ` · ${l10n.t("restarts after its turn (definition changed)")}`
      : agent.pending === "remove"
        ? ` · ${l10n.t("removed, stops after this turn")}`
        : "";
  return state + pending;
}
