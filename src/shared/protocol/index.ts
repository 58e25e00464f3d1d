/**
 * The one typed protocol between the extension host and the webview.
 *
 * Both bundles import it (this index and its three files: `parts`, `views`, `messages`); it imports nothing. A request map says, per method, the params and the result;
 * an event map says, per event, the payload. The compiler then forces one handler per request on the receiving
 * side, and a renamed field breaks both sides at build time (STYLE.md, "One typed protocol"). Next to them,
 * `requestGuards.ts` (not re-exported here: only the host imports it) validates each request's params: the host does
 * not trust the webview (issue 17).
 *
 * Envelope rules:
 * - The webview posts `{kind: "ready", protocolVersion}` first; the host queues everything until then. On a
 *   version mismatch the host answers with `{kind: "reload"}` and the webview reloads.
 * - Every request gets exactly one `response` with the same `id`, carrying `result` or `error`.
 * - A streamed message starts with `message/started`, continues with `message/delta` and always ends with
 *   `message/finished` (which carries the whole committed message, error included; its text only when the webview
 *   may lack some of it: `streamedText`).
 */


/** Bumped whenever a breaking change is made to the shapes of this protocol. */
export const PROTOCOL_VERSION = 2;

export * from "./parts";
export * from "./views";
export * from "./messages";
