import type { Roster } from "../../config/roster";
import type { ChannelView } from "../../shared/protocol";
import type { IconUri } from "../EditorPort";

/**
 * Adds each member's roster `icon` and `color` to a channel's view. An image icon is shown only through
 * `iconUri` (a webview cannot load a file path); without it, or when it gives `undefined`, the member has none.
 */
export function withLooks(channel: ChannelView, roster: Roster | undefined, iconUri: IconUri | undefined): ChannelView {
  const agents = roster?.agents;
  if (!agents) return channel;
  const members = channel.members.map((m) => {
    const agent = agents.find((a) => a.name === m.name);
    if (!agent) return m;
    const file = agent.icon?.kind === "file" ? iconUri?.(agent.icon.path) : undefined;
    const icon = agent.icon?.kind === "codicon" ? { codicon: agent.icon.name } : file !== undefined ? { uri: file } : undefined;
    return { ...m, ...(icon ? { icon } : {}), ...(agent.color ? { color: agent.color } : {}) };
  });
  return { ...channel, members };
}
