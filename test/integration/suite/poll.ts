/**
 * Calls `probe` every 200 ms until it returns a value other than `undefined`, retrying when it throws or rejects (the
 * view may not be resolved yet). Rejects after `timeoutMs` (ms) naming `what` and the last value or error seen.
 */
export async function poll<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = "nothing yet";
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      last = "no match";
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
