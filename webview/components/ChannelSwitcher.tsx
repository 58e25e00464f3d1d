/**
 * The compact channel switcher at the top of the view: one tab per channel and direct conversation (unread badge,
 * busy dot), and "+" to create a channel (a taken or invalid name is refused as it is typed) or start a direct
 * conversation. Fits a 300 px sidebar: the tabs scroll sideways on one line.
 */
import * as l10n from "@vscode/l10n";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { UNREAD_CAP, type ChannelSummary } from "../../src/shared/protocol";
import { channelLabel } from "../channelLabel";
import type { ChannelListState } from "../channelList";
import { channelNameProblem, normaliseChannelName } from "../channelName";

/**
 * What the switcher and the header do; `create` and `direct` resolve whether the host accepted (then the view
 * switched), `rename` and `remove` the host's refusal (undefined when done).
 */
export interface SwitcherActions {
  open: (name: string) => void;
  create: (name: string) => Promise<boolean>;
  direct: (agent: string) => Promise<boolean>;
  /** Forgets the last create/direct refusal (the form closed, or the name changed). */
  clearError: () => void;
  join: (channelId: string, agent: string) => void;
  leave: (channelId: string, agent: string) => void;
  rename: (channelId: string, name: string) => Promise<string | undefined>;
  remove: (channelId: string) => Promise<string | undefined>;
}

const label = (c: ChannelSummary) => channelLabel(c.name);

function title(c: ChannelSummary): string {
  const parts = [label(c)];
  if (c.description) parts.push(c.description);
  if (c.busy) parts.push(l10n.t("an agent is answering"));
  if (c.unread > 0) parts.push(l10n.t("{0} unread", c.unread >= UNREAD_CAP ? `${UNREAD_CAP}+` : c.unread));
  return parts.join(" — ");
}

/** Renders the tabs; `current` is the open channel's id. */
export function ChannelSwitcher({ list, current, actions }: { list: ChannelListState; current: string | undefined; actions: SwitcherActions }) {
  const [formOpen, setFormOpen] = useState(false);
  const [name, setName] = useState("");
  const input = useRef<HTMLInputElement>(null);
  // `autoFocus` does nothing for an element added after load: the field takes the focus when the form opens.
  useLayoutEffect(() => {
    if (formOpen) input.current?.focus();
  }, [formOpen]);
  const close = () => {
    setFormOpen(false);
    setName("");
    actions.clearError();
  };
  const clean = normaliseChannelName(name);
  const problem = channelNameProblem(name, list.channels);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (clean === "" || problem) return;
    if (await actions.create(clean)) close();
  };
  const direct = async (agent: string) => {
    if (await actions.direct(agent)) close();
  };
  const withDirect = new Set(list.channels.filter((c) => c.kind === "direct").flatMap((c) => c.members));
  return (
    <div class="channel-switcher">
      <nav class="channel-tabs-row" aria-label={l10n.t("Channels")}>
        <ul class="channel-tabs">
          {list.channels.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                class={`channel-tab${c.id === current ? " current" : ""}`}
                data-channel={c.name}
                data-kind={c.kind}
                aria-current={c.id === current ? "page" : undefined}
                title={title(c)}
                onClick={() => c.id !== current && actions.open(c.name)}
              >
                <span class="tab-name">{label(c)}</span>
                {c.busy && <span class="busy-dot" aria-label={l10n.t("busy")} />}
                {c.unread > 0 && c.id !== current && (
                  <span class="unread-badge" aria-label={l10n.t("{0} unread", c.unread)}>
                    {c.unread >= UNREAD_CAP ? `${UNREAD_CAP}+` : c.unread}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" class="channel-add" aria-label={l10n.t("New channel")} aria-expanded={formOpen} title={l10n.t("New channel or direct conversation")} onClick={() => (formOpen ? close() : setFormOpen(true))}>
          +
        </button>
      </nav>
      {formOpen && (
        <form class="channel-create" onSubmit={submit}>
          <input
            ref={input}
            class="channel-create-name"
            aria-label={l10n.t("New channel name")}
            aria-invalid={problem ? true : undefined}
            aria-describedby="channel-create-problem"
            placeholder={l10n.t("new-channel-name")}
            value={name}
            spellcheck={false}
            autocomplete="off"
            onInput={(e) => {
              setName((e.target as HTMLInputElement).value);
              actions.clearError();
            }}
            onKeyDown={(e) => e.key === "Escape" && close()}
          />
          <button type="submit" class="channel-create-ok" disabled={clean === "" || problem !== undefined}>
            {l10n.t("Create")}
          </button>
          {list.agents.some((a) => !withDirect.has(a)) && (
            <div class="channel-create-directs">
              <span>{l10n.t("or talk to")}</span>
              {list.agents.filter((a) => !withDirect.has(a)).map((a) => (
                <button type="button" key={a} class="channel-direct" data-agent={a} onClick={() => void direct(a)}>
                  @{a}
                </button>
              ))}
            </div>
          )}
          <p id="channel-create-problem" class="channel-name-problem channel-create-error" aria-live="polite">
            {problem ?? list.error}
          </p>
        </form>
      )}
    </div>
  );
}
