/**
 * The turn executor's surroundings (`TurnExecutor.ts`): the agent sessions, the store and its write lane, the context
 * and skills that go before a prompt, and the hooks called as turns settle. Built by `src/app/composeChannels.ts`.
 */
import type { AgentSession, SessionSink } from "../agents/AgentManager";
import type { Emitter } from "../events/events";
import type { Store } from "../store/Store";
import type { IntentRecord, MessageRecord, SkillVersion, TurnRecord } from "../store/records";
import type { StoreWriter } from "../store/StoreWriter";
import type { TurnFiles } from "../workspace/turnFiles";
import type { IntentLog } from "./intents";
import type { PermissionMemory } from "./permissionMemory";
import type { PermissionPolicy } from "./permissionPolicy";
import type { RoundAnswer } from "./reducer";

/** What the executor needs of the agent manager: a session per (agent, channel). */
export interface SessionSource {
  /**
   * The session channel `channelId` uses with `agent` (AgentManager.session). With `resumeSessionId`, an agent that supports
   * ACP `session/load` resumes that session instead of starting a new one.
   */
  session(agent: string, channelId: string, sink: SessionSink, options?: { resumeSessionId?: string }): Promise<AgentSession>;
  /** The folder on this machine the agent works in (where the files it changes are tracked). */
  workspaceOf?(agent: string): string | undefined;
  /** Whether the agent works in a git worktree of its own (issue 20): its changed files can be applied to the user's folder. */
  inWorktree?(agent: string): boolean;
}

/** The executor's surroundings. */
export interface TurnPorts {
  /** The history store, for reads. */
  store: Store;
  /** The store's one write lane, shared with the channel directory: every `persist` effect is committed through it. */
  writer: StoreWriter;
  agents: SessionSource;
  emitter: Emitter;
  log(level: "debug" | "warn" | "error", line: string): void;
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * The channel messages re-injected before a turn's prompt (`""` for none); `fresh` is true when the agent's
   * session is new (it remembers nothing of this channel).
   */
  context(turn: TurnRecord, fresh: boolean): Promise<string>;
  /**
   * The skills attached to the turn's agent in its channel (issue 22), read as it prompts: their versions, recorded on
   * the turn, and what goes before the prompt (the catalog when `fresh`, else a note on skills changed since).
   */
  skills?(turn: TurnRecord, fresh: boolean): Promise<{ inUse: SkillVersion[]; preamble: string }>;
  /** A turn settled and its batch is committed (delegation starts here). Called in order, never concurrently. */
  settled(turn: TurnRecord, message: MessageRecord): Promise<void>;
  /** A child of the `delegate` tool settled (issue 22): its parent's intent, settled and committed. */
  delegationSettled?(intent: IntentRecord): void;
  /** Every turn started by one user message has settled (the panel's moderator wakes here). */
  roundSettled(channelId: string, rootMessageId: string, answers: RoundAnswer[]): Promise<void>;
  /** The agent's `permissions` policy from the roster (`ask` when unknown). */
  policyOf(agent: string): PermissionPolicy;
  /** The user's Sidekicks permission rules (ADR 0005). */
  permissions: PermissionMemory;
  /** Tool intents: writes and commands run for an agent are recorded around their execution. */
  intents: IntentLog;
  /** Files changed under the agent's workspace during each turn (fed by the editor's file watcher); kept once it settles. */
  files?: TurnFiles;
}
