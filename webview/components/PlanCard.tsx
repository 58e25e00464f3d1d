/** The agent's plan (ACP `plan`): its entries with their status and priority. */
import type { PlanEntryStatus, PlanPart } from "../../src/protocol";
import { stripAnsi } from "../ansi";

const STATUS_LABEL: Record<PlanEntryStatus, string> = {
  pending: "To do",
  in_progress: "In progress",
  completed: "Done",
};

/**
 * A card titled "Plan" with how many entries are done, then one list item per entry: a status icon (empty circle,
 * half circle, check; the status in words for screen readers), the entry, and its priority.
 */
export function PlanCard({ part }: { part: PlanPart }) {
  const done = part.entries.filter((e) => e.status === "completed").length;
  const total = part.entries.length;
  return (
    <div class="plan card" role="group" aria-label={`Plan: ${done} of ${total} done`}>
      <div class="card-header">
        <span class="plan-title">Plan</span>
        <span class="plan-progress">
          {done}/{total} done
        </span>
      </div>
      {total === 0 ? (
        <div class="plan-empty">No entries.</div>
      ) : (
        <ol class="plan-entries">
          {part.entries.map((entry, i) => (
            <li key={i} class="plan-entry" data-status={entry.status} data-priority={entry.priority}>
              <span class={`plan-status plan-status-${entry.status}`} role="img" aria-label={STATUS_LABEL[entry.status]} title={STATUS_LABEL[entry.status]} />
              <span class="plan-content">{stripAnsi(entry.content)}</span>
              <span class={`plan-priority priority-${entry.priority}`} title={`Priority: ${entry.priority}`}>
                {entry.priority}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
