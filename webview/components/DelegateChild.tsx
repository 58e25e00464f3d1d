/**
 * The member's answer nested under the `delegate` tool call that asked for it (issue 22: "the child runs like any
 * turn, visible nested under the parent's tool card, with its own Stop"): who answers, how far it is (waiting its
 * turn, answering, answered, stopped, failed), the start of what it says, Stop while it runs, and the link to the
 * whole answer, which stays a message of its own in the channel. When the answer is not among the messages the view
 * has loaded (an older page), only the link is shown.
 */
import * as l10n from "@vscode/l10n";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { MessageView } from "../../src/shared/protocol";

/** What a delegate card needs of the view: a loaded message by id, and Stop for an answer. */
export interface ChildAnswers {
  find(messageId: string): MessageView | undefined;
  stop(messageId: string): void;
}

/** Provided by the app over the view's loaded messages; absent (tests of a lone card): only the link. */
export const ChildAnswersContext = createContext<ChildAnswers | undefined>(undefined);

/** Characters of the member's answer shown under the card (the CSS clamps them to three lines). */
const PREVIEW_CHARS = 280;

/** The nested answer of `member` (message `childMessageId`) and the link that reveals it in the channel. */
export function DelegateChild({ member, childMessageId, reveal }: { member: string; childMessageId: string; reveal?: (messageId: string) => void }) {
  const answers = useContext(ChildAnswersContext);
  const child = answers?.find(childMessageId);
  const running = child?.status === "streaming" || child?.status === "queued";
  const text = answerText(child) ?? "";
  return (
    <div class="delegate-child" data-child-status={child?.status} data-child-outcome={child?.outcome}>
      <div class="delegate-child-header">
        <button
          type="button"
          class="tool-delegation"
          data-child-message={childMessageId}
          title={l10n.t("Show @{0}'s answer to this delegation", member)}
          disabled={!reveal}
          onClick={() => reveal?.(childMessageId)}
        >
          {l10n.t("@{0}'s answer", member)}
        </button>
        {child && <span class="delegate-child-state">{childState(child)}</span>}
        {child && running && answers && (
          <button type="button" class="delegate-child-stop" title={l10n.t("Stop @{0}'s answer (the agent that delegated gets that it was stopped)", member)} onClick={() => answers.stop(childMessageId)}>
            {l10n.t("Stop")}
          </button>
        )}
      </div>
      {text && <p class="delegate-child-preview">{text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text}</p>}
    </div>
  );
}

/** The text of a loaded answer (its text parts, trimmed), or undefined when it is not loaded. */
export function answerText(message: MessageView | undefined): string | undefined {
  return message?.parts.map((p) => (p.type === "text" ? p.text : "")).join("").trim();
}

/** How far the member's answer is, in words. */
function childState(child: MessageView): string {
  if (child.status === "queued") return l10n.t("waiting its turn");
  if (child.status === "streaming") return l10n.t("answering…");
  switch (child.outcome) {
    case "cancelled":
      return l10n.t("stopped");
    case "interrupted":
      return l10n.t("interrupted");
    case "failed":
    case "refused":
      return l10n.t("failed");
    default:
      return child.status === "error" ? l10n.t("failed") : l10n.t("answered");
  }
}
