import type { Store } from "../store/Store";
import type { RememberedChoices } from "./permissionPolicy";

/** Store key of an agent's remembered permission choices, under `value/` (ADR 0003 `value/<key>`). */
export const permissionsKey = (agent: string) => `permissions/${agent}`;

/** One remembered choice, as the list the user manages shows it. */
export interface RememberedChoice {
  agent: string;
  /** ACP `ToolKind`, or `other`. */
  toolKind: string;
  decision: "allow" | "reject";
}

/**
 * "Always" choices per agent and tool kind (brief, "'Allow always' choices are remembered"), kept in the store so
 * they hold after a reload; listed and revocable (`Sidekicks: Remembered permissions…`).
 */
export class PermissionMemory {
  private readonly cache = new Map<string, RememberedChoices>();

  constructor(private readonly store: Store) {}

  /** The choices remembered for `agent` (read from the store once). */
  async of(agent: string): Promise<RememberedChoices> {
    if (!this.cache.has(agent)) this.cache.set(agent, asChoices(await this.store.getValue(permissionsKey(agent))));
    return this.cache.get(agent)!;
  }

  /** Remembers `decision` for `agent`'s tools of `toolKind`. */
  async remember(agent: string, toolKind: string, decision: "allow" | "reject"): Promise<void> {
    const next = { ...(await this.of(agent)), [toolKind]: decision };
    this.cache.set(agent, next);
    await this.store.putValue(permissionsKey(agent), next);
  }

  /** Forgets one choice. @returns false when there was none */
  async forget(agent: string, toolKind: string): Promise<boolean> {
    const { [toolKind]: gone, ...rest } = await this.of(agent);
    if (!gone) return false;
    this.cache.set(agent, rest);
    await this.store.putValue(permissionsKey(agent), rest);
    return true;
  }

  /** Every remembered choice of these agents, by agent then tool kind. */
  async list(agents: readonly string[]): Promise<RememberedChoice[]> {
    const out: RememberedChoice[] = [];
    for (const agent of agents) {
      for (const [toolKind, decision] of Object.entries(await this.of(agent)).sort()) out.push({ agent, toolKind, decision });
    }
    return out;
  }
}

/** Validates a stored value (a value read back from LevelDB is a trust boundary). */
function asChoices(value: unknown): RememberedChoices {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v === "allow" || v === "reject")) as RememberedChoices;
}
