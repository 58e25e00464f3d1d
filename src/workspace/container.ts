/**
 * The container runtime (`agents[].runtime: {type: container, container, user?, workdir?}`): an agent, and the
 * terminals it asks for, run inside a named, running container through `docker exec`; paths the agent sends
 * (container paths) are mapped to the host folder mounted there before confinement and file access, and back.
 * `sbx` is refused ("not supported"). Command lines are argument arrays, never shell strings. No `vscode` import.
 *
 * Environment variables for the process inside the container come from two places, treated differently:
 * - the roster's `env` (the user's own, for the agent): `--env=NAME` with the value in the `docker` client's own
 *   environment (`DockerCommand.env`), so secrets such as API keys do not appear in the host's process list — except
 *   names the client or its loader read itself (`PATH`, `HOME`, `DOCKER_*`, `LD_*`, proxies…), passed by value so
 *   they do not change how `docker` runs on the host;
 * - the variables an agent asks for (`terminal/create`'s `env`, issue 17): only ever `--env=NAME=value` arguments.
 *   They never reach the host's `docker` process, so an `LD_PRELOAD`, `DOCKER_HOST` or `DOCKER_CONFIG` from an agent
 *   cannot run code in, or redirect, the client.
 * Every option is one argument in `--name=value` form and the command follows the container name, so no name, value,
 * command or path the agent or the roster gives, even one starting with `-`, can become an option of `docker`.
 */
import path from "node:path";
import type { AgentRuntime } from "../config/roster";
import { SidekicksError } from "../shared/errors";
import type { PlannedCommand, SpawnPlan, SpawnPlanner } from "./spawnPlanner";

/** The roster's container runtime (`agents[].runtime` with `type: container`). */
export type ContainerRuntime = Extract<AgentRuntime, { type: "container" }>;

/** Where an agent runs, once `sbx` is refused. */
export type WorkspaceRuntime = { kind: "local" } | ({ kind: "container" } & Omit<ContainerRuntime, "type">);

/**
 * Checks an agent's runtime.
 * @param agent the agent's name, for the message
 * @throws SidekicksError `agent/unsupported` for `sbx`
 */
export function workspaceRuntime(agent: string, runtime: AgentRuntime | undefined): WorkspaceRuntime {
  if (runtime === undefined || runtime.type === "local") return { kind: "local" };
  if (runtime.type === "sbx") {
    throw new SidekicksError(
      "agent/unsupported",
      `Agent "${agent}" uses runtime "sbx", which is not supported in VS Code. Use runtime "local", or a container (runtime: {type: container, container: <name>}) in sidekicks.yaml.`,
    );
  }
  const { type: _type, ...rest } = runtime;
  return { kind: "container", ...rest };
}

/** A program to start: `docker` and its arguments, plus variables to add to the `docker` client's environment. */
export interface DockerCommand {
  command: string;
  args: string[];
  /** Values of the variables named by `--env NAME` in `args`: merge them over the environment `docker` runs with. */
  env: Record<string, string>;
}

/** Options of {@link dockerExec}. */
export interface DockerExecOptions {
  /** Container name or ID (as `docker ps` shows it). */
  container: string;
  /** `--user`: a name or `uid:gid`. */
  user?: string;
  /** `--workdir`: absolute folder inside the container. */
  workdir?: string;
  /**
   * The roster's variables for the process inside the container (only these and {@link requestedEnv}: the host's
   * environment is not passed on); values travel in the `docker` client's environment.
   */
  env?: Record<string, string>;
  /** Variables an agent asked for (`terminal/create`): only as `--env=NAME=value` arguments, never the client's environment. */
  requestedEnv?: Record<string, string>;
  /** `-t`: allocate a TTY inside the container (terminals; the `docker` client must itself run on a pty). */
  tty?: boolean;
  /** The docker CLI; default `docker`. */
  docker?: string;
}

const CONTAINER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** A variable name `docker exec --env` accepts and that cannot read as an option: no `=`, no NUL, no leading `-`. */
const ENV_NAME = /^[^=\0-][^=\0]*$/;
/**
 * Variables the docker CLI (a Go program), its dynamic loader or libc read themselves: passed by value on the command
 * line instead of through its environment.
 */
const DOCKER_CLIENT_VARS =
  /^(PATH|HOME|USER|TMPDIR|SHELL|XDG_[A-Z_]+|DOCKER_[A-Z0-9_]*|LD_[A-Z0-9_]*|DYLD_[A-Z0-9_]*|GCONV_PATH|LOCPATH|NLSPATH|MALLOC_[A-Z0-9_]*|GLIBC_TUNABLES|GO[A-Z0-9_]*|SSL_CERT_(FILE|DIR)|HTTPS?_PROXY|NO_PROXY|ALL_PROXY|https?_proxy|no_proxy|all_proxy)$/;

/**
 * `docker exec -i [-t] [--user=U] [--workdir=W] [--env=NAME | --env=NAME=value]… CONTAINER COMMAND ARGS…` as an
 * argument array.
 * @throws SidekicksError `agent/spawn` for a container name that is not one (it would be read as an option), a
 *   relative workdir, a user or command starting with `-`, or an invalid variable name
 */
export function dockerExec(opts: DockerExecOptions, command: string, args: readonly string[] = []): DockerCommand {
  if (!CONTAINER_NAME.test(opts.container)) throw new SidekicksError("agent/spawn", `"${opts.container}" is not a container name or ID (as "docker ps" shows it).`);
  if (opts.workdir !== undefined && !path.posix.isAbsolute(opts.workdir)) throw new SidekicksError("agent/spawn", `The container workdir "${opts.workdir}" is not an absolute path.`);
  if (opts.user?.startsWith("-")) throw new SidekicksError("agent/spawn", `"${opts.user}" is not a user name or uid:gid.`);
  if (command === "" || command.startsWith("-")) throw new SidekicksError("agent/spawn", `"${command}" is not a command to run in the container.`);
  const out: string[] = ["exec", "-i"];
  if (opts.tty) out.push("-t");
  if (opts.user) out.push(`--user=${opts.user}`);
  if (opts.workdir) out.push(`--workdir=${opts.workdir}`);
  const env: Record<string, string> = {};
  const checkName = (name: string) => {
    if (!ENV_NAME.test(name)) throw new SidekicksError("agent/spawn", `Invalid environment variable name "${name}".`);
  };
  for (const [name, value] of Object.entries(opts.env ?? {})) {
    checkName(name);
    if (DOCKER_CLIENT_VARS.test(name)) out.push(`--env=${name}=${value}`);
    else {
      out.push(`--env=${name}`);
      env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(opts.requestedEnv ?? {})) {
    checkName(name);
    out.push(`--env=${name}=${value}`);
  }
  out.push(opts.container, command, ...args);
  return { command: opts.docker ?? "docker", args: out, env };
}

/** `docker inspect --type container CONTAINER` (its JSON goes to {@link mountsFromInspect}). */
export function dockerInspect(container: string, docker = "docker"): { command: string; args: string[] } {
  if (!CONTAINER_NAME.test(container)) throw new SidekicksError("agent/spawn", `"${container}" is not a container name or ID (as "docker ps" shows it).`);
  return { command: docker, args: ["inspect", "--type", "container", container] };
}

/** A host folder and where it is mounted in the container; both absolute. */
export interface PathMount {
  host: string;
  container: string;
}

/**
 * The bind mounts of a container, from `docker inspect` output (`[{Mounts: [{Type, Source, Destination}]}]`).
 * Volumes and tmpfs mounts have no host folder the editor can open and are left out.
 */
export function mountsFromInspect(json: string | unknown): PathMount[] {
  const data = typeof json === "string" ? (JSON.parse(json) as unknown) : json;
  const first = Array.isArray(data) ? (data[0] as unknown) : data;
  const mounts = (first as { Mounts?: { Type?: string; Source?: string; Destination?: string }[] } | undefined)?.Mounts ?? [];
  return mounts.filter((m) => m.Type === "bind" && m.Source && m.Destination).map((m) => ({ host: m.Source!, container: m.Destination! }));
}

/** Lexical normalization without a trailing separator, for `mod` (`path.posix` or the host's `path`). */
function norm(mod: path.PlatformPath, p: string): string {
  const n = mod.normalize(p);
  return n.length > 1 && n.endsWith(mod.sep) ? n.slice(0, -1) : n;
}

function under(mod: path.PlatformPath, parent: string, child: string): string | undefined {
  const rel = mod.relative(parent, child);
  if (rel === "") return "";
  if (rel === ".." || rel.startsWith(".." + mod.sep) || mod.isAbsolute(rel)) return undefined;
  return rel;
}

/**
 * Maps paths between the host and a container, through mounts (a host workspace folder mounted at the container's
 * workdir). The longest matching mount wins. Mapping is lexical (`..` is collapsed first, so `/workspace/../etc`
 * maps nowhere); symlinks are judged afterwards by confinement, on the host path.
 */
export class ContainerPaths {
  readonly mounts: readonly PathMount[];

  /**
   * @param mounts at least one; host paths absolute on this machine, container paths absolute POSIX paths
   * @param hostPath the host's path module (tests on POSIX pass `path.posix`; default the platform's)
   * @throws Error for a relative path in a mount
   */
  constructor(
    mounts: readonly PathMount[],
    private readonly hostPath: path.PlatformPath = path,
  ) {
    for (const m of mounts) {
      if (!hostPath.isAbsolute(m.host)) throw new Error(`Mount host path "${m.host}" is not absolute`);
      if (!path.posix.isAbsolute(m.container)) throw new Error(`Mount container path "${m.container}" is not absolute`);
    }
    this.mounts = mounts
      .map((m) => ({ host: norm(hostPath, m.host), container: norm(path.posix, m.container) }))
      .sort((a, b) => b.container.length - a.container.length);
  }

  /** The host path for a container path, or `undefined` when no mount holds it (or it is relative). */
  tryToHost(containerPath: string): string | undefined {
    if (!path.posix.isAbsolute(containerPath)) return undefined;
    const p = norm(path.posix, containerPath);
    for (const m of this.mounts) {
      const rel = under(path.posix, m.container, p);
      if (rel !== undefined) return rel === "" ? m.host : this.hostPath.join(m.host, ...rel.split("/"));
    }
    return undefined;
  }

  /** The container path for a host path, or `undefined` when no mount holds it (or it is relative). */
  tryToContainer(hostPath: string): string | undefined {
    if (!this.hostPath.isAbsolute(hostPath)) return undefined;
    const p = norm(this.hostPath, hostPath);
    const byHost = [...this.mounts].sort((a, b) => b.host.length - a.host.length);
    for (const m of byHost) {
      const rel = under(this.hostPath, m.host, p);
      if (rel !== undefined) return rel === "" ? m.container : path.posix.join(m.container, ...rel.split(this.hostPath.sep));
    }
    return undefined;
  }

  /**
   * The host path for a path the agent sent (`fs/*`).
   * @throws SidekicksError `workspace/outside` when it is not inside a mounted folder
   */
  toHost(containerPath: string): string {
    const p = this.tryToHost(containerPath);
    if (p === undefined) throw new SidekicksError("workspace/outside", `Refused "${containerPath}": it is not inside a folder mounted from this machine (${this.describe()}).`);
    return p;
  }

  /**
   * The container path for a host path (a file the editor opened, a diff to show the agent).
   * @throws SidekicksError `workspace/outside` when no mount holds it
   */
  toContainer(hostPath: string): string {
    const p = this.tryToContainer(hostPath);
    if (p === undefined) throw new SidekicksError("workspace/outside", `"${hostPath}" is not in a folder mounted into the container (${this.describe()}).`);
    return p;
  }

  private describe(): string {
    return this.mounts.length ? this.mounts.map((m) => `${m.host} → ${m.container}`).join(", ") : "no folders are mounted";
  }
}

/**
 * The agent process for a container runtime: `docker exec -i` of the agent's command in the container, as an
 * `AgentLaunch`-shaped value (`{command, args, env, cwd}`).
 * @param agent the resolved command, args, and the roster's `env` only (not merged with the editor's environment:
 *   only these variables go into the container)
 * @param hostEnv the environment `docker` itself runs with (`process.env`)
 * @param hostCwd where `docker` runs on the host (the workspace folder)
 */
export function containerAgentLaunch(
  runtime: Omit<ContainerRuntime, "type">,
  agent: { command: string; args: readonly string[]; env: Record<string, string> },
  hostEnv: NodeJS.ProcessEnv,
  hostCwd: string,
): { command: string; args: string[]; env: Record<string, string>; cwd: string } {
  const exec = dockerExec({ container: runtime.container, user: runtime.user, workdir: runtime.workdir, env: agent.env }, agent.command, agent.args);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(hostEnv)) if (v !== undefined) env[k] = v;
  return { command: exec.command, args: exec.args, env: { ...env, ...exec.env }, cwd: hostCwd };
}

/**
 * A terminal planner that runs `terminal/create` commands inside the container with `docker exec -i -t`: the
 * requested `cwd` (a container path) becomes `--workdir` (default: the runtime's workdir), the requested `env`
 * goes into the container as `--env=NAME=value` arguments only (never the host `docker` client's environment). With
 * `paths`, a `cwd` outside the mounted folders is refused.
 * @throws SidekicksError `workspace/outside` for a relative `cwd` or one no mount holds (when `paths` is given)
 */
export function containerPlanner(
  runtime: Omit<ContainerRuntime, "type">,
  host: { cwd: string; env?: NodeJS.ProcessEnv; paths?: ContainerPaths; docker?: string },
): SpawnPlanner {
  return (cmd: PlannedCommand): SpawnPlan => {
    if (cmd.cwd !== undefined) {
      if (!path.posix.isAbsolute(cmd.cwd)) throw new SidekicksError("workspace/outside", `Refused terminal cwd "${cmd.cwd}": it is a relative path; ACP requires an absolute one.`);
      host.paths?.toHost(cmd.cwd);
    }
    const exec = dockerExec(
      { container: runtime.container, user: runtime.user, workdir: cmd.cwd ?? runtime.workdir, requestedEnv: cmd.env, tty: true, docker: host.docker },
      cmd.command,
      cmd.args,
    );
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(host.env ?? process.env)) if (v !== undefined) env[k] = v;
    // The client runs with the host's environment only: what the agent asked for is in `exec.args`.
    return { file: exec.command, args: exec.args, cwd: host.cwd, env };
  };
}
