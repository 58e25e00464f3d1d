import * as l10n from "@vscode/l10n";
import { execFile } from "node:child_process";
import type { AgentConfig } from "../config/roster";
import { SidekicksError } from "../errors";
import { ContainerPaths, dockerInspect, mountsFromInspect, type ContainerRuntime } from "../workspace/container";

/** A container agent's place, read from `docker inspect` when it starts (issue 7, "Container runtime"). */
export interface ContainerPlace {
  runtime: Omit<ContainerRuntime, "type">;
  /** Host ⇄ container paths through the container's bind mounts. */
  paths: ContainerPaths;
  /** The session's `cwd`, a container path: the roster's `workdir`, else the container's working directory. */
  cwd: string;
  /** Host folders mounted into the container: the agent's files are confined to them. */
  hostRoots: string[];
}

/** How long `docker inspect` may take, in ms. */
export const INSPECT_TIMEOUT_MS = 15_000;

/**
 * Reads where a container agent runs: `docker inspect` of the roster's `runtime.container`, its bind mounts and
 * working directory. Run before the agent starts, so a missing or stopped container says so plainly.
 * @param env the environment `docker` runs with (its `PATH` finds the CLI)
 * @throws SidekicksError `agent/spawn` when docker is missing, the container does not exist or is not running
 */
export async function inspectContainer(agent: AgentConfig, env: Record<string, string>): Promise<ContainerPlace> {
  if (agent.runtime?.type !== "container") throw new Error(`${agent.name} has no container runtime`);
  const { type: _type, ...runtime } = agent.runtime;
  const { command, args } = dockerInspect(runtime.container);
  const output = await new Promise<string>((resolve, reject) => {
    execFile(command, args, { env, timeout: INSPECT_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new SidekicksError(
          "agent/spawn",
          missing
            ? l10n.t('Agent "{0}" runs in container "{1}", but the docker command was not found. Install Docker (or put docker on the PATH VS Code sees).', agent.name, runtime.container)
            : l10n.t(
                'Agent "{0}" runs in container "{1}", which docker cannot find: {2}. Start it (docker start {1}) or fix runtime.container in sidekicks.yaml.',
                agent.name,
                runtime.container,
                (stderr || err.message).trim().split("\n")[0] ?? "",
              ),
        ),
      );
    });
  });
  let data: unknown;
  try {
    data = JSON.parse(output);
  } catch {
    throw new SidekicksError("agent/spawn", l10n.t("docker inspect {0} printed something that is not JSON.", runtime.container));
  }
  const first = (Array.isArray(data) ? data[0] : data) as { State?: { Running?: boolean }; Config?: { WorkingDir?: string } } | undefined;
  if (first?.State?.Running === false) {
    throw new SidekicksError("agent/spawn", l10n.t('Container "{0}" of agent "{1}" is not running. Start it (docker start {0}) and try again.', runtime.container, agent.name));
  }
  const mounts = mountsFromInspect(data);
  return {
    runtime,
    paths: new ContainerPaths(mounts),
    cwd: runtime.workdir ?? (first?.Config?.WorkingDir || "/"),
    hostRoots: mounts.map((m) => m.host),
  };
}
