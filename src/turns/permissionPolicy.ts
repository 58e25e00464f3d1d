/**
 * Automatic answers to permission requests (brief, "Permission policy per agent (`ask` by default; `allow-reads`;
 * `allow-all`). It answers requests automatically; it is not a safety classifier … 'Allow always' choices are
 * remembered."). Pure: which option, if any, answers a request without asking, and why (said in the card).
 *
 * It trusts the tool kind the agent declares (ACP `ToolKind`) and never looks at what the tool will do.
 */
import * as l10n from "@vscode/l10n";
import type { PermissionOption } from "../protocol";

/** `agents[].permissions` (mirrors `PermissionPolicy` in `src/config/roster.ts`). */
export type PermissionPolicy = "ask" | "allow-reads" | "allow-all";

/** Tool kinds `allow-reads` allows: they only look (ACP `ToolKind` `read`, `search`, `think`). */
export const READ_KINDS: ReadonlySet<string> = new Set(["read", "search", "think"]);

/** The user's remembered choices for one agent: tool kind (or `other`) → allow or reject. */
export type RememberedChoices = Readonly<Record<string, "allow" | "reject">>;

/** An automatic answer: the option chosen and the sentence the card shows. */
export interface AutoAnswer {
  optionId: string;
  reason: string;
}

/** The tool kind a remembered choice is filed under (`other` when the agent gave none). */
export function kindKey(toolKind: string | undefined): string {
  return toolKind && toolKind.trim() !== "" ? toolKind : "other";
}

/**
 * The option that answers a request without asking, or undefined to ask the user. A remembered choice for the
 * tool kind comes first (it may also reject); then the policy, which only ever allows. An agent that offers no
 * allowing option is always asked.
 */
export function autoAnswer(agent: string, policy: PermissionPolicy, toolKind: string | undefined, remembered: RememberedChoices, options: readonly PermissionOption[]): AutoAnswer | undefined {
  const pick = (...kinds: PermissionOption["kind"][]) => kinds.map((k) => options.find((o) => o.kind === k)).find((o) => o !== undefined);
  const key = kindKey(toolKind);
  const choice = remembered[key];
  if (choice === "allow") {
    const option = pick("allow_always", "allow_once");
    if (option) return { optionId: option.optionId, reason: l10n.t("Allowed: you chose to always allow {0} tools for @{1}.", key, agent) };
  }
  if (choice === "reject") {
    const option = pick("reject_always", "reject_once");
    if (option) return { optionId: option.optionId, reason: l10n.t("Rejected: you chose to always reject {0} tools for @{1}.", key, agent) };
  }
  const allow = pick("allow_once", "allow_always");
  if (!allow) return undefined;
  if (policy === "allow-all") return { optionId: allow.optionId, reason: l10n.t("Allowed automatically: @{0}'s permissions are allow-all.", agent) };
  if (policy === "allow-reads" && toolKind && READ_KINDS.has(toolKind)) {
    return { optionId: allow.optionId, reason: l10n.t("Allowed automatically: a {0} tool, and @{1}'s permissions are allow-reads.", toolKind, agent) };
  }
  return undefined;
}

/** What choosing `option` makes Sidekicks remember for the tool kind, if anything ("always" choices). */
export function rememberedBy(option: PermissionOption | undefined): "allow" | "reject" | undefined {
  if (option?.kind === "allow_always") return "allow";
  if (option?.kind === "reject_always") return "reject";
  return undefined;
}
