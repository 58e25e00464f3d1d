/**
 * The `Get started with Sidekicks` walkthrough's progress as VS Code context keys (`completionEvents:
 * onContext:<key>` in package.json): a step is checked when what it asks for has happened, however the user did it
 * (wrote sidekicks.yaml by hand, typed `@demo hello` in the view…), not only when its button's command ran.
 */
import type { ConfigStatus, MessageView } from "../shared/protocol";

/** The context keys the host sets, each `true` once its step is done. */
export const WALKTHROUGH_KEYS = {
  /** A roster file exists (loaded, invalid or untrusted: the `createConfig` step). */
  configExists: "sidekicks.configExists",
  /** An agent finished an answer (the `tryDemo` step). */
  agentAnswered: "sidekicks.agentAnswered",
  /** The roster declares a second agent besides the demo (the `addAgent` step). */
  secondAgent: "sidekicks.secondAgentDeclared",
  /** A message went to two agents or more, or an agent handed work on to another (the `mentionTwo` step). */
  twoAgents: "sidekicks.twoAgentsMentioned",
} as const;

/** One of {@link WALKTHROUGH_KEYS}' values. */
export type WalkthroughKey = (typeof WALKTHROUGH_KEYS)[keyof typeof WALKTHROUGH_KEYS];

/** What the walkthrough follows: the roster's state and agent names, and messages as they start and finish. */
export type WalkthroughObservation = { config: ConfigStatus; agents: readonly string[] } | { message: MessageView };

/**
 * Folds observations into the walkthrough's context keys. `observe` returns only the keys whose value changed, so
 * the host calls `setContext` once per change. `configExists` follows the file (deleted → false); the other keys
 * stay `true` once set, as a step done stays done.
 */
export class WalkthroughProgress {
  private readonly values = new Map<WalkthroughKey, boolean>();

  /** The changed keys and their new values (empty when nothing changed). */
  observe(observation: WalkthroughObservation): [WalkthroughKey, boolean][] {
    const next: [WalkthroughKey, boolean][] = [];
    if ("config" in observation) {
      next.push([WALKTHROUGH_KEYS.configExists, observation.config.state !== "missing"]);
      if (observation.agents.length >= 2) next.push([WALKTHROUGH_KEYS.secondAgent, true]);
    } else {
      const m = observation.message;
      if (m.author.kind === "agent" && m.status === "done") next.push([WALKTHROUGH_KEYS.agentAnswered, true]);
      if ((m.author.kind === "user" && (m.to?.length ?? 0) >= 2) || (m.author.kind === "agent" && m.delegatedBy)) next.push([WALKTHROUGH_KEYS.twoAgents, true]);
    }
    const changed = next.filter(([key, value]) => this.values.get(key) !== value);
    for (const [key, value] of changed) this.values.set(key, value);
    return changed;
  }
}
