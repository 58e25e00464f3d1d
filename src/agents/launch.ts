import type { AgentLaunch } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { runtimeFor, type LaunchContext } from "./runtimes";

export { DEMO_COMMAND, type LaunchContext } from "./runtimes";

/**
 * Turns a roster entry into a process launch through its runtime (`runtimes/`): substitutes `${env:…}` and
 * `${workspaceFolder}` in `command`, `args` and `env`; locally, merges `env` over the parent environment and resolves
 * `sidekicks:demo` to the bundled demo agent run by the editor's own Node.js runtime; a container runtime becomes
 * `docker exec -i` of the command in the container, with only the roster's `env` inside.
 * @throws SidekicksError `agent/spawn` (container settings that make no command line), `agent/unsupported` (`sbx`)
 */
export function resolveLaunch(agent: AgentConfig, ctx: LaunchContext): AgentLaunch {
  return runtimeFor(agent).launch(agent, ctx);
}
