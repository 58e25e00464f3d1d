/**
 * The worktree step of the agent-runtime interface (issue 20): an agent whose roster `workspace` is a git worktree
 * (`agents[].workspace.worktree`, or a channel's `worktree`) gets it made or found just before its runtime launches
 * it, and the runtime then sees an ordinary `workspace` — the worktree's folder — so the session `cwd`, the
 * confinement roots, terminals, watchers and turn snapshots all act there and nowhere else. The runtime's own
 * `refuse` speaks first; a runtime that cannot reach every folder (a container reaches its bind mounts) checks the
 * worktree's folder before it is made (`Runtime.worktreeAccess`).
 * The git mechanics are `src/workspace/worktrees.ts`'s.
 */
import * as l10n from "@vscode/l10n";
import type { AgentConfig } from "../../config/roster";
import { SidekicksError } from "../../shared/errors";
import { ensureWorktree, MIN_GIT_VERSION, removeWorktree, WorktreeProblem, worktreeStatus, type AgentWorktree, type WorktreeSpec, type WorktreeStatus } from "../../workspace/worktrees";
import type { LaunchContext, WorktreeAccess } from "./Runtime";

export type { AgentWorktree, WorktreeStatus } from "../../workspace/worktrees";

/** Where to find the agent's worktree (the roster's keys, its name, the workspace folder); undefined without one. */
export function specOf(agent: AgentConfig, ctx: LaunchContext, access?: WorktreeAccess): WorktreeSpec | undefined {
  return agent.worktree
    ? { agent: agent.name, config: agent.worktree, workspaceFolder: ctx.workspaceFolder, ...(ctx.git ? { git: ctx.git } : {}), ...(access ? { check: (folder: string) => access.check(folder) } : {}) }
    : undefined;
}

/**
 * The roster entry as its runtime launches it: unchanged without a worktree; else with `workspace` set to the
 * agent's folder in its worktree, made on the first start (`git worktree add`) and reused after (a reload too). With
 * `access` (the runtime's), the worktree's folder is checked before it is made or reused, and the entry is then
 * placed by `access.place`.
 * @returns the entry to launch and the worktree, if any
 * @throws SidekicksError `worktree/unavailable` with a sentence saying what to do (see `ensureWorktree`, and
 *   `access.check`)
 */
export async function placeInWorktree(agent: AgentConfig, ctx: LaunchContext, access?: WorktreeAccess): Promise<{ agent: AgentConfig; worktree?: AgentWorktree }> {
  const spec = specOf(agent, ctx, access);
  if (!spec) return { agent };
  const worktree = await ensureWorktree(spec).catch(said(agent.name));
  const placed = { ...agent, workspace: worktree.cwd };
  return { agent: access ? access.place(placed) : placed, worktree };
}

/** The agent's worktree with its branch, ahead/behind its base and uncommitted paths; undefined without one made. */
export function statusOfWorktree(agent: AgentConfig, ctx: LaunchContext): Promise<WorktreeStatus | undefined> {
  const spec = specOf(agent, ctx);
  return spec ? worktreeStatus(spec).catch(said(agent.name)) : Promise.resolve(undefined);
}

/**
 * Removes the agent's worktree (its branch stays).
 * @throws SidekicksError `worktree/dirty` when it holds uncommitted work and `force` is not set
 */
export function removeAgentWorktree(agent: AgentConfig, ctx: LaunchContext, force: boolean): Promise<{ path: string; branch: string | undefined } | undefined> {
  const spec = specOf(agent, ctx);
  return spec ? removeWorktree(spec, force).catch(said(agent.name)) : Promise.resolve(undefined);
}

/** Rethrows a worktree problem as a sentence that says what happened and what to do (other errors unchanged). */
function said(agent: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof WorktreeProblem) throw new SidekicksError("worktree/unavailable", sentence(agent, err), err.detail, { cause: err });
    if (err instanceof SidekicksError && err.code === "worktree/dirty") {
      const count = err.detail?.split("\n").length ?? 0;
      const words = count === 1 ? l10n.t("Agent {0}'s worktree has 1 uncommitted change.", agent) : l10n.t("Agent {0}'s worktree has {1} uncommitted changes.", agent, count);
      throw new SidekicksError("worktree/dirty", words, err.detail, { cause: err });
    }
    throw err;
  };
}

function sentence(agent: string, p: WorktreeProblem): string {
  const f = p.facts;
  const why = f.reason ? ` (${f.reason})` : "";
  switch (p.kind) {
    case "gitMissing":
      return l10n.t('Git was not found ("{0}"): agent {1} works in a git worktree, which needs git {2} or later. Install git, or remove worktree from sidekicks.yaml.', f.program!, agent, MIN_GIT_VERSION.join("."));
    case "gitOld":
      return l10n.t("{0} is too old for agent {1}'s worktree: git {2} or later is needed. Update git, or remove worktree from sidekicks.yaml.", f.version!, agent, MIN_GIT_VERSION.join("."));
    case "folderGone":
      return l10n.t("The folder {0} is gone: agent {1}'s worktree is made from its git repository. Open an existing folder.", f.folder!, agent);
    case "notRepository":
      return l10n.t('{0} is not in a git repository, so agent {1} cannot have a worktree. Run "git init" and make a first commit, or remove worktree from sidekicks.yaml.', f.folder!, agent);
    case "noCommits":
      return l10n.t("The repository {0} has no commits yet, so agent {1}'s worktree has nothing to start from. Make a first commit, then try again.", f.repository!, agent);
    case "rootInside":
      return l10n.t("Agent {0}'s worktree would be inside the repository ({1}). Set worktree.root in sidekicks.yaml to a folder outside it.", agent, f.path!);
    case "lockedMissing":
      return l10n.t('Agent {0}\'s worktree {1} is locked{2} and its folder is missing. Bring the folder back, or unlock it (git worktree unlock "{1}") and remove it.', agent, f.path!, why);
    case "vanished":
      return l10n.t('Agent {0}\'s worktree folder {1} is gone, though git still lists it. Run "Sidekicks: Remove Agent Worktree" (its branch {2} is kept), then try again.', agent, f.path!, f.branch!);
    case "inTheWay":
      return l10n.t("{0} already exists and is not a worktree of {1}, so agent {2}'s worktree cannot go there. Move that folder away, or set worktree.root in sidekicks.yaml.", f.path!, f.repository!, agent);
    case "folderNotInBase":
      return l10n.t('The workspace folder {0} is not in {1} of the git repository {2} (git ignores it, or it was never committed), so a worktree of that repository would not hold it: no worktree was made for agent {3}. Commit the folder, make it a repository of its own ("git init" and a first commit), or remove worktree from sidekicks.yaml.', f.folder!, f.base!, f.repository!, agent);
    case "badBranch":
      return l10n.t('"{0}" is not a valid branch name for agent {1}\'s worktree. Change worktree.branch in sidekicks.yaml.', f.branch!, agent);
    case "branchElsewhere":
      return f.reason !== undefined
        ? l10n.t("The branch {0} for agent {1} is checked out in {2}, a locked worktree{3}. Unlock that worktree and switch it to another branch, or change worktree.branch in sidekicks.yaml.", f.branch!, agent, f.holder!, why)
        : l10n.t("The branch {0} for agent {1} is checked out in {2}. Switch that worktree to another branch, or change worktree.branch in sidekicks.yaml.", f.branch!, agent, f.holder!);
    case "missingBase":
      return l10n.t('The base "{0}" of agent {1}\'s worktree is not a branch, tag or commit of {2}. Change worktree.base in sidekicks.yaml.', f.base!, agent, f.repository!);
    case "addFailed":
      return l10n.t("git could not make agent {0}'s worktree in {1}. See the details, fix the cause, then try again.", agent, f.path!);
    case "locked":
      return l10n.t('Agent {0}\'s worktree {1} is locked{2}, so Sidekicks leaves it. Unlock it (git worktree unlock "{1}"), then remove it again.', agent, f.path!, why);
    case "removeFailed":
      return l10n.t("git could not remove agent {0}'s worktree {1}. See the details.", agent, f.path!);
  }
}
