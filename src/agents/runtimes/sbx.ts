/**
 * The `sbx` runtime (`agents[].runtime: sbx`, the Sidekicks desktop app's sandbox): accepted in sidekicks.yaml so files
 * shared with that app stay valid, refused when the agent starts (`agent/unsupported`): VS Code has no such sandbox.
 */
import * as l10n from "@vscode/l10n";
import type { AgentConfig } from "../../config/roster";
import { SidekicksError } from "../../shared/errors";
import type { Runtime } from "./Runtime";

function refusal(agent: AgentConfig): SidekicksError {
  return new SidekicksError(
    "agent/unsupported",
    l10n.t('Agent "{0}" uses runtime "sbx", which Sidekicks does not support. Use runtime "local" (or remove "runtime") in sidekicks.yaml.', agent.name),
  );
}

/** The sbx runtime: refuses every agent; `launch` and `prepare` throw the same refusal. */
export const sbxRuntime: Runtime<"sbx"> = {
  type: "sbx",
  refuse: refusal,
  launch(agent) {
    throw refusal(agent);
  },
  prepare(agent) {
    return Promise.reject(refusal(agent));
  },
};
