/**
 * Keep, undo and redo what a settled turn did to files (issue 19, "Review", "Conflicts are never overwritten
 * silently"). A turn's checkpoint (`value/turnFiles/<turnId>`) holds each changed file's text before and after the
 * turn; its answer's `files` part holds what the user decided per file (`kept`, `undone`).
 *
 * An undo writes a file's earlier text (removing a file the turn created, recreating one it deleted); a redo writes
 * its later text back. Before writing, the file is checked: when its disk text is not what the turn left (for a
 * redo: not what the undo left), or the editor holds unsaved edits of it, it is a conflict — reported with who
 * changed it where that can be known (the user's unsaved edit, a later turn of the channel that lists it) and decided
 * per file by the user, never overwritten silently. Each write is a restore intent recorded before it (in one batch),
 * made whole (`writeWhole`: temp file and rename), and settled with the files' new states in one batch through the
 * reducer (`fileStates`): a crash in between leaves each file before or after, and recovery says which.
 */
import { readFile } from "node:fs/promises";
import { SidekicksError } from "../shared/errors";
import type { FilesPart } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { IntentRecord, MessageRecord, TurnRecord } from "../store/records";
import { asChangedFiles, restorable, turnFilesKey } from "../turns/changedFiles";
import { hashText, type IntentLog } from "../turns/intents";
import { writeWhole } from "../workspace/atomicWrite";
import { mergeTexts } from "../workspace/threeWayMerge";
import type { DocumentPort } from "../workspace/fsAccess";
import type { ChangedFile, FileDecision, FileState } from "../workspace/turnFiles";
import { findMessage } from "./admission";

/** What the user does to a turn's files: keep the change, undo it, or undo the undo. */
export type RestoreAction = "keep" | "undo" | "redo";

/** Who changed a file since the turn, as far as Sidekicks can tell. */
export type ChangeAuthor = { kind: "unsaved" } | { kind: "turn"; agent: string; messageId: string } | { kind: "unknown" };

/** A file an undo or redo would overwrite though it changed since. */
export interface RestoreConflict {
  /** Absolute path. */
  path: string;
  /** What the file holds on disk now (`null`: there is no file). */
  now: string | null;
  /** What the undo or redo would write (`null`: remove the file). */
  target: string | null;
  /** Who changed it, most likely first; `unknown` when no later turn lists it and the editor holds no unsaved edit. */
  changedBy: ChangeAuthor[];
  /**
   * The file now with the undo (or redo) merged in, keeping the change made since (`git merge-file`): present only when
   * the two changes do not overlap, all three texts were kept, and the editor holds no unsaved edit of it.
   */
  merged?: string;
}

/** The user's choice for one conflicting file: `merge` only where {@link RestoreConflict.merged} is present. */
export type ConflictChoice = "overwrite" | "merge" | "skip";

/** What the editor lends a restore: its open documents, and a way to ask the user about conflicts. */
export interface RestoreEditor {
  /** The open documents (unsaved edits); absent: the disk only. */
  documents?: DocumentPort;
  /** Whether the editor holds unsaved edits of `path`; absent: an open text that differs from the disk counts. */
  isDirty?(path: string): boolean;
  /**
   * Asks the user, per conflicting file, whether to overwrite it, merge (where a clean merge exists) or skip it (a
   * file not in the answer is skipped).
   * Absent: every conflicting file is skipped.
   */
  resolve?(conflicts: RestoreConflict[], action: "undo" | "redo"): Promise<Record<string, ConflictChoice>>;
}

/** What a restore did. */
export interface RestoreResult {
  /** Files written (or, for `keep`, marked kept). */
  done: string[];
  /** Files left as they were: a conflict the user skipped, or a write that failed. */
  skipped: string[];
  /** The conflicts found (whatever the user chose). */
  conflicts: RestoreConflict[];
}

/** A file to review: its text from before (`null`: it did not exist); the other side is the file now. */
export interface ReviewFile {
  /** Absolute path. */
  path: string;
  before: string | null;
}

/** An answer to a user message, and how many of its changed files an undo would restore now. */
export interface RequestAnswer {
  /** The answer's message id. */
  messageId: string;
  agent: string;
  /** Its files that can be undone now: both texts kept, not undone already. */
  undoable: number;
}

/** One answer of an agent with changed files (what "Apply Agent Worktree…" offers, issue 20). */
export interface AnswerWithFiles {
  messageId: string;
  /** The channel's name (`general`), or `@agent` for a direct conversation. */
  channel: string;
  /** When it was written (ms since the epoch). */
  at: number;
  /** How many files it changed. */
  files: number;
  /** The start of its text, on one line. */
  preview: string;
}

/** What {@link TurnRestore} works with. */
export interface TurnRestorePorts {
  store: Store;
  intents: IntentLog;
  /** Writes the files' states with the settled intents through the reducer (`TurnExecutor.fileStates`). */
  fileStates(turn: TurnRecord, states: Record<string, FileDecision>, intents: IntentRecord[]): Promise<unknown>;
}

/** How many files a restore writes at once. */
const WRITE_LANES = 16;

/** How many later messages of the channel are searched for a turn that changed a conflicting file. */
const LATER_MESSAGES = 500;

/** Keep / Undo / Redo per file and per turn. */
export class TurnRestore {
  constructor(private readonly ports: TurnRestorePorts) {}

  /**
   * Keeps, undoes or redoes the files of the turn that answered with `messageId` — those in `paths` (absolute), or
   * all its files the action applies to. A file whose earlier or later text was not kept cannot be undone (skipped).
   * @throws SidekicksError `editor/cannotOpen` when the message is not a turn's answer with changed files
   */
  async restore(messageId: string, action: RestoreAction, paths: readonly string[] | undefined, editor: RestoreEditor = {}): Promise<RestoreResult> {
    const { turn, files, states } = await this.checkpoint(messageId);
    const wanted = files.filter((f) => !paths || paths.includes(f.path));
    const applies = (f: ChangedFile) => (action === "keep" ? states[f.path] === undefined : action === "undo" ? restorable(f) && states[f.path] !== "undone" : restorable(f) && states[f.path] === "undone");
    const chosen = wanted.filter(applies);
    const notApplicable = wanted.filter((f) => !applies(f)).map((f) => f.path);
    if (action === "keep") {
      if (chosen.length > 0) await this.ports.fileStates(turn, Object.fromEntries(chosen.map((f) => [f.path, "kept" as const])), []);
      return { done: chosen.map((f) => f.path), skipped: notApplicable, conflicts: [] };
    }
    const plans = await Promise.all(chosen.map(async (f) => ({ file: f, now: await readNow(f.path), expected: (action === "undo" ? f.after : f.before) ?? null, target: (action === "undo" ? f.before : f.after) ?? null })));
    const conflicts: RestoreConflict[] = [];
    for (const p of plans) {
      const unsaved = editor.isDirty ? editor.isDirty(p.file.path) : isUnsaved(editor.documents, p.file.path, p.now);
      if (p.now === p.expected && !unsaved) continue;
      const merged = !unsaved && p.now !== null && p.expected !== null && p.target !== null ? await mergeTexts(p.expected, p.now, p.target) : undefined;
      conflicts.push({ path: p.file.path, now: p.now, target: p.target, changedBy: [...(unsaved ? [{ kind: "unsaved" } as const] : []), ...(await this.laterTurns(turn, p.file.path))], ...(merged !== undefined ? { merged } : {}) });
    }
    for (const c of conflicts) if (c.changedBy.length === 0) c.changedBy.push({ kind: "unknown" });
    const choices = conflicts.length > 0 && editor.resolve ? await editor.resolve(conflicts, action) : {};
    const conflicting = new Set(conflicts.map((c) => c.path));
    // A merge writes the merged text instead of the target (and only where one was offered).
    for (const c of conflicts) {
      const plan = plans.find((p) => p.file.path === c.path)!;
      if (choices[c.path] === "merge" && c.merged !== undefined) plan.target = c.merged;
    }
    const chosenFor = (file: string) => choices[file] === "overwrite" || (choices[file] === "merge" && conflicts.some((c) => c.path === file && c.merged !== undefined));
    const toWrite = plans.filter((p) => !conflicting.has(p.file.path) || chosenFor(p.file.path));
    const skipped = [...notApplicable, ...plans.filter((p) => !toWrite.includes(p)).map((p) => p.file.path)];
    if (toWrite.length === 0) return { done: [], skipped, conflicts };
    const intents = await this.ports.intents.intendAll(toWrite.map((p) => ({ turnId: turn.id, attempt: turn.attempt, agent: turn.agent, kind: "write" as const, path: p.file.path, beforeHash: hashText(p.now ?? undefined), afterHash: p.target === null ? null : hashText(p.target), restore: action })));
    // Written {@link WRITE_LANES} at a time (each flushed before its rename: in parallel, the flushes overlap).
    const outcomes: (string | undefined)[] = new Array(toWrite.length);
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < toWrite.length; i = next++) {
        const p = toWrite[i]!;
        try {
          // An unsaved buffer the user chose to overwrite gets the text too (undoable in the editor), then the disk.
          if (p.target !== null && editor.documents?.openText(p.file.path) !== undefined && conflicting.has(p.file.path)) await editor.documents.applyEdit(p.file.path, p.target);
          await writeWhole(p.file.path, p.target);
        } catch (err) {
          outcomes[i] = err instanceof Error ? err.message : String(err);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITE_LANES, toWrite.length) }, lane));
    const settled = intents.map((intent, i) => (outcomes[i] === undefined ? this.ports.intents.settled(intent, "applied") : this.ports.intents.settled(intent, "failed", outcomes[i])));
    const done = toWrite.filter((_, i) => outcomes[i] === undefined).map((p) => p.file.path);
    skipped.push(...toWrite.filter((_, i) => outcomes[i] !== undefined).map((p) => p.file.path));
    // A redo brings the agent's change back: the file is again as right after the turn, undecided (not "kept").
    const state: FileDecision = action === "undo" ? "undone" : null;
    await this.ports.fileStates(turn, Object.fromEntries(done.map((file) => [file, state])), settled);
    return { done, skipped, conflicts };
  }

  /**
   * The answers to user message `requestMessageId` — each turn admitted for it (Regenerate's too) and, through them,
   * the answers they delegated to — oldest first, each with how many of its files an undo would restore now. What
   * Edit and resend undoes first when the user asks (issue 19); searched among the channel's latest
   * {@link LATER_MESSAGES} messages.
   */
  async answersTo(requestMessageId: string): Promise<RequestAnswer[]> {
    const request = await findMessage(this.ports.store, requestMessageId);
    if (!request) return [];
    const later = (await this.ports.store.latestMessages(request.channelId, LATER_MESSAGES)).filter((m) => m.id > request.id && m.turnId && m.author.kind === "agent");
    // Ids are ULIDs in admission order: an answer comes before the answers it delegated to.
    const requests = new Set([request.id]);
    const out: RequestAnswer[] = [];
    for (const m of later.sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const turn = await this.ports.store.turn(m.turnId!);
      if (!turn || !requests.has(turn.requestMessageId)) continue;
      requests.add(m.id);
      const { files, states } = await this.checkpointOf(m, turn);
      out.push({ messageId: m.id, agent: turn.agent, undoable: files.filter((f) => restorable(f) && states[f.path] !== "undone").length });
    }
    return out;
  }

  /**
   * Undoes the files of every answer to `requestMessageId` ({@link answersTo}), the newest answer first so a file two
   * of them changed goes back to its text from before the first; conflicts are asked through `editor` as for one
   * answer's undo, never overwritten silently.
   */
  async undoAnswers(requestMessageId: string, editor: RestoreEditor = {}): Promise<RestoreResult> {
    const total: RestoreResult = { done: [], skipped: [], conflicts: [] };
    for (const answer of (await this.answersTo(requestMessageId)).reverse()) {
      if (answer.undoable === 0) continue;
      const result = await this.restore(answer.messageId, "undo", undefined, editor);
      total.done.push(...result.done);
      total.skipped.push(...result.skipped);
      total.conflicts.push(...result.conflicts);
    }
    return total;
  }

  /**
   * The latest answers of `agent` that changed files, newest first (at most `limit`), from every channel's latest
   * {@link LATER_MESSAGES} messages (issue 20: one answer of an agent in a worktree, applied to the user's folder).
   */
  async answersWithFiles(agent: string, limit = 20): Promise<AnswerWithFiles[]> {
    const out: AnswerWithFiles[] = [];
    for (const channel of await this.ports.store.channels()) {
      for (const m of await this.ports.store.latestMessages(channel.id, LATER_MESSAGES)) {
        if (m.author.kind !== "agent" || m.author.agentName !== agent || !m.turnId) continue;
        const part = m.parts.find((p): p is FilesPart => p.type === "files");
        if (!part || part.files.length === 0) continue;
        const text = m.parts.map((p) => (p.type === "text" ? p.text : "")).join(" ").replace(/\s+/g, " ").trim();
        out.push({ messageId: m.id, channel: channel.kind === "direct" ? `@${agent}` : channel.name, at: m.createdAt, files: part.files.length, preview: text.slice(0, 80) });
      }
    }
    return out.sort((a, b) => (a.messageId < b.messageId ? 1 : -1)).slice(0, limit);
  }

  /**
   * The files to review for the turn that answered with `messageId` (issue 19, "Review"): each with its text from
   * before that turn; with `since`, the files of every turn of its channel from that one on, each with its earliest
   * known text. Files whose earlier text was not kept are left out.
   */
  async review(messageId: string, since = false): Promise<{ agents: string[]; files: ReviewFile[] }> {
    const { turn, files } = await this.checkpoint(messageId);
    const out = new Map<string, ReviewFile>();
    const agents = [turn.agent];
    const add = (kept: ChangedFile[]) => {
      for (const f of kept) if (f.before !== undefined && !out.has(f.path)) out.set(f.path, { path: f.path, before: f.before });
    };
    add(files);
    if (since) {
      const later = (await this.ports.store.latestMessages(turn.channelId, LATER_MESSAGES)).filter((m) => m.id > turn.messageId && m.turnId && m.author.kind === "agent");
      for (const m of later) {
        add(asChangedFiles(await this.ports.store.getValue(turnFilesKey(m.turnId!))));
        if (m.author.kind === "agent" && m.author.agentName && !agents.includes(m.author.agentName)) agents.push(m.author.agentName);
      }
    }
    return { agents, files: [...out.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) };
  }

  /**
   * The turn that answered with `messageId`, its kept files and the user's decisions so far.
   * @throws SidekicksError `editor/cannotOpen` when it has none
   */
  async checkpoint(messageId: string): Promise<{ turn: TurnRecord; files: ChangedFile[]; states: Record<string, FileState> }> {
    const message = await findMessage(this.ports.store, messageId);
    const turn = message?.turnId ? await this.ports.store.turn(message.turnId) : undefined;
    if (!message || !turn) throw new SidekicksError("editor/cannotOpen", "This message is not an agent's answer, so it has no changed files to keep or undo.");
    return this.checkpointOf(message, turn);
  }

  /** {@link checkpoint} of an answer already read with its turn. */
  private async checkpointOf(message: MessageRecord, turn: TurnRecord): Promise<{ turn: TurnRecord; files: ChangedFile[]; states: Record<string, FileState> }> {
    const files = asChangedFiles(await this.ports.store.getValue(turnFilesKey(turn.id)));
    const part = message.parts.find((p): p is FilesPart => p.type === "files");
    const states: Record<string, FileState> = {};
    for (const f of part?.files ?? []) if (f.state === "kept" || f.state === "undone") states[f.path] = f.state;
    return { turn, files, states };
  }

  /** The later turns of `turn`'s channel (newest first) whose kept files list `file`. */
  private async laterTurns(turn: TurnRecord, file: string): Promise<ChangeAuthor[]> {
    const later = (await this.ports.store.latestMessages(turn.channelId, LATER_MESSAGES)).filter((m) => m.id > turn.messageId && m.turnId && m.turnId !== turn.id && m.author.kind === "agent");
    const out: ChangeAuthor[] = [];
    for (const m of later.reverse()) {
      const files = asChangedFiles(await this.ports.store.getValue(turnFilesKey(m.turnId!)));
      if (files.some((f) => f.path === file) && m.author.kind === "agent") out.push({ kind: "turn", agent: m.author.agentName ?? "?", messageId: m.id });
    }
    return out;
  }
}

/** The file's text now, `null` when there is none. */
async function readNow(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
}

/** Whether the editor's open document of `file` holds text other than the disk's (an unsaved edit). */
function isUnsaved(documents: DocumentPort | undefined, file: string, disk: string | null): boolean {
  const open = documents?.openText(file);
  return open !== undefined && open !== (disk ?? "");
}
