/**
 * The container runtime (`agents[].runtime: {type: container, container, user?, workdir?}`, issue 7): the agent runs
 * inside a named, running container through `docker exec -i`, with only the roster's `env` inside; before it starts,
 * `docker inspect` reads the container's bind mounts and working directory, so a missing or stopped container says
 * so plainly. The agent's paths are container paths, mapped to the host folders mounted there (and confined to
 * them); its terminals run in the container (`docker exec -it`). An agent with a git worktree (issue 20) works in
 * it when the worktree lies under one of the container's bind mounts (a running container cannot gain mounts), else
 * its start fails before the worktree is made, naming the folder to mount. The docker command lines and the path
 * mapping are `src/workspace/container.ts`'s.
 */
import * as l10n from "@vscode/l10n";
import { execFile } from "node:child_process";
import path from "node:path";
import type { AgentLaunch } from "../../acp/types";
import type { AgentConfig } from "../../config/roster";
import { SidekicksError } from "../../shared/errors";
import { realPathOrSame } from "../../workspace/confinement";
import { containerAgentLaunch, containerPlanner, ContainerPaths, dockerInspect, mountsFromInspect, type ContainerRuntime, type PathMount } from "../../workspace/container";
import { DEMO_COMMAND, definedEnv, substitution, type AgentPlace, type LaunchContext, type Runtime, type WorktreeAccess } from "./Runtime";

/** How long `docker inspect` may take, in ms. */
export const INSPECT_TIMEOUT_MS = 15_000;

/** The roster's container settings of `agent`. @throws Error when its runtime is not a container */
function settingsOf(agent: AgentConfig): Omit<ContainerRuntime, "type"> {
  if (agent.runtime?.type !== "container") throw new Error(`${agent.name} has no container runtime`);
  const { type: _type, ...settings } = agent.runtime;
  return settings;
}

/** The container runtime. */
export const containerRuntime: Runtime<"container"> = {
  type: "container",

  /**
   * Refuses the demo agent (a script of this extension, not a program in the container), and a `workdir` beside a
   * git worktree: the agent works in its worktree's folder, and the folder the user chose is not replaced silently.
   */
  refuse(agent: AgentConfig): SidekicksError | undefined {
    if (agent.worktree && agent.runtime?.type === "container" && agent.runtime.workdir !== undefined) {
      return new SidekicksError(
        "agent/unsupported",
        l10n.t(
          'Agent "{0}" has a git worktree and runtime.workdir ({1}): with a worktree it works in the worktree\'s folder, as the container names it. Remove runtime.workdir from sidekicks.yaml, or the worktree.',
          agent.name,
          agent.runtime.workdir,
        ),
      );
    }
    if (agent.command !== DEMO_COMMAND) return undefined;
    return new SidekicksError(
      "agent/unsupported",
      l10n.t(
        'Agent "{0}" is the demo agent (sidekicks:demo), which runs in VS Code, not in a container. Remove its runtime, or give it the command of an agent installed in the container.',
        agent.name,
      ),
    );
  },

  /**
   * A git worktree is reachable when its folder lies under one of the container's bind mounts (issue 20: a running
   * container cannot gain mounts, so the worktree root must be one already, or under one); the agent then starts in
   * the worktree's folder as the container names it (its `workdir`), and its files are confined to the worktree.
   * @throws SidekicksError `agent/spawn` as {@link prepare} for a missing or stopped container
   */
  async worktreeAccess(agent: AgentConfig, ctx: LaunchContext): Promise<WorktreeAccess> {
    const settings = settingsOf(agent);
    const { mounts } = await inspected(agent.name, settings.container, definedEnv(ctx.env));
    // Worktree folders are named with symbolic links resolved; so are the mounts' host folders here.
    const paths = new ContainerPaths(mounts.map((m) => ({ host: realPathOrSame(m.host), container: m.container })));
    return {
      check(folder) {
        if (paths.tryToContainer(folder) !== undefined) return;
        const root = path.dirname(folder);
        const mounted = mounts.length ? mounts.map((m) => `${m.host} → ${m.container}`).join(", ") : l10n.t("it mounts no folder");
        throw new SidekicksError(
          "worktree/unavailable",
          l10n.t(
            'Agent "{0}" runs in container "{1}", which does not mount its git worktree {2} ({3}). A running container cannot gain mounts: create it again with the worktree root mounted at the same path (docker run -v "{4}:{4}" …), or set worktree.root in sidekicks.yaml to a folder under one of its mounts.',
            agent.name,
            settings.container,
            folder,
            mounted,
            root,
          ),
        );
      },
      place(placed) {
        return { ...placed, runtime: { type: "container", ...settings, workdir: paths.toContainer(placed.workspace ?? ctx.workspaceFolder) } };
      },
    };
  },

  /**
   * `docker exec -i` of the command in the container, with only the roster's own variables inside; `docker` itself
   * runs with the editor's environment, in the agent's workspace folder on this machine.
   * @throws SidekicksError `agent/spawn` for a container name or workdir that cannot be one
   */
  launch(agent: AgentConfig, ctx: LaunchContext): AgentLaunch {
    const sub = substitution(ctx);
    const inside = Object.fromEntries(Object.entries(agent.env).map(([k, v]) => [k, sub(v)]));
    const cwd = agent.workspace ?? ctx.workspaceFolder;
    return containerAgentLaunch(settingsOf(agent), { command: sub(agent.command), args: agent.args.map(sub), env: inside }, ctx.env, cwd);
  },

  /**
   * `docker inspect` of the roster's container (with the launch's environment: its `PATH` finds the CLI): the session
   * `cwd` is the roster's `workdir`, else the container's working directory; the roots are the host folders of its
   * bind mounts.
   * @throws SidekicksError `agent/spawn` when docker is missing, the container does not exist or is not running
   */
  async prepare(agent: AgentConfig, launch: AgentLaunch): Promise<AgentPlace> {
    const settings = settingsOf(agent);
    const { workingDir, mounts } = await inspected(agent.name, settings.container, launch.env);
    const paths = new ContainerPaths(mounts);
    const { cwd: folder, env } = launch;
    return {
      folder,
      env,
      sessionCwd: settings.workdir ?? (workingDir || "/"),
      // In a worktree (issue 20) the agent's files are the worktree's, as for a local agent; else every mount's.
      roots: agent.worktree ? [folder] : mounts.map((m) => m.host),
      toHost: (p) => paths.toHost(p),
      terminalPlanner: () => containerPlanner(settings, { cwd: folder, env: { ...process.env, ...env }, paths }),
    };
  },
};

/**
 * The container's working directory and bind mounts, from `docker inspect`.
 * @throws SidekicksError `agent/spawn` when docker is missing, the container does not exist or is not running
 */
async function inspected(agent: string, container: string, env: Record<string, string>): Promise<{ workingDir: string | undefined; mounts: PathMount[] }> {
  const data = await inspect(agent, container, env);
  const first = (Array.isArray(data) ? data[0] : data) as { State?: { Running?: boolean }; Config?: { WorkingDir?: string } } | undefined;
  if (first?.State?.Running === false) {
    throw new SidekicksError("agent/spawn", l10n.t('Container "{0}" of agent "{1}" is not running. Start it (docker start {0}) and try again.', container, agent));
  }
  return { workingDir: first?.Config?.WorkingDir, mounts: mountsFromInspect(data) };
}


/** `docker inspect --type container`'s JSON. @throws SidekicksError `agent/spawn` (no docker, no such container, not JSON) */
async function inspect(agent: string, container: string, env: Record<string, string>): Promise<unknown> {
  const { command, args } = dockerInspect(container);
  const output = await new Promise<string>((resolve, reject) => {
    execFile(command, args, { env, timeout: INSPECT_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new SidekicksError(
          "agent/spawn",
          missing
            ? l10n.t('Agent "{0}" runs in container "{1}", but the docker command was not found. Install Docker (or put docker on the PATH VS Code sees).', agent, container)
            : l10n.t(
                'Agent "{0}" runs in container "{1}", which docker cannot find: {2}. Start it (docker start {1}) or fix runtime.container in sidekicks.yaml.',
                agent,
                container,
                (stderr || err.message).trim().split("\n")[0] ?? "",
              ),
        ),
      );
    });
  });
  try {
    return JSON.parse(output);
  } catch {
    throw new SidekicksError("agent/spawn", l10n.t("docker inspect {0} printed something that is not JSON.", container));
  }
}
