import type { AgentState, SessionChange, SessionStateView } from "../shared/protocol";
import type { SessionSource } from "../turns/TurnExecutor";
import type { SessionMcpServers } from "../agents/AgentManager";

/** What channels need of the agent manager (the original design's ADR 0003 Amendment 3, `AgentSource`). */
export interface AgentSource extends SessionSource {
  names(): string[];
  state(name: string): AgentState;
  /** The session state of `agent` in channel `channelId` in this activation (AgentManager.sessionState). */
  sessionState?(agent: string, channelId: string): SessionStateView | undefined;
  /** Remembers a state an earlier activation stored (AgentManager.seedSessionState). */
  seedSessionState?(state: SessionStateView): void;
  /** Changes a session setting, opening or resuming the session first (AgentManager.configure). */
  configure?(agent: string, channelId: string, change: SessionChange, options?: { resumeSessionId?: string }): Promise<{ state: SessionStateView; sessionId: string }>;
  /** Sets what adds Sidekicks' own MCP servers to the sessions opened from now on (AgentManager.setSessionMcpServers). */
  setSessionMcpServers?(provider: SessionMcpServers | undefined): void;
}
