/**
 * The runtimes, by the roster's runtime type: the one table a new runtime joins (src/agents/README.md, "Adding a
 * runtime"). The compiler requires an entry for every type `agents[].runtime` can have.
 */
import type { AgentConfig } from "../../config/roster";
import { containerRuntime } from "./container";
import { localRuntime } from "./local";
import type { Runtime, RuntimeType } from "./Runtime";
import { sbxRuntime } from "./sbx";

export type { AgentPlace, LaunchContext, Runtime, RuntimeType } from "./Runtime";
export { DEMO_COMMAND } from "./Runtime";
export { placeInWorktree, removeAgentWorktree, statusOfWorktree, type AgentWorktree, type WorktreeStatus } from "./worktree";

const RUNTIMES: { readonly [T in RuntimeType]: Runtime<T> } = { local: localRuntime, container: containerRuntime, sbx: sbxRuntime };

/** The runtime of a roster entry (`agents[].runtime.type`; absent means `local`). */
export function runtimeFor(agent: AgentConfig): Runtime {
  return RUNTIMES[agent.runtime?.type ?? "local"];
}
