/**
 * "Apply to my folder" (issue 20, "Bring it back … Per turn too"): one answer of an agent working in its own git
 * worktree brought into the user's folder, from the answer's checkpoint (issue 19), file by file with `git merge-file`
 * (`src/workspace/turnApply.ts`). Clean merges are written; the conflicts are put to the user through the editor —
 * open each in the merge editor, take the agent's side of a deletion on purpose, or skip it — never written silently;
 * files the editor holds unsaved edits of are left alone. Called from an answer's files card and from the Agents
 * view's "Apply Agent Worktree…".
 */
import * as l10n from "@vscode/l10n";
import type { AgentManager } from "../agents/AgentManager";
import { SidekicksError } from "../shared/errors";
import { takeAgentSide } from "../workspace/turnApply";
import type { EditorPort } from "./EditorPort";
import type { StoreLifecycle } from "./StoreLifecycle";

/** What applying one answer did, in counts of files (what the view says). */
export interface TurnApplyCounts {
  /** The agent whose answer it was. */
  agent: string;
  /** Written, created or removed in the user's folder (merges, and conflicts whose agent's side the user took). */
  applied: number;
  /** Already as the answer left them. */
  same: number;
  /** Conflicts found (whatever the user chose). */
  conflicts: number;
  /** Conflicts opened in the merge editor, for the user to finish there. */
  opened: number;
  /** Left as they are: a conflict skipped, unsaved edits, texts not kept, a failed write. */
  skipped: number;
  /** Of those skipped, the files the editor holds unsaved edits of. */
  unsaved: number;
}

/** What {@link applyAnswer} works with. */
export interface TurnApplyPorts {
  history: StoreLifecycle;
  agents: AgentManager;
  editor: EditorPort;
}

/**
 * Applies the files of the answer `messageId` to the user's folder (the main worktree of its agent's repository).
 * @throws SidekicksError `editor/cannotOpen` (not an answer with changed files), `worktree/applyRefused` (its agent
 *   does not work in a worktree, or is no longer in the roster), `worktree/unavailable` (its worktree is gone)
 */
export async function applyAnswer(ports: TurnApplyPorts, messageId: string): Promise<TurnApplyCounts> {
  const { turn, files } = await ports.history.require().restore.checkpoint(messageId);
  if (files.length === 0) throw new SidekicksError("editor/cannotOpen", l10n.t("This answer changed no files, so there is nothing to apply."));
  const known = ports.agents.summaries().some((a) => a.name === turn.agent);
  const bringBack = known ? ports.agents.worktreeBringBack(turn.agent) : undefined;
  if (!bringBack) throw new SidekicksError("worktree/applyRefused", known ? l10n.t("Agent {0} does not work in a worktree of its own: its changes are in your folder already.", turn.agent) : l10n.t("Agent {0} is no longer in sidekicks.yaml, so where its worktree is is not known.", turn.agent));
  const documents = ports.editor.documents;
  const isUnsaved = documents?.isDirty ? (file: string) => documents.isDirty!(file) : undefined;
  const result = await bringBack.applyTurn(files, isUnsaved);
  const choices = result.conflicts.length > 0 && ports.editor.resolveTurnConflicts ? await ports.editor.resolveTurnConflicts(turn.agent, result.conflicts) : {};
  let applied = result.applied.length;
  let opened = 0;
  let skipped = result.skipped.length;
  for (const c of result.conflicts) {
    const choice = choices[c.path];
    if (choice === "opened") opened++;
    else if (choice === "agent" && (await takeAgentSide(c).catch(() => false))) applied++;
    else skipped++;
  }
  for (const s of result.skipped) if (s.reason === "failed") ports.editor.log("warn", `applying ${turn.agent}'s answer ${messageId}: ${s.path} not written: ${s.error}`);
  return { agent: turn.agent, applied, same: result.same.length, conflicts: result.conflicts.length, opened, skipped, unsaved: result.skipped.filter((s) => s.reason === "unsaved").length };
}
