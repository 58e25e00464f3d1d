import { monotonicFactory } from "ulid";
import type { Emitter } from "../events/events";
import type { Store } from "../store/Store";
import type { ChannelRecord } from "../store/records";
import * as l10n from "@vscode/l10n";
import { MetaIndexBuild } from "../store/metaIndexBuild";
import { HistorySearch } from "../channels/HistorySearch";
import { channelToMarkdown, messagesToExport } from "../channels/exportMarkdown";
import { SidekicksError } from "../shared/errors";
import { StoreWriter } from "../store/StoreWriter";
import { CANCEL_GRACE_MS } from "../turns/reducer";
import { IntentLog } from "../turns/intents";
import { PermissionMemory } from "../turns/permissionMemory";
import type { PermissionPolicy } from "../turns/permissionPolicy";
import { TurnExecutor } from "../turns/TurnExecutor";
import { TurnFiles, type SettleFileEvents } from "../workspace/turnFiles";
import type { ChannelClock } from "../channels/admission";
import { AgentCommands } from "../channels/AgentCommands";
import type { AgentSource } from "../channels/AgentSource";
import { ChangedFiles } from "../channels/ChangedFiles";
import { TurnRestore } from "../channels/TurnRestore";
import { ChannelDirectory } from "../channels/ChannelDirectory";
import { ChannelMessages } from "../channels/ChannelMessages";
import { FollowUps } from "../channels/FollowUps";
import { ToolDelegation } from "../channels/ToolDelegation";
import { SessionSettings, withStoredChoices } from "../channels/SessionSettings";
import { TurnService } from "../channels/TurnService";
import { unseenContext } from "../channels/unseenContext";
import type { McpServerOptions } from "../mcp/SidekicksMcpServer";
import type { SkillProblem } from "../mcp/skills";
import { composeTools, type Tools } from "./composeTools";

/** What {@link composeChannels} builds the channels over, by name. */
export interface ChannelsOptions {
  /** The open history store. */
  store: Store;
  /** The agent manager (or a test's stand-in). */
  agents: AgentSource;
  emitter: Emitter;
  /** Where warnings and debug lines go (default: nowhere). */
  log?: (line: string) => void;
  /** Milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  /**
   * How long Stop waits for the agent's `cancelled` answer before settling anyway, in ms (default {@link CANCEL_GRACE_MS});
   * a function is read at each Stop (the app: `limits.cancelTimeout` and a margin).
   */
  cancelGraceMs?: number | (() => number);
  /** This activation's owner id for turn attempts (default: a new ULID). */
  owner?: string;
  /** The moderator of a channel (from the roster's `channels[].moderator`), if it has one. */
  moderatorOf?: (channel: ChannelRecord) => string | undefined;
  /** An agent's `permissions` policy (from the roster; default `ask`). */
  policyOf?: (agent: string) => PermissionPolicy | undefined;
  /** Period of the checkpoint/heartbeat tick, in ms (tests shorten it). */
  tickMs?: number;
  /** The store's one write lane (default: a new one over `store`); nothing else may write to `store`. */
  writer?: StoreWriter;
  /** The skills the roster attaches to a channel (`channels[].skills`), as written (issue 22). */
  channelSkillsOf?: (channel: ChannelRecord) => string[];
  /** Skills an agent's session could not read (broken SKILL.md…): shown to the user, never a failed turn. */
  skillProblems?: (agent: string, problems: SkillProblem[]) => void;
  /** Proof that the editor's file watcher delivered every event for a folder so far (`TurnFiles`' `SettleFileEvents`). */
  settleFileEvents?: SettleFileEvents;
  /** Options of Sidekicks' MCP server (the bench adds an empty tool). */
  mcp?: McpServerOptions;
}

/**
 * The channels over one open store (`src/channels/`; the original design's `internal/channels`), one unit per job. Built by
 * {@link composeChannels}; closed with {@link close} before the store closes.
 */
export interface Channels {
  /** Resolves when the sweeper has recovered what the previous activation left open (`TurnService.recover`). */
  readonly ready: Promise<void>;
  /** Sending, opening a channel at its latest page, paging back. */
  readonly messages: ChannelMessages;
  /** Stop, Retry / Run again, Send now, permission answers. */
  readonly turns: TurnService;
  /** The turns' "files changed" and their diffs. */
  readonly files: ChangedFiles;
  /** Keep, undo and redo a settled turn's file changes (issue 19). */
  readonly restore: TurnRestore;
  /** The members' session settings (modes, options, models), kept for after a reload. */
  readonly sessions: SessionSettings;
  /** Channels, memberships, `#general`, direct conversations, unread counts. */
  readonly directory: ChannelDirectory;
  /** The commands each agent announced, stored per agent. */
  readonly commands: AgentCommands;
  /** History search over every channel (issue 21); builds an older store's word index in the background. */
  readonly search: HistorySearch;
  /**
   * A channel (or its messages since `since`) as Markdown (issue 21, "Export"), with its name for the file.
   * @throws SidekicksError `channel/notFound` when it no longer exists
   */
  exportChannel(channelId: string, since?: number): Promise<{ name: string; markdown: string }>;
  /** Sidekicks' MCP server, added to the agents' sessions (issue 22). */
  readonly tools: Tools;
  /** Tool intents: effects run for agents, recorded around the effect (brief, "Tool intents"). */
  readonly intents: IntentLog;
  /** The user's Sidekicks permission rules per agent (ADR 0005). */
  readonly permissions: PermissionMemory;
  /**
   * Stops accepting work: running attempts are settled `interrupted` with everything they received; queued turns
   * stay in the store and run at the next activation (`TurnService.close`).
   */
  close(): Promise<void>;
}

/**
 * Builds the channel units over `options.store` and the one turn executor they share, wires the executor's ports to
 * them (context before a prompt, the stored session choices, delegation and the moderator after a settlement), and starts
 * the sweeper (`ready`).
 */
export function composeChannels(options: ChannelsOptions): Channels {
  const { store, agents, emitter } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const ulid = monotonicFactory();
  const clock: ChannelClock = { ulid: (at) => ulid(at), now: () => now() };
  // Every unit waits for the sweeper, which starts once they all exist (`recovered`, below). Like the executor's ports,
  // which call units built after it (they need the executor), this reads its constant only when called.
  const ready = (): Promise<void> => recovered;
  // The one write lane: the directory's changes, the stored settings and the turns' `persist` effects queue in it.
  const writer = options.writer ?? new StoreWriter(store);
  const turnFiles = new TurnFiles([store.dir], options.settleFileEvents);
  const commands = new AgentCommands(writer);
  const intents = new IntentLog(store, () => ulid(), () => now());
  const permissions = new PermissionMemory(writer);
  const executor = new TurnExecutor(
    {
      store,
      writer,
      // A session opened for a turn knows the choices stored before (after a reload): they are restored.
      agents: withStoredChoices(agents, (channelId, agent) => sessions.sessionStates(channelId, [agent])),
      emitter,
      log: (level, line) => log(level === "debug" ? line : `${level}: ${line}`),
      now: () => now(),
      context: (turn, fresh) => unseenContext(store, turn.channelId, turn.agent, turn.requestMessageId, fresh),
      // A new session learns first which skills it has (the catalog); a running one, which changed.
      skills: (turn, fresh) => tools.skills(turn.channelId, turn.agent, fresh),
      settled: (turn, message) => followUps.delegate(turn, message),
      roundSettled: (channelId, root, answers) => followUps.wakeModerator(channelId, root, answers),
      delegationSettled: (intent) => delegation.settled(intent),
      policyOf: (agent) => options.policyOf?.(agent) ?? "ask",
      permissions,
      intents,
      files: turnFiles,
    },
    { owner: options.owner ?? ulid(), cancelGraceMs: options.cancelGraceMs ?? CANCEL_GRACE_MS, tickMs: options.tickMs },
  );
  const followUps: FollowUps = new FollowUps({ store, executor, clock, moderatorOf: options.moderatorOf });
  const delegation = new ToolDelegation({ store, executor, clock, followUps });
  const tools: Tools = composeTools({
    store,
    agents,
    executor,
    channelSkillsOf: options.channelSkillsOf,
    skillProblems: options.skillProblems,
    log,
    now: () => now(),
    server: options.mcp,
    delegate: async (channelId, agent, member, request, toolCallId) => {
      await recovered;
      return delegation.delegate(channelId, agent, member, request, toolCallId);
    },
  });
  const sessions: SessionSettings = new SessionSettings({ store, writer, agents, executor, ready });
  const files = new ChangedFiles({ store, files: turnFiles });
  const restore = new TurnRestore({ store, intents, fileStates: (turn, states, settled) => executor.fileStates(turn, states, settled) });
  const directory = new ChannelDirectory(writer, agents, emitter, () => now());
  const messages = new ChannelMessages({ store, executor, commands, clock, view: (channel) => directory.view(channel), ready });
  const turns = new TurnService({ store, executor, intents, now: () => now(), ready });
  const recovered = turns.recover();
  const search = new HistorySearch(writer);
  // An older store's word index is built once recovery is done, a step at a time in the write lane (ADR 0007).
  void recovered.then(() => search.buildIndex()).catch((err: unknown) => log(`warn: search index not built: ${(err as Error).message}`));
  // So is the meta index of a store written without it (its catch-up and counts read the messages until then).
  const metaIndex = new MetaIndexBuild(writer);
  void recovered.then(() => metaIndex.build()).catch((err: unknown) => log(`warn: meta index not built: ${(err as Error).message}`));
  return {
    ready: recovered,
    messages,
    turns,
    files,
    restore,
    sessions,
    directory,
    commands,
    intents,
    permissions,
    search,
    tools,
    exportChannel: async (channelId, since) => {
      const channel = await store.channelById(channelId);
      if (!channel) throw new SidekicksError("channel/notFound", l10n.t("That channel no longer exists."));
      const messages = await messagesToExport(store, channelId, since);
      return { name: channel.name, markdown: channelToMarkdown({ channelName: channel.name, exportedAt: now(), since }, messages) };
    },
    close: async () => {
      await search.stop();
      await metaIndex.stop();
      await turns.close();
      // A `delegate` call still waiting (its child queued, kept for the next activation) answers now, so the listener closes.
      delegation.close();
      await tools.close();
    },
  };
}
