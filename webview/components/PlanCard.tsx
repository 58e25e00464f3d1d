/** The agent's plan (ACP `plan`): its entries with their status and priority. */
import * as l10n from "@vscode/l10n";
import type { PlanEntryStatus, PlanPart } from "../../src/shared/protocol";
import { stripAnsi } from "../ansi";

/** An entry's status in words, in the editor's language. */
const statusLabel = (status: PlanEntryStatus): string =>
  status === "pending" ? l10n.t("To do") : status === "in_progress" ? l10n.t("In progress") : l10n.t("Done");

/**
 * A card titled "Plan" with how many entries are done, then one list item per entry: a status icon (empty circle,
 * half circle, check; the status in words for screen readers), the entry, and its priority. A plan with no entries is
 * no plan (ACP: an empty list clears it, field case 24): nothing is shown, also for answers stored before the host
 * dropped such a plan.
 */
export function PlanCard({ part }: { part: PlanPart }) {
  const done = part.entries.filter((e) => e.status === "completed").length;
  const total = part.entries.length;
  if (total === 0) return null;
  return (
    <div class="plan card" role="group" aria-label={l10n.t("Plan: {0} of {1} done", done, total)}>
      <div class="card-header">
        <span class="plan-title">{l10n.t("Plan")}</span>
        <span class="plan-progress">{l10n.t("{0}/{1} done", done, total)}</span>
      </div>
      <ol class="plan-entries">
        {part.entries.map((entry, i) => (
          <li key={i} class="plan-entry" data-status={entry.status} data-priority={entry.priority}>
            <span class={`plan-status plan-status-${entry.status}`} role="img" aria-label={statusLabel(entry.status)} title={statusLabel(entry.status)} />
            <span class="plan-content">{stripAnsi(entry.content)}</span>
            <span class={`plan-priority priority-${entry.priority}`} title={l10n.t("Priority: {0}", entry.priority)}>
              {entry.priority}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
