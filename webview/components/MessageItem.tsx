/** One message of the history: author line, parts, typing indicator, error block. */
import * as l10n from "@vscode/l10n";
import { Component } from "preact";
import type { AgentIconView, Author, MessageView, Part } from "../../src/shared/protocol";
import { stripAnsi } from "../ansi";
import { ContentBlock } from "./ContentBlock";
import { FilesCard } from "./FilesCard";
import type { MessageActions } from "../messageActions";
import { MessageToolbar, OriginLink } from "./MessageToolbar";
import { FoldedText } from "./FoldedText";
import { Markdown } from "./Markdown";
import { type AnswerPermission, PermissionCard } from "./PermissionCard";
import { PlanCard } from "./PlanCard";
import { ThoughtBlock } from "./ThoughtBlock";
import { ToolCallCard } from "./ToolCallCard";
import { AttachmentChips } from "./AttachmentChips";

/** What the user can do to an agent message's turn (`turn/cancel`, `turn/retry`, `turn/sendNow`). */
export interface TurnControls {
  /** Stops a streaming answer, or removes a queued one from the queue. */
  stop(messageId: string): void;
  /** Runs a new attempt of an interrupted, failed or cancelled answer (Retry, Run again). */
  retry(messageId: string): void;
  /** Runs a queued message now, stopping the agent's running answer in this channel. */
  sendNow(messageId: string): void;
  /** Copy as Markdown, Quote, Open in editor, Edit, Regenerate (issue 19); absent: no message toolbar. */
  message?: MessageActions;
}

/** How an agent's messages are marked: its roster `icon` and `color` (one object per agent while unchanged). */
export interface AgentLook {
  icon?: AgentIconView;
  /** A theme colour id (`charts.blue`) or `#rrggbb`. */
  color?: string;
}

interface Props {
  message: MessageView;
  answerPermission: AnswerPermission;
  turn: TurnControls;
  look?: AgentLook;
  /** The unread marker's "New" divider goes above this message (`read`: the user has been back since). */
  unread?: "unread" | "read";
  /** Queued: how many queued messages to the same agent come before this one. */
  queuedAhead?: number;
}

/**
 * The option the user declined with, when that is why the agent ended its answer: it stopped by itself (stop reason
 * `cancelled`, not the user's Stop) after a permission answered with a reject option. Codex's "No, and tell Codex what
 * to do differently" does so, and a bare "Cancelled" left a trial with no way on.
 */
function declinedOption(message: MessageView): string | undefined {
  if (message.stopReason !== "cancelled" || message.outcome === "cancelled" || message.author.kind !== "agent") return undefined;
  for (const part of [...message.parts].reverse()) {
    if (part.type !== "permission" || part.auto) continue;
    const chosen = part.options.find((o) => o.optionId === part.outcome);
    if (chosen?.kind === "reject_once" || chosen?.kind === "reject_always") return chosen.name;
  }
  return undefined;
}

/** The note under an answer that ended for a reason other than `end_turn` (ACP stop reasons), in the editor's language. */
function stopNoteOf(stopReason: string): string | undefined {
  switch (stopReason) {
    case "cancelled":
      return l10n.t("Cancelled");
    case "max_tokens":
      return l10n.t("Stopped: token limit reached");
    case "max_turn_requests":
      return l10n.t("Stopped: too many requests in one turn");
    case "refusal":
      return l10n.t("The agent refused to continue");
    default:
      return undefined;
  }
}

/** A message; re-renders only when its `MessageView` object changed (the store replaces changed messages). */
export class MessageItem extends Component<Props> {
  shouldComponentUpdate(next: Props): boolean {
    return next.message !== this.props.message || next.answerPermission !== this.props.answerPermission || next.turn !== this.props.turn || next.look !== this.props.look || next.unread !== this.props.unread || next.queuedAhead !== this.props.queuedAhead;
  }

  render({ message, answerPermission, turn, look, unread, queuedAhead }: Props) {
    const streaming = message.status === "streaming";
    const queued = message.status === "queued";
    const declined = declinedOption(message);
    const stopNote = message.stopReason && !declined ? stopNoteOf(message.stopReason) : undefined;
    const empty = message.parts.length === 0;
    const awaiting = awaitingPermission(message);
    return (
      <article
        class={`message author-${message.author.kind}`}
        data-message-id={message.id}
        data-author={message.author.kind}
        data-status={message.status}
        data-outcome={message.outcome}
        aria-busy={streaming}
        role="article"
        tabIndex={-1}
        aria-labelledby={`msg-author-${message.id} msg-time-${message.id}`}
      >
        {unread && (
          <div class="unread-divider" role="separator" aria-label={l10n.t("New messages from here")} data-read={unread === "read"}>
            <span>{l10n.t("New")}</span>
          </div>
        )}
        <header class="message-meta">
          {look?.icon && <AgentIcon icon={look.icon} colorClass={look.color ? "" : authorColorClass(message.author)} style={colorStyle(look.color)} />}
          <span id={`msg-author-${message.id}`} class={`message-author ${look?.color ? "" : authorColorClass(message.author)}`} style={colorStyle(look?.color)}>
            {authorName(message.author)}
          </span>
          <time id={`msg-time-${message.id}`} class="message-time" dateTime={new Date(message.createdAt).toISOString()} title={new Date(message.createdAt).toLocaleString()}>
            {formatTime(message.createdAt)}
          </time>
          {message.to && message.to.length > 0 && (
            <span class="message-to" title={l10n.t("Who this message was sent to")}>
              → {message.to.map((name) => `@${name}`).join(" ")}
            </span>
          )}
          {message.delegatedBy &&
            (message.delegatedVia === "tool" ? (
              <button
                type="button"
                class="message-delegated"
                data-delegated-via="tool"
                title={l10n.t("@{0} handed this to this agent with its delegate tool; this answer goes back to it as the tool's result. Show @{0}'s answer", message.delegatedBy)}
                disabled={!turn.message || !message.parentMessageId}
                onClick={() => message.parentMessageId && turn.message?.reveal(message.parentMessageId)}
              >
                {l10n.t("delegated by @{0} via tool", message.delegatedBy)}
              </button>
            ) : (
              <span class="message-delegated" title={l10n.t("An agent's answer mentioned this one, which answers it (delegation)")}>
                {l10n.t("delegated by @{0}", message.delegatedBy)}
              </span>
            ))}
          <OriginLink message={message} actions={turn.message} />
          {message.attempt && message.attempt > 1 && (
            <span class="message-attempt" title={l10n.t("Retried: the answer below the divider is a new attempt of the same turn")}>
              {l10n.t("attempt {0}", message.attempt)}
            </span>
          )}
          <MessageToolbar message={message} actions={turn.message} />
          {queued && (
            <button type="button" class="message-send-now" title={l10n.t("Stop the agent's current answer in this channel and run this one now")} onClick={() => turn.sendNow(message.id)}>
              {l10n.t("Send now")}
            </button>
          )}
          {(streaming || queued) && (
            <button
              type="button"
              class="message-stop"
              title={queued ? l10n.t("Remove this message from the queue") : l10n.t("Stop this answer (ACP session/cancel)")}
              onClick={(event) => {
                // The button goes away with the answer's end: the focus stays on this message, not on the page (a
                // keyboard user keeps their place; Retry or Run again is one Tab away).
                (event.currentTarget.closest("article") as HTMLElement | null)?.focus({ preventScroll: true });
                turn.stop(message.id);
              }}
            >
              {queued ? l10n.t("Cancel") : l10n.t("Stop")}
            </button>
          )}
        </header>
        <div class="message-body">
          {message.parts.map((part, i) => renderPart(message, part, i, streaming, answerPermission, i === message.parts.length - 1, awaiting, turn.message?.reveal.bind(turn.message)))}
          {message.attachments && <AttachmentChips items={message.attachments} />}
          {streaming && (
            <span class="typing" role="img" aria-label={l10n.t("{0} is typing", authorName(message.author))}>
              <span />
              <span />
              <span />
            </span>
          )}
          {queued && (
            <div class="message-note message-queued">
              {queuedAhead
                ? l10n.t("Queued: {0} answers after its current message and the {1} queued before this one.", authorName(message.author), queuedAhead)
                : l10n.t("Queued: {0} answers after its current message.", authorName(message.author))}
            </div>
          )}
          {!streaming && !queued && empty && !message.error && !stopNote && <p class="message-empty">{l10n.t("(no content)")}</p>}
          {message.error && (
            <div class={`message-error${message.outcome === "interrupted" ? " message-interrupted" : ""}`} title={message.error.code}>
              <div class="message-error-text">
                <span class="message-error-icon" aria-hidden="true">!</span>
                {stripAnsi(message.error.message)}
              </div>
              {message.error.detail && <pre class="message-error-detail">{stripAnsi(message.error.detail)}</pre>}
              {message.retryable && (
                <vscode-button class="message-retry" secondary onClick={() => turn.retry(message.id)} title={l10n.t("Run this request again in this message; the agent is told what the earlier attempt did")}>
                  {l10n.t("Retry")}
                </vscode-button>
              )}
            </div>
          )}
          {stopNote && !message.error && <div class="message-note">{stopNote}</div>}
          {declined && !message.error && (
            <div class="message-note message-declined">
              {l10n.t("You declined “{0}”: {1} ended its answer and is waiting for what to do instead.", declined, authorName(message.author))}{" "}
              {turn.message && (
                <vscode-button class="message-tell" secondary onClick={() => turn.message?.address(message.author.agentName ?? "")}>
                  {l10n.t("Tell {0} what to do", authorName(message.author))}
                </vscode-button>
              )}
            </div>
          )}
          {message.retryable && !message.error && (
            <vscode-button class="message-retry" secondary onClick={() => turn.retry(message.id)} title={message.outcome === "cancelled" ? l10n.t("Run this request again in this message; the agent is told what a stopped attempt had done") : undefined}>
              {message.outcome === "cancelled" ? l10n.t("Run again") : l10n.t("Retry")}
            </vscode-button>
          )}
        </div>
      </article>
    );
  }
}

function renderPart(message: MessageView, part: Part, index: number, streaming: boolean, answer: AnswerPermission, last: boolean, awaiting: ReadonlySet<string>, reveal?: (messageId: string) => void) {
  const messageId = message.id;
  const agent = message.author.agentName;
  switch (part.type) {
    case "files":
      return <FilesCard key="files" messageId={messageId} part={part} />;
    case "thought":
      return <ThoughtBlock key={`th${index}`} part={part} live={streaming && last} />;
    case "plan":
      return <PlanCard key="plan" part={part} />;
    case "notice":
      // The agent's word on its own condition (it cannot reach its model and retries): plain text, never Markdown.
      return (
        <div key="notice" class="agent-notice" role="status" data-retrying={part.retrying ? "true" : undefined}>
          <span class="codicon codicon-warning" aria-hidden="true" />
          <span class="agent-notice-text">
            {part.retrying && streaming ? l10n.t("{0} (it is trying again)", stripAnsi(part.text)) : stripAnsi(part.text)}
          </span>
        </div>
      );
    case "text":
      // Text streams into the last part only (a part after it starts a new one): an earlier text part is final,
      // so its closed code blocks are highlighted.
      // What the user wrote folds when long (a pasted log); an agent's answer is read whole.
      if (message.author.kind === "user") return <FoldedText key={`t${index}`} text={part.text} />;
      return <Markdown key={`t${index}`} text={part.text} streaming={streaming && last} />;
    case "content":
      return <ContentBlock key={`b${index}`} block={part.block} streaming={streaming && last} />;
    case "toolCall":
      return <ToolCallCard key={`c:${part.toolCallId}`} part={part} live={streaming} awaitingPermission={awaiting.has(part.toolCallId)} reveal={reveal} />;
    case "permission":
      return <PermissionCard key={`p:${part.requestId}`} part={part} live={streaming} answer={answer} agent={agent} />;
    case "retry":
      return (
        <div key={`r${index}`} class="retry-divider" role="separator" title={part.note}>
          <span>{l10n.t("Retry — attempt {0}", part.attempt)}</span>
        </div>
      );
  }
}

/** The tool calls of `message` whose permission request waits for its answer: one pass over the parts a render. */
function awaitingPermission(message: MessageView): Set<string> {
  const ids = new Set<string>();
  for (const p of message.parts) if (p.type === "permission" && p.outcome === undefined) ids.add(p.toolCallId);
  return ids;
}

function authorName(author: Author): string {
  if (author.kind === "user") return l10n.t("You");
  if (author.kind === "system") return "Sidekicks";
  return author.agentName ?? l10n.t("agent");
}

/**
 * The agent's roster icon before its name: a codicon (the bundled `@vscode/codicons` font, in the name's colour), or
 * an image the host made a webview URI of.
 */
function AgentIcon({ icon, colorClass, style }: { icon: AgentIconView; colorClass: string; style?: { color: string } }) {
  if ("uri" in icon) return <img class="agent-icon agent-icon-image" src={icon.uri} alt="" aria-hidden="true" />;
  return <span class={`agent-icon codicon codicon-${icon.codicon} ${colorClass}`} style={style} data-codicon={icon.codicon} aria-hidden="true" />;
}

/** The roster `color` as a CSS colour: `#rrggbb` as is, a theme colour id as its `--vscode-*` variable. */
function colorStyle(color: string | undefined): { color: string } | undefined {
  if (!color) return undefined;
  if (/^#[0-9a-fA-F]{6}$/.test(color)) return { color };
  if (/^[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+$/.test(color)) return { color: `var(--vscode-${color.replace(/\./g, "-")})` };
  return undefined;
}

/** A stable colour per agent name, from the theme's chart palette (agents without a roster `color`). */
function authorColorClass(author: Author): string {
  if (author.kind !== "agent") return "";
  let hash = 0;
  for (const ch of author.agentName ?? "") hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `agent-color-${hash % 5}`;
}

function formatTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
