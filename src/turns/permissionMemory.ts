import * as l10n from "@vscode/l10n";
import type { Store } from "../store/Store";
import { describeLegacyRule, describeRule, type AgentRules, type LegacyRule, type PermissionRule, type RuleKey } from "./permissionPolicy";

/** Store key of an agent's Sidekicks rules, under `value/` (the original design's ADR 0003 `value/<key>`; ADR 0005): `{version: 1, rules}`. */
export const rulesKey = (agent: string) => `permissionRules/${agent}`;

/**
 * Store key under which versions before ADR 0005 kept an agent's choices per tool kind (`{edit: "allow", …}`). Read
 * only to list them as broad rules from an older version, never to answer a request; forgetting one rewrites it.
 */
export const legacyKey = (agent: string) => `permissions/${agent}`;

/** One remembered rule, as the list the user manages shows it. */
export interface RememberedRule {
  agent: string;
  /** ACP `ToolKind`, or `other`. */
  toolKind: string;
  /** The title the rule matches exactly; absent for a broad rule from an older version. */
  title?: string;
  /** The files the rule matches exactly (sorted), when the request named any. */
  paths?: string[];
  decision: "allow" | "reject";
  /** A broad rule from an older version (every tool of its kind): listed, never applied. */
  legacy: boolean;
}

/**
 * The user's Sidekicks rules per agent (brief, "'Allow always' choices are remembered"; ADR 0005): each answers the
 * agent's requests of one tool kind with one exact title and the same files. Kept in the store across reloads; listed and
 * revocable (`Sidekicks: Remembered permissions…`). The broad choices an older version kept are read from their old
 * key, listed as such, and never applied.
 */
export class PermissionMemory {
  private readonly cache = new Map<string, AgentRules>();

  constructor(private readonly store: Store) {}

  /** The rules remembered for `agent` (read from the store once). */
  async of(agent: string): Promise<AgentRules> {
    const cached = this.cache.get(agent);
    if (cached) return cached;
    const read: AgentRules = { rules: asRules(await this.store.getValue(rulesKey(agent))), legacy: asLegacy(await this.store.getValue(legacyKey(agent))) };
    this.cache.set(agent, read);
    return read;
  }

  /** Remembers `rule` for `agent`, replacing a rule that matches the same requests. */
  async remember(agent: string, rule: PermissionRule): Promise<void> {
    const current = await this.of(agent);
    const rules = [...current.rules.filter((r) => !sameKey(r, rule)), copy(rule)];
    await this.store.putValue(rulesKey(agent), { version: 1, rules });
    this.cache.set(agent, { ...current, rules });
  }

  /** Forgets one rule as {@link list} gave it. @returns false when there was none */
  async forget(rule: Omit<RememberedRule, "decision">): Promise<boolean> {
    const { agent, toolKind } = rule;
    const current = await this.of(agent);
    if (rule.legacy) {
      if (!current.legacy.some((r) => r.toolKind === toolKind)) return false;
      const legacy = current.legacy.filter((r) => r.toolKind !== toolKind);
      await this.store.putValue(legacyKey(agent), Object.fromEntries(legacy.map((r) => [r.toolKind, r.decision])));
      this.cache.set(agent, { ...current, legacy });
      return true;
    }
    const rules = current.rules.filter((r) => !sameKey(r, { toolKind, title: rule.title ?? "", paths: rule.paths }));
    if (rules.length === current.rules.length) return false;
    await this.store.putValue(rulesKey(agent), { version: 1, rules });
    this.cache.set(agent, { ...current, rules });
    return true;
  }

  /** Every rule of these agents, by agent, then tool kind and title; an agent's broad rules from an older version last. */
  async list(agents: readonly string[]): Promise<RememberedRule[]> {
    const out: RememberedRule[] = [];
    for (const agent of agents) {
      const { rules, legacy } = await this.of(agent);
      const order = (r: PermissionRule) => [r.toolKind, r.title, ...(r.paths ?? [])].join("\u0000");
      const sorted = [...rules].sort((a, b) => (order(a) < order(b) ? -1 : 1));
      for (const r of sorted) out.push({ agent, ...copy(r), legacy: false });
      for (const r of [...legacy].sort((a, b) => (a.toolKind < b.toolKind ? -1 : 1))) out.push({ agent, toolKind: r.toolKind, decision: r.decision, legacy: true });
    }
    return out;
  }
}

/**
 * How `Sidekicks: Remembered permissions…` lists a rule: `label`, what it matches (the agent, the tool kind, the exact
 * title); `description`, what kind of rule it is and what selecting it does.
 */
export function describeRemembered(rule: RememberedRule): { label: string; description: string } {
  if (rule.legacy) {
    return { label: describeLegacyRule(rule.agent, rule), description: l10n.t("broad, from an older version: no longer applied · select to forget") };
  }
  return { label: describeRule(rule.agent, { ...rule, title: rule.title ?? "" }), description: l10n.t("Sidekicks rule · select to forget") };
}

/** Whether two rules match the same requests. */
function sameKey(a: RuleKey, b: RuleKey): boolean {
  return a.toolKind === b.toolKind && a.title === b.title && (a.paths ?? []).join("\n") === (b.paths ?? []).join("\n");
}

/** A rule's own fields only (`paths` left out when empty). */
function copy(rule: PermissionRule): PermissionRule {
  return { toolKind: rule.toolKind, title: rule.title, ...(rule.paths && rule.paths.length > 0 ? { paths: [...rule.paths] } : {}), decision: rule.decision };
}

const isDecision = (v: unknown): v is "allow" | "reject" => v === "allow" || v === "reject";

/** Validates a stored rules record (a value read back from LevelDB is a trust boundary): bad entries are dropped. */
function asRules(value: unknown): PermissionRule[] {
  if (typeof value !== "object" || value === null || (value as { version?: unknown }).version !== 1) return [];
  const rules = (value as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) return [];
  return rules
    .filter(
      (r): r is PermissionRule =>
        typeof r === "object" && r !== null && typeof r.toolKind === "string" && typeof r.title === "string" && r.title.trim() !== "" && isDecision(r.decision) &&
        (r.paths === undefined || (Array.isArray(r.paths) && r.paths.every((p: unknown) => typeof p === "string"))),
    )
    .map((r) => copy({ ...r, ...(r.paths ? { paths: [...new Set(r.paths)].sort() } : {}) }));
}

/** Reads an older version's `{toolKind: "allow" | "reject"}` record. */
function asLegacy(value: unknown): LegacyRule[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value)
    .filter((entry): entry is [string, "allow" | "reject"] => isDecision(entry[1]))
    .map(([toolKind, decision]) => ({ toolKind, decision }));
}
