/**
 * The editor's side of bringing an agent's worktree back (issue 20, "Bring it back"): "Sidekicks: Review Agent
 * Worktree Changes" opens the branch's changes against its base in VS Code's multi-file diff editor (`vscode.changes`;
 * the base's texts served read-only by {@link DiffDocuments}, the worktree's files on the right), and "Sidekicks:
 * Apply Agent Worktree…" asks how (merge, squash, rebase then fast-forward, or leave it as a branch), offers to commit
 * the agent's uncommitted work first (never dropped), and on conflicts opens the conflicted files in the merge editor and says how to abort.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { ApplyMode, ApplyOutcome, WorktreeBringBack } from "../agents/WorktreeBringBack";
import { compareAttempts } from "../workspace/worktreeCompare";
import { DIFF_HISTORY, type DiffDocuments } from "./DiffDocuments";
import { openMergeEditor } from "./mergeEditor";

/** Registers a command taking an agent (the `withAgent` of `agentCommands.ts`). */
type WithAgent<A> = (placeholder: string, run: (app: SidekicksApp, name: string) => Promise<unknown>) => (arg: A) => Promise<unknown>;

/**
 * Registers `sidekicks.reviewAgentWorktree`, `sidekicks.compareAgentWorktrees` and `sidekicks.applyAgentWorktree`
 * through `command` and `withAgent`.
 */
export function registerWorktreeCommands<A>(command: (id: string, run: (arg: A) => Promise<unknown>) => unknown, withAgent: WithAgent<A>, diffs: DiffDocuments): void {
  const bringBack = (app: SidekicksApp, name: string): WorktreeBringBack => {
    const it = app.agents.worktreeBringBack(name);
    if (!it) throw new Error(vscode.l10n.t("Agent {0} does not work in a worktree (workspace: worktree in sidekicks.yaml).", name));
    return it;
  };
  command("sidekicks.reviewAgentWorktree", withAgent(vscode.l10n.t("Review the worktree changes of which agent?"), (app, name) => review(bringBack(app, name), name, diffs)));
  command("sidekicks.compareAgentWorktrees", withAgent(vscode.l10n.t("Compare the worktree of which agent?"), (app, name) => compare(app, name, bringBack, diffs)));
  command("sidekicks.applyAgentWorktree", withAgent(vscode.l10n.t("Apply the worktree of which agent?"), (app, name) => apply(app, bringBack(app, name), name, diffs)));
}

/** Opens the branch's changes in the multi-file diff editor, titled with what they hold. */
async function review(it: WorktreeBringBack, name: string, diffs: DiffDocuments): Promise<void> {
  const { status, changes } = await it.changes();
  if (changes.files.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("Agent {0}'s branch {1} has no changes against {2}.", name, status.branch, status.base));
    return;
  }
  const what =
    changes.committed > 0 && changes.uncommitted > 0
      ? vscode.l10n.t("committed and uncommitted changes")
      : changes.uncommitted > 0
        ? vscode.l10n.t("uncommitted changes only")
        : vscode.l10n.t("committed changes");
  const title = vscode.l10n.t("@{0}: {1} against {2} ({3})", name, status.branch, status.base, what);
  const resources = changes.files.map((f) => {
    const { left, right } = diffs.keep(f.path, f.before ?? "", "", DIFF_HISTORY + changes.files.length);
    const file = vscode.Uri.file(f.path);
    return [file, left, f.status === "deleted" ? right : file];
  });
  await vscode.commands.executeCommand("vscode.changes", title, resources);
}

/**
 * Compare attempts (issue 20): the files agent `name` and another agent with a worktree (asked for when there are
 * several) leave different, side by side in the multi-file diff editor, `name`'s worktree on the left.
 */
async function compare(app: SidekicksApp, name: string, bringBack: (app: SidekicksApp, name: string) => WorktreeBringBack, diffs: DiffDocuments): Promise<void> {
  const others = app.agentSummaries().filter((a) => a.worktree !== undefined && a.name !== name);
  if (others.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No other agent works in a worktree to compare with {0}'s (workspace: worktree in sidekicks.yaml).", name));
    return;
  }
  const other =
    others.length === 1
      ? others[0]!.name
      : (await vscode.window.showQuickPick(
          others.map((a) => ({ label: a.name, detail: a.workspace })),
          { placeHolder: vscode.l10n.t("Compare @{0}'s worktree with which agent's?", name) },
        ))?.label;
  if (!other) return;
  const [a, b] = await Promise.all([bringBack(app, name).changes(), bringBack(app, other).changes()]);
  const differences = await compareAttempts({ worktree: a.status.path, changes: a.changes }, { worktree: b.status.path, changes: b.changes });
  if (differences.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("Agents {0} and {1} leave their worktrees the same: nothing to compare.", name, other));
    return;
  }
  const title = vscode.l10n.t("@{0} ({1}) ↔ @{2} ({3})", name, a.status.branch, other, b.status.branch);
  // Both sides of a file share one path that names the two agents (`/@alpha ↔ @beta/notes.md`), and differ only in
  // which text they serve: the multi-file diff editor then shows each file as "notes.md  @alpha ↔ @beta", not as a
  // rename from one worktree's path to the other's (its header compares the two sides' paths).
  const sides = `@${name} ↔ @${other}`;
  const read = (file: string | null) => (file ? readFile(file, "utf8").catch(() => "") : Promise.resolve(""));
  const resources = await Promise.all(
    differences.map(async (d) => {
      const { left, right } = diffs.keep(path.join(path.sep, sides, d.relative), await read(d.left), await read(d.right), DIFF_HISTORY + differences.length);
      return [right, left, right];
    }),
  );
  await vscode.commands.executeCommand("vscode.changes", title, resources);
}

/** Asks how to apply, commits the agent's uncommitted work first when the user agrees, and says what happened. */
async function apply(app: SidekicksApp, it: WorktreeBringBack, name: string, diffs: DiffDocuments): Promise<void> {
  const status = await it.status();
  type Item = vscode.QuickPickItem & { mode: ApplyMode | "branch" | "answer" };
  const items: Item[] = [
    { label: vscode.l10n.t("Merge"), detail: vscode.l10n.t("git merge --no-ff: a merge commit on your current branch."), mode: "merge" },
    { label: vscode.l10n.t("Squash"), detail: vscode.l10n.t("git merge --squash: the changes staged on your current branch, for you to commit."), mode: "squash" },
    { label: vscode.l10n.t("Rebase, then fast-forward"), detail: vscode.l10n.t("The agent's branch rebased on your current branch in its worktree, then your branch fast-forwarded: no merge commit."), mode: "rebase" },
    { label: vscode.l10n.t("Leave as a branch"), detail: vscode.l10n.t("Change nothing: push {0} and open a pull request.", status.branch), mode: "branch" },
    { label: vscode.l10n.t("One answer only…"), detail: vscode.l10n.t("One of @{0}'s answers brought into your folder, file by file (git merge-file); conflicts in the merge editor. No commit, no branch.", name), mode: "answer" },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("Apply @{0}'s branch {1} ({2} ahead, {3} behind {4})", name, status.branch, status.ahead, status.behind, status.base),
    placeHolder: vscode.l10n.t("How should the agent's work come into {0}?", status.repository),
  });
  if (!picked) return;
  if (picked.mode === "answer") return applyOneAnswer(app, name);
  // What would refuse the apply on the user's side is said before anything is committed on the agent's branch.
  if (picked.mode !== "branch") await it.checkApply(picked.mode);
  // The agent's uncommitted work comes along only once committed on its branch: offered whatever the choice (a branch
  // left for a pull request without it would lack it), required for the others.
  const committed = status.uncommitted.length === 0 || (await commitFirst(it, name, status));
  if (picked.mode === "branch") {
    const hint = `git push -u origin ${status.branch}`;
    await vscode.env.clipboard.writeText(hint);
    void vscode.window.showInformationMessage(
      committed
        ? vscode.l10n.t("Agent {0}'s work stays on the branch {1}. Copied to the clipboard: {2}", name, status.branch, hint)
        : status.uncommitted.length === 1
          ? vscode.l10n.t("Agent {0}'s work stays on the branch {1}, without its uncommitted change (it stays in its worktree). Copied to the clipboard: {2}", name, status.branch, hint)
          : vscode.l10n.t("Agent {0}'s work stays on the branch {1}, without its {2} uncommitted changes (they stay in its worktree). Copied to the clipboard: {3}", name, status.branch, status.uncommitted.length, hint),
    );
    return;
  }
  if (!committed) return;
  await said(await it.apply(picked.mode), name, status.branch, it, diffs);
}

/**
 * "One answer only…" (issue 20, "Per turn too"): the user picks one of the agent's latest answers that changed files,
 * and it is applied to the user's folder (`SidekicksApp.applyAnswer`: clean merges written, each conflict asked).
 */
async function applyOneAnswer(app: SidekicksApp, name: string): Promise<void> {
  const answers = await app.answersWithFiles(name);
  if (answers.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No recent answer of agent {0} changed files, so there is no answer to apply.", name));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    answers.map((a) => ({
      label: a.preview || vscode.l10n.t("(an answer without text)"),
      description: a.files === 1 ? vscode.l10n.t("{0} · 1 file", where(a.channel)) : vscode.l10n.t("{0} · {1} files", where(a.channel), a.files),
      detail: new Date(a.at).toLocaleString(),
      messageId: a.messageId,
    })),
    { title: vscode.l10n.t("Apply one answer of @{0} to your folder", name), placeHolder: vscode.l10n.t("Which answer? Its changed files are merged into yours, file by file.") },
  );
  if (!picked) return;
  await saidOfAnswer(await app.applyAnswer(picked.messageId), name);
}

/** A channel's name as the view shows it: `#general`, or `@agent` for a direct conversation. */
const where = (channel: string): string => (channel.startsWith("@") ? channel : `#${channel}`);

/** Says what applying one answer did (the files card says it in the view; a command says it here). */
async function saidOfAnswer(r: Awaited<ReturnType<SidekicksApp["applyAnswer"]>>, name: string): Promise<void> {
  const parts = [vscode.l10n.t("{0} files applied", r.applied)];
  if (r.same > 0) parts.push(vscode.l10n.t("{0} already as the answer left them", r.same));
  if (r.opened > 0) parts.push(vscode.l10n.t("{0} opened in the merge editor: complete the merge there", r.opened));
  if (r.skipped > 0) parts.push(r.unsaved > 0 ? vscode.l10n.t("{0} left as they are ({1} with unsaved edits: save or revert them, then apply again)", r.skipped, r.unsaved) : vscode.l10n.t("{0} left as they are", r.skipped));
  const words = vscode.l10n.t("Agent {0}'s answer in your folder: {1}.", name, parts.join("; "));
  if (r.skipped > 0) void vscode.window.showWarningMessage(words);
  else void vscode.window.showInformationMessage(words);
}

/** Offers to commit the agent's uncommitted work on its branch (a modal naming the files, then the message). */
async function commitFirst(it: WorktreeBringBack, name: string, status: { uncommitted: readonly string[]; branch: string }): Promise<boolean> {
  const commit = vscode.l10n.t("Commit Them First");
  const choice = await vscode.window.showWarningMessage(
    status.uncommitted.length === 1
      ? vscode.l10n.t("Agent {0}'s worktree has 1 uncommitted change. Commit it on its branch {1} first, so it comes along?", name, status.branch)
      : vscode.l10n.t("Agent {0}'s worktree has {1} uncommitted changes. Commit them on its branch {2} first, so they come along?", name, status.uncommitted.length, status.branch),
    { modal: true, detail: status.uncommitted.join("\n") },
    commit,
  );
  if (choice !== commit) return false;
  const message = await vscode.window.showInputBox({
    title: vscode.l10n.t("Commit message for agent {0}'s work", name),
    value: vscode.l10n.t("Work of agent {0}", name),
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t("A commit needs a message.")),
  });
  if (!message) return false;
  await it.commitWork(message);
  return true;
}

/**
 * Opens a file a branch apply left conflicted in VS Code's merge editor: the merge-base's, the current branch's and the
 * agent's texts (git's stages 1, 2, 3), the file itself (with git's markers) as the result.
 */
async function openConflict(it: WorktreeBringBack, folder: string, file: string, into: string, name: string, diffs: DiffDocuments): Promise<void> {
  const sides = await it.conflictSides(folder, file).catch(() => undefined);
  if (!sides) {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false, preserveFocus: true });
    return;
  }
  await openMergeEditor(diffs, { file, base: sides.base ?? "", ours: sides.ours ?? "", oursTitle: into, theirs: sides.theirs ?? "", theirsTitle: `@${name}` });
}

/** Says what an apply did; on conflicts opens the conflicted files in the merge editor and says how to abort. */
async function said(out: ApplyOutcome, name: string, branch: string, it: WorktreeBringBack, diffs: DiffDocuments): Promise<void> {
  if (out.kind === "upToDate") {
    void vscode.window.showInformationMessage(vscode.l10n.t("{0} already has everything on agent {1}'s branch {2}.", out.into, name, branch));
  } else if (out.kind === "applied") {
    const done =
      out.mode === "squash"
        ? out.files.length === 1
          ? vscode.l10n.t("Agent {0}'s branch {1} is squashed into {2}: 1 file staged. Review it in Source Control and commit.", name, branch, out.into)
          : vscode.l10n.t("Agent {0}'s branch {1} is squashed into {2}: {3} files staged. Review them in Source Control and commit.", name, branch, out.into, out.files.length)
        : out.files.length === 1
          ? vscode.l10n.t("Agent {0}'s branch {1} is applied to {2}: 1 file changed.", name, branch, out.into)
          : vscode.l10n.t("Agent {0}'s branch {1} is applied to {2}: {3} files changed.", name, branch, out.into, out.files.length);
    void vscode.window.showInformationMessage(done);
  } else {
    for (const file of out.files.slice(0, 10)) await openConflict(it, out.folder, file, out.into, name, diffs);
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        "Applying agent {0}'s branch {1} stopped on conflicts in {2} files ({3}). Resolve them (Resolve in Merge Editor, from the file or Source Control) and commit; or undo the attempt: {4} in {5}.",
        name,
        branch,
        out.files.length,
        out.files.map((f) => vscode.workspace.asRelativePath(f)).slice(0, 5).join(", "),
        out.abort,
        out.folder,
      ),
    );
  }
}
