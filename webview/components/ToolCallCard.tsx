/** A tool call the agent reported (ACP `tool_call` / `tool_call_update`). */
import type { ToolCallPart, ToolCallStatus } from "../../src/protocol";
import { stripAnsi } from "../ansi";

const STATUS_LABEL: Record<ToolCallStatus, string> = {
  pending: "pending",
  in_progress: "running",
  completed: "done",
  failed: "failed",
};

/** Card with the tool kind, title, a status badge and, when present, the content as preformatted text. */
export function ToolCallCard({ part, live }: { part: ToolCallPart; live: boolean }) {
  return (
    <div class="tool-call card" data-tool-call-id={part.toolCallId} data-status={part.status} data-outcome-unknown={part.outcomeUnknown ? "true" : undefined}>
      <div class="card-header">
        {part.kind && <span class="tool-kind">{part.kind}</span>}
        <span class="tool-title" title={stripAnsi(part.title)}>
          {stripAnsi(part.title)}
        </span>
        {part.outcomeUnknown ? (
          <span class="status-badge status-unknown" title={`Last known status: ${STATUS_LABEL[part.status]}. The answer was interrupted before this tool call reported its end.`}>
            outcome unknown
          </span>
        ) : (
          <span class={`status-badge status-${part.status}${live ? " live" : ""}`}>{STATUS_LABEL[part.status]}</span>
        )}
      </div>
      {part.content && <pre class="tool-content">{stripAnsi(part.content)}</pre>}
    </div>
  );
}
