/**
 * A message's actions (issue 19), in its header: Copy as Markdown, Quote in composer, Open in editor, and Edit (a user
 * message) or Regenerate (an agent's answer). Plain buttons, each with an accessible name and a tooltip, in Tab
 * order; shown while the message is hovered or holds the focus. And the link of an edited message or a regenerated
 * answer to the message it came from.
 */
import * as l10n from "@vscode/l10n";
import { useEffect, useRef, useState } from "preact/hooks";
import type { MessageView } from "../../src/shared/protocol";
import type { MessageActions } from "../messageActions";

/** How long a button says "Copied" after a copy, in milliseconds. */
const COPIED_MS = 1500;

/** The text of a user message as the user wrote it (its text parts). */
function textOf(message: MessageView): string {
  return message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** The toolbar of `message`; `actions` absent (a test of single components): nothing. */
export function MessageToolbar({ message, actions }: { message: MessageView; actions: MessageActions | undefined }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (!actions || message.author.kind === "system") return null;
  const running = message.status === "streaming" || message.status === "queued";
  const copy = async () => {
    if (!(await actions.copyMarkdown(message.id))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <span class={running ? "message-actions running" : "message-actions"} role="group" aria-label={l10n.t("Message actions")}>
      <ActionButton action="copy" codicon={copied ? "check" : "copy"} label={copied ? l10n.t("Copied") : l10n.t("Copy as Markdown")} onClick={() => void copy()} />
      <ActionButton action="quote" codicon="quote" label={l10n.t("Quote in composer")} onClick={() => void actions.quote(message.id)} />
      <ActionButton action="open" codicon="go-to-file" label={l10n.t("Open in editor")} onClick={() => void actions.openInEditor(message.id)} />
      {message.author.kind === "user" && (
        <ActionButton action="edit" codicon="edit" label={l10n.t("Edit and send again")} onClick={() => actions.edit(message.id, textOf(message))} />
      )}
      {message.author.kind === "agent" && (
        <ActionButton
          action="regenerate"
          codicon="refresh"
          label={running ? l10n.t("Regenerate (once this answer has ended)") : l10n.t("Regenerate: ask {0} the same request again", `@${message.author.agentName ?? ""}`)}
          disabled={running}
          onClick={() => void actions.regenerate(message.id)}
        />
      )}
    </span>
  );
}

function ActionButton({ action, codicon, label, onClick, disabled }: { action: string; codicon: string; label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <button type="button" class="message-action" data-action={action} title={label} aria-label={label} disabled={disabled} onClick={onClick}>
      <span class={`codicon codicon-${codicon}`} aria-hidden="true" />
    </button>
  );
}

/** "edited from …" / "regenerated from …": a link that reveals the message this one came from. */
export function OriginLink({ message, actions }: { message: MessageView; actions: MessageActions | undefined }) {
  const origin = message.editOf ?? message.regenerates;
  if (!origin) return null;
  const at = ulidTime(origin);
  const when = at === undefined ? "" : new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const text = message.editOf ? l10n.t("edited from {0}", when) : l10n.t("regenerated from {0}", when);
  const title = message.editOf ? l10n.t("Show your message of {0} this one was edited from (it is kept as it was)", when) : l10n.t("Show the earlier answer of {0} to the same request (it is kept)", when);
  return (
    <button type="button" class="message-origin" data-origin={origin} title={title} disabled={!actions} onClick={() => actions?.reveal(origin)}>
      {text}
    </button>
  );
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The time part of a ULID (its first 10 characters), in ms since the epoch; undefined when it is not one. */
export function ulidTime(id: string): number | undefined {
  let ms = 0;
  for (const ch of id.slice(0, 10)) {
    const digit = CROCKFORD.indexOf(ch);
    if (digit < 0) return undefined;
    ms = ms * 32 + digit;
  }
  return id.length === 26 ? ms : undefined;
}
