/** One message of the history: author line, parts, typing indicator, error block. */
import { Component } from "preact";
import type { Author, MessageView, Part } from "../../src/protocol";
import { Markdown } from "./Markdown";
import { type AnswerPermission, PermissionCard } from "./PermissionCard";
import { ToolCallCard } from "./ToolCallCard";

/** Stops a streaming or queued agent message (`turn/cancel`). */
export type StopMessage = (messageId: string) => void;

interface Props {
  message: MessageView;
  answerPermission: AnswerPermission;
  stop: StopMessage;
}

const STOP_NOTES: Record<string, string> = {
  cancelled: "Cancelled",
  max_tokens: "Stopped: token limit reached",
  max_turn_requests: "Stopped: too many requests in one turn",
  refusal: "The agent refused to continue",
};

/** A message; re-renders only when its `MessageView` object changed (the store replaces changed messages). */
export class MessageItem extends Component<Props> {
  shouldComponentUpdate(next: Props): boolean {
    return next.message !== this.props.message || next.answerPermission !== this.props.answerPermission || next.stop !== this.props.stop;
  }

  render({ message, answerPermission, stop }: Props) {
    const streaming = message.status === "streaming";
    const queued = message.status === "queued";
    const stopNote = message.stopReason ? STOP_NOTES[message.stopReason] : undefined;
    const empty = message.parts.length === 0;
    return (
      <article
        class={`message author-${message.author.kind}`}
        data-message-id={message.id}
        data-author={message.author.kind}
        data-status={message.status}
        aria-busy={streaming}
      >
        <header class="message-meta">
          <span class={`message-author ${authorColorClass(message.author)}`}>{authorName(message.author)}</span>
          <time class="message-time" dateTime={new Date(message.createdAt).toISOString()} title={new Date(message.createdAt).toLocaleString()}>
            {formatTime(message.createdAt)}
          </time>
          {message.to && message.to.length > 0 && (
            <span class="message-to" title="Who this message was sent to">
              → {message.to.map((name) => `@${name}`).join(" ")}
            </span>
          )}
          {message.delegatedBy && (
            <span class="message-delegated" title="An agent's answer mentioned this one, which answers it (delegation)">
              delegated by @{message.delegatedBy}
            </span>
          )}
          {(streaming || queued) && (
            <button
              type="button"
              class="message-stop"
              title={queued ? "Remove this message from the queue" : "Stop this answer (ACP session/cancel)"}
              onClick={() => stop(message.id)}
            >
              {queued ? "Cancel" : "Stop"}
            </button>
          )}
        </header>
        <div class="message-body">
          {message.parts.map((part, i) => renderPart(part, i, streaming, answerPermission))}
          {streaming && (
            <span class="typing" role="img" aria-label={`${authorName(message.author)} is typing`}>
              <span />
              <span />
              <span />
            </span>
          )}
          {queued && (
            <div class="message-note message-queued">
              Queued: {authorName(message.author)} answers after its current message.
            </div>
          )}
          {!streaming && !queued && empty && !message.error && !stopNote && <p class="message-empty">(no content)</p>}
          {message.error && (
            <div class="message-error" title={message.error.code}>
              <div class="message-error-text">
                <span class="message-error-icon" aria-hidden="true">!</span>
                {message.error.message}
              </div>
              {message.error.detail && <pre class="message-error-detail">{message.error.detail}</pre>}
            </div>
          )}
          {stopNote && !message.error && <div class="message-note">{stopNote}</div>}
        </div>
      </article>
    );
  }
}

function renderPart(part: Part, index: number, streaming: boolean, answer: AnswerPermission) {
  switch (part.type) {
    case "text":
      return <Markdown key={`t${index}`} text={part.text} streaming={streaming} />;
    case "toolCall":
      return <ToolCallCard key={`c:${part.toolCallId}`} part={part} live={streaming} />;
    case "permission":
      return <PermissionCard key={`p:${part.requestId}`} part={part} live={streaming} answer={answer} />;
  }
}

function authorName(author: Author): string {
  if (author.kind === "user") return "You";
  if (author.kind === "system") return "Sidekicks";
  return author.agentName ?? "agent";
}

/** A stable colour per agent name, from the theme's chart palette. */
function authorColorClass(author: Author): string {
  if (author.kind !== "agent") return "";
  let hash = 0;
  for (const ch of author.agentName ?? "") hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `agent-color-${hash % 5}`;
}

function formatTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
