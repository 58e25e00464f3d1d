/** The channel's name and its members with their agents' states. */
import type { AgentState, ChannelView } from "../../src/protocol";
import { channelLabel } from "../channelLabel";

const STATE_LABEL: Record<AgentState, string> = {
  stopped: "stopped",
  starting: "starting",
  ready: "ready",
  busy: "busy",
  error: "error",
};

/** Member editing, offered for ordinary channels (not #general, not a direct conversation). */
export interface MemberEditing {
  /** Roster agents that are not members yet. */
  candidates: readonly string[];
  join: (agent: string) => void;
  leave: (agent: string) => void;
}

/** `#name` and one badge per member; `channel` is absent while the channel opens; `editing` adds ×/+ controls. */
export function ChannelHeader({ channel, editing }: { channel: ChannelView | undefined; editing?: MemberEditing }) {
  return (
    <header class="channel-header">
      <h1 class="channel-name">{channel ? channelLabel(channel.name) : "#…"}</h1>
      {channel && (
        <ul class="members" aria-label="Members">
          {channel.members.length === 0 && <li class="member-none">no members</li>}
          {channel.members.map((m) => (
            <li key={m.name} class={`member state-${m.state}`} data-member={m.name} data-state={m.state} title={`@${m.name}: ${STATE_LABEL[m.state]}`}>
              <span class="member-dot" aria-hidden="true" />
              <span class="member-name">{m.name}</span>
              <span class="member-state">{STATE_LABEL[m.state]}</span>
              {editing && (
                <button type="button" class="member-leave" aria-label={`Remove @${m.name} from ${channelLabel(channel.name)}`} title="Remove from this channel (its messages stay)" onClick={() => editing.leave(m.name)}>
                  ×
                </button>
              )}
            </li>
          ))}
          {editing && editing.candidates.length > 0 && (
            <li>
              <select
                class="member-add"
                aria-label={`Add a member to ${channelLabel(channel.name)}`}
                value=""
                onChange={(e) => {
                  const agent = (e.target as HTMLSelectElement).value;
                  if (agent) editing.join(agent);
                }}
              >
                <option value="">+ member</option>
                {editing.candidates.map((a) => (
                  <option key={a} value={a}>
                    @{a}
                  </option>
                ))}
              </select>
            </li>
          )}
        </ul>
      )}
    </header>
  );
}
