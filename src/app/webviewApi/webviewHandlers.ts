import type { WebviewRequestHandlers } from "../WebviewBridge";
import { directoryHandlers } from "./directoryHandlers";
import { editorHandlers } from "./editorHandlers";
import { historyHandlers } from "./historyHandlers";
import type { WebviewApiPorts } from "./ports";
import { sessionHandlers } from "./sessionHandlers";
import { terminalHandlers } from "./terminalHandlers";
import { turnHandlers } from "./turnHandlers";

/**
 * Handlers for every webview request (`src/shared/protocol`, `WebviewRequests`), one group per topic; the compiler checks
 * that the groups together answer each request once. A webview that loads while the app is starting (activation
 * returns before the store is open) waits for `started`.
 */
export function webviewHandlers(ports: WebviewApiPorts, started: () => Promise<void>): WebviewRequestHandlers {
  const handlers: WebviewRequestHandlers = {
    ...historyHandlers(ports),
    ...directoryHandlers(ports),
    ...turnHandlers(ports),
    ...sessionHandlers(ports),
    ...terminalHandlers(ports),
    ...editorHandlers(ports.editor),
  };
  const waiting = Object.entries(handlers).map(([method, handler]) => [
    method,
    async (params: unknown) => {
      await started();
      return (handler as (p: unknown) => Promise<unknown>)(params);
    },
  ]);
  return Object.fromEntries(waiting) as WebviewRequestHandlers;
}
