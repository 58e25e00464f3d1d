import type { WebviewRequestHandlers } from "../WebviewBridge";
import { directoryHandlers } from "./directoryHandlers";
import { editorHandlers } from "./editorHandlers";
import { historyHandlers } from "./historyHandlers";
import { messageHandlers } from "./messageHandlers";
import type { WebviewApiPorts } from "./ports";
import { sessionHandlers } from "./sessionHandlers";
import { terminalHandlers } from "./terminalHandlers";
import { turnHandlers } from "./turnHandlers";
import { guardedHandlers, type ViewState } from "./viewGuard";

/**
 * The handlers one connected view's bridge answers with: {@link webviewHandlers} behind the webview guard
 * (`viewGuard.ts`), which checks each request against the protocol's guard and against what this view shows. Each
 * call makes a new view (its own shown channel).
 */
export function viewHandlers(ports: WebviewApiPorts, started: () => Promise<void>): WebviewRequestHandlers {
  const view: ViewState = { channelId: undefined };
  return guardedHandlers(webviewHandlers(ports, started), ports, started, view);
}

/**
 * Handlers for every webview request (`src/shared/protocol`, `WebviewRequests`), one group per topic, unguarded: they
 * trust the caller about which channel, message, file or text it names (commands and tests call them; a webview's
 * bridge gets {@link viewHandlers}); the compiler checks
 * that the groups together answer each request once. A webview that loads while the app is starting (activation
 * returns before the store is open) waits for `started`.
 */
export function webviewHandlers(ports: WebviewApiPorts, started: () => Promise<void>): WebviewRequestHandlers {
  const handlers: WebviewRequestHandlers = {
    ...historyHandlers(ports),
    ...directoryHandlers(ports),
    ...turnHandlers(ports),
    ...messageHandlers(ports),
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
