/**
 * A git worktree per agent (issue 20) in a real editor: the test workspace is made a git repository (real git, one
 * commit of shared.txt on `main`), and two scripted fake agents (test/fixtures/fake-agent.mjs, real subprocesses),
 * each declared with `workspace: { worktree: … }`, get one message together. Each appends its own line to shared.txt
 * in its own worktree and waits until the other has written its line, so both edit the same file at the same time.
 * Then: each worktree holds only its own edit and the user's shared.txt is untouched; each agent's review opens in
 * the multi-file diff editor, and the two compared side by side (Compare Agent Worktrees); each agent's work is committed on its branch in its worktree (git, as the user would: the
 * apply command's "Commit Them First" is a modal dialog, which VS Code cancels in extension tests); alpha is applied
 * (Merge) and the user's shared.txt gets its line; beta is left as a branch (its commit stays on sidekicks/beta) and
 * the user's file does not get its line; then beta merged after all stops on the conflict and opens the user's
 * file in VS Code's merge editor. One answer applied on its own too ("Per turn too", from the answer's files card):
 * alpha's merges cleanly into the user's file; beta's then overlaps, is asked about, and opens in the merge editor with
 * nothing written; from the Apply command's "One answer only…", beta's answer skipped. Screenshots `worktrees-review-alpha`, `worktrees-review-beta`, `worktrees-compare`,
 * `worktrees-answer-applied`, `worktrees-answer-conflict`, `worktrees-answer-merge-editor`, `worktrees-applied`,
 * `worktrees-merge-editor`.
 * The worktree suite (`--suite worktrees`, worktreesIndex.ts): puts the roster back and removes the repository and the
 * worktrees afterwards.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { screenshot, typeInWorkbench, workbenchVisible } from "./harness";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  turnsSnapshotted(): Promise<void>;
}

const FIRST = "the user's first line\n";
const line = (agent: string) => `${agent} was here\n`;

describe("a git worktree per agent: two agents edit one file side by side; one applied, one left as a branch", function () {
  this.timeout(120_000);
  const kept = keptRoster<SidekicksTestApi>();
  let folder = "";
  let root = "";
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
  const userFile = () => readFileSync(path.join(folder, "shared.txt"), "utf8");
  const text = async (selector: string) => (await kept.api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await kept.api.webview("test/attribute", { selector, name })).text;
  const tabLabels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
  /** A merge editor's tab input's result (TabInputTextMerge: base, input1, input2, result; newer than this @types/vscode). */
  const mergeInput = (t: vscode.Tab) => {
    const input = t.input as { base?: unknown; input1?: unknown; result?: unknown } | undefined;
    return input?.base instanceof vscode.Uri && input.input1 instanceof vscode.Uri && input.result instanceof vscode.Uri ? input.result : undefined;
  };

  before(() => {
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sidekicks-it-worktrees-")));
    git(folder, "init", "-q");
    git(folder, "symbolic-ref", "HEAD", "refs/heads/main");
    git(folder, "config", "user.name", "Sidekicks Test");
    git(folder, "config", "user.email", "test@sidekicks.invalid");
    writeFileSync(path.join(folder, "shared.txt"), FIRST);
    git(folder, "add", "shared.txt");
    git(folder, "commit", "-q", "-m", "first");
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    // The roster is put back first (keptRoster's hook), which stops both agents; then the repository goes.
    for (const agent of ["alpha", "beta"]) {
      try {
        git(folder, "worktree", "remove", "--force", path.join(root, agent));
      } catch {
        // not made (a failed run): nothing to remove
      }
    }
    rmSync(root, { recursive: true, force: true });
    rmSync(path.join(folder, ".git"), { recursive: true, force: true });
    rmSync(path.join(folder, "shared.txt"), { force: true });
  });

  it("each worktree holds its own edit, the user's file neither; both reviewed and compared; alpha merged, beta left on its branch, then merged into a conflict shown in the merge editor", async () => {
    const other = { alpha: "beta", beta: "alpha" } as const;
    const entry = (agent: "alpha" | "beta") => {
      const script = {
        prompt: [
          // The turn's snapshot first (in git the prompt does not wait for it; under load an agent that writes at
          // once beat it twice, and the answer's file had no earlier text): the test writes the go file after it.
          { chunk: "starting. " },
          { untilFile: { path: path.join(root, "go"), includes: "go" } },
          { appendFile: { path: "shared.txt", text: line(agent) } },
          // Both at work at once: each waits for the other's line in the other's worktree.
          { untilFile: { path: path.join(root, other[agent], "shared.txt"), includes: line(other[agent]) } },
          { chunk: `${agent} wrote its line` },
        ],
      };
      const lines = fakeAgentEntry(agent, script, kept.extensionPath);
      return [...lines.slice(0, -1), "    workspace:", "      worktree:", "        base: main", `        root: ${JSON.stringify(root)}`, ""];
    };
    await kept.write(["# Two scripted fake agents, each in a git worktree of its own.", "agents:", ...entry("alpha"), ...entry("beta")]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show alpha and beta", async () => ((await text(".channel-header"))?.match(/alpha|beta/g)?.length ?? 0) >= 2 || undefined);

    assert.equal((await kept.api.webview("test/compose", { text: "@alpha @beta add your line to shared.txt" })).sent, true);
    const started = async (n: number) => (await text(`.history > .message:nth-last-child(${n}) .message-body`))?.includes("starting.");
    await poll("both agents at work", async () => ((await started(1)) && (await started(2))) || undefined, 60_000);
    await kept.api.turnsSnapshotted();
    writeFileSync(path.join(root, "go"), "go");
    const finished = async (n: number) => (await attribute(`.history > .message:nth-last-child(${n})`, "data-author")) === "agent" && (await attribute(`.history > .message:nth-last-child(${n})`, "data-status")) === "done";
    await poll("both answers, finished", async () => ((await finished(1)) && (await finished(2))) || undefined, 60_000);

    // On disk: each worktree has its own edit only; the user's folder is untouched.
    assert.equal(readFileSync(path.join(root, "alpha", "shared.txt"), "utf8"), FIRST + line("alpha"));
    assert.equal(readFileSync(path.join(root, "beta", "shared.txt"), "utf8"), FIRST + line("beta"));
    assert.equal(userFile(), FIRST, "the user's shared.txt is untouched");
    assert.equal(git(folder, "status", "--porcelain", "--", "shared.txt"), "");
    assert.equal(git(path.join(root, "alpha"), "rev-parse", "--abbrev-ref", "HEAD").trim(), "sidekicks/alpha");

    // Both reviewed: the multi-file diff editor opens on each branch's changes against main.
    for (const agent of ["alpha", "beta"]) {
      await vscode.commands.executeCommand("sidekicks.reviewAgentWorktree", agent);
      const title = `@${agent}: sidekicks/${agent} against main`;
      await poll(`the review tab ${title}`, () => tabLabels().find((l) => l.startsWith(title)));
      await workbenchVisible(".multiDiffEditor .monaco-editor .view-lines");
      await screenshot(`worktrees-review-${agent}`);
    }

    // Compare attempts: the one file the two leave different, alpha's version beside beta's, the file's header naming
    // both agents — not a rename from one worktree's path to the other's (an earlier screen showed "R", alpha struck through).
    await vscode.commands.executeCommand("sidekicks.compareAgentWorktrees", "alpha");
    await poll("the comparison tab", () => tabLabels().find((l) => l.startsWith("@alpha (sidekicks/alpha) ↔ @beta (sidekicks/beta)")));
    await workbenchVisible(".multiDiffEditor .monaco-editor .view-lines");
    await workbenchVisible(".multiDiffEditor .file-path:has(.status:not(.renamed)):has-text('shared.txt'):has-text('@alpha ↔ @beta')");
    await screenshot("worktrees-compare");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");

    // One answer applied to the user's folder (issue 20, "Per turn too"), from its files card: alpha's merges cleanly.
    const applyButton = (agent: string) => `.message:has(.files-item[data-path='${path.join(root, agent, "shared.txt")}']) button.files-apply-folder`;
    assert.equal((await kept.api.webview("test/click", { selector: applyButton("alpha") })).clicked, true, "alpha's card offers Apply to my folder");
    await poll("alpha's line in the user's file", () => (userFile() === FIRST + line("alpha") ? true : undefined));
    await poll("the card's note", async () => /Applied to your folder: 1 file\./.test((await text(".action-note")) ?? "") || undefined);
    await screenshot("worktrees-answer-applied", "sidebar");
    // beta's answer then overlaps (both added a line at the same place): asked, opened in the merge editor, nothing written.
    assert.equal((await kept.api.webview("test/click", { selector: applyButton("beta") })).clicked, true);
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('shared.txt conflicts with your folder')");
    await screenshot("worktrees-answer-conflict");
    await typeInWorkbench("Open in the merge editor");
    const answerMerge = await poll("a merge editor tab for beta's answer", () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map(mergeInput).find(Boolean));
    assert.equal(answerMerge.fsPath, path.join(folder, "shared.txt"), "the result is the user's file");
    await workbenchVisible(".merge-editor .monaco-editor .view-lines");
    await screenshot("worktrees-answer-merge-editor");
    assert.equal(userFile(), FIRST + line("alpha"), "the user's file as it was: no conflict markers written");
    await poll("the card's note for conflicts only", async () => /^Nothing applied yet: 1 file opened in the merge editor to complete there\.$/.test((await text(".action-note"))?.trim() ?? "") || undefined);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    // Back to the committed file for the whole-branch apply below.
    git(folder, "checkout", "--", "shared.txt");

    // The agents' work committed on their branches in their worktrees, as the user (or the agent) does there. (The
    // apply command's own "Commit Them First" is a modal dialog, which VS Code cancels in an extension test run.)
    for (const agent of ["alpha", "beta"]) {
      git(path.join(root, agent), "commit", "-q", "-am", `${agent}'s line`);
    }

    // alpha applied: Merge.
    const applying = vscode.commands.executeCommand("sidekicks.applyAgentWorktree", "alpha");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Apply @alpha')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"); // Merge, the first
    await applying;
    assert.equal(userFile(), FIRST + line("alpha"), "the user's shared.txt has alpha's line");
    assert.match(git(folder, "log", "-1", "--format=%s"), /Merge branch 'sidekicks\/alpha'/);

    // beta left as a branch: its commit stays on sidekicks/beta, nothing brought into the user's branch.
    const leaving = vscode.commands.executeCommand("sidekicks.applyAgentWorktree", "beta");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Apply @beta')");
    await typeInWorkbench("Leave as a branch");
    await leaving;
    assert.equal(git(folder, "log", "-1", "--format=%s", "sidekicks/beta").trim(), "beta's line", "the branch holds beta's commit");
    assert.equal(git(folder, "show", "sidekicks/beta:shared.txt"), FIRST + line("beta"));
    assert.equal(userFile(), FIRST + line("alpha"), "the user's shared.txt does not have beta's line");
    assert.equal(git(folder, "status", "--porcelain", "--", "shared.txt"), "");

    await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, "shared.txt")), { preview: false });
    await screenshot("worktrees-applied");

    // beta merged after all: both changed line 2, so git stops on a conflict and the file opens in the merge editor.
    const conflicting = vscode.commands.executeCommand("sidekicks.applyAgentWorktree", "beta");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Apply @beta')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"); // Merge, the first
    await conflicting;
    assert.match(userFile(), /^<<<<<<< HEAD\nalpha was here\n=======\nbeta was here\n>>>>>>> sidekicks\/beta/m, "git's conflict state stays");
    const result = await poll("a merge editor tab", () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map(mergeInput).find(Boolean));
    assert.equal(result.fsPath, path.join(folder, "shared.txt"), "the result is the user's file");
    await workbenchVisible(".merge-editor .monaco-editor .view-lines");
    await screenshot("worktrees-merge-editor");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    git(folder, "merge", "--abort");

    // One answer from the Apply command too ("One answer only…"): beta's answer overlaps alpha's line; skipped (the
    // question's first choice), the user's file stays as it is.
    const oneAnswer = vscode.commands.executeCommand("sidekicks.applyAgentWorktree", "beta");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Apply @beta')");
    await typeInWorkbench("One answer only");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Apply one answer of @beta to your folder')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"); // the latest answer
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('shared.txt conflicts with your folder')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"); // Skip this file, the first
    await oneAnswer;
    assert.equal(userFile(), FIRST + line("alpha"), "skipped: the user's file as it was");
  });
});
