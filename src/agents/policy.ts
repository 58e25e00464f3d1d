import * as l10n from "@vscode/l10n";
import type { AgentConfig } from "../config/roster";
import { DEFAULT_CANCEL_TIMEOUT_MS } from "../acp/deadlines";
import { SidekicksError } from "../shared/errors";

/** How many agent processes may run at once, and when an idle one stops (sidekicks.yaml `limits`). */
export interface AgentLimits {
  /** At most this many agents run at once (at least 1). Default 4. */
  maxRunningAgents: number;
  /** An agent with no prompt running stops after this many ms; 0 or Infinity never stops it. Default 600 000. */
  idleTimeoutMs: number;
  /** Deadline of each request but `initialize` and `session/prompt` (`limits.requestTimeout`), ms. Default 60 000. */
  requestTimeoutMs?: number;
  /** How long the cancelled prompt may take to answer after `session/cancel` (`limits.cancelTimeout`), ms. Default 10 000. */
  cancelTimeoutMs?: number;
}

/** The `session/cancel` deadline of `limits` in ms (`cancelTimeoutMs`, else the default). */
export function cancelTimeoutOf(limits: AgentLimits): number {
  return limits.cancelTimeoutMs ?? DEFAULT_CANCEL_TIMEOUT_MS;
}

/** The limits in force when sidekicks.yaml sets none. */
export const DEFAULT_LIMITS: AgentLimits = { maxRunningAgents: 4, idleTimeoutMs: 600_000 };

/** First delay of the crash backoff (the second crash in a row), in ms. */
export const BACKOFF_BASE_MS = 1_000;
/** Longest crash backoff, in ms. */
export const BACKOFF_MAX_MS = 30_000;
/** A process that stayed up this long (ms) before crashing starts a fresh crash count. */
export const BACKOFF_RESET_AFTER_MS = 60_000;

/**
 * How long to wait before the next start after `crashes` crashes in a row: 0 ms after the first, then 1 s, 2 s,
 * 4 s… capped at {@link BACKOFF_MAX_MS}.
 * @param crashes consecutive crashes (or failed starts), ≥ 0
 * @returns the delay in ms
 */
export function backoffDelayMs(crashes: number): number {
  if (crashes <= 1) return 0;
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(crashes - 2, 16));
}

/**
 * Checks limits read from a config or a caller: whole numbers, `maxRunningAgents` ≥ 1, `idleTimeoutMs` ≥ 0, the
 * request and cancel deadlines > 0.
 * @throws RangeError naming the bad value
 */
export function checkLimits(limits: AgentLimits): AgentLimits {
  if (!Number.isInteger(limits.maxRunningAgents) || limits.maxRunningAgents < 1) {
    throw new RangeError(`maxRunningAgents must be a whole number ≥ 1, got ${limits.maxRunningAgents}`);
  }
  if (!(limits.idleTimeoutMs >= 0)) throw new RangeError(`idleTimeoutMs must be ≥ 0 ms, got ${limits.idleTimeoutMs}`);
  for (const key of ["requestTimeoutMs", "cancelTimeoutMs"] as const) {
    const ms = limits[key];
    if (ms !== undefined && !(ms > 0 && Number.isFinite(ms))) throw new RangeError(`${key} must be > 0 ms, got ${ms}`);
  }
  return { ...limits };
}

/**
 * The part of an agent's definition that its process depends on (command, args, env, workspace, runtime, MCP
 * servers), as a comparable string. A change here restarts the process; other keys (title, icon, description…)
 * apply without a restart.
 */
export function processKey(config: AgentConfig): string {
  const c = config;
  return stableJson({ command: c.command, args: c.args, env: c.env, workspace: c.workspace, worktree: c.worktree, runtime: c.runtime ?? { type: "local" }, mcpServers: c.mcpServers ?? [] });
}

/** The `agent/limit` refusal: every one of the `busy` running agents is in a turn. */
export function limitError(max: number, busy: string[]): SidekicksError {
  return new SidekicksError(
    "agent/limit",
    busy.length === 1
      ? l10n.t("The only running agent is busy ({0}). Wait for it to finish, or raise limits.maxRunningAgents in sidekicks.yaml.", busy.join(", "))
      : l10n.t("All {0} running agents are busy ({1}). Wait for one to finish, or raise limits.maxRunningAgents in sidekicks.yaml.", busy.length, busy.join(", ")),
    `limits.maxRunningAgents is ${max}.`,
  );
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Most permission requests one agent process may have waiting for the user at once; past it a request is answered
 * with an `agent/requestLimit` error (issue 17: an agent sent 300). Real agents ask one at a time, or a few for tool
 * calls they run in parallel.
 */
export const MAX_PENDING_PERMISSIONS = 32;
