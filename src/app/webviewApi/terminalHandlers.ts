import type { WebviewRequestHandlers } from "../WebviewBridge";
import { text, type WebviewApiPorts } from "./ports";

/** The cards' embedded terminals: what an agent's terminal printed so far, and its editor terminal brought forward. */
export function terminalHandlers(ports: WebviewApiPorts): Pick<WebviewRequestHandlers, "terminal/snapshot" | "terminal/show"> {
  return {
    "terminal/snapshot": async ({ terminalId }) => {
      const kept = ports.terminalOutputs.snapshot(text(terminalId, "terminal id"));
      return kept ? { known: true, ...kept } : { known: false, output: "", truncated: false };
    },
    "terminal/show": async ({ terminalId }) => ({ shown: ports.editor.revealTerminal?.(text(terminalId, "terminal id")) ?? false }),
  };
}
