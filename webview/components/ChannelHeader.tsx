/** The channel's name and its members with their agents' states. */
import type { AgentState, ChannelView } from "../../src/protocol";

const STATE_LABEL: Record<AgentState, string> = {
  stopped: "stopped",
  starting: "starting",
  ready: "ready",
  busy: "busy",
  error: "error",
};

/** `#name` and one badge per member; `channel` is absent while the channel opens. */
export function ChannelHeader({ channel }: { channel: ChannelView | undefined }) {
  return (
    <header class="channel-header">
      <h1 class="channel-name">#{channel?.name ?? "…"}</h1>
      {channel && (
        <ul class="members" aria-label="Members">
          {channel.members.length === 0 && <li class="member-none">no members</li>}
          {channel.members.map((m) => (
            <li key={m.name} class={`member state-${m.state}`} data-member={m.name} data-state={m.state} title={`@${m.name}: ${STATE_LABEL[m.state]}`}>
              <span class="member-dot" aria-hidden="true" />
              <span class="member-name">{m.name}</span>
              <span class="member-state">{STATE_LABEL[m.state]}</span>
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}
