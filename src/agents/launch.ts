import type { AgentLaunch } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { containerAgentLaunch } from "../workspace/container";

/** The `command` that runs the offline demo agent bundled with the extension. */
export const DEMO_COMMAND = "sidekicks:demo";

/** What launch resolution needs to know of its surroundings. */
export interface LaunchContext {
  /** Absolute path of the workspace folder (default cwd, `${workspaceFolder}`). */
  workspaceFolder: string;
  /** The Node.js runtime running the extension host (`process.execPath`), used for the demo agent. */
  nodePath: string;
  /** Absolute path of the bundled demo agent script (`dist/demo-agent.js`). */
  demoAgentPath: string;
  /** The parent environment (`process.env`). */
  env: NodeJS.ProcessEnv;
}

/**
 * Turns a roster entry into a process launch: substitutes `${env:NAME}` and `${workspaceFolder}` in `command`,
 * `args` and `env`, merges `env` over the parent environment, and resolves `sidekicks:demo` to the bundled demo
 * agent run by the editor's own Node.js runtime (`ELECTRON_RUN_AS_NODE=1` makes an Electron host act as Node; its
 * roster name goes in `SIDEKICKS_DEMO_NAME`). A container runtime becomes `docker exec -i` of the command in the container, with only the roster's `env` inside.
 */
export function resolveLaunch(agent: AgentConfig, ctx: LaunchContext): AgentLaunch {
  const sub = (s: string): string =>
    s
      .replace(/\$\{workspaceFolder\}/g, ctx.workspaceFolder)
      .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => ctx.env[name] ?? "");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  for (const [k, v] of Object.entries(agent.env)) env[k] = sub(v);
  const cwd = agent.workspace ?? ctx.workspaceFolder;
  if (agent.runtime?.type === "container") {
    // Only the roster's own variables go into the container; docker itself runs with the editor's environment.
    const inside = Object.fromEntries(Object.entries(agent.env).map(([k, v]) => [k, sub(v)]));
    const { type: _type, ...runtime } = agent.runtime;
    return containerAgentLaunch(runtime, { command: sub(agent.command), args: agent.args.map(sub), env: inside }, ctx.env, cwd);
  }
  if (agent.command === DEMO_COMMAND) {
    env.ELECTRON_RUN_AS_NODE = "1";
    // The demo's hints name it as the channel does (`@odie show code`), and it knows not to delegate to itself.
    env.SIDEKICKS_DEMO_NAME = agent.name;
    return { command: ctx.nodePath, args: [ctx.demoAgentPath, ...agent.args.map(sub)], env, cwd };
  }
  return { command: sub(agent.command), args: agent.args.map(sub), env, cwd };
}
