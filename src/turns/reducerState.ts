/**
 * The turn reducer's vocabulary (see `reducer.ts`): its state (open turns, the last settled turn of each lane,
 * rounds), its inputs and its effects, and the small pure helpers every part of the reducer shares. Types and
 * constants only, plus {@link interruptedError}: no I/O.
 */
import * as l10n from "@vscode/l10n";
import type { AgentUpdate, PermissionRequest } from "../acp/types";
import type { ErrorInfo, MessageView, Part, TurnOutcome } from "../shared/protocol";
import type { IntentRecord, MessageRecord, SkillVersion, TurnRecord } from "../store/records";
import type { ChangedFile, FileDecision } from "../workspace/turnFiles";
import type { AgentRules, PermissionPolicy, PermissionRule } from "./permissionPolicy";

export const CHECKPOINT_MS = 1_000;

/** A running attempt writes a heartbeat at least this often, in ms (when no checkpoint carried one). */
export const HEARTBEAT_MS = 5_000;

/** One turn this host knows that is not settled (or was settled last in its lane, for late updates). */
export interface LiveTurn {
  readonly record: TurnRecord;
  /** The answer as streamed so far (what the webview shows; persisted at checkpoints). */
  readonly message: MessageRecord;
  /** The user pressed Stop: the turn settles `cancelled` whatever the agent answers. */
  readonly cancelRequested: boolean;
  /** "Send now": claimed before the other pending turns of its lane. */
  readonly urgent: boolean;
  /** The answer changed since the last checkpoint. */
  readonly dirty: boolean;
  /** When the last checkpoint (or claim) was written, in ms. */
  readonly checkpointAt: number;
  /** For a retry: what the new attempt tells the agent about the earlier one. */
  readonly note?: string;
}

/** One answer of a round, for the panel's moderator. */
export interface RoundAnswer {
  agent: string;
  messageId: string;
  outcome: TurnOutcome;
  text: string;
  role?: "moderator";
}

/** The turns started by one user message (its mentions, their delegations, the moderator). */
export interface Round {
  readonly channelId: string;
  readonly open: readonly string[];
  readonly answers: readonly RoundAnswer[];
}

/** The reducer's state. Treat as immutable. */
export interface EngineState {
  /** This extension host activation (the owner written on every attempt it claims). */
  readonly owner: string;
  /** Open turns by id: pending, running or awaiting_input. */
  readonly turns: Readonly<Record<string, LiveTurn>>;
  /** The last settled turn of each lane (`channelId/agent`), which late updates attach to (field case 1). */
  readonly recent: Readonly<Record<string, LiveTurn>>;
  /** Rounds by root message id. */
  readonly rounds: Readonly<Record<string, Round>>;
  /** Set by `close`: nothing new is claimed. */
  readonly closed: boolean;
  /**
   * Delegations through the `delegate` tool whose child has not settled (issue 22), by child turn id: the parent's
   * intent, `running`, settled in the child's settling batch (`reduceDelegation.ts`).
   */
  readonly delegations: Readonly<Record<string, IntentRecord>>;
}

/** What admission needs per recipient. Ids are ULIDs made by the caller (the reducer makes none). */
export interface Admission {
  turnId: string;
  messageId: string;
  channelId: string;
  agent: string;
  requestMessageId: string;
  rootMessageId: string;
  prompt: string;
  command?: string;
  role?: "moderator";
  parentTurnId?: string;
  delegatedBy?: string;
  parentMessageId?: string;
  /** A child of the `delegate` tool (issue 22): the parent's delegation intent (its id), and `delegatedVia: "tool"`. */
  parentIntentId?: string;
  /** Regenerate (issue 19): the earlier answer this turn's answer answers again; stored on the new answer. */
  regenerates?: string;
}

/** Everything the reducer reacts to. `at` is ms since the epoch, from the executor's clock. */
export type EngineInput =
  | { type: "admit"; at: number; message?: MessageRecord; turns: Admission[] }
  | { type: "update"; at: number; turnId: string; attempt: number; update: AgentUpdate }
  | {
      type: "permissionRequested";
      at: number;
      turnId: string;
      attempt: number;
      requestId: string;
      request: PermissionRequest;
      /** The agent's policy and the user's rules, which may answer it without asking (`permissionPolicy.ts` decides). */
      policy?: PermissionPolicy;
      rules?: AgentRules;
    }
  | { type: "permissionWithdrawn"; requestId: string }
  | { type: "answer"; requestId: string; optionId: string; remember?: boolean }
  | { type: "cancel"; messageId: string; at: number }
  | { type: "cancelGrace"; at: number; turnId: string; attempt: number }
  | { type: "promptEnded"; at: number; turnId: string; attempt: number; stopReason?: string; error?: ErrorInfo }
  | { type: "tick"; at: number }
  | {
      type: "recover";
      at: number;
      /** Open turns; `intents`: their unsettled tool intents, classified, written with the turn's settlement. */
      turns: { record: TurnRecord; message?: MessageRecord; intents?: IntentRecord[] }[];
      /** Classified intents of turns settled already (and their stored answers): each written with its cards. */
      orphans?: { message?: MessageRecord; intents: IntentRecord[] }[];
    }
  | {
      type: "filesChanged";
      turnId: string;
      /** What the settled turn changed in its workspace, with the texts from before (`workspace/turnFiles.ts`). */
      files: ChangedFile[];
      /** Its agent works in a git worktree of its own (issue 20): the files card offers "Apply to my folder". */
      worktree?: boolean;
      /** The stored answer, read by the executor when this host no longer holds the turn. */
      stored?: MessageRecord;
    }
  | {
      type: "fileStates";
      turnId: string;
      /**
       * What the user decided per file of the settled turn (absolute path → kept or undone, or `null` after a redo: no
       * decision, the card as right after the turn; issue 19).
       */
      states: Record<string, FileDecision>;
      /** The restore intents this decision settles, written in the same batch. */
      intents: IntentRecord[];
      /** The stored answer, read by the executor when this host no longer holds the turn. */
      stored?: MessageRecord;
    }
  | { type: "sessionOpened"; channelId: string; agent: string; sessionId: string }
  /** The skills attached to a running attempt's agent as it prompts (issue 22): recorded on its turn. */
  | { type: "skillsInUse"; turnId: string; attempt: number; skills: SkillVersion[] }
  | { type: "retry"; at: number; record: TurnRecord; message: MessageRecord; known?: string[] }
  /**
   * The running attempt `(turnId, attempt)` called the `delegate` tool (issue 22): `intent` (`intended`, its ids made
   * by the caller) is written first, then the child turn `child` is admitted with the intent `running`, one batch.
   */
  | { type: "delegate"; at: number; turnId: string; attempt: number; intent: IntentRecord; child: Admission }
  | { type: "sendNow"; at: number; messageId: string }
  | { type: "roundCheck"; rootMessageId: string }
  | { type: "close"; at: number };

/** What the executor does, in order. */
export type EngineEffect =
  | {
      type: "persist";
      messages?: MessageRecord[];
      turns?: TurnRecord[];
      /** Tool intents settled by recovery, written with the card that shows them. */
      intents?: IntentRecord[];
      /** Moves the member's `lastSeenMessageId` in the same batch (a completed turn, not a command). */
      advanceMember?: { channelId: string; agent: string; lastSeenMessageId: string; turnId: string };
      /** The member's ACP session in its channel (for `session/load` after a reload); written when it changed (never with `advanceMember`). */
      session?: { channelId: string; agent: string; acpSessionId: string };
      /** Small values under `value/<key>` (a turn's changed files with their earlier texts). */
      values?: { key: string; value: unknown }[];
      fence?: { turnId: string; attempt: number; owner: string };
    }
  | { type: "broadcast"; name: "message/started" | "message/finished"; message: MessageView }
  | { type: "delta"; channelId: string; messageId: string; appendText?: string; part?: Part }
  | { type: "prompt"; turn: TurnRecord; note?: string }
  | { type: "cancelPrompt"; turnId: string }
  | { type: "answerPermission"; requestId: string; optionId?: string }
  /** The user asked Sidekicks to answer this same request so from now on: a narrow rule (ADR 0005). */
  | { type: "remember"; agent: string; rule: PermissionRule }
  | { type: "schedule"; ms: number; input: EngineInput }
  | { type: "log"; level: "debug" | "warn" | "error"; line: string }
  | { type: "settled"; turn: TurnRecord; message: MessageRecord }
  | { type: "roundSettled"; channelId: string; rootMessageId: string; answers: RoundAnswer[] }
  /** A child of the `delegate` tool settled (issue 22): its parent's intent, settled and written (the tool answers). */
  | { type: "delegationSettled"; intent: IntentRecord };

/** The reducer's answer. `result` answers the input's caller (accepted, cancelled, retried, sent). */
export interface Step {
  state: EngineState;
  effects: EngineEffect[];
  result?: boolean;
}

/** How long Stop waits for the agent's `cancelled` answer before settling anyway, in ms. */
export const CANCEL_GRACE_MS = 5_000;

/** A fresh state for an activation whose owner id is `owner`. */
export function initialState(owner: string): EngineState {
  return { owner, turns: {}, recent: {}, rounds: {}, closed: false, delegations: {} };
}

/** `channelId/agent`: turns of one agent in one channel run one after the other. */
export function laneOf(record: Pick<TurnRecord, "channelId" | "agent">): string {
  return `${record.channelId}/${record.agent}`;
}

/** Whether a turn is running (or waiting for the user inside its run). */
export function isActive(t: LiveTurn): boolean {
  return t.record.state === "running" || t.record.state === "awaiting_input";
}

/** The view status of an open turn's message. */
export function statusOf(t: LiveTurn): MessageView["status"] {
  return t.record.state === "pending" ? "queued" : "streaming";
}

/** The error an interrupted turn shows (brief, "Recovery"). */
export function interruptedError(record: Pick<TurnRecord, "agent" | "attempt">): ErrorInfo {
  return {
    code: "turn/interrupted",
    message: l10n.t(
      "Interrupted: the window closed or Sidekicks restarted while @{0} was answering (attempt {1}). What arrived before is kept; Retry runs it again.",
      record.agent,
      record.attempt,
    ),
  };
}
