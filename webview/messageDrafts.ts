/**
 * Pure helpers that apply `message/delta` events to a list of immutable `MessageView`s.
 *
 * Within one frame, a message's deltas go to a `Draft` (a copy of its parts plus the text still to append); the
 * draft is materialized once at the end, so N text chunks cost one string join, not N copies of the message.
 */
import type { HostEvents, MessageView, Part } from "../src/shared/protocol";
import { withPart } from "../src/shared/parts";

/** A message being changed during one flush. */
export interface Draft {
  message: MessageView;
  parts: Part[];
  /** Text chunks to append to the last part, which is then a text part. */
  pendingText: string[];
}

/** Replaces the message with the same id, or inserts it in `createdAt` order (ties keep arrival order). */
export function upsertMessage(messages: MessageView[], message: MessageView): void {
  const index = indexOfMessage(messages, message.id);
  if (index >= 0) {
    messages[index] = message;
    return;
  }
  let at = messages.length;
  while (at > 0 && (messages[at - 1]?.createdAt ?? 0) > message.createdAt) at--;
  messages.splice(at, 0, message);
}

/**
 * Applies one delta to the draft of its message, creating the draft on first use. Deltas for unknown messages
 * or messages no longer streaming are dropped (a late delta must not undo `message/finished`).
 */
export function applyDelta(messages: MessageView[], drafts: Map<string, Draft>, delta: HostEvents["message/delta"]): void {
  let draft = drafts.get(delta.messageId);
  if (!draft) {
    const message = messages[indexOfMessage(messages, delta.messageId)];
    if (!message || message.status !== "streaming") return;
    draft = { message, parts: message.parts.slice(), pendingText: [] };
    drafts.set(delta.messageId, draft);
  }
  if (delta.part) {
    flushText(draft);
    draft.parts = withPart(draft.parts, delta.part); // an empty plan removes the draft's plan, as it did the host's
  }
  if (delta.appendText) {
    if (!draft.pendingText.length && draft.parts[draft.parts.length - 1]?.type !== "text") {
      draft.parts.push({ type: "text", text: "" });
    }
    draft.pendingText.push(delta.appendText);
  }
}

/** Writes a draft back into `messages` as a new message object. */
export function materialize(messages: MessageView[], draft: Draft): void {
  flushText(draft);
  const index = indexOfMessage(messages, draft.message.id);
  if (index >= 0) messages[index] = { ...draft.message, parts: draft.parts };
}

function flushText(draft: Draft): void {
  if (!draft.pendingText.length) return;
  const last = draft.parts.length - 1;
  const part = draft.parts[last];
  if (part?.type === "text") draft.parts[last] = { type: "text", text: part.text + draft.pendingText.join("") };
  draft.pendingText = [];
}

/** Searches from the end: streaming messages are the newest. */
function indexOfMessage(messages: readonly MessageView[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.id === id) return i;
  return -1;
}
