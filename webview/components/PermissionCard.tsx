/** A permission request (ACP `session/request_permission`) with one button per option. */
import * as l10n from "@vscode/l10n";
import { useState } from "preact/hooks";
import type { PermissionPart } from "../../src/protocol";
import { InlineCode } from "./InlineCode";

/** Answers a request; resolves whether the host accepted the answer, rejects with the host's error. */
export type AnswerPermission = (requestId: string, optionId: string) => Promise<boolean>;

/** Stands for the request's title in the translated sentence, which is split around it. */
const TITLE_MARK = "\u0000";

/**
 * Pending (no `outcome`, message still streaming): buttons enabled; a click posts `permission/answer` and disables
 * them until the host's `outcome` arrives. Answered: buttons disabled, the chosen option's name (or "Cancelled").
 */
export function PermissionCard(props: { part: PermissionPart; live: boolean; answer: AnswerPermission }) {
  const { part, live, answer } = props;
  const [answering, setAnswering] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const outcome = part.outcome;
  const open = outcome === undefined && live && answering === undefined;

  const choose = async (optionId: string): Promise<void> => {
    if (!open) return;
    setAnswering(optionId);
    setNote(undefined);
    try {
      const accepted = await answer(part.requestId, optionId);
      if (!accepted) setNote(l10n.t("The agent no longer waits for this answer."));
    } catch (err) {
      setAnswering(undefined);
      setNote(err instanceof Error ? err.message : String(err));
    }
  };

  const chosen = outcome ?? answering;
  let result: string | undefined;
  if (outcome === "cancelled") result = l10n.t("Cancelled");
  else if (outcome !== undefined) result = l10n.t("Chosen: {0}", part.options.find((o) => o.optionId === outcome)?.name ?? outcome);
  else if (!live) result = l10n.t("Not answered");
  // The title goes in <strong> wherever the language puts it in the sentence.
  const [allowBefore, allowAfter] = l10n.t("Allow {0}?", TITLE_MARK).split(TITLE_MARK);

  return (
    <div
      class="permission card"
      data-request-id={part.requestId}
      data-state={outcome === undefined ? (live ? "pending" : "unanswered") : outcome === "cancelled" ? "cancelled" : part.auto ? "auto" : "answered"}
      role="group"
      aria-label={l10n.t("Permission request: {0}", part.title)}
    >
      <div class="card-header">
        <span class="permission-icon" aria-hidden="true">?</span>
        <span class="permission-title">
          {allowBefore}
          <strong>
            <InlineCode text={part.title} />
          </strong>
          {allowAfter}
        </span>
      </div>
      <div class="permission-options">
        {part.options.map((option) => (
          <button
            type="button"
            key={option.optionId}
            class={`permission-option kind-${option.kind}${chosen === option.optionId ? " chosen" : ""}`}
            data-option-id={option.optionId}
            disabled={!open}
            aria-pressed={chosen === option.optionId}
            onClick={() => void choose(option.optionId)}
          >
            {option.name}
          </button>
        ))}
      </div>
      {result && <div class="permission-outcome">{result}</div>}
      {part.auto && (
        <div class="permission-auto" title={l10n.t("Set by the agent's permissions in sidekicks.yaml, or by an 'always' choice (Sidekicks: Remembered permissions…). Not a safety check.")}>
          {part.auto}
        </div>
      )}
      {note && <div class="permission-note">{note}</div>}
    </div>
  );
}
