import type { AgentManager } from "../../agents/AgentManager";
import { SidekicksError } from "../../shared/errors";
import type { AgentTerminalOutputs } from "../AgentTerminalOutputs";
import type { EditorPort, IconUri } from "../EditorPort";
import type { RosterLoader } from "../RosterLoader";
import type { StoreLifecycle } from "../StoreLifecycle";

/** The channel the view opened last (`channel/open`): where `Sidekicks: Mention agent…` sends. */
export interface ShownChannel {
  id: string | undefined;
}

/** What the webview's request handlers work with (each group takes what it needs). */
export interface WebviewApiPorts {
  history: StoreLifecycle;
  roster: RosterLoader;
  agents: AgentManager;
  editor: EditorPort;
  terminalOutputs: AgentTerminalOutputs;
  shown: ShownChannel;
  /** The workspace's folders (absolute): files inside them may be opened from the view (`viewGuard.ts`). */
  workspaceRoots?: () => string[];
  /** Turns a roster icon file into a URI the webview may load (the editor's `asWebviewUri`). */
  iconUri?: IconUri;
}

/**
 * A required string param from the webview (a trust boundary).
 * @throws SidekicksError `channel/invalidName` when it is missing, not a string or blank
 */
export function text(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new SidekicksError("channel/invalidName", `Missing ${what}.`);
  return value;
}
