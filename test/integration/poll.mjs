// @ts-check
/**
 * Calls `probe` every 200 ms until it returns a value other than `undefined`, retrying when it throws or rejects (the
 * view may not be resolved yet). Rejects after `timeoutMs` (ms) naming `what` and the last value or error seen.
 * Plain JavaScript, so both the harness scripts run by Node (runClosedTab.mjs) and the suites bundled into the
 * extension host (suite/poll.ts; types in poll.d.mts) use this one loop.
 * @template T
 * @param {string} what
 * @param {() => Promise<T | undefined> | T | undefined} probe
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 * @type {typeof import("./poll.mjs").poll}
 */
export async function poll(what, probe, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last = "nothing yet";
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      last = "no match";
    } catch (error) {
      last = error instanceof Error ? error.message.split("\n")[0] : String(error);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
