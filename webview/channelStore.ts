/**
 * The open channel's state and the actions the UI takes on it.
 *
 * Host events are queued as they arrive and applied together at most once per animation frame (`flush`), which
 * then notifies the renderer once: 500 `message/delta` events in one frame cost one state update and one render.
 * The state handed to listeners is immutable: a message object changes identity only when that message changed,
 * so the renderer can skip everything else.
 */
import * as l10n from "@vscode/l10n";
import type { AgentCommand, AgentState, ChannelView, ConfigStatus, HostEvents, MessageView, WebviewRequests } from "../src/protocol";
import type { HostConnection } from "./host";
import { RequestError } from "./host";
import { applyDelta, type Draft, materialize, upsertMessage } from "./messageDrafts";

/** Everything the UI renders. */
export interface ViewState {
  phase: "opening" | "open" | "failed";
  /** How many `channel/open` snapshots have been applied; rendered as `data-snapshot` so tests can tell them apart. */
  snapshot: number;
  channel?: ChannelView;
  config?: ConfigStatus;
  messages: readonly MessageView[];
  /** The commands each agent announced (`channel/open`, then `commands/changed`), for the composer's autocomplete. */
  commands: Readonly<Record<string, readonly AgentCommand[]>>;
  /** Why `channel/open` failed, when `phase` is `failed`. */
  openError?: string;
  /** Why the last `channel/send` was refused; cleared by the next send. */
  sendError?: string;
  /** Why the last banner command failed. */
  commandError?: string;
  /** A short sentence for screen readers about the latest change ("demo is answering", …). */
  announcement: string;
}

/** A host command the view offers as a button (`command/run`). */
export type HostCommand = WebviewRequests["command/run"][0]["command"];

/** What the store remembers across webview reloads (VS Code `setState`). */
export interface PersistedState {
  channel?: string;
  /** Composer drafts by channel id: each channel and direct conversation keeps its own. */
  drafts?: Record<string, string>;
  /** Before drafts were per channel: the one draft, given to the first channel opened. */
  draft?: string;
}

type Op =
  | { type: "started" | "finished"; message: MessageView }
  | { type: "delta"; delta: HostEvents["message/delta"] }
  | { type: "channel"; channel: ChannelView }
  | { type: "agent"; agent: string; state: AgentState }
  | { type: "config"; config: ConfigStatus }
  | { type: "commands"; agent: string; commands: AgentCommand[] };

/** Schedules `callback` before the next paint (`requestAnimationFrame` in the browser). */
export type FrameScheduler = (callback: () => void) => void;

/** Counters the tests read: how many frames applied queued changes. */
export const storeStats = { flushes: 0 };

/** Owns the channel state; create one per webview and call `start()`. */
export class ChannelStore {
  private state: ViewState = { phase: "opening", snapshot: 0, messages: [], commands: {}, announcement: "" };
  private queue: Op[] = [];
  private patch: Partial<ViewState> | undefined;
  private frameRequested = false;
  private openGeneration = 0;
  private snapshots = 0;
  /** The channel whose snapshot we hold; set synchronously, unlike `state`, which changes at the next frame. */
  private openChannel: ChannelView | undefined;
  private readonly listeners = new Set<(state: ViewState) => void>();

  constructor(
    private readonly host: HostConnection,
    private readonly persist: (patch: PersistedState) => void,
    private readonly scheduleFrame: FrameScheduler = (cb) => requestAnimationFrame(cb),
  ) {}

  /** Subscribes to host events and opens `channelName` (the host's default channel when absent). */
  start(channelName?: string): void {
    this.host.on("message/started", (message) => this.enqueue({ type: "started", message }));
    this.host.on("message/delta", (delta) => this.enqueue({ type: "delta", delta }));
    this.host.on("message/finished", (message) => this.enqueue({ type: "finished", message }));
    this.host.on("channel/changed", (channel) => this.enqueue({ type: "channel", channel }));
    this.host.on("agent/state", ({ agent, state }) => this.enqueue({ type: "agent", agent, state }));
    this.host.on("config/changed", (config) => this.enqueue({ type: "config", config }));
    this.host.on("commands/changed", ({ agent, commands }) => this.enqueue({ type: "commands", agent, commands }));
    this.host.on("channel/reload", ({ name }) => void this.open(name));
    void this.open(channelName);
  }

  /** The current state (already flushed). */
  get current(): ViewState {
    return this.state;
  }

  /** Registers a listener called after each flush that changed something; returns an unsubscribe function. */
  subscribe(listener: (state: ViewState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Opens a channel by name and replaces all state with the host's snapshot. Never rejects. */
  async open(name?: string): Promise<void> {
    const generation = ++this.openGeneration;
    this.openChannel = undefined;
    this.queue = [];
    this.update({ phase: "opening", openError: undefined });
    try {
      const result = await this.host.request("channel/open", name ? { name } : {});
      if (generation !== this.openGeneration) return;
      this.queue = [];
      this.openChannel = result.channel;
      this.persist({ channel: result.channel.name });
      this.update({
        phase: "open",
        snapshot: ++this.snapshots,
        channel: result.channel,
        config: result.config,
        messages: result.messages,
        commands: result.commands ?? {},
        sendError: undefined,
        announcement: "",
      });
    } catch (err) {
      if (generation !== this.openGeneration) return;
      this.update({ phase: "failed", openError: errorText(err) });
    }
  }

  /**
   * Sends a user message to the open channel (`channel/send`). Resolves `true` when the host accepted it, `false`
   * when it refused (the reason goes to `sendError`) or no channel is open.
   */
  async send(text: string): Promise<boolean> {
    const channel = this.openChannel;
    if (!channel) {
      this.update({ sendError: l10n.t("The channel is not open yet.") });
      return false;
    }
    this.update({ sendError: undefined });
    try {
      await this.host.request("channel/send", { channelId: channel.id, text });
      return true;
    } catch (err) {
      this.update({ sendError: errorText(err) });
      return false;
    }
  }

  /** Answers a permission request (`permission/answer`); rejects with the host's `RequestError`. */
  async answerPermission(requestId: string, optionId: string): Promise<boolean> {
    const { accepted } = await this.host.request("permission/answer", { requestId, optionId });
    return accepted;
  }

  /** Stops a streaming or queued agent message (`turn/cancel`); a failure goes to `sendError`. */
  async stop(messageId: string): Promise<void> {
    try {
      await this.host.request("turn/cancel", { messageId });
    } catch (err) {
      this.update({ sendError: errorText(err) });
    }
  }

  /** Runs a new attempt of an interrupted or failed answer (`turn/retry`); a failure goes to `sendError`. */
  async retry(messageId: string): Promise<void> {
    try {
      const { retried } = await this.host.request("turn/retry", { messageId });
      if (!retried) this.update({ sendError: l10n.t("This answer cannot be retried now (it is running again, or it finished).") });
    } catch (err) {
      this.update({ sendError: errorText(err) });
    }
  }

  /** Runs a queued message now (`turn/sendNow`): the agent's running answer here is stopped first. */
  async sendNow(messageId: string): Promise<void> {
    try {
      await this.host.request("turn/sendNow", { messageId });
    } catch (err) {
      this.update({ sendError: errorText(err) });
    }
  }

  /** Runs a host command offered by a button (`command/run`); failures go to `commandError`. */
  async runCommand(command: HostCommand): Promise<void> {
    this.update({ commandError: undefined });
    try {
      await this.host.request("command/run", { command });
    } catch (err) {
      this.update({ commandError: errorText(err) });
    }
  }

  /** Applies everything queued now instead of at the next frame (used before the host reads the DOM). */
  flushNow(): void {
    this.flush();
  }

  private enqueue(op: Op): void {
    if (!this.openChannel) return; // the snapshot `channel/open` will return already includes it
    this.queue.push(op);
    this.requestFrame();
  }

  private update(patch: Partial<ViewState>): void {
    this.patch = { ...this.patch, ...patch };
    this.requestFrame();
  }

  private requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.scheduleFrame(() => this.flush());
  }

  private flush(): void {
    this.frameRequested = false;
    if (!this.queue.length && !this.patch) return;
    storeStats.flushes++;
    let next: ViewState = this.patch ? { ...this.state, ...this.patch } : { ...this.state };
    this.patch = undefined;
    const ops = this.queue;
    this.queue = [];
    if (ops.length) next = applyOps(next, ops);
    this.state = next;
    for (const listener of this.listeners) listener(next);
  }
}

/** Applies queued host events to `state` in arrival order; text deltas to one message are joined once. */
function applyOps(state: ViewState, ops: Op[]): ViewState {
  const channelId = state.channel?.id;
  const messages = state.messages.slice();
  const drafts = new Map<string, Draft>();
  let { channel, config, announcement, commands } = state;
  for (const op of ops) {
    switch (op.type) {
      case "agent":
        if (channel?.members.some((m) => m.name === op.agent && m.state !== op.state)) {
          channel = { ...channel, members: channel.members.map((m) => (m.name === op.agent ? { ...m, state: op.state } : m)) };
        }
        break;
      case "channel":
        if (op.channel.id === channelId) channel = op.channel;
        break;
      case "config":
        config = op.config;
        break;
      case "commands":
        commands = { ...commands, [op.agent]: op.commands };
        break;
      case "started":
      case "finished":
        if (op.message.channelId !== channelId) break;
        drafts.delete(op.message.id);
        upsertMessage(messages, op.message);
        announcement = announce(op.type, op.message) ?? announcement;
        break;
      case "delta":
        if (op.delta.channelId === channelId) applyDelta(messages, drafts, op.delta);
        break;
    }
  }
  for (const draft of drafts.values()) materialize(messages, draft);
  return { ...state, channel, config, announcement, commands, messages };
}

function announce(type: "started" | "finished", message: MessageView): string | undefined {
  if (message.author.kind !== "agent") return undefined;
  const name = message.author.agentName ?? "agent";
  if (type === "started") return message.status === "queued" ? l10n.t("{0} will answer after its current message", name) : l10n.t("{0} is answering", name);
  if (message.error) return l10n.t("{0} failed: {1}", name, message.error.message);
  return l10n.t("{0} finished", name);
}

function errorText(err: unknown): string {
  if (err instanceof RequestError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
