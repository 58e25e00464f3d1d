/**
 * The local runtime (`agents[].runtime: local`, the default): the agent runs on this machine (with Remote-SSH, Dev
 * Containers or Codespaces, the remote side, next to the code), in its workspace folder, with the editor's
 * environment and the roster's `env` over it; its paths are host paths, confined to that folder; its terminals run
 * here with node-pty. `sidekicks:demo` is the bundled demo agent, run by the editor's own Node.js.
 */
import type { AgentLaunch } from "../../acp/types";
import type { AgentConfig } from "../../config/roster";
import { localPlanner } from "../../workspace/spawnPlanner";
import { DEMO_COMMAND, definedEnv, substitution, type AgentPlace, type LaunchContext, type Runtime } from "./Runtime";

/** The local runtime: refuses nothing. */
export const localRuntime: Runtime<"local"> = {
  type: "local",

  refuse: () => undefined,

  /**
   * Merges the roster's `env` over the parent environment and runs `command` in the agent's workspace; resolves
   * `sidekicks:demo` to the bundled demo agent run by the editor's own Node.js runtime (`ELECTRON_RUN_AS_NODE=1`
   * makes an Electron host act as Node; its roster name goes in `SIDEKICKS_DEMO_NAME`).
   */
  launch(agent: AgentConfig, ctx: LaunchContext): AgentLaunch {
    const sub = substitution(ctx);
    const env = definedEnv(ctx.env);
    for (const [k, v] of Object.entries(agent.env)) env[k] = sub(v);
    const cwd = agent.workspace ?? ctx.workspaceFolder;
    if (agent.command === DEMO_COMMAND) {
      env.ELECTRON_RUN_AS_NODE = "1";
      // The demo's hints name it as the channel does (`@odie show code`), and it knows not to delegate to itself.
      env.SIDEKICKS_DEMO_NAME = agent.name;
      return { command: ctx.nodePath, args: [ctx.demoAgentPath, ...agent.args.map(sub)], env, cwd };
    }
    return { command: sub(agent.command), args: agent.args.map(sub), env, cwd };
  },

  /** The launch's folder is the session `cwd` and the one workspace root; nothing to read first. */
  prepare(_agent: AgentConfig, launch: AgentLaunch): Promise<AgentPlace> {
    const { cwd: folder, env } = launch;
    return Promise.resolve({
      folder,
      env,
      sessionCwd: folder,
      roots: [folder],
      terminalPlanner: (confinement) => localPlanner({ cwd: folder, env: { ...process.env, ...env }, confinement }),
    });
  },
};
