/**
 * The agent-runtime interface (issue 16): where an agent process runs and what it sees, one implementation per
 * roster runtime type (`agents[].runtime.type`, absent means `local`), looked up by {@link runtimeFor}. The manager
 * asks the runtime to refuse, launch and prepare; what it prepares (an {@link AgentPlace}) is held by the agent's
 * entry and answers the rest: the session `cwd`, the workspace roots, the path mapping and the terminal planner.
 * To add a runtime, see src/agents/README.md ("Adding a runtime").
 */
import type { AgentLaunch } from "../../acp/types";
import type { AgentConfig, AgentRuntime } from "../../config/roster";
import type { SidekicksError } from "../../shared/errors";
import type { Confinement } from "../../workspace/confinement";
import type { SpawnPlanner } from "../../workspace/spawnPlanner";

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
  /** The git program agent worktrees are made with (default `git`, found on the PATH). */
  git?: string;
}

/** The roster's runtime types: `local`, `container`, `sbx`. */
export type RuntimeType = AgentRuntime["type"];

/**
 * Where one start of an agent works, prepared before its process spawns and kept by its entry until the next start
 * (one object per start: the agent's workspace is built once per place, compared by identity).
 */
export interface AgentPlace {
  /** Absolute host folder the process starts in (the roster's `workspace`, else the workspace folder). */
  readonly folder: string;
  /** The environment the process starts with. */
  readonly env: Record<string, string>;
  /** The session `cwd` given to the agent (ACP `session/new`, `session/load`), as the agent names paths. */
  readonly sessionCwd: string;
  /** The workspace roots: absolute host folders the agent's files (and, locally, its terminals) are confined to. */
  readonly roots: readonly string[];
  /**
   * The path mapping: a path the agent sent (`fs/*`) → the host path, before confinement. Absent: the agent's paths
   * are host paths.
   * @throws SidekicksError `workspace/outside` for a path the mapping does not cover
   */
  toHost?(agentPath: string): string;
  /**
   * The terminal planner: where the agent's `terminal/create` commands run, with `confinement` over {@link roots}.
   * Called when the agent's workspace is built.
   */
  terminalPlanner(confinement: Confinement): SpawnPlanner;
}

/**
 * How a runtime reaches an agent's git worktree (issue 20), read before the worktree is made or reused.
 */
export interface WorktreeAccess {
  /**
   * Whether the agent could work in the worktree whose top folder is `folder` (absolute, on this machine).
   * @throws SidekicksError `worktree/unavailable` with a sentence naming the folder and what to do, when it could not
   */
  check(folder: string): void;
  /**
   * The roster entry as the runtime then launches it, given the entry whose `workspace` is the agent's folder in its
   * worktree (a container runtime's `workdir` becomes that folder as the container names it).
   */
  place(agent: AgentConfig): AgentConfig;
}

/** One runtime: what the manager asks of it, in the order it asks. */
export interface Runtime<T extends RuntimeType = RuntimeType> {
  /** The roster's `agents[].runtime.type` it runs. */
  readonly type: T;
  /**
   * Refuses an agent this runtime cannot run, before anything starts (the agent goes to `error` with it).
   * @returns `agent/unsupported` with a sentence that says what to change in sidekicks.yaml, else undefined
   */
  refuse(agent: AgentConfig): SidekicksError | undefined;
  /**
   * For an agent with a git worktree, before it is made or reused: what decides whether the runtime reaches it (a
   * container's bind mounts). Absent: the worktree's folder is used as it is (the local runtime).
   * @throws SidekicksError `agent/spawn` when that cannot be read (a missing or stopped container), said plainly
   */
  worktreeAccess?(agent: AgentConfig, ctx: LaunchContext): Promise<WorktreeAccess>;
  /**
   * The process to spawn for the roster entry (`${env:…}` and `${workspaceFolder}` substituted).
   * @throws SidekicksError `agent/spawn` for settings that cannot make a command line
   */
  launch(agent: AgentConfig, ctx: LaunchContext): AgentLaunch;
  /**
   * Reads where the agent will work, just before `launch` spawns (a container's mounts and working directory).
   * @throws SidekicksError `agent/spawn` when that place is not there (a missing or stopped container), said plainly
   */
  prepare(agent: AgentConfig, launch: AgentLaunch): Promise<AgentPlace>;
}

/** `${workspaceFolder}` and `${env:NAME}` (empty when unset) substituted in one roster string. */
export function substitution(ctx: LaunchContext): (s: string) => string {
  return (s) =>
    s
      .replace(/\$\{workspaceFolder\}/g, ctx.workspaceFolder)
      .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => ctx.env[name] ?? "");
}

/** `env` without its unset entries, as a process environment. */
export function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
