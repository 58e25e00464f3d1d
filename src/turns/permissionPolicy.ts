/**
 * Which permission requests Sidekicks answers without asking, and with which option (brief, "Permission policy per
 * agent … It answers requests automatically; it is not a safety classifier"; issue 15, item 2; ADR 0005). Pure.
 *
 * Two things answer for the user: the agent's policy (`permissions` in sidekicks.yaml) and the user's own Sidekicks
 * rules, each narrow — one agent, one tool kind, one title exactly as the card showed it. An automatic answer only
 * ever selects a one-time option (`allow_once`, `reject_once`): an agent's "always" option means what the agent says
 * it means and makes the agent write a rule of its own, so only the user ever chooses it, and choosing it makes no
 * Sidekicks rule. It trusts the tool kind and title the agent declares and never looks at what the tool will do.
 */
import * as l10n from "@vscode/l10n";
import type { PermissionRequest } from "../acp/types";
import type { PermissionPart, ToolCallPart } from "../shared/protocol";
import type { MessageRecord } from "../store/records";
import { addPermission } from "./answer";

/** `agents[].permissions` (mirrors `PermissionPolicy` in `src/config/roster.ts`). */
export type PermissionPolicy = "ask" | "allow-reads" | "allow-all";

/** Tool kinds `allow-reads` allows: they only look (ACP `ToolKind` `read`, `search`, `think`). */
export const READ_KINDS: ReadonlySet<string> = new Set(["read", "search", "think"]);

/** What a rule answers. */
export type RuleDecision = "allow" | "reject";

/**
 * A Sidekicks rule the user made on a card: answers `agent`'s later requests whose tool kind is `toolKind`, whose
 * title is exactly `title` (the same characters: shell titles are executable input, so nothing is folded) and whose
 * files are exactly `paths` (sorted; none when absent).
 */
export interface PermissionRule {
  toolKind: string;
  title: string;
  paths?: string[];
  decision: RuleDecision;
}

/** What a rule matches: everything of a {@link PermissionRule} but its decision. */
export type RuleKey = Omit<PermissionRule, "decision">;

/** A choice an older version remembered for every tool of a kind: listed so the user can forget it, never applied. */
export interface LegacyRule {
  toolKind: string;
  decision: RuleDecision;
}

/** One agent's remembered rules, as `PermissionMemory` reads them. */
export interface AgentRules {
  readonly rules: readonly PermissionRule[];
  readonly legacy: readonly LegacyRule[];
}

/** No rules (an agent nobody made a rule for, or a store that could not be read). */
export const NO_RULES: AgentRules = { rules: [], legacy: [] };

/** The tool kind a rule is filed under (`other` when the agent gave none). */
export function kindKey(toolKind: string | undefined): string {
  return toolKind && toolKind.trim() !== "" ? toolKind : "other";
}

/** The card's fields a rule is made from and matched against. */
export type RuleSubject = Pick<PermissionPart, "toolKind" | "title" | "paths" | "untitled">;

/**
 * What a Sidekicks rule made on this card matches: its tool kind, its title as shown (unchanged) and its files
 * (sorted, without repeats); undefined when the title is blank or Sidekicks' own for an untitled request (nothing
 * narrow to match, so no rule can be made).
 */
export function ruleKeyOf(part: RuleSubject): RuleKey | undefined {
  if (part.title.trim() === "" || part.untitled) return undefined;
  const paths = [...new Set(part.paths ?? [])].sort();
  return { toolKind: kindKey(part.toolKind), title: part.title, ...(paths.length > 0 ? { paths } : {}) };
}

/** Whether `rule` matches the request of `part`: the same tool kind, title (character for character) and files. */
export function ruleMatches(rule: RuleKey, part: RuleSubject): boolean {
  const key = ruleKeyOf(part);
  return key !== undefined && rule.toolKind === key.toolKind && rule.title === key.title && (rule.paths ?? []).join("\n") === (key.paths ?? []).join("\n");
}

/** The one-time option kind that carries a decision. */
const ONCE = { allow: "allow_once", reject: "reject_once" } as const;

/** The sentence a rule is shown by, on a card and in `Sidekicks: Remembered permissions…`. */
export function describeRule(agent: string, rule: PermissionRule): string {
  const allow = rule.decision === "allow";
  if (rule.paths && rule.paths.length > 0) {
    const files = rule.paths.join(", ");
    return allow
      ? l10n.t("always allow @{0}'s request “{1}” on {2} (tool kind {3})", agent, rule.title, files, rule.toolKind)
      : l10n.t("always reject @{0}'s request “{1}” on {2} (tool kind {3})", agent, rule.title, files, rule.toolKind);
  }
  return allow
    ? l10n.t("always allow @{0}'s request “{1}” (tool kind {2})", agent, rule.title, rule.toolKind)
    : l10n.t("always reject @{0}'s request “{1}” (tool kind {2})", agent, rule.title, rule.toolKind);
}

/** The sentence a rule from an older version is shown by. */
export function describeLegacyRule(agent: string, rule: LegacyRule): string {
  return rule.decision === "allow"
    ? l10n.t("always allow every {0} tool of @{1}", rule.toolKind, agent)
    : l10n.t("always reject every {0} tool of @{1}", rule.toolKind, agent);
}

/** How Sidekicks handles a new request: answered with `optionId` (and why), or asked (with a `notice`, maybe). */
export interface PermissionDecision {
  /** The option that answers it without asking: always a one-time option. */
  optionId?: string;
  /** Why it was answered: the policy, or the rule and what it matches (the card says it). */
  reason?: string;
  /** Shown on a card that is asked although a rule, the policy or an older rule would have answered it. */
  notice?: string;
}

/**
 * How Sidekicks handles `agent`'s request shown as `part` (its title and tool kind as the card shows them): a
 * matching Sidekicks rule first (it may reject), then the policy, which only allows. Either answers with the
 * request's one-time option only; when the agent offers none, the user is asked and the card says why. A rule from
 * an older version never answers, and its "always reject" keeps the policy from allowing; the card says why it asked.
 */
export function decide(agent: string, part: RuleSubject & Pick<PermissionPart, "options">, policy: PermissionPolicy = "ask", rules: AgentRules = NO_RULES): PermissionDecision {
  const once = (decision: RuleDecision) => part.options.find((o) => o.kind === ONCE[decision]);
  const noOnce = l10n.t("Asked: @{0} offers no one-time option for this request, and Sidekicks never chooses an agent's “always” option for you.", agent);
  const rule = rules.rules.find((r) => ruleMatches(r, part));
  if (rule) {
    const option = once(rule.decision);
    if (!option) return { notice: noOnce };
    const reason = rule.decision === "allow" ? l10n.t("Allowed by your Sidekicks rule: {0}.", describeRule(agent, rule)) : l10n.t("Rejected by your Sidekicks rule: {0}.", describeRule(agent, rule));
    return { optionId: option.optionId, reason };
  }
  const kind = part.toolKind;
  const legacy = rules.legacy.find((r) => r.toolKind === kindKey(kind));
  const legacyNotice = legacy && l10n.t("Asked: your rule from an older version of Sidekicks ({0}) no longer answers requests, as it matched more than you chose. Sidekicks: Remembered permissions… lists it.", describeLegacyRule(agent, legacy));
  // An older "always reject" is not overridden by the policy either: what the user refused is asked, never allowed.
  if (legacy?.decision === "reject") return { notice: legacyNotice };
  if (policy === "allow-all" || (policy === "allow-reads" && kind !== undefined && READ_KINDS.has(kind))) {
    const option = once("allow");
    if (option) {
      const reason = policy === "allow-all" ? l10n.t("Allowed automatically: @{0}'s permissions are allow-all.", agent) : l10n.t("Allowed automatically: a {0} tool, and @{1}'s permissions are allow-reads.", kind!, agent);
      return { optionId: option.optionId, reason };
    }
    if (part.options.some((o) => o.kind === "allow_always")) return { notice: noOnce };
  }
  return legacyNotice ? { notice: legacyNotice } : {};
}

/**
 * The Sidekicks rule made when the user answers `part` with `optionId` and asks Sidekicks to answer the same request
 * so from now on, and the note its card shows; undefined when no rule can be made: the option is not a one-time one
 * (an agent's "always" option is the agent's own rule) or the title is blank.
 */
export function ruleFor(agent: string, part: RuleSubject & Pick<PermissionPart, "options">, optionId: string): { rule: PermissionRule; notice: string } | undefined {
  const key = ruleKeyOf(part);
  const kind = part.options.find((o) => o.optionId === optionId)?.kind;
  const decision: RuleDecision | undefined = kind === "allow_once" ? "allow" : kind === "reject_once" ? "reject" : undefined;
  if (!key || !decision) return undefined;
  const rule: PermissionRule = { ...key, decision };
  return { rule, notice: l10n.t("Sidekicks remembers: {0}. Sidekicks: Remembered permissions… forgets it.", describeRule(agent, rule)) };
}

/**
 * Adds `agent`'s request to its answer, with the files it is about (the request's locations, else its tool call's),
 * decided by {@link decide}: answered (`optionId`, and the card says which rule or the policy answered) or pending,
 * with the card's notice when there is one.
 */
export function askPermission(
  message: MessageRecord,
  requestId: string,
  request: PermissionRequest,
  agent: string,
  policy?: PermissionPolicy,
  rules?: AgentRules,
): { message: MessageRecord; part: PermissionPart; optionId?: string } {
  const tool = message.parts.find((p): p is ToolCallPart => p.type === "toolCall" && p.toolCallId === request.toolCallId);
  const paths = request.paths ?? tool?.locations?.map((l) => l.path) ?? [];
  const add = (auto?: { optionId: string; reason: string }) => {
    const added = addPermission(message, requestId, request, auto);
    return paths.length > 0 ? patchPart(added, { paths: [...paths] }) : added;
  };
  const asked = add();
  const decision = decide(agent, asked.part, policy, rules);
  if (decision.optionId) return { ...add({ optionId: decision.optionId, reason: decision.reason ?? "" }), optionId: decision.optionId };
  return decision.notice ? withNotice(asked, decision.notice) : asked;
}

/** `applied` with `notice` on its permission part (the last change to it); unchanged when there is no notice. */
export function withNotice<T extends { message: MessageRecord; part?: PermissionPart }>(applied: T, notice: string | undefined): T {
  return notice === undefined ? applied : patchPart(applied, { notice });
}

/** `applied` with `fields` set on its permission part, in the message as in the part. */
function patchPart<T extends { message: MessageRecord; part?: PermissionPart }>(applied: T, fields: Partial<PermissionPart>): T {
  const { part } = applied;
  if (!part) return applied;
  const patched: PermissionPart = { ...part, ...fields };
  return { ...applied, part: patched, message: { ...applied.message, parts: applied.message.parts.map((p) => (p === part ? patched : p)) } };
}
