/** A permission request (ACP `session/request_permission`) with one button per option. */
import { useState } from "preact/hooks";
import type { PermissionPart } from "../../src/protocol";

/** Answers a request; resolves whether the host accepted the answer, rejects with the host's error. */
export type AnswerPermission = (requestId: string, optionId: string) => Promise<boolean>;

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
      if (!accepted) setNote("The agent no longer waits for this answer.");
    } catch (err) {
      setAnswering(undefined);
      setNote(err instanceof Error ? err.message : String(err));
    }
  };

  const chosen = outcome ?? answering;
  let result: string | undefined;
  if (outcome === "cancelled") result = "Cancelled";
  else if (outcome !== undefined) result = `Chosen: ${part.options.find((o) => o.optionId === outcome)?.name ?? outcome}`;
  else if (!live) result = "Not answered";

  return (
    <div
      class="permission card"
      data-request-id={part.requestId}
      data-state={outcome === undefined ? (live ? "pending" : "unanswered") : outcome === "cancelled" ? "cancelled" : part.auto ? "auto" : "answered"}
      role="group"
      aria-label={`Permission request: ${part.title}`}
    >
      <div class="card-header">
        <span class="permission-icon" aria-hidden="true">?</span>
        <span class="permission-title">
          Allow <strong>{part.title}</strong>?
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
        <div class="permission-auto" title="Set by the agent's permissions in sidekicks.yaml, or by an 'always' choice (Sidekicks: Remembered permissions…). Not a safety check.">
          {part.auto}
        </div>
      )}
      {note && <div class="permission-note">{note}</div>}
    </div>
  );
}
