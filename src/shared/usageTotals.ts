/**
 * Cost totals (issue 21, "cost and usage totals per channel and per agent"). ACP `usage_update.cost` is the
 * cumulative cost of one session; a channel's member goes through several sessions (Retry in a new session, a session
 * the agent could not resume), so each session state also keeps `spent`: what the earlier sessions of that channel and
 * agent cost, by currency. A session's total is `spent` plus its current cost; a channel's, the sum over its members;
 * an agent's, the sum over its channels. Pure, shared by the host and the webview.
 */
import type { SessionStateView } from "./protocol";

/** An amount in one currency (ACP `Cost`: an ISO 4217 code such as `USD`, or another unit). */
export interface Cost {
  amount: number;
  currency: string;
}

/** `costs` plus each of `more` (undefined ones skipped), one entry per currency, in first-seen order. */
export function addCosts(costs: readonly Cost[] | undefined, ...more: (Cost | readonly Cost[] | undefined)[]): Cost[] {
  const out = (costs ?? []).map((c) => ({ ...c }));
  for (const item of more.flatMap((m) => (m === undefined ? [] : Array.isArray(m) ? m : [m as Cost]))) {
    const same = out.find((c) => c.currency === item.currency);
    if (same) same.amount += item.amount;
    else out.push({ ...item });
  }
  return out;
}

/** What a session state stands for in total: its earlier sessions (`spent`) and the current one's cost. */
export function sessionTotal(state: Pick<SessionStateView, "spent" | "usage">): Cost[] {
  return addCosts(state.spent, state.usage?.cost);
}

/** The sum of several session states' totals (a channel's members, or an agent's channels). */
export function totalOf(states: Iterable<Pick<SessionStateView, "spent" | "usage">>): Cost[] {
  let out: Cost[] = [];
  for (const s of states) out = addCosts(out, sessionTotal(s));
  return out;
}

/**
 * The `spent` of a session state that follows `previous` when a usage update reports `next` as the session's
 * cumulative cost: a cost lower than the one before in the same currency means the agent's counter restarted (a
 * resumed session in a new process), so the cost before is kept as spent rather than lost.
 */
export function spentAfterUpdate(previous: Pick<SessionStateView, "spent" | "usage">, next: Cost | undefined): Cost[] | undefined {
  const before = previous.usage?.cost;
  if (before && next && (next.currency !== before.currency || next.amount < before.amount)) return addCosts(previous.spent, before);
  return previous.spent;
}

/** "$0.04", "€1.20", "12 credits": a cost in its currency (ISO 4217 codes through `Intl`, any other unit as a word). */
export function formatCost(cost: Cost): string {
  if (/^[A-Z]{3}$/.test(cost.currency)) {
    try {
      return new Intl.NumberFormat("en", { style: "currency", currency: cost.currency, minimumFractionDigits: 2, maximumFractionDigits: cost.amount < 0.01 && cost.amount > 0 ? 4 : 2 }).format(cost.amount);
    } catch {
      // not a currency Intl knows: shown as a unit below
    }
  }
  return `${Math.round(cost.amount * 100) / 100} ${cost.currency}`;
}

/** "$1.20 + €0.30": several currencies side by side; "" for none. */
export function formatCosts(costs: readonly Cost[]): string {
  return costs.map(formatCost).join(" + ");
}

/** Costs read back from the store (a trust boundary): finite amounts with a currency; undefined when none is. */
export function asCosts(value: unknown): Cost[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const costs = value.filter((c): c is Cost => typeof c === "object" && c !== null && typeof c.amount === "number" && Number.isFinite(c.amount) && typeof c.currency === "string");
  return costs.length > 0 ? addCosts(undefined, costs) : undefined;
}

/**
 * The last known session state of every (channel, agent), for the totals per agent across channels (the Agents
 * view): seeded from the store, then each `session/state` replaces its (channel, agent) entry.
 */
export class CostLedger {
  private readonly states = new Map<string, Pick<SessionStateView, "agent" | "channelId" | "spent" | "usage">>();

  /** Takes a state stored earlier unless this activation already reported a newer one for its channel and agent. */
  seed(state: Pick<SessionStateView, "agent" | "channelId" | "spent" | "usage">): void {
    const key = `${state.agent}\u0000${state.channelId}`;
    if (!this.states.has(key)) this.states.set(key, state);
  }

  /** A `session/state`: the new state of its channel and agent. @returns true when the agent's total changed */
  update(state: Pick<SessionStateView, "agent" | "channelId" | "spent" | "usage">): boolean {
    const before = formatCosts(this.totalOf(state.agent));
    this.states.set(`${state.agent}\u0000${state.channelId}`, state);
    return formatCosts(this.totalOf(state.agent)) !== before;
  }

  /** What `agent` cost so far across its channels (by currency). */
  totalOf(agent: string): Cost[] {
    return totalOf([...this.states.values()].filter((s) => s.agent === agent));
  }

  /** How many channels `agent` reported a cost in. */
  channelsOf(agent: string): number {
    return [...this.states.values()].filter((s) => s.agent === agent && sessionTotal(s).length > 0).length;
  }
}
