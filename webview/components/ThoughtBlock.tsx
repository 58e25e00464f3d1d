/** The agent's reasoning (ACP `agent_thought_chunk`): a disclosure, collapsed by default. */
import * as l10n from "@vscode/l10n";
import { useId, useState } from "preact/hooks";
import type { ThoughtPart } from "../../src/shared/protocol";
import { stripAnsi } from "../ansi";
import { Markdown } from "./Markdown";

/** How much of the thought the collapsed line previews, in characters. */
const PREVIEW_CHARS = 120;

/**
 * A button (`aria-expanded`) that says "Thinking…" while the thought streams (`live`) and "Thought" with its length
 * once done, and a one-line preview; Enter, Space or a click shows the whole thought as Markdown, rendered only then.
 */
export function ThoughtBlock({ part, live }: { part: ThoughtPart; live: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const text = stripAnsi(part.text);
  const words = countWords(text);
  const label = live ? l10n.t("Thinking…") : words === 1 ? l10n.t("Thought · 1 word") : l10n.t("Thought · {0} words", words);
  return (
    <div class={`thought${live ? " live" : ""}`} data-open={open ? "true" : "false"}>
      <button type="button" class="thought-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span class="thought-chevron" aria-hidden="true" />
        <span class="thought-label">{label}</span>
        {!open && <span class="thought-preview">{preview(text)}</span>}
      </button>
      {open && (
        <div id={id} class="thought-body" role="region" aria-label={l10n.t("The agent's reasoning")}>
          <Markdown text={part.text} streaming={live} />
        </div>
      )}
    </div>
  );
}

function countWords(text: string): number {
  const matches = text.match(/\S+/g);
  return matches ? matches.length : 0;
}

function preview(text: string): string {
  const flat = text.replace(/[#*_`>]+/g, "").replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}
