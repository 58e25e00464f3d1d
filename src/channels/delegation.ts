/**
 * Delegation (brief, "An agent's final message that @mentions another member delegates to it: a child turn linked
 * to its parent, with a hop limit and a loop guard"). Pure: who an agent's final answer delegates to, and what is
 * refused, with a sentence for people.
 */
import * as l10n from "@vscode/l10n";
import { withoutInjectedContext } from "./context";
import { findMentions } from "../shared/mentions";

/** How many delegations one user message may cause in all (issue 4: default 3). */
export const MAX_DELEGATIONS = 3;

/** The answer that may delegate. */
export interface DelegatingAnswer {
  /** The agent that wrote it. */
  from: string;
  /** Its final text (Markdown; code spans and fences are not searched). */
  text: string;
  /** The agent that delegated to `from`, when `from` was itself delegated to. */
  delegatedBy?: string;
  /** The agents the user's message already addressed: they are answering it already, and are not handed it again. */
  addressed?: readonly string[];
}

/** `text` without its Markdown blockquotes: quoting the request (`> @odie, say hi`) does not hand it on. */
export function withoutQuotes(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s{0,3}>/.test(line))
    .join("\n");
}

/** Where an answer delegates to, and what was refused (one sentence each). */
export interface DelegationPlan {
  to: string[];
  refused: string[];
}

/**
 * The members `answer` mentions (not its author, not inside a blockquote or a channel-context block Sidekicks wrote
 * into the agent's prompt and the agent echoed, not an agent the user's message already addressed; names matched case-insensitively, roster spelling; in order, once each), within `remaining` delegations
 * left for the user message. Refused, with a reason: a mention of the
 * agent that delegated to `from` (two agents would bounce between each other), and mentions beyond the limit.
 *
 * @param members the channel's members
 * @param remaining delegations the user message may still cause (starts at {@link MAX_DELEGATIONS})
 */
export function planDelegation(answer: DelegatingAnswer, members: readonly string[], remaining: number): DelegationPlan {
  const byLower = new Map(members.map((m) => [m.toLowerCase(), m]));
  const addressed = new Set((answer.addressed ?? []).map((a) => a.toLowerCase()));
  const mentioned = findMentions(withoutQuotes(withoutInjectedContext(answer.text)))
    .map((m) => byLower.get(m.name.toLowerCase()))
    // The agent that delegated is refused with a reason below (loop guard); other addressed agents are left out.
    .filter((m): m is string => !!m && m !== answer.from && (m === answer.delegatedBy || !addressed.has(m.toLowerCase())));
  const plan: DelegationPlan = { to: [], refused: [] };
  for (const agent of new Set(mentioned)) {
    if (agent === answer.delegatedBy) {
      plan.refused.push(l10n.t("Not delegated back to @{0}: @{0} delegated to @{1}, and the two would bounce between each other.", agent, answer.from));
    } else if (plan.to.length >= remaining) {
      plan.refused.push(l10n.t("Not delegated to @{0}: this message already caused {1} delegations (the limit). Mention @{0} yourself to continue.", agent, MAX_DELEGATIONS));
    } else {
      plan.to.push(agent);
    }
  }
  return plan;
}
