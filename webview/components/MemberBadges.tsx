/**
 * The channel header's member badges. A channel with many members (a fresh-user trial had 14, and their badges took a
 * third of a 600 px side bar) shows a few and a "+N more" button: every member that needs the user's eye (answering,
 * starting, waiting for the user, failed) and then the first others in roster order, up to `SHOWN`. The button lists
 * the rest; it is a disclosure (`aria-expanded`), and the choice is kept while the header lives (one channel).
 */
import * as l10n from "@vscode/l10n";
import { useState } from "preact/hooks";
import type { AgentState, AgentWait, ChannelView, SessionStateView } from "../../src/shared/protocol";
import { agentStatusLabel } from "../../src/shared/stateLabel";
import { channelLabel } from "../channelLabel";
import { hasSessionControls, SessionControls } from "./SessionControls";
import type { MemberEditing, MemberSessions } from "./ChannelHeader";

/** What a member's badge says: its agent's state, or "waiting for you" while one of its permission requests waits. */
type Activity = AgentState | "waiting";

/** How many badges a long member list shows before "+N more" (two rows in a 300 px side bar). */
export const SHOWN = 5;

/**
 * A member badge's word for `activity`, in the editor's language: the Agents view's word for the agent's state, or
 * what Sidekicks waits for the agent to answer (`waiting`, issue 18: "starting session…").
 */
function stateLabel(activity: Activity, waiting?: AgentWait): string {
  return activity === "waiting" ? l10n.t("waiting for you") : agentStatusLabel(activity, waiting);
}

/** A member's activity: `waiting` while a permission request of its waits for the user, else its agent's state. */
function activityOf(member: ChannelView["members"][number], sessions: MemberSessions | undefined): Activity {
  return member.state !== "error" && sessions?.waiting.has(member.name) ? "waiting" : member.state;
}

/** True for an activity the user should see without opening the list: answering, starting, waiting, failed. */
function needsEye(activity: Activity): boolean {
  return activity === "busy" || activity === "starting" || activity === "waiting" || activity === "error";
}

/**
 * The members to show folded (roster order kept): those that need the user's eye, then the first others until
 * `SHOWN`; all of them when hiding would save fewer than two badges.
 */
export function foldedMembers<M extends { name: string }>(members: readonly M[], activity: (m: M) => Activity): readonly M[] {
  if (members.length <= SHOWN + 1) return members;
  const eye = members.filter((m) => needsEye(activity(m)));
  let others = SHOWN - eye.length;
  return members.filter((m) => eye.includes(m) || others-- > 0);
}

/**
 * The `<li>` badges of `channel`'s members, folded as above (the others are in the list, `hidden`, so the toggle
 * controls them and each member's state is still read from its badge), with the "+N more" / "Show fewer" toggle.
 */
export function MemberBadges({ channel, sessions, editing }: { channel: ChannelView; sessions?: MemberSessions; editing?: MemberEditing }) {
  const [open, setOpen] = useState(false);
  const all = channel.members;
  const folded = foldedMembers(all, (m) => activityOf(m, sessions));
  const shown = open ? all : folded;
  const hidden = all.length - folded.length;
  return (
    <>
      {all.length === 0 && <li class="member-none">{l10n.t("no members")}</li>}
      {all.map((m) => (
        <MemberBadge key={m.name} member={m} hidden={!shown.includes(m)} activity={activityOf(m, sessions)} channel={channel} sessions={sessions} editing={editing} />
      ))}
      {hidden > 0 && (
        <li class="member-more-item">
          <button
            type="button"
            class="member-more"
            aria-expanded={open}
            aria-controls="channel-members"
            title={open ? l10n.t("Show fewer members") : l10n.t("Show the other {0} members: {1}", hidden, all.filter((m) => !folded.includes(m)).map((m) => `@${m.name}`).join(", "))}
            onClick={() => setOpen(!open)}
          >
            {open ? l10n.t("Show fewer") : l10n.t("+{0} more", hidden)}
          </button>
        </li>
      )}
    </>
  );
}

/** One member's badge: dot, name, state word, its session button, and × when members can be edited. */
function MemberBadge({ member: m, hidden, activity, channel, sessions, editing }: { member: ChannelView["members"][number]; hidden: boolean; activity: Activity; channel: ChannelView; sessions?: MemberSessions; editing?: MemberEditing }) {
  const session: SessionStateView | undefined = sessions?.states[m.name];
  const title = session?.title ? l10n.t("@{0}: {1}\n“{2}”", m.name, stateLabel(activity, m.waiting), session.title) : l10n.t("@{0}: {1}", m.name, stateLabel(activity, m.waiting));
  return (
    <li class={`member state-${m.state} activity-${activity}`} hidden={hidden} data-member={m.name} data-state={m.state} data-activity={activity} title={title}>
      <span class="member-dot" aria-hidden="true" />
      <span class="member-name">{m.name}</span>
      <span class="member-state">{stateLabel(activity, m.waiting)}</span>
      {sessions && hasSessionControls(session) && <SessionControls state={session} configure={(change) => sessions.configure(m.name, change)} />}
      {editing && (
        <button type="button" class="member-leave" aria-label={l10n.t("Remove @{0} from {1}", m.name, channelLabel(channel.name))} title={l10n.t("Remove from this channel (its messages stay)")} onClick={() => editing.leave(m.name)}>
          ×
        </button>
      )}
    </li>
  );
}
