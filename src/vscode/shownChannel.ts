/**
 * The channel a webview shows, as the host knows it: the last one it opened (`channel/open`), kept by id so that a
 * rename (`channels/changed`) keeps its current name. `Sidekicks: Open Channel in Editor` opens the side view's channel
 * by this name. Pure (no `vscode` import), so it is unit-tested.
 */
import type { ChannelSummary } from "../shared/protocol";

export class ShownChannel {
  private shown: Pick<ChannelSummary, "id" | "name"> | undefined;

  /** The channel's current name (`general`, `@demo`), or undefined before the webview opened one. */
  get name(): string | undefined {
    return this.shown?.name;
  }

  /** The channel's id, or undefined before the webview opened one. */
  get id(): string | undefined {
    return this.shown?.id;
  }

  /** The webview opened `channel` (`channel/open`). */
  opened(channel: Pick<ChannelSummary, "id" | "name">): void {
    this.shown = { id: channel.id, name: channel.name };
  }

  /**
   * The channel list changed (`channels/changed`): takes the shown channel's new name when it was renamed. A deleted
   * channel keeps its last name until the webview opens another one (it goes back to #general by itself).
   */
  changed(channels: readonly Pick<ChannelSummary, "id" | "name">[]): void {
    const now = this.shown && channels.find((c) => c.id === this.shown!.id);
    if (now) this.shown = { id: now.id, name: now.name };
  }
}
