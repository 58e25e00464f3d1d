/** The scrolling message list (`role="log"`), kept pinned to the bottom while the user is at the bottom. */
import { useContext, useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { MessageView } from "../../src/protocol";
import { channelLabel } from "../channelLabel";
import { EditorContext, type EditorActions } from "../editorActions";
import { MessageItem, type TurnControls } from "./MessageItem";
import type { AnswerPermission } from "./PermissionCard";

/** How close to the bottom (px) still counts as "at the bottom". */
const STICK_THRESHOLD_PX = 40;

/** Renders the messages; links inside messages never navigate the webview: the host opens them (`editor/openLink`). */
export function History(props: {
  channelName: string;
  messages: readonly MessageView[];
  answerPermission: AnswerPermission;
  turn: TurnControls;
  /** How many agents are members (an empty channel says how to add one). */
  memberCount?: number;
}) {
  const { channelName, messages, answerPermission, turn, memberCount } = props;
  const ref = useRef<HTMLDivElement>(null);
  const editor = useContext(EditorContext);
  const stick = useRef(true);
  /** The id of the newest user message seen at the last render (`null` before the first render). */
  const lastUserMessage = useRef<string | undefined | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // The user's own new message always brings the view back to the bottom, to follow the answer.
    const mine = [...messages].reverse().find((m) => m.author.kind === "user")?.id;
    if (mine !== lastUserMessage.current) {
      if (lastUserMessage.current !== null) stick.current = true;
      lastUserMessage.current = mine;
    }
    if (stick.current) el.scrollTop = el.scrollHeight;
  });

  // The list also changes size without new content (the composer grows with a draft, a panel opens): stay pinned.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

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
      onClick={(event) => routeLink(event, editor)}
      onAuxClick={(event) => routeLink(event, undefined)}
    >
      {messages.length === 0 ? (
        <div class="history-empty">
          <p class="history-empty-title">This is the start of {channelLabel(channelName)}.</p>
          <p>
            {channelName.startsWith("@")
              ? `Everything you write here goes to ${channelName}.`
              : memberCount === 0
                ? "No agent is a member yet: add one with + member in the header, then mention it with @name."
                : "Mention an agent with @name to ask it something."}
          </p>
        </div>
      ) : (
        messages.map((m) => <MessageItem key={m.id} message={m} answerPermission={answerPermission} turn={turn} />)
      )}
    </div>
  );
}

/**
 * A click on a link inside a message: the webview's own navigation is always prevented; a (primary) click asks the
 * host to open the link, which decides what may open (`editor/openLink`). Middle clicks open nothing.
 */
function routeLink(event: MouseEvent, editor: EditorActions | undefined): void {
  const target = event.target;
  const link = target instanceof Element ? target.closest("a") : null;
  if (!link) return;
  event.preventDefault();
  const href = link.getAttribute("href");
  if (editor && href && link.closest(".markdown")) void editor.openLink(href);
}
