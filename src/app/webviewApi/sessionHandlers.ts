import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../../shared/errors";
import type { SessionChange } from "../../shared/protocol";
import type { WebviewRequestHandlers } from "../WebviewBridge";
import { text, type WebviewApiPorts } from "./ports";

/**
 * Validates a session change from the webview (a trust boundary).
 * @throws SidekicksError `session/invalidChange` for anything but a mode id, a config option id with a string or
 *   boolean value, or a model id
 */
export function sessionChange(value: unknown): SessionChange {
  const c = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const id = (v: unknown) => typeof v === "string" && v !== "" && v.length <= 1024;
  if (c.kind === "mode" && id(c.modeId)) return { kind: "mode", modeId: c.modeId as string };
  if (c.kind === "model" && id(c.modelId)) return { kind: "model", modelId: c.modelId as string };
  if (c.kind === "config" && id(c.configId) && (typeof c.value === "boolean" || id(c.value))) return { kind: "config", configId: c.configId as string, value: c.value as string | boolean };
  throw new SidekicksError("session/invalidChange", l10n.t("That session setting is not one Sidekicks knows (a mode, a config option value, or a model)."));
}

/** The header's session controls: `session/configure` changes a member's mode, config option or model. */
export function sessionHandlers(ports: WebviewApiPorts): Pick<WebviewRequestHandlers, "session/configure"> {
  return {
    "session/configure": async ({ channelId, agent, change }) => ({
      state: await ports.history.require().sessions.configure(text(channelId, "channel id"), text(agent, "agent"), sessionChange(change)),
    }),
  };
}
