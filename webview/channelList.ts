/**
 * The channel switcher's state: every channel and direct conversation with unread counts and busy markers
 * (`channels/list`, then `channels/changed` events), and the actions the switcher and the header take (create, direct,
 * rename, delete, members, mark read).
 */
import type { ChannelSummary } from "../src/shared/protocol";
import type { HostConnection } from "./host";
import { RequestError } from "./host";

/** What the switcher renders. */
export interface ChannelListState {
  /** False until the first `channels/list` answer. */
  loaded: boolean;
  channels: readonly ChannelSummary[];
  /** The roster's agents, for starting a direct conversation. */
  agents: readonly string[];
  /** Why the last create or direct request failed; cleared by the next one. */
  error?: string;
}

/** Owns the channel list; create one per webview and call `start()`. */
export class ChannelList {
  private state: ChannelListState = { loaded: false, channels: [], agents: [] };
  private readonly listeners = new Set<(state: ChannelListState, previous: ChannelListState) => void>();
  /** The last message id sent as read, per channel: the same one is not posted twice. */
  private readonly read = new Map<string, string>();

  constructor(private readonly host: HostConnection) {}

  /**
   * Subscribes to `channels/changed` (the whole list) and `channels/updated` (changed lines) and loads the list (again after a roster change: agents come and go, and after
   * `channel/reload`: the store was opened again, e.g. the other window holding it closed, so the list and an error
   * from while it was locked are stale).
   */
  start(): void {
    this.host.on("channels/changed", ({ channels }) => this.update({ channels, loaded: true }));
    this.host.on("channels/updated", ({ channels }) => {
      // Lines of a list this view holds: one it has not loaded yet comes whole with `channels/list`.
      const byId = new Map(channels.map((c) => [c.id, c]));
      if (this.state.loaded && this.state.channels.some((c) => byId.has(c.id))) this.update({ channels: this.state.channels.map((c) => byId.get(c.id) ?? c) });
    });
    this.host.on("config/changed", () => void this.reload());
    this.host.on("channel/reload", () => {
      this.clearError();
      void this.reload();
    });
    void this.reload();
  }

  /** The current state. */
  get current(): ChannelListState {
    return this.state;
  }

  /** Registers a listener called after each change with the new and previous state; returns an unsubscribe. */
  subscribe(listener: (state: ChannelListState, previous: ChannelListState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Loads the list again (`channels/list`). Never rejects: a failure goes to `error`. */
  async reload(): Promise<void> {
    try {
      const { channels, agents } = await this.host.request("channels/list", {});
      this.update({ channels, agents, loaded: true });
    } catch (err) {
      this.update({ error: errorText(err) });
    }
  }

  /** Creates a channel (`channel/create`). Resolves its summary, or undefined when refused (the reason in `error`). */
  async create(name: string): Promise<ChannelSummary | undefined> {
    return this.attempt(() => this.host.request("channel/create", { name }));
  }

  /** The direct conversation with `agent` (`channel/direct`), created when missing; undefined when refused. */
  async direct(agent: string): Promise<ChannelSummary | undefined> {
    return this.attempt(() => this.host.request("channel/direct", { agent }));
  }

  /** Renames a channel (`channel/rename`). Resolves the host's refusal, or undefined when it was renamed. */
  async rename(channelId: string, name: string): Promise<string | undefined> {
    return refusal(() => this.host.request("channel/rename", { id: channelId, name }));
  }

  /**
   * Deletes a channel and its messages (`channel/delete`; the header asked the user first). Resolves the host's
   * refusal, or undefined when it was deleted. The `channels/changed` that follows takes the view back to #general.
   */
  async delete(channelId: string): Promise<string | undefined> {
    return refusal(() => this.host.request("channel/delete", { id: channelId }));
  }

  /** Adds an agent to a channel (`channel/join`); a refusal goes to `error`. */
  async join(channelId: string, agent: string): Promise<void> {
    await this.attempt(() => this.host.request("channel/join", { id: channelId, agent }));
  }

  /** Removes an agent from a channel (`channel/leave`); a refusal goes to `error`. */
  async leave(channelId: string, agent: string): Promise<void> {
    await this.attempt(() => this.host.request("channel/leave", { id: channelId, agent }));
  }

  /** Tells the host the user saw `channelId` up to `messageId` (`channel/read`), once per message. */
  markRead(channelId: string, messageId: string): void {
    if (this.read.get(channelId) === messageId) return;
    this.read.set(channelId, messageId);
    const summary = this.state.channels.find((c) => c.id === channelId);
    if (summary && summary.unread > 0) this.update({ channels: this.state.channels.map((c) => (c.id === channelId ? { ...c, unread: 0 } : c)) });
    this.host.request("channel/read", { channelId, messageId }).catch(() => this.read.delete(channelId));
  }

  /** Clears the last error (the create form was closed). */
  clearError(): void {
    if (this.state.error !== undefined) this.update({ error: undefined });
  }

  private async attempt(run: () => Promise<ChannelSummary>): Promise<ChannelSummary | undefined> {
    this.update({ error: undefined });
    try {
      return await run();
    } catch (err) {
      this.update({ error: errorText(err) });
      return undefined;
    }
  }

  private update(patch: Partial<ChannelListState>): void {
    const previous = this.state;
    this.state = { ...previous, ...patch };
    for (const listener of this.listeners) listener(this.state, previous);
  }
}

async function refusal(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    return errorText(err);
  }
}

function errorText(err: unknown): string {
  if (err instanceof RequestError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
