/**
 * An agent's worktree brought back (issue 20, "Bring it back"): its branch's changes against its base for review,
 * its uncommitted work committed on its branch, and the branch applied to the user's current branch in the main
 * worktree (merge, squash, rebase then fast-forward). The git mechanics are `src/workspace/worktreeApply.ts`'s; here
 * the agent's worktree is found from its roster entry and every refusal becomes a sentence saying what to do.
 */
import * as l10n from "@vscode/l10n";
import type { AgentConfig } from "../config/roster";
import { SidekicksError } from "../shared/errors";
import { applyTurn, type TurnApplyResult } from "../workspace/turnApply";
import type { ChangedFile } from "../workspace/turnFiles";
import { ApplyProblem, applyBranch, applyRefusal, branchChanges, commitWorktree, conflictSides, type ApplyMode, type ApplyOutcome, type BranchChanges } from "../workspace/worktreeApply";
import type { LaunchContext } from "./launch";
import { statusOfWorktree, type WorktreeStatus } from "./runtimes";

export type { ApplyMode, ApplyOutcome, BranchChange, BranchChanges, ConflictSides } from "../workspace/worktreeApply";
export type { TurnApplyResult, TurnConflict, TurnConflictKind, TurnSkipReason } from "../workspace/turnApply";

/** A few paths of a newline-separated list, comma-separated, with how many more. */
function somePaths(paths: string): string {
  const all = paths.split("\n").filter(Boolean);
  return all.length <= 5 ? all.join(", ") : l10n.t("{0} and {1} more", all.slice(0, 5).join(", "), all.length - 5);
}

/** One agent's worktree, to review and apply; made by `AgentManager.worktreeBringBack`. */
export class WorktreeBringBack {
  /**
   * @param busy true while the agent answers (its worktree is then moving: nothing is committed or applied)
   */
  constructor(
    private readonly agent: AgentConfig,
    private readonly ctx: LaunchContext,
    private readonly busy: () => boolean,
  ) {}

  /**
   * The worktree with its branch, base, distance and uncommitted paths.
   * @throws SidekicksError `worktree/unavailable` when it is not made yet (or git and the repository refuse), or on no branch
   */
  async status(): Promise<WorktreeStatus & { branch: string }> {
    const status = await statusOfWorktree(this.agent, this.ctx);
    const name = this.agent.name;
    if (!status) throw new SidekicksError("worktree/unavailable", l10n.t("Agent {0} has no worktree yet: it is made at its first turn (or by Open agent workspace as folder).", name));
    if (status.branch === undefined) {
      throw new SidekicksError("worktree/applyRefused", l10n.t("Agent {0}'s worktree {1} is on no branch (a detached HEAD, or a rebase under way). Finish or abort it there (git rebase --abort), then try again.", name, status.path));
    }
    return { ...status, branch: status.branch };
  }

  /**
   * The branch's changes against its base from their merge-base, committed and uncommitted (reads only; allowed
   * while the agent answers).
   * @throws SidekicksError as {@link status}; `worktree/applyRefused` when the branch shares no commit with its base
   */
  async changes(): Promise<{ status: WorktreeStatus & { branch: string }; changes: BranchChanges }> {
    const status = await this.status();
    const changes = await branchChanges(status.path, status.base, this.ctx.git).catch(this.said());
    return { status, changes };
  }

  /**
   * Commits the worktree's uncommitted work on the agent's branch (`git add -A`, `git commit -m message`).
   * @returns the new commit
   * @throws SidekicksError `worktree/unavailable` while the agent answers; `worktree/applyRefused` with nothing to
   *   commit; `worktree/applyFailed` when git refuses (no identity, a hook)
   */
  async commitWork(message: string): Promise<string> {
    this.refuseBusy();
    const status = await this.status();
    return commitWorktree(status.path, message, this.ctx.git).catch(this.said());
  }

  /**
   * Whether an apply in `mode` would be refused on the user's side (see `applyRefusal`), asked before the agent's
   * uncommitted work is committed for it, so nothing is committed for an apply that cannot happen.
   * @throws SidekicksError `worktree/applyRefused` (saying what to do), as {@link apply}
   */
  async checkApply(mode: ApplyMode): Promise<void> {
    this.refuseBusy();
    const status = await this.status();
    await applyRefusal({ repository: status.repository, worktree: status.path, branch: status.branch, mode, ...(this.ctx.git ? { git: this.ctx.git } : {}) }, status.uncommitted).catch(this.said());
  }

  /**
   * Applies the agent's branch to the user's current branch in the main worktree (see `applyBranch`).
   * @throws SidekicksError `worktree/dirty` (commit the agent's work first; its paths in `detail`),
   *   `worktree/applyRefused` (the user's uncommitted work in the way, an operation under way, the agent answering),
   *   `worktree/applyFailed` — each saying what to do
   */
  async apply(mode: ApplyMode): Promise<ApplyOutcome> {
    this.refuseBusy();
    const status = await this.status();
    const message = `Merge branch '${status.branch}' (work of agent ${this.agent.name})`;
    return applyBranch({ repository: status.repository, worktree: status.path, branch: status.branch, mode, message, ...(this.ctx.git ? { git: this.ctx.git } : {}) }).catch(this.said());
  }

  /**
   * Applies one turn of the agent (issue 20, "Per turn too"): `files`, its checkpoint (paths in the agent's worktree),
   * merged file by file into the user's folder — the main worktree — by `git merge-file` (see `applyTurn`). Clean
   * merges are written; conflicts come back unwritten; files with unsaved edits (`isUnsaved`) are left alone. Allowed
   * while the agent answers: it reads the checkpoint, not the worktree.
   * @throws SidekicksError `worktree/unavailable` when the worktree is not there (removed since, or never made)
   */
  async applyTurn(files: readonly ChangedFile[], isUnsaved?: (file: string) => boolean): Promise<TurnApplyResult & { into: string }> {
    const status = await statusOfWorktree(this.agent, this.ctx);
    if (!status) throw new SidekicksError("worktree/unavailable", l10n.t("Agent {0}'s worktree is gone, so where this answer's files were is not known. Review the answer's changes instead.", this.agent.name));
    const labels = [l10n.t("your folder"), l10n.t("before the answer"), `@${this.agent.name}`] as const;
    const result = await applyTurn({ files, worktree: status.path, into: status.repository, labels, ...(isUnsaved ? { isUnsaved } : {}) });
    return { ...result, into: status.repository };
  }

  /** The base, ours and theirs texts of a file an apply left conflicted in `folder` (for the merge editor). */
  conflictSides(folder: string, file: string): ReturnType<typeof conflictSides> {
    return conflictSides(folder, file, this.ctx.git);
  }

  private refuseBusy(): void {
    if (this.busy()) throw new SidekicksError("worktree/applyRefused", l10n.t('Agent "{0}" is answering in its worktree. Wait for its answer (or stop it), then try again.', this.agent.name));
  }

  /** Rethrows an apply problem as a sentence saying what happened and what to do (other errors unchanged). */
  private said(): (err: unknown) => never {
    const agent = this.agent.name;
    return (err) => {
      if (err instanceof SidekicksError && err.code === "worktree/dirty") {
        const count = err.detail?.split("\n").length ?? 0;
        const words = count === 1 ? l10n.t("Agent {0}'s worktree has 1 uncommitted change. Commit it on its branch first, so it comes along.", agent) : l10n.t("Agent {0}'s worktree has {1} uncommitted changes. Commit them on its branch first, so they come along.", agent, count);
        throw new SidekicksError("worktree/dirty", words, err.detail, { cause: err });
      }
      if (!(err instanceof ApplyProblem)) throw err;
      const f = err.facts;
      const words = (() => {
        switch (err.kind) {
          case "noMergeBase":
            return l10n.t("Agent {0}'s branch {1} shares no commit with its base {2}: there is nothing to compare it with. Change worktree.base in sidekicks.yaml.", agent, f.branch!, f.base!);
          case "mainStaged":
            return l10n.t("You have staged changes in {0} ({1}): applying agent {2}'s branch would mix them in. Commit them, or unstage them (git restore --staged .), then apply again.", f.repository!, somePaths(f.paths!), agent);
          case "mainDirty":
            return l10n.t("You have uncommitted changes in {0} to files agent {1}'s branch changes: {2}. Commit or stash them (git stash), then apply again; Sidekicks never writes over your uncommitted work.", f.repository!, agent, somePaths(f.paths!));
          case "inProgress":
            return l10n.t("A git {0} is under way in {1}. Finish it, or abort it (git {0} --abort), then apply again.", f.operation!, f.folder!);
          case "noIdentity":
            return l10n.t('git does not know who commits in {0}. Set it (git config user.name "Your Name" and git config user.email you@example.com), then try again.', f.folder!);
          case "nothingToCommit":
            return l10n.t("Agent {0}'s worktree has nothing uncommitted to commit.", agent);
          case "gitFailed":
            return l10n.t("git failed in {0} ({1}). See the details.", f.folder!, f.command!);
        }
      })();
      throw new SidekicksError(err.code, words, err.detail ?? f.paths, { cause: err });
    };
  }
}
