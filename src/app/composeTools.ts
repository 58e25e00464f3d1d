import type { AgentSource } from "../channels/AgentSource";
import type { ChannelRecord, MessageRecord, SkillVersion } from "../store/records";
import type { Store } from "../store/Store";
import type { TurnExecutor } from "../turns/TurnExecutor";
import { isActive } from "../turns/reducerState";
import { SidekicksMcpServer, type McpServerOptions } from "../mcp/SidekicksMcpServer";
import { skillCatalog, skillChanges, type SkillProblem } from "../mcp/skills";
import type { ToolPorts } from "../mcp/tools";

/** What {@link composeTools} builds Sidekicks' MCP server over. */
export interface ToolsOptions {
  store: Store;
  agents: AgentSource;
  executor: TurnExecutor;
  /** The skills the roster attaches to a channel (`channels[].skills`), as written. */
  channelSkillsOf?: (channel: ChannelRecord) => string[];
  /** Skills that could not be read, per agent: shown to the user (the log, the Problems panel). */
  skillProblems?: (agent: string, problems: SkillProblem[]) => void;
  log: (line: string) => void;
  /** Milliseconds since the epoch. */
  now: () => number;
  server?: McpServerOptions;
  /** The `delegate` tool's work (`src/channels/ToolDelegation.ts`); no `delegate` tool without it. */
  delegate?: ToolPorts["delegate"];
}

/** Sidekicks' MCP server wired to the channels (issue 22); see {@link composeTools}. */
export interface Tools {
  readonly server: SidekicksMcpServer;
  /**
   * The skills attached to `agent` in `channelId`, read again as a turn prompts (none when the session has no
   * Sidekicks server): their versions, and what goes before the prompt — the catalog for a `fresh` session, else a
   * note on the skills changed since the session last saw them ("" when none).
   */
  skills(channelId: string, agent: string, fresh: boolean): Promise<{ inUse: SkillVersion[]; preamble: string }>;
  close(): Promise<void>;
}

/**
 * Builds the Sidekicks MCP server over the open store and the turn executor, and has the agent manager add it to every
 * session opened from now on (for agents that announce MCP over HTTP and do not set `sidekicksTools: false`).
 */
export function composeTools(options: ToolsOptions): Tools {
  const { store, executor } = options;
  const ports: ToolPorts = {
    ...channelReadPorts(store),
    postProgress: async (channelId, agent, text) => {
      const live = Object.values(executor.state.turns).find((t) => t.record.channelId === channelId && t.record.agent === agent && isActive(t));
      if (!live) return false;
      const { id: turnId, attempt } = live.record;
      await executor.submit({ type: "update", at: options.now(), turnId, attempt, update: { kind: "notice", text, retrying: false } });
      return true;
    },
    ...(options.delegate ? { delegate: options.delegate } : {}),
  };
  const server = new SidekicksMcpServer(ports, options.server);
  options.agents.setSessionMcpServers?.(async ({ agent, channelId, workspaceFolder, info }) => {
    if (agent.sidekicksTools === false) return [];
    if (agent.runtime && agent.runtime.type !== "local") {
      // The server listens on this machine's loopback, which an agent in a container does not reach (ADR 0008).
      options.log(`info: ${agent.name} runs in a ${agent.runtime.type} runtime: its sessions get no Sidekicks tools`);
      return [];
    }
    if (!info?.mcpHttp) {
      options.log(`info: ${agent.name} does not announce MCP over HTTP (mcpCapabilities.http): its sessions get no Sidekicks tools`);
      return [];
    }
    const channel = await store.channelById(channelId);
    const skills = [...(agent.skills ?? []), ...(channel ? (options.channelSkillsOf?.(channel) ?? []) : [])];
    const opened = await server.open({ channelId, agent: agent.name, skills, workspaceFolder });
    if (opened.problems.length > 0) {
      for (const p of opened.problems) options.log(`warn: [${agent.name}] ${p.message}`);
      options.skillProblems?.(agent.name, opened.problems);
    }
    return [opened.server];
  });
  return {
    server,
    skills: async (channelId, agent, fresh) => {
      const read = await server.refresh(channelId, agent);
      if (!read) return { inUse: [], preamble: "" };
      return { inUse: read.skills.map((s) => ({ name: s.name, version: s.version })), preamble: fresh ? skillCatalog(read.skills) : skillChanges(read.before, read.skills) };
    },
    close: async () => {
      options.agents.setSessionMcpServers?.(undefined);
      await server.stop();
    },
  };
}

/** The read-only channel tools' ports over `store`: the latest messages and the members of a channel. */
export function channelReadPorts(store: Store): Pick<ToolPorts, "recentMessages" | "members"> {
  return {
    recentMessages: async (channelId, limit) => (await store.latestMessages(channelId, limit)).map((m) => ({ author: authorOf(m), at: m.createdAt, text: textOf(m) })),
    members: async (channelId) => ({ channel: (await store.channelById(channelId))?.name ?? channelId, members: (await store.members(channelId)).map((m) => m.agentName) }),
  };
}

function authorOf(m: MessageRecord): string {
  return m.author.kind === "agent" ? (m.author.agentName ?? "agent") : m.author.kind;
}

function textOf(m: MessageRecord): string {
  return m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}
