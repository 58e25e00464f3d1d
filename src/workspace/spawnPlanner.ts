/**
 * Where an ACP terminal's command runs (`terminal/create`): a `SpawnPlanner` turns the agent's request into the
 * process node-pty starts. `localPlanner` runs it on this machine; `containerPlanner` (container.ts) wraps it in
 * `docker exec -it`. Each runtime's prepared place names its planner (src/agents/runtimes/). No `vscode` import.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { SidekicksError } from "../shared/errors";
import type { Confinement } from "./confinement";

/** What the planner gets: the request with `env` as a map of the requested variables only. */
export interface PlannedCommand {
  command: string;
  args: string[];
  /** As requested (absolute), or `undefined` for the default. */
  cwd: string | undefined;
  env: Record<string, string>;
}

/** The process node-pty starts. `env` is complete; `cwd` is a folder on this machine. */
export interface SpawnPlan {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** Turns a request into the process to start (locally, or wrapped in `docker exec`). May throw `SidekicksError`. */
export type SpawnPlanner = (cmd: PlannedCommand) => SpawnPlan | Promise<SpawnPlan>;

/**
 * The default planner: runs the command on this machine, in `cmd.cwd` (absolute; inside the workspace when a
 * confinement is given) or `defaults.cwd`, with `cmd.env` over `defaults.env`.
 * @throws SidekicksError `workspace/outside` (relative or confined-out cwd), `workspace/notFound` (cwd missing)
 */
export function localPlanner(defaults: { cwd: string; env?: NodeJS.ProcessEnv; confinement?: Confinement }): SpawnPlanner {
  return async (cmd) => {
    let cwd = defaults.cwd;
    if (cmd.cwd) {
      if (!path.isAbsolute(cmd.cwd)) throw new SidekicksError("workspace/outside", `Refused terminal cwd "${cmd.cwd}": it is a relative path; ACP requires an absolute one.`);
      cwd = defaults.confinement ? (await defaults.confinement.assert(cmd.cwd)).realPath : cmd.cwd;
    }
    let isDir = false;
    try {
      isDir = statSync(cwd).isDirectory();
    } catch {
      // missing: reported below
    }
    if (!isDir) throw new SidekicksError("workspace/notFound", `The terminal's working directory "${cwd}" does not exist or is not a folder.`);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(defaults.env ?? process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, cmd.env);
    return { file: cmd.command, args: cmd.args, cwd, env };
  };
}
