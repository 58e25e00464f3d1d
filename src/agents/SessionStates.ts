import type { SessionSetup } from "../acp/types";
import type { Emitter } from "../events/events";
import type { SessionChange, SessionStateView } from "../shared/protocol";
import { describeSetting, followReported, recordChoice, type RestoreOutcome } from "./sessionChoices";
import { applyAccepted, applySessionUpdate, openedState, type SessionStateUpdate } from "./sessionState";

/** Updates kept for a session whose channel is not known yet (they came just behind its `session/new` answer). */
const UNCLAIMED_LIMIT = 32;

/**
 * The latest settings and meters of each (agent, channel) session (issue 6, "Session controls"), in memory; every
 * change is emitted as `session/state` (the app stores it and shows it). Bounded: one state per agent and channel.
 */
export class SessionStates {
  private readonly states = new Map<string, SessionStateView>();
  /** Sessions opened whose user choices are being restored (keys of {@link states}). */
  private readonly restoring = new Set<string>();
  /** sessionId → updates that arrived before the session's channel was known. */
  private readonly unclaimed = new Map<string, SessionStateUpdate[]>();

  constructor(private readonly emitter: Emitter) {}

  /** The state of `agent`'s session for `channelId` in this activation, if one was opened. */
  get(agent: string, channelId: string): SessionStateView | undefined {
    return this.states.get(key(agent, channelId));
  }

  /**
   * Remembers a state stored by an earlier activation (`live` false) unless one is known already, without emitting:
   * a session resumed later keeps its usage and title.
   */
  seed(state: SessionStateView): void {
    const k = key(state.agent, state.channelId);
    if (!this.states.has(k)) this.states.set(k, { ...state, live: false });
  }

  /**
   * A session was opened (ACP `session/new` or `session/load` answered `setup`); updates held for it are applied. Until
   * {@link restoreEnded}, what the agent reports does not replace the user's choices: they are being restored.
   */
  opened(agent: string, channelId: string, sessionId: string, setup: SessionSetup, resumed: boolean): void {
    let state = openedState(this.states.get(key(agent, channelId)), channelId, agent, setup, resumed);
    for (const update of this.unclaimed.get(sessionId) ?? []) state = applySessionUpdate(state, update);
    this.unclaimed.delete(sessionId);
    this.restoring.add(key(agent, channelId));
    this.set(state);
  }

  /** An ACP session update for `sessionId`; `channelId` undefined: not known yet, held until {@link opened}. */
  update(agent: string, channelId: string | undefined, sessionId: string, update: SessionStateUpdate): void {
    const state = channelId === undefined ? undefined : this.states.get(key(agent, channelId));
    if (!state) {
      const held = this.unclaimed.get(sessionId) ?? [];
      if (held.length < UNCLAIMED_LIMIT) held.push(update);
      this.unclaimed.set(sessionId, held);
      if (this.unclaimed.size > UNCLAIMED_LIMIT) this.unclaimed.delete(this.unclaimed.keys().next().value!);
      return;
    }
    const next = applySessionUpdate(state, update);
    // Mid-session, the agent moving a chosen setting (after the user approved a plan, say) is the new choice.
    if (!this.restoring.has(key(agent, channelId!)) && next.chosen) {
      const chosen = followReported(state, next, update);
      if (chosen) next.chosen = chosen;
    }
    this.set(next);
  }

  /** The agent accepted the user's change (`configOptions`: the full set `session/set_config_option` answered). */
  accepted(agent: string, channelId: string, change: SessionChange, configOptions?: SessionStateView["configOptions"]): SessionStateView | undefined {
    const state = this.states.get(key(agent, channelId));
    if (!state) return undefined;
    const next = applyAccepted(state, change, configOptions);
    next.chosen = recordChoice(state.chosen, change);
    const { setting } = describeSetting(change);
    const notRestored = state.notRestored?.filter((n) => n.setting !== setting);
    if (notRestored?.length) next.notRestored = notRestored;
    else delete next.notRestored;
    return this.set(next);
  }

  /**
   * The user's choices were set again on a session just opened (`restored`, as the agent accepted them) or refused
   * (`refused`, with the agent's reasons, shown in the controls). Ends the restoring window {@link opened} began.
   */
  restoreEnded(agent: string, channelId: string, outcome: RestoreOutcome): SessionStateView | undefined {
    this.restoring.delete(key(agent, channelId));
    let state = this.states.get(key(agent, channelId));
    if (!state) return undefined;
    for (const { change, configOptions } of outcome.restored) state = applyAccepted(state, change, configOptions);
    state = { ...state };
    if (outcome.refused.length > 0) state.notRestored = outcome.refused;
    else delete state.notRestored;
    return outcome.restored.length > 0 || outcome.refused.length > 0 || this.states.get(key(agent, channelId))?.notRestored ? this.set(state) : state;
  }

  /** The agent refused a change: the unchanged state is emitted again, so controls that moved go back. */
  refused(agent: string, channelId: string): void {
    const state = this.states.get(key(agent, channelId));
    if (state) this.emitter.emit("session/state", state);
  }

  /** The agent's process is going: its sessions' states stay known, no longer live. */
  gone(agent: string, channelIds: Iterable<string>): void {
    for (const channelId of channelIds) {
      const state = this.states.get(key(agent, channelId));
      if (state?.live) this.set({ ...state, live: false });
    }
  }

  private set(state: SessionStateView): SessionStateView {
    this.states.set(key(state.agent, state.channelId), state);
    this.emitter.emit("session/state", state);
    return state;
  }
}

function key(agent: string, channelId: string): string {
  return `${agent}\u0000${channelId}`;
}
