import * as l10n from "@vscode/l10n";
import type { Store } from "../store/Store";
import type { Decision, StoreWriter } from "../store/StoreWriter";
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

  /** @param writer the store's one write lane: a rule is read, decided ({@link decideRemember}, {@link decideForget}) and written there */
  constructor(private readonly writer: StoreWriter) {}

  /** The rules remembered for `agent` (read from the store once). */
  async of(agent: string): Promise<AgentRules> {
    const cached = this.cache.get(agent);
    if (cached) return cached;
    const read = await readRules(this.writer.store, agent);
    // A rule remembered while this read was under way is newer: it stays.
    if (!this.cache.has(agent)) this.cache.set(agent, read);
    return this.cache.get(agent)!;
  }

  /**
   * Remembers `rule` for `agent`, replacing a rule that matches the same requests; applied once it is stored.
   * @throws SidekicksError `store/writeFailed` (the rules stay as they were)
   */
  async remember(agent: string, rule: PermissionRule): Promise<void> {
    const next = await this.writer.write((store) => readRules(store, agent), (current) => decideRemember(current, agent, rule));
    this.cache.set(agent, next);
  }

  /**
   * Forgets one rule as {@link list} gave it.
   * @returns false when there was none
   * @throws SidekicksError `store/writeFailed` (the rules stay as they were)
   */
  async forget(rule: Omit<RememberedRule, "decision">): Promise<boolean> {
    const next = await this.writer.write((store) => readRules(store, rule.agent), (current) => decideForget(current, rule));
    if (next) this.cache.set(rule.agent, next);
    return next !== undefined;
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

/** `rule` remembered for `agent` over its `current` rules (pure): the rule that matches the same requests is replaced. */
export function decideRemember(current: AgentRules, agent: string, rule: PermissionRule): Decision<AgentRules> {
  const rules = [...current.rules.filter((r) => !sameKey(r, rule)), copy(rule)];
  return { changes: { values: [{ key: rulesKey(agent), value: { version: 1, rules } }] }, result: { ...current, rules } };
}

/** One rule forgotten from `current` (pure). @returns the rules afterwards, or undefined (nothing written) when there was none */
export function decideForget(current: AgentRules, rule: Omit<RememberedRule, "decision">): Decision<AgentRules | undefined> {
  const { agent, toolKind } = rule;
  if (rule.legacy) {
    if (!current.legacy.some((r) => r.toolKind === toolKind)) return { changes: {}, result: undefined };
    const legacy = current.legacy.filter((r) => r.toolKind !== toolKind);
    return { changes: { values: [{ key: legacyKey(agent), value: Object.fromEntries(legacy.map((r) => [r.toolKind, r.decision])) }] }, result: { ...current, legacy } };
  }
  const rules = current.rules.filter((r) => !sameKey(r, { toolKind, title: rule.title ?? "", paths: rule.paths }));
  if (rules.length === current.rules.length) return { changes: {}, result: undefined };
  return { changes: { values: [{ key: rulesKey(agent), value: { version: 1, rules } }] }, result: { ...current, rules } };
}

/** An agent's stored rules (validated: a value read back from LevelDB is a trust boundary). */
async function readRules(store: Store, agent: string): Promise<AgentRules> {
  return { rules: asRules(await store.getValue(rulesKey(agent))), legacy: asLegacy(await store.getValue(legacyKey(agent))) };
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
