/**
 * The channel's name and its members with their agents' states; for a channel that allows it, rename (an inline
 * field checked as you type) and delete (an inline confirmation that names the channel and says its messages go too).
 */
import { showBidiControls } from "../ansi";
import * as l10n from "@vscode/l10n";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { ChannelSummary, ChannelView, SessionChange, SessionStateView } from "../../src/shared/protocol";
import { channelLabel } from "../channelLabel";
import { channelNameProblem, normaliseChannelName } from "../channelName";
import { MemberBadges } from "./MemberBadges";
import { formatCosts, totalOf } from "../../src/shared/usageTotals";

/** The members' sessions (issue 6): their states, who waits for the user, and how to change a setting. */
export interface MemberSessions {
  states: Readonly<Record<string, SessionStateView>>;
  /** Agents with a permission request waiting for the user in this channel. */
  waiting: ReadonlySet<string>;
  configure: (agent: string, change: SessionChange) => Promise<string | undefined>;
}

/** Member editing, offered for ordinary channels (not #general, not a direct conversation). */
export interface MemberEditing {
  /** Roster agents that are not members yet. */
  candidates: readonly string[];
  join: (agent: string) => void;
  leave: (agent: string) => void;
}

/**
 * Renaming and deleting the open channel, mirroring what the host refuses: #general is neither renamed nor deleted
 * (then there is no `ChannelManagement` at all), a direct conversation is not renamed (`rename` absent), and a
 * channel where a member is answering (`summary.busy`) is not deleted.
 */
export interface ChannelManagement {
  summary: ChannelSummary;
  /** Every channel, to refuse a name that is taken as it is typed. */
  channels: readonly ChannelSummary[];
  /** Resolves the host's refusal, or undefined when renamed. */
  rename?: (name: string) => Promise<string | undefined>;
  /** Resolves the host's refusal, or undefined when deleted. */
  remove: () => Promise<string | undefined>;
}

/**
 * `#name` and one badge per member; `channel` is absent while the channel opens (or could not be opened: then the
 * name `requested`, if any, is shown); `editing` adds ×/+ controls; `manage` adds the rename and delete buttons.
 * Keyed by channel id by the caller, so a switch closes any form.
 */
export function ChannelHeader({ channel, requested, editing, manage, sessions, description }: { channel: ChannelView | undefined; requested?: string; editing?: MemberEditing; manage?: ChannelManagement; sessions?: MemberSessions; description?: string }) {
  const [mode, setMode] = useState<"idle" | "renaming" | "deleting">("idle");
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const label = channel ? channelLabel(channel.name) : requested ? channelLabel(requested) : "#…";
  /** Where the focus goes back once a form closed (the button that opened it; nowhere after a delete). */
  const refocus = useRef<"rename" | "delete" | "none">("none");
  useLayoutEffect(() => {
    if (mode !== "idle" || refocus.current === "none") return;
    (refocus.current === "rename" ? renameButton : deleteButton).current?.focus();
    refocus.current = "none";
  }, [mode]);
  const close = (focus: "rename" | "delete" | "none") => {
    refocus.current = focus;
    setMode("idle");
  };
  return (
    <header class="channel-header">
      {channel && manage?.rename && mode === "renaming" ? (
        <RenameForm channel={channel} manage={manage} rename={manage.rename} close={() => close("rename")} />
      ) : (
        <div class="channel-title">
          <h1 class="channel-name">{label}</h1>
          {channel && manage && (
            <span class="channel-actions">
              {manage.rename && (
                <button
                  ref={renameButton}
                  type="button"
                  class="icon-button channel-rename"
                  aria-label={l10n.t("Rename {0}", label)}
                  title={l10n.t("Rename {0}", label)}
                  onClick={() => setMode("renaming")}
                >
                  <PencilIcon />
                </button>
              )}
              <button
                ref={deleteButton}
                type="button"
                class="icon-button channel-delete"
                aria-label={l10n.t("Delete {0}…", label)}
                title={l10n.t("Delete {0} and its messages…", label)}
                aria-expanded={mode === "deleting"}
                aria-controls={mode === "deleting" ? "channel-delete-confirm" : undefined}
                onClick={() => (mode === "deleting" ? close("delete") : setMode("deleting"))}
              >
                <TrashIcon />
              </button>
            </span>
          )}
        </div>
      )}
      {channel && description && (
        // What the channel is for (roster `channels[].description`, or set with Sidekicks: Describe channel): one line, whole on hover.
        <p class="channel-description" title={description}>
          {showBidiControls(description)}
        </p>
      )}
      {channel && (
        <ul id="channel-members" class="members" aria-label={l10n.t("Members")}>
          <MemberBadges channel={channel} sessions={sessions} editing={editing} />
          {sessions && <ChannelTotal channel={channel} states={sessions.states} />}
          {editing && editing.candidates.length > 0 && (
            <li>
              <select
                class="member-add"
                aria-label={l10n.t("Add a member to {0}", channelLabel(channel.name))}
                value=""
                onChange={(e) => {
                  const agent = (e.target as HTMLSelectElement).value;
                  if (agent) editing.join(agent);
                }}
              >
                <option value="">{l10n.t("+ member")}</option>
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
      {channel && manage && mode === "deleting" && <DeleteConfirm label={label} manage={manage} close={(done) => close(done ? "none" : "delete")} />}
    </header>
  );
}

/**
 * What the channel cost so far (issue 21): every member's sessions, earlier ones included (`spent`), summed by currency;
 * nothing when no agent reported a cost.
 */
function ChannelTotal({ channel, states }: { channel: ChannelView; states: Readonly<Record<string, SessionStateView>> }) {
  const total = formatCosts(totalOf(channel.members.map((m) => states[m.name]).filter((s): s is SessionStateView => !!s)));
  if (!total) return null;
  const title = l10n.t("Cost of {0} so far: {1} (all members, all sessions)", channelLabel(channel.name), total);
  return (
    <li class="channel-total" title={title} aria-label={title}>
      {l10n.t("Total: {0}", total)}
    </li>
  );
}

/**
 * The rename field, in place of the name: filled with the current name and selected; a name that is taken or breaks
 * the host's rule is refused as it is typed (`#docs already exists.`); Enter renames, Escape cancels.
 */
function RenameForm({ channel, manage, rename, close }: { channel: ChannelView; manage: ChannelManagement; rename: (name: string) => Promise<string | undefined>; close: () => void }) {
  const [value, setValue] = useState(channel.name);
  const [refused, setRefused] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const label = channelLabel(channel.name);
  const name = normaliseChannelName(value);
  const problem = channelNameProblem(value, manage.channels, channel.id);
  const message = problem ?? refused;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (pending || problem || name === "") return;
    if (name === channel.name) return close();
    setPending(true);
    const refusal = await rename(name);
    setPending(false);
    if (refusal === undefined) close();
    else setRefused(refusal);
  };
  return (
    <form class="channel-rename-form" onSubmit={submit} aria-label={l10n.t("Rename {0}", label)}>
      <span class="channel-rename-hash" aria-hidden="true">
        #
      </span>
      <input
        ref={input}
        class="channel-rename-name"
        aria-label={l10n.t("New name for {0}", label)}
        aria-invalid={problem ? true : undefined}
        aria-describedby="channel-rename-problem"
        value={value}
        spellcheck={false}
        autocomplete="off"
        onInput={(e) => {
          setValue((e.target as HTMLInputElement).value);
          setRefused(undefined);
        }}
        onKeyDown={(e) => {
          if (e.key !== "Escape") return;
          e.preventDefault();
          e.stopPropagation();
          close();
        }}
      />
      <button type="submit" class="channel-rename-ok" disabled={pending || problem !== undefined || name === ""}>
        {l10n.t("Rename")}
      </button>
      <button type="button" class="channel-rename-cancel" onClick={() => close()}>
        {l10n.t("Cancel")}
      </button>
      <p id="channel-rename-problem" class="channel-name-problem" aria-live="polite">
        {message}
      </p>
    </form>
  );
}

/**
 * The delete confirmation: names the channel, says its messages are deleted too, and focuses "Delete" so Enter
 * confirms; Escape (or Cancel) keeps the channel. While a member answers there the host refuses, so "Delete" waits.
 */
function DeleteConfirm({ label, manage, close }: { label: string; manage: ChannelManagement; close: (done: boolean) => void }) {
  const [refused, setRefused] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const ok = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const busy = manage.summary.busy;
  useLayoutEffect(() => {
    (busy ? cancel : ok).current?.focus();
  }, []);
  const confirm = async () => {
    if (pending || busy) return;
    setPending(true);
    const refusal = await manage.remove();
    setPending(false);
    if (refusal === undefined) close(true);
    else setRefused(refusal);
  };
  return (
    <div
      id="channel-delete-confirm"
      class="channel-delete-confirm"
      role="alertdialog"
      aria-labelledby="channel-delete-title"
      aria-describedby="channel-delete-detail"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          close(false);
        }
      }}
    >
      <p id="channel-delete-title" class="channel-delete-title">
        {manage.summary.kind === "direct" ? l10n.t("Delete the conversation {0}?", label) : l10n.t("Delete {0}?", label)}
      </p>
      <p id="channel-delete-detail" class="channel-delete-detail">
        {l10n.t("Its messages are deleted too. This cannot be undone.")}
      </p>
      {busy && (
        <p class="channel-delete-busy" role="status">
          {l10n.t("An agent is still answering in {0}: stop it first, then delete.", label)}
        </p>
      )}
      <div class="channel-delete-buttons">
        <button ref={ok} type="button" class="channel-delete-ok" disabled={pending || busy} onClick={() => void confirm()}>
          {l10n.t("Delete {0}", label)}
        </button>
        <button ref={cancel} type="button" class="channel-delete-cancel" onClick={() => close(false)}>
          {l10n.t("Cancel")}
        </button>
      </div>
      {refused && (
        <p class="channel-delete-error" role="alert">
          {refused}
        </p>
      )}
    </div>
  );
}

function PencilIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M11.2 2.3l2.5 2.5-8.2 8.2-3.2.7.7-3.2z M9.7 3.8l2.5 2.5" fill="none" stroke="currentColor" stroke-width="1.2" stroke-linejoin="round" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M2.5 4.5h11 M6 4.5V2.8h4v1.7 M4 4.5l.8 9h6.4l.8-9 M6.8 7v4.5 M9.2 7v4.5" fill="none" stroke="currentColor" stroke-width="1.2" stroke-linejoin="round" />
    </svg>
  );
}
