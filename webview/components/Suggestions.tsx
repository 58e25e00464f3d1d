/** The composer's autocomplete list: members and commands, shown above the textarea. */
import * as l10n from "@vscode/l10n";
import type { CommandNotCallable } from "../../src/shared/protocol";
import type { Suggestion } from "../autocomplete";

interface Props {
  items: readonly Suggestion[];
  active: number;
  choose: (s: Suggestion) => void;
  hover: (index: number) => void;
}

/** Why a command cannot be called by typing its name, in the editor's language (field case 22). */
export function notCallableReason(why: CommandNotCallable): string {
  if (why === "whitespace") return l10n.t("Cannot be called from Sidekicks: its name holds a space, so typing it would call another command.");
  if (why === "slash") return l10n.t("Cannot be called from Sidekicks: its name holds a “/”, which ends a typed command's name.");
  return l10n.t("Cannot be called from Sidekicks: its name is longer than the 100 characters a typed command may have.");
}

/**
 * `#composer-suggestions` (a `listbox`): one `option` per suggestion with its label, its description and, for a
 * command, its input hint. A mouse press accepts without taking the focus from the textarea. A command that cannot
 * be called (`notCallable`) is greyed (`aria-disabled`), its tooltip and description saying why; it is never
 * accepted. Labels are text, never markup.
 */
export function Suggestions({ items, active, choose, hover }: Props) {
  return (
    <ul id="composer-suggestions" class="suggestions" role="listbox" aria-label={l10n.t("Suggestions")}>
      {items.map((s, i) => (
        <li
          key={`${i}:${s.label}`}
          id={`suggestion-${i}`}
          role="option"
          aria-selected={i === active}
          aria-disabled={s.notCallable ? true : undefined}
          class={`suggestion${i === active ? " active" : ""}${s.notCallable ? " not-callable" : ""}`}
          title={s.notCallable ? notCallableReason(s.notCallable) : undefined}
          onMouseDown={(event) => {
            event.preventDefault();
            if (!s.notCallable) choose(s);
          }}
          onMouseEnter={() => hover(i)}
        >
          <span class="suggestion-label">{s.label}</span>
          {s.hint && <span class="suggestion-hint">{s.hint}</span>}
          <span class="suggestion-detail">{s.notCallable ? `${notCallableReason(s.notCallable)} ${s.detail}`.trim() : s.detail}</span>
        </li>
      ))}
    </ul>
  );
}
