import type { AgentCommand, AgentState, AgentWait, ChannelSummary, ChannelView, ConfigStatus, ErrorInfo, MessageView, Part, SessionStateView } from "../shared/protocol";

/** One permission request waiting for the user. */
export interface PendingPermission {
  channelId: string;
  messageId: string;
  agent: string;
  requestId: string;
  title: string;
}

/**
 * The domain's events and their payloads (the original design's ADR 0003, "Events from Go to the UI"). An event the webview also receives
 * has the name of the protocol's (`HostEvents` in `src/shared/protocol/messages.ts`: `message/finished`, …); the
 * others are named in the same `noun/verb` style. Emitted by the domain through an {@link Emitter}; `src/app/`
 * projects them to the webview.
 */
export interface SidekicksEvents {
  "config/changed": ConfigStatus;
  /** `waiting`: what Sidekicks waits for the running agent to answer (shown instead of "ready"/"busy"), if anything. */
  "agent/state": { agent: string; state: AgentState; error?: ErrorInfo; waiting?: AgentWait };
  /**
   * What Sidekicks waits for the running agent to answer changed (a request with a deadline began or ended, issue 18);
   * `state` is the agent's state, unchanged. Not a transition: `agent/state` stays one event per transition.
   */
  "agent/waiting": { agent: string; state: AgentState; waiting?: AgentWait };
  "agent/log": { agent: string; level: "info" | "debug" | "warn" | "error"; line: string };
  /** An agent announced its commands (ACP `available_commands_update`), whichever session it came from. */
  "commands/changed": { agent: string; commands: AgentCommand[] };
  /**
   * An agent's session in channel `channelId` changed its settings or meters: opened,
   * ACP `current_mode_update`/`config_option_update`/`usage_update`/`session_info_update`, a change the user made, or
   * a refused change (the unchanged state, so controls revert). `live` false: the session's process has gone.
   */
  "session/state": SessionStateView;
  "channel/changed": ChannelView;
  /** The channel list changed: a channel was created, renamed, described or deleted. The whole list. */
  "channels/changed": ChannelSummary[];
  /** Lines of the channel list changed (unread counts, members, busy markers), the others as they were: those lines. */
  "channels/updated": ChannelSummary[];
  "message/started": MessageView;
  "message/delta": { channelId: string; messageId: string; appendText?: string; part?: Part };
  /** Emitted only after the message is committed to the store (settlement first, projection second). */
  "message/finished": MessageView;
  /**
   * Permission requests waiting for the user changed (any agent, any channel), oldest first: the status bar item,
   * the view's badge and `Sidekicks: Go to next permission request` follow it.
   */
  "permissions/pending": { waiting: PendingPermission[] };
  /** Output of an agent's terminal (gathered), and its exit status when it exits. */
  "terminal/output": { terminalId: string; text: string; exitStatus?: { exitCode: number | null; signal: string | null } };
  /** The history store opened after another window let go of it (it was `store/locked`). */
  "store/opened": { storageDir: string };
}

export type SidekicksEventName = keyof SidekicksEvents;

/** Where the domain emits events. */
export interface Emitter {
  emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void;
}

type Listener<E extends SidekicksEventName> = (payload: SidekicksEvents[E]) => void;

/** An in-process emitter with typed listeners; a listener that throws does not stop the others. */
export class EventBus implements Emitter {
  private readonly listeners = new Map<SidekicksEventName, Set<Listener<never>>>();

  emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as Listener<E>)(payload);
      } catch (err) {
        console.error(`sidekicks: listener for ${name} failed`, err);
      }
    }
  }

  /** Adds a listener; returns a function that removes it. */
  on<E extends SidekicksEventName>(name: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }
}

/** Test emitter that records every event in order. */
export class Recorder implements Emitter {
  readonly events: { name: SidekicksEventName; payload: unknown }[] = [];

  emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
    this.events.push({ name, payload });
  }

  /** Payloads of the events named `name`, in order. */
  of<E extends SidekicksEventName>(name: E): SidekicksEvents[E][] {
    return this.events.filter((e) => e.name === name).map((e) => e.payload as SidekicksEvents[E]);
  }
}
