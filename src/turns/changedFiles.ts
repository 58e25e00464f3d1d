/**
 * A settled turn's "files changed" (issue 7, "File watching"): which files it changed, kept with their text from
 * before the turn under `value/turnFiles/<turnId>` for the diffs, and the `files` part its answer shows. Pure; the
 * reducer's `filesChanged` input writes what these return (`reduceUpdates.ts`), `src/channels/ChangedFiles.fileDiff`
 * reads it.
 */
import type { FilesPart } from "../shared/protocol";
import type { MessageRecord } from "../store/records";
import type { ChangedFile, FileDecision } from "../workspace/turnFiles";

/** Most bytes of earlier file texts kept per turn for its "files changed" diffs. */
export const TURN_FILES_BYTES = 2 * 1024 * 1024;

/** The reasons an earlier text may be unknown (a stored value is checked against them). */
const UNKNOWN_REASONS: readonly string[] = ["tooLarge", "binary", "overBudget", "late"];

/** `value/` key of a turn's changed files with their earlier texts. */
export const turnFilesKey = (turnId: string): string => `turnFiles/${turnId}`;

/** Whether `value` is a text, `null` (no file) or absent: a stored earlier or later text. */
const isText = (value: unknown): boolean => value === undefined || value === null || typeof value === "string";

/**
 * Validates a stored list of changed files (a value read back from LevelDB is a trust boundary); [] when it is not one.
 * A file whose later text or its reason is not one of the known shapes loses that field (never the file).
 */
export function asChangedFiles(value: unknown): ChangedFile[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((f): f is ChangedFile => typeof f === "object" && f !== null && typeof f.path === "string" && ["created", "modified", "deleted"].includes(f.kind) && isText(f.before))
    .map((f) => {
      const { after, afterUnknown, ...rest } = f;
      return {
        ...rest,
        ...(isText(after) && after !== undefined ? { after } : {}),
        ...(after === undefined && typeof afterUnknown === "string" && UNKNOWN_REASONS.includes(afterUnknown) ? { afterUnknown } : {}),
      };
    });
}

/**
 * The files as kept: their earlier texts, then their later texts, within {@link TURN_FILES_BYTES}, in order; beyond
 * it, a file's earlier text is dropped and said so (`beforeUnknown: "overBudget"`; its diff is then not offered), and a
 * later text that does not fit is dropped the same way (`afterUnknown: "overBudget"`; it cannot be undone then).
 */
export function keptFiles(files: readonly ChangedFile[]): ChangedFile[] {
  let budget = TURN_FILES_BYTES;
  return files.map((f) => {
    const size = typeof f.before === "string" ? Buffer.byteLength(f.before) : 0;
    if (size > budget) {
      return { path: f.path, kind: f.kind, beforeUnknown: "overBudget", afterUnknown: "overBudget" };
    }
    budget -= size;
    const afterSize = typeof f.after === "string" ? Buffer.byteLength(f.after) : 0;
    if (afterSize > budget) {
      const { after: _after, ...rest } = f;
      return { ...rest, afterUnknown: "overBudget" };
    }
    budget -= afterSize;
    return f;
  });
}

/** Whether a kept file can be undone and redone: both its earlier and its later text are known. */
export const restorable = (f: ChangedFile): boolean => f.before !== undefined && f.after !== undefined;

/**
 * `message` with its `files` part (replacing an earlier one) listing `kept`; `worktree` when its agent works in a git
 * worktree of its own (issue 20: the card offers "Apply to my folder").
 */
export function withFilesPart(message: MessageRecord, kept: readonly ChangedFile[], worktree = false): MessageRecord {
  const part: FilesPart = { type: "files", ...(worktree ? { worktree: true } : {}), files: kept.map((f) => ({ path: f.path, kind: f.kind, beforeKnown: f.before !== undefined, ...(f.before === undefined && f.beforeUnknown && UNKNOWN_REASONS.includes(f.beforeUnknown) ? { beforeUnknown: f.beforeUnknown } : {}), ...(typeof f.lineEndings?.from === "string" && typeof f.lineEndings.to === "string" ? { lineEndings: { from: f.lineEndings.from, to: f.lineEndings.to } } : {}), ...(restorable(f) ? { restorable: true } : {}) })) };
  return { ...message, parts: [...message.parts.filter((p) => p.type !== "files"), part] };
}

/**
 * `message` with the user's decisions (`states`: absolute path → kept, undone, or `null`: none, as right after the
 * turn — a redo) set on its `files` part's rows (issue 19); rows not named keep theirs. The message itself when it has
 * no `files` part.
 */
export function withFileStates(message: MessageRecord, states: Readonly<Record<string, FileDecision>>): MessageRecord {
  if (!message.parts.some((p) => p.type === "files")) return message;
  const decided = (f: FilesPart["files"][number]): FilesPart["files"][number] => {
    const state = states[f.path];
    if (state) return { ...f, state };
    const { state: _cleared, ...asAfterTheTurn } = f;
    return asAfterTheTurn;
  };
  const parts = message.parts.map((p) => (p.type === "files" ? { ...p, files: p.files.map((f) => (Object.hasOwn(states, f.path) ? decided(f) : f)) } : p));
  return { ...message, parts };
}
