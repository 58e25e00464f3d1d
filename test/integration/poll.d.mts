/** See poll.mjs: calls `probe` every 200 ms until it returns a value other than `undefined`; rejects after `timeoutMs` (ms). */
export function poll<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs?: number): Promise<T>;
