/**
 * What agent output in the view can ask of the editor (issue 6): open a tool call's diff or location, insert a code
 * block at the cursor, open a link. Each is one host request (`editor/*` in `src/shared/protocol`); the view never
 * navigates or touches files itself. Components reach them through {@link EditorContext}.
 */
import * as l10n from "@vscode/l10n";
import { createContext } from "preact";
import type { FileSuggestion, ToolCallDiff, ToolCallLocation } from "../src/shared/protocol";
import type { HostConnection } from "./host";
import { badLineRange } from "../src/shared/fileMentions";

/**
 * The last thing the editor could not do, and why (issue 18: "a click that cannot do what it says, says why"): a file
 * that is gone, a path outside the workspace, a refused link. `ActionNote` shows it until dismissed or replaced.
 */
export class ActionRefusals {
  private note: { why: string; seq: number } | undefined;
  private seq = 0;
  private readonly listeners = new Set<() => void>();

  /** The refusal shown now (`seq` grows with each report, so a repeated sentence shows again), if any. */
  get current(): { why: string; seq: number } | undefined {
    return this.note;
  }

  /** Shows `why` (a sentence from the host or the view). */
  report(why: string): void {
    this.note = { why, seq: ++this.seq };
    for (const listener of this.listeners) listener();
  }

  /** Hides the note. */
  dismiss(): void {
    if (!this.note) return;
    this.note = undefined;
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The note for `@path` words of a sent message that name no file of the workspace (as typed, without the `@`):
 * "@src/nope.ts: no such file in the workspace — sent as text"; a line range written backwards (`@a.ts:3-1`) or naming
 * line 0 is said instead, with the range put right to type.
 */
export function unmatchedPathsNote(paths: readonly string[]): string {
  // A range written backwards (`@a.ts:3-1`) is no range, so the whole word was looked up as a file name: say that.
  const notes: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    const bad = badLineRange(p);
    if (bad) notes.push(l10n.t("@{0}: that line range ends before it starts or names line 0 — sent as text. Write @{1} to attach those lines.", p, bad.fixed));
    else missing.push(p);
  }
  const words = missing.map((p) => `@${p}`).join(", ");
  const none = missing.length === 0 ? "" : missing.length === 1 ? l10n.t("{0}: no such file in the workspace — sent as text", words) : l10n.t("{0}: no such files in the workspace — sent as text", words);
  // The one sentence ends without a full stop, as before; followed by a range's, it gets one.
  return notes.length === 0 ? none : [...(none ? [`${none}.`] : []), ...notes].join(" ");
}

/**
 * Editor actions; each resolves whether the host did it (false when it refused, failed or did not answer). When the
 * host says why it could not, the sentence goes to `refusals`, which the view shows.
 */
export interface EditorActions {
  /** Why the last action could not be done (see {@link ActionRefusals}). */
  readonly refusals: ActionRefusals;
  openDiff(diff: ToolCallDiff): Promise<boolean>;
  openLocation(location: ToolCallLocation): Promise<boolean>;
  insert(text: string): Promise<boolean>;
  openLink(href: string): Promise<boolean>;
  /** Opens the diff of a file a turn changed (`turn/fileDiff`): its text before the turn against the file now. */
  fileDiff(messageId: string, path: string): Promise<boolean>;
  /**
   * Keeps, undoes or redoes files a turn changed (`turn/restore`; all the action applies to when `paths` is absent).
   * True when at least one file was done; files skipped (a conflict the user skipped) are said so in `refusals`.
   */
  restore(messageId: string, action: "keep" | "undo" | "redo", paths?: string[]): Promise<boolean>;
  /** Opens a turn's changes (or, with `since`, every turn's since it) in the editor's multi-file diff (`turn/review`). */
  review(messageId: string, since: boolean): Promise<boolean>;
  /**
   * Applies a turn of an agent in its own worktree to the user's folder (`turn/applyToFolder`, issue 20). True when a
   * file was written or opened in the merge editor; what was done (and any file left as it is) is said in `refusals`'
   * note either way, so the click never passes unnoticed.
   */
  applyToFolder(messageId: string): Promise<boolean>;
  /** Workspace files for `@file` completion (`files/find`); none when the host cannot say. */
  findFiles(query: string): Promise<FileSuggestion[]>;
}

/** Does nothing: the default outside an `EditorContext.Provider` (tests of single components). */
const NONE: EditorActions = {
  refusals: new ActionRefusals(),
  openDiff: async () => false,
  openLocation: async () => false,
  insert: async () => false,
  openLink: async () => false,
  fileDiff: async () => false,
  restore: async () => false,
  review: async () => false,
  applyToFolder: async () => false,
  findFiles: async () => [],
};

/** The editor actions of the view (`main.tsx` provides the host's). */
export const EditorContext = createContext<EditorActions>(NONE);

/**
 * Editor actions over the host connection. A host error reads as `false`, and its message (the host's sentence: "src/a.ts
 * does not exist (any more).") is reported to `refusals`.
 */
export function hostEditorActions(host: HostConnection): EditorActions {
  const refusals = new ActionRefusals();
  const ask = async (run: () => Promise<boolean>): Promise<boolean> => {
    try {
      const done = await run();
      if (done) refusals.dismiss();
      return done;
    } catch (err) {
      const why = err instanceof Error ? err.message.trim() : "";
      if (why !== "") refusals.report(why);
      return false;
    }
  };
  return {
    refusals,
    openDiff: (diff) => ask(async () => (await host.request("editor/openDiff", { path: diff.path, oldText: diff.oldText, newText: diff.newText })).opened),
    openLocation: (location) => ask(async () => (await host.request("editor/openLocation", location.line === undefined ? { path: location.path } : { path: location.path, line: location.line })).opened),
    insert: (text) => ask(async () => (await host.request("editor/insert", { text })).inserted),
    openLink: (href) => ask(async () => (await host.request("editor/openLink", { href })).opened),
    findFiles: async (query) => (await host.request("files/find", { query })).files,
    fileDiff: (messageId, path) => ask(async () => (await host.request("turn/fileDiff", { messageId, path })).opened),
    restore: (messageId, action, paths) =>
      ask(async () => {
        const result = await host.request("turn/restore", paths ? { messageId, action, paths } : { messageId, action });
        if (result.conflicts > 0 && result.skipped > 0) throw new Error(result.skipped === 1 ? l10n.t("1 file was left as it is: it changed since this answer.") : l10n.t("{0} files were left as they are: they changed since this answer, or could not be written.", result.skipped));
        return result.done > 0;
      }),
    review: (messageId, since) => ask(async () => (await host.request("turn/review", since ? { messageId, since } : { messageId })).opened),
    applyToFolder: async (messageId) => {
      let said = "";
      const done = await ask(async () => {
        const r = await host.request("turn/applyToFolder", { messageId });
        if (r.skipped > 0) {
          const why = r.unsaved > 0 ? l10n.t("{0} with unsaved edits in the editor: save or revert them, then apply again.", r.unsaved) : l10n.t("they conflict with your folder, or their texts were not kept.");
          throw new Error(l10n.t("{0} applied, {1} left as they are: {2}", r.applied, r.skipped, why));
        }
        if (r.applied === 0 && r.opened === 0) throw new Error(l10n.t("Your folder already has every change of this answer."));
        const files = r.applied === 1 ? l10n.t("1 file") : l10n.t("{0} files", r.applied);
        // Only conflicts: said as such, not as "Applied to your folder: 0 files" (a screenshot read so).
        said =
          r.opened === 0
            ? l10n.t("Applied to your folder: {0}.", files)
            : r.applied === 0
              ? l10n.t("Nothing applied yet: {0} opened in the merge editor to complete there.", r.opened === 1 ? l10n.t("1 file") : l10n.t("{0} files", r.opened))
              : l10n.t("Applied to your folder: {0}; {1} opened in the merge editor to complete there.", files, r.opened);
        return true;
      });
      if (said) refusals.report(said);
      return done;
    },
  };
}
