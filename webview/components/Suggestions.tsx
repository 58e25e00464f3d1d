/** The composer's autocomplete list: members and commands, shown above the textarea. */
import * as l10n from "@vscode/l10n";
import type { Suggestion } from "../autocomplete";

interface Props {
  items: readonly Suggestion[];
  active: number;
  choose: (s: Suggestion) => void;
  hover: (index: number) => void;
}

/**
 * `#composer-suggestions` (a `listbox`): one `option` per suggestion with its label, its description and, for a
 * command, its input hint. A mouse press accepts without taking the focus from the textarea.
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
          class={i === active ? "suggestion active" : "suggestion"}
          onMouseDown={(event) => {
            event.preventDefault();
            choose(s);
          }}
          onMouseEnter={() => hover(i)}
        >
          <span class="suggestion-label">{s.label}</span>
          {s.hint && <span class="suggestion-hint">{s.hint}</span>}
          <span class="suggestion-detail">{s.detail}</span>
        </li>
      ))}
    </ul>
  );
}
