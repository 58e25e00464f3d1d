/** The scrolling message list (`role="log"`), kept pinned to the bottom while the user is at the bottom. */
import { useLayoutEffect, useRef } from "preact/hooks";
import type { MessageView } from "../../src/protocol";
import { channelLabel } from "../channelLabel";
import { MessageItem, type StopMessage } from "./MessageItem";
import type { AnswerPermission } from "./PermissionCard";

/** How close to the bottom (px) still counts as "at the bottom". */
const STICK_THRESHOLD_PX = 40;

/** Renders the messages; clicks on links inside messages never navigate the webview. */
export function History(props: {
  channelName: string;
  messages: readonly MessageView[];
  answerPermission: AnswerPermission;
  stop: StopMessage;
}) {
  const { channelName, messages, answerPermission, stop } = props;
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  const onScroll = (): void => {
    const el = ref.current;
    if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD_PX;
  };

  return (
    <div
      ref={ref}
      class="history"
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label={`Messages in ${channelLabel(channelName)}`}
      tabIndex={0}
      onScroll={onScroll}
      onClick={preventLinkNavigation}
      onAuxClick={preventLinkNavigation}
    >
      {messages.length === 0 ? (
        <div class="history-empty">
          <p class="history-empty-title">This is the start of {channelLabel(channelName)}.</p>
          <p>Mention an agent with @name to ask it something.</p>
        </div>
      ) : (
        messages.map((m) => <MessageItem key={m.id} message={m} answerPermission={answerPermission} stop={stop} />)
      )}
    </div>
  );
}

/** Links in agent text do nothing for now (a later issue routes them through the host). */
function preventLinkNavigation(event: MouseEvent): void {
  const target = event.target;
  if (target instanceof Element && target.closest("a")) event.preventDefault();
}
