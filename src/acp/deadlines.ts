/**
 * Deadlines of the requests Sidekicks sends to an agent (issue 18): every request but `session/prompt` (a turn may run
 * for hours) is raced against a timer, and so is the wait for the cancelled prompt's answer after `session/cancel`.
 * Past its deadline a request is abandoned (a late answer is ignored) and fails with an `agent/timeout` error that says
 * what did not answer, how long Sidekicks waited, and what the user can do. Also the `initialize` protocol version check.
 */
import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../shared/errors";

/**
 * The timers deadlines run on. Node's ({@link nodeTimers}) by default; the agent manager passes its injected clock, so
 * that tests move time with a manual clock instead of sleeping.
 */
export interface DeadlineTimers {
  /** Calls `fn` once after `ms` milliseconds; a pending timer must not keep the process alive. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer `setTimeout` returned. */
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unref'd. */
export const nodeTimers: DeadlineTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A duration in ms, or how to read it when needed (a limit the user may change while the agent runs). */
export type Millis = number | (() => number);

/** The value of a {@link Millis} now. */
export function millis(value: Millis): number {
  return typeof value === "function" ? value() : value;
}

/** The requests that have a deadline (all but `initialize`, which has its own, and `session/prompt`). */
export type DeadlineMethod = "authenticate" | "session/new" | "session/load" | "session/set_mode" | "session/set_config_option" | "session/set_model";

/** Default deadline of a request, in ms (sidekicks.yaml `limits.requestTimeout`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Default wait for the cancelled prompt's answer after `session/cancel`, in ms (sidekicks.yaml `limits.cancelTimeout`). */
export const DEFAULT_CANCEL_TIMEOUT_MS = 10_000;
/** `authenticate` may run a browser sign-in: it waits at least this long (ms), whatever `requestTimeout` says. */
export const MIN_AUTHENTICATE_TIMEOUT_MS = 300_000;

/**
 * Races `work` against a deadline of `ms` milliseconds (none when `ms` is 0 or not finite): past it, the promise
 * rejects with `error()` and `work`'s late outcome is ignored. The timer is cleared as soon as `work` settles.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, timers: DeadlineTimers, error: () => SidekicksError): Promise<T> {
  if (!(ms > 0 && Number.isFinite(ms))) return work;
  let handle: unknown;
  const deadline = new Promise<never>((_, reject) => {
    handle = timers.setTimeout(() => reject(error()), ms);
  });
  return Promise.race([work, deadline]).finally(() => timers.clearTimeout(handle));
}

/** A duration as the messages say it: "30 s", "2 min", "1.5 s". */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  if (s >= 120 && Number.isInteger(s / 60)) return `${s / 60} min`;
  return `${Number.isInteger(s) ? s : Math.round(s * 10) / 10} s`;
}

/** The `agent/timeout` error of a request that did not answer within `ms` ("Agent "x" did not answer session/new within 60 s. …"). */
export function requestTimeoutError(agent: string, method: DeadlineMethod, ms: number): SidekicksError {
  return new SidekicksError(
    "agent/timeout",
    l10n.t(
      'Agent "{0}" did not answer {1} within {2}. It may be waiting for a sign-in or be stuck: restart it (Sidekicks: Restart agent), or raise limits.requestTimeout in sidekicks.yaml.',
      agent,
      method,
      formatSeconds(ms),
    ),
  );
}

/** The `agent/timeout` error of a prompt whose agent did not answer `session/cancel` within `ms`. */
export function cancelTimeoutError(agent: string, ms: number): SidekicksError {
  return new SidekicksError(
    "agent/timeout",
    l10n.t(
      'Agent "{0}" did not stop within {1} of session/cancel: its turn was ended as cancelled, and whatever it still sends for it is ignored. If it stays stuck, restart it (Sidekicks: Restart agent), or raise limits.cancelTimeout in sidekicks.yaml.',
      agent,
      formatSeconds(ms),
    ),
  );
}

/**
 * ACP's version rule (https://agentclientprotocol.com/protocol/initialization, "Version Negotiation"): "The
 * initialize request MUST include the latest protocol version the Client supports. If the Agent supports the
 * requested version, it MUST respond with the same version. Otherwise, the Agent MUST respond with the latest version
 * it supports. If the Client does not support the version specified by the Agent in the initialize response, the
 * Client SHOULD close the connection and inform the user about it." Sidekicks speaks exactly `ours`; an answer naming
 * another version is this error (field case 20), and the caller stops the agent.
 * @returns the `agent/protocol` error naming both versions, or undefined when the agent speaks `ours`
 */
export function protocolVersionError(agent: string, theirs: unknown, ours: number): SidekicksError | undefined {
  if (theirs === ours) return undefined;
  const said = typeof theirs === "number" || typeof theirs === "string" ? String(theirs).slice(0, 40) : JSON.stringify(theirs)?.slice(0, 40) ?? "none";
  return new SidekicksError(
    "agent/protocol",
    l10n.t('Agent "{0}" speaks ACP protocol version {1}; Sidekicks speaks version {2}. Update Sidekicks, or use a version of the agent that speaks {2}.', agent, said, ours),
  );
}
