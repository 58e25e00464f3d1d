/**
 * One connected view for the tests that go through the real bridge: a `WebviewBridge` over `app.viewHandlers()`,
 * what the host posted to the view (`posted`), and `ask`, posting a request as the webview would and resolving its
 * response (10 s at most).
 */
import { WebviewBridge } from "../../src/app/WebviewBridge";
import type { SidekicksApp } from "../../src/app/SidekicksApp";
import { PROTOCOL_VERSION, type ErrorInfo, type HostToWebview } from "../../src/shared/protocol";
import { waitFor } from "./helpers";

/** See the file comment; `close` disconnects the view. */
export function connectView(app: SidekicksApp) {
  const posted: HostToWebview[] = [];
  const bridge = new WebviewBridge((m) => posted.push(m), app.viewHandlers());
  const off = app.connectWebview((name, payload) => bridge.event(name, payload));
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  let nextId = 1;
  const ask = async (method: string, params?: unknown): Promise<{ result?: unknown; error?: ErrorInfo }> => {
    const id = nextId++;
    bridge.receive({ kind: "request", id, method, params });
    const response = await waitFor(() => posted.find((m): m is Extract<HostToWebview, { kind: "response" }> => m.kind === "response" && m.id === id), 10_000, `the answer to ${method}`);
    return { result: response.result, error: response.error };
  };
  return { posted, ask, close: () => (off(), bridge.dispose()) };
}
