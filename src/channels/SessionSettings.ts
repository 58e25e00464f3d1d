import * as l10n from "@vscode/l10n";
import { asSessionState } from "../agents/sessionState";
import { SidekicksError } from "../shared/errors";
import type { SessionChange, SessionStateView } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { Decision, StoreWriter } from "../store/StoreWriter";
import type { SessionSource, TurnExecutor } from "../turns/TurnExecutor";
import type { AgentSource } from "./AgentSource";

/** `value/` key of the last known session state of an agent in a channel (issue 6, "Session controls"). */
const sessionStateKey = (channelId: string, agent: string) => `sessionState/${channelId}/${agent}`;

/** What {@link SessionSettings} works with. */
export interface SessionSettingsPorts {
  store: Store;
  /** The store's one write lane: a session state is stored there ({@link decideKeepSessionState}). */
  writer: StoreWriter;
  agents: AgentSource;
  /** The turn executor: a session id the change opened is stored through it (the reducer's `sessionOpened`). */
  executor: TurnExecutor;
  /** Resolves once the channels recovered what the previous activation left open. */
  ready(): Promise<void>;
}

/**
 * Each member's session settings in a channel (issue 6, "Session controls"): modes, config options and models
 * changed from the header, the last known state kept under `value/sessionState/<channel>/<agent>` so the header shows
 * it after a reload, and restored into a session opened for a turn.
 */
export class SessionSettings {
  constructor(private readonly ports: SessionSettingsPorts) {}

  /**
   * Changes a setting of `agent`'s session in a channel (ACP `session/set_mode`, `session/set_config_option`, the legacy
   * `session/set_model`); when the session's process has gone, the member's stored session is resumed (or a new one
   * opened) first, and its id stored as a turn would.
   * @returns the session state after the change
   * @throws SidekicksError `channel/unknownMember`, `session/invalidChange`, `agent/request` (refused), and what opening
   *   a session throws
   */
  async configure(channelId: string, agent: string, change: SessionChange): Promise<SessionStateView> {
    const { store, agents } = this.ports;
    await this.ports.ready();
    const member = (await store.members(channelId)).find((m) => m.agentName === agent);
    if (!member) throw new SidekicksError("channel/unknownMember", l10n.t("@{0} is not a member of this channel: add it first.", agent));
    if (!agents.configure) throw new SidekicksError("agent/unsupported", l10n.t("Session settings cannot be changed here."));
    await this.sessionStates(channelId, [agent]);
    const { state, sessionId } = await agents.configure(agent, channelId, change, member.acpSessionId ? { resumeSessionId: member.acpSessionId } : {});
    await this.ports.executor.submit({ type: "sessionOpened", channelId, agent, sessionId });
    return state;
  }

  /**
   * The last known session state of each of `agents` in a channel, by agent name: this activation's (live) when the
   * session was opened here, else the one stored before (`live` false).
   */
  async sessionStates(channelId: string, agents: readonly string[]): Promise<Record<string, SessionStateView>> {
    const out: Record<string, SessionStateView> = {};
    for (const agent of agents) {
      let state = this.ports.agents.sessionState?.(agent, channelId);
      if (!state) {
        state = asSessionState(await this.ports.store.getValue(sessionStateKey(channelId, agent)));
        if (state && state.channelId === channelId && state.agent === agent) this.ports.agents.seedSessionState?.(state);
      }
      if (state && state.channelId === channelId && state.agent === agent) out[agent] = state;
    }
    return out;
  }

  /**
   * Every session state stored, all channels and agents (the Agents view's cost totals per agent, issue 21): the ones
   * kept after each change (`value/sessionState/…`), checked where they are read.
   */
  async storedStates(): Promise<SessionStateView[]> {
    return (await this.ports.store.values("sessionState/")).map(asSessionState).filter((s): s is SessionStateView => s !== undefined);
  }

  /**
   * Stores a session state (`session/state`) so that it is shown after a reload.
   * @throws SidekicksError `store/writeFailed`
   */
  async keepSessionState(state: SessionStateView): Promise<void> {
    await this.ports.writer.write(() => undefined, () => decideKeepSessionState(state));
  }
}

/** What keeping a session state writes (pure): the state under `value/sessionState/<channel>/<agent>`, not live. */
export function decideKeepSessionState(state: SessionStateView): Decision<void> {
  return { changes: { values: [{ key: sessionStateKey(state.channelId, state.agent), value: { ...state, live: false } }] }, result: undefined };
}

/** `agents`, whose `session` first makes the stored session state (the user's choices with it) known to the manager. */
export function withStoredChoices(agents: AgentSource, seed: (channelId: string, agent: string) => Promise<unknown>): SessionSource {
  return {
    session: async (agent, channelId, sink, options) => {
      await seed(channelId, agent);
      return agents.session(agent, channelId, sink, options);
    },
    ...(agents.workspaceOf ? { workspaceOf: (agent: string) => agents.workspaceOf!(agent) } : {}),
    ...(agents.inWorktree ? { inWorktree: (agent: string) => agents.inWorktree!(agent) } : {}),
  };
}
