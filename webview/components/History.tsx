/**
 * The scrolling message list (`role="log"`), virtualised: only the messages near the viewport are in the DOM (see
 * `virtualWindow.ts`), kept pinned to the bottom while the user is at the bottom, with a "Jump to latest" button,
 * the unread divider, and keyboard navigation between messages.
 */
import * as l10n from "@vscode/l10n";
import { useContext, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { MemberView, MessageView } from "../../src/shared/protocol";
import { channelLabel } from "../channelLabel";
import { EditorContext } from "../editorActions";
import type { FocusRequest, OlderPages, UnreadMarker } from "../viewState";
import { VirtualWindow, type WindowRange } from "../virtualWindow";
import { BottomPin } from "./bottomPin";
import { articleOf, focusArticle, routeLink, useKeys, useLooks, useQueuedAhead, visibleArticles } from "./historyDom";
import { HistoryEmpty, JumpLatest, OlderRow } from "./HistoryRows";
import { MessageItem, type TurnControls } from "./MessageItem";
import type { AnswerPermission } from "./PermissionCard";
import { RevealHold } from "./revealHold";

/** Rendered beyond the viewport on each side (px), so scrolling shows rows already laid out. */
const OVERSCAN_PX = 900;
/** The viewport height assumed before the list was laid out (px). */
const INITIAL_VIEWPORT_PX = 800;
/** Closer than this (px) to the top of the loaded history loads the page before it (`channel/older`). */
const LOAD_OLDER_PX = 600;
/** Space (px) left above the unread divider when a channel opens at it. */
const UNREAD_MARGIN_PX = 8;
/** At most this many re-windowings in one frame (the rest waits for the next frame): no layout ping-pong. */
const MAX_SYNCS_PER_FRAME = 4;

/** The list's words (its fixed rows' are in `HistoryRows.tsx`), in the editor's language (`@vscode/l10n`). */
const TEXT = {
  log: (channel: string) => l10n.t("Messages in {0}", channel),
};

/** Renders the messages; links inside messages never navigate the webview: the host opens them (`editor/openLink`). */
export function History(props: {
  channelName: string;
  messages: readonly MessageView[];
  answerPermission: AnswerPermission;
  turn: TurnControls;
  /** How many agents are members (an empty channel says how to add one). */
  memberCount?: number;
  /** The channel's members: their roster `icon` and `color` mark their messages' author lines. */
  members?: readonly MemberView[];
  /** Where the "New" divider goes (the store's unread marker). */
  unread?: UnreadMarker;
  /** Called when the user leaves the latest message (`true`) or comes back to it (`false`). */
  onScrolledAway?: (away: boolean) => void;
  /** A permission card to reveal and focus (its first option button), rendering its message first if needed. */
  focusRequest?: FocusRequest;
  /** The pages of history before the first loaded message (absent: everything is loaded). */
  older?: OlderPages;
  /** Loads the page before the first loaded message; called when the user scrolls near the top or presses Home. */
  onLoadOlder?: () => void;
}) {
  const { channelName, messages, answerPermission, turn, memberCount, members, unread, onScrolledAway, focusRequest, older, onLoadOlder } = props;
  const ref = useRef<HTMLDivElement>(null);
  const editor = useContext(EditorContext);
  /** Whether the view follows the bottom (`stick.current.stuck`), and what moved it (`bottomPin.ts`). */
  const stick = useRef<BottomPin>(null as unknown as BottomPin);
  stick.current ??= new BottomPin();
  /** The id of the newest user message seen at the last render (`null` before the first render). */
  const lastUserMessage = useRef<string | undefined | null>(null);
  const win = useMemo(() => new VirtualWindow(), []);
  /** The scroll position and viewport height the window was last computed for (px). */
  const scroll = useRef({ top: 0, viewport: INITIAL_VIEWPORT_PX });
  const rendered = useRef<WindowRange>({ start: 0, end: 0, before: 0, after: 0 });
  const [, setVersion] = useState(0);
  const rerender = () => setVersion((v) => v + 1);
  /** The last message id when the user left the bottom: what "N new" counts from. `null` while at the bottom. */
  const [leftAt, setLeftAt] = useState<string | null>(null);
  /** A message to focus once it is rendered (keyboard navigation to a row outside the window). */
  const pendingFocus = useRef<string | undefined>(undefined);
  /** A revealed message (`message/reveal`, `permission/focus`) held in view until the user scrolls (`revealHold.ts`). */
  const hold = useMemo(() => new RevealHold(), []);
  const syncs = useRef({ count: 0, frame: false });
  const keys = useKeys(messages);
  const looks = useLooks(members);
  const queuedAhead = useQueuedAhead(messages);
  /** The first loaded message at the last render, and the row the user looked at when older messages were prepended. */
  const firstKey = useRef<string | undefined>(undefined);
  const anchor = useRef<{ id: string; top: number } | undefined>(undefined);
  // Another channel opens at its latest message, whatever the scroll position in the last one was; or at its unread
  // divider, when that is off screen there (see `revealUnread`).
  const shownChannel = useRef(channelName);
  const opened = useRef(true);
  if (shownChannel.current !== channelName) {
    shownChannel.current = channelName;
    stick.current.stuck = true;
    hold.release();
    opened.current = true;
  }
  // A page of older messages was prepended: what the user looks at stays in place. The window moves down by the
  // (estimated) height added above; after the commit, the row that was at the top of the viewport is put back exactly.
  // As the new rows get measured, Chromium's scroll anchoring keeps it there (as for any row measured off screen).
  const first = keys.current[0];
  if (firstKey.current !== undefined && first !== firstKey.current) {
    const shift = keys.current.indexOf(firstKey.current);
    const el = ref.current;
    if (shift > 0 && el && !stick.current.stuck) {
      const row = visibleArticles(el)[0];
      if (row?.dataset.messageId) anchor.current = { id: row.dataset.messageId, top: row.getBoundingClientRect().top };
      scroll.current = { ...scroll.current, top: scroll.current.top + win.offsetOf(keys.current, shift) };
    }
  }
  firstKey.current = first;
  /** The rows to render now (with a held message among them). */
  const windowNow = (): WindowRange => hold.window(win, keys.current, scroll.current.top, scroll.current.viewport, OVERSCAN_PX, stick.current.stuck);
  /** Recomputes the window from the DOM's scroll position; re-renders when other rows must be in the DOM. */
  const sync = (): void => {
    const el = ref.current;
    if (!el) return;
    scroll.current = { top: el.scrollTop, viewport: el.clientHeight || INITIAL_VIEWPORT_PX };
    const next = windowNow();
    const now = rendered.current;
    if (next.start === now.start && next.end === now.end) return;
    if (syncs.current.count >= MAX_SYNCS_PER_FRAME) {
      if (!syncs.current.frame) {
        syncs.current.frame = true;
        requestAnimationFrame(() => {
          syncs.current = { count: 0, frame: false };
          sync();
        });
      }
      return;
    }
    if (syncs.current.count++ === 0) requestAnimationFrame(() => (syncs.current.count = 0));
    rerender();
  };

  const setStick = (atBottom: boolean): void => {
    if (atBottom) hold.release();
    if (stick.current.stuck === atBottom) return;
    stick.current.stuck = atBottom;
    setLeftAt(atBottom ? null : (keys.current[keys.current.length - 1] ?? null));
    onScrolledAway?.(!atBottom);
  };

  const observer = useMemo(
    () =>
      typeof ResizeObserver === "undefined"
        ? undefined
        : new ResizeObserver((entries) => {
            const el = ref.current;
            if (!el) return;
            let changed = false;
            for (const entry of entries) {
              if (entry.target === el) {
                changed = true; // the viewport changed size (the composer grew, a panel opened)
                continue;
              }
              const id = (entry.target as HTMLElement).dataset.messageId;
              const height = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
              if (id && height > 0 && win.measure(id, height)) changed = true;
            }
            if (stick.current.stuck) stick.current.pin(el);
            else if (hold.apply(el, keys.current, win) === "away") changed = true; // a revealed message stays in place
            if (changed) sync();
          }),
    [],
  );
  const observed = useRef(new Set<Element>());

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !observer) return;
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // The user's own new message always brings the view back to the bottom, to follow the answer.
    let mine: string | undefined;
    for (let i = messages.length - 1; i >= 0 && mine === undefined; i--) if (messages[i]!.author.kind === "user") mine = messages[i]!.id;
    if (mine !== lastUserMessage.current) {
      if (lastUserMessage.current !== null) setStick(true);
      lastUserMessage.current = mine;
    }
    if (observer) {
      for (const row of observed.current) {
        if (!row.isConnected) {
          observer.unobserve(row);
          observed.current.delete(row);
        }
      }
      for (const row of el.querySelectorAll(":scope > .message")) {
        if (observed.current.has(row)) continue;
        observed.current.add(row);
        observer.observe(row);
      }
    }
    if (stick.current.stuck) stick.current.pin(el);
    const kept = anchor.current;
    if (kept) {
      anchor.current = undefined;
      const row = articleOf(el, kept.id);
      if (row) el.scrollTop += row.getBoundingClientRect().top - kept.top;
      else el.scrollTop = scroll.current.top;
    }
    if (opened.current) {
      opened.current = false;
      revealUnread(el);
    }
    if (stick.current.stuck && leftAt !== null) {
      setLeftAt(null);
      onScrolledAway?.(false);
    }
    const focusId = pendingFocus.current;
    if (focusId !== undefined) {
      const article = articleOf(el, focusId);
      if (article) {
        pendingFocus.current = undefined;
        focusArticle(article);
      }
    }
    hold.apply(el, keys.current, win); // after the rows above it changed: back in place (or scrolled to its estimate)
    sync();
    nearTop();
  });

  /**
   * Just opened, at the bottom: when the unread divider is not in view there (more unread messages than fit), the view
   * moves to it instead, the divider near the top, so the user reads the unread messages from the first.
   */
  const revealUnread = (el: HTMLDivElement): void => {
    const id = unread?.messageId;
    const index = id === undefined ? -1 : keys.current.indexOf(id);
    if (id === undefined || index < 0) return;
    const box = el.getBoundingClientRect();
    const row = articleOf(el, id);
    if (row && row.getBoundingClientRect().top >= box.top) return;
    setStick(false);
    // Where the estimates put it; once its row is rendered, the layout effect puts it exactly (`anchor`).
    el.scrollTop = Math.max(0, win.offsetOf(keys.current, index) - UNREAD_MARGIN_PX);
    anchor.current = { id, top: box.top + UNREAD_MARGIN_PX };
    rerender();
  };

  /** Loads the previous page when the top of the loaded history is near the viewport (and none is loading or failed). */
  const nearTop = (): void => {
    const el = ref.current;
    if (!el || !older?.more || older.loading || older.error !== undefined || messages.length === 0) return;
    if (el.scrollTop < LOAD_OLDER_PX) onLoadOlder?.();
  };

  const onScroll = (): void => {
    const el = ref.current;
    if (!el) return;
    if (hold.id === undefined) setStick(stick.current.scrolled(el)); // a held message is not left by the layout
    sync();
    nearTop();
  };

  /** Back to the latest message (the button, End). */
  const jumpToLatest = (focusLast: boolean): void => {
    const el = ref.current;
    if (!el) return;
    setStick(true);
    if (focusLast) pendingFocus.current = keys.current[keys.current.length - 1];
    stick.current.pin(el);
    rerender();
  };

  /** Focuses message `index` (clamped), scrolling it into the window first if it is not rendered. */
  const focusIndex = (index: number): void => {
    const el = ref.current;
    const ids = keys.current;
    if (!el || ids.length === 0) return;
    const i = Math.max(0, Math.min(ids.length - 1, index));
    if (i === ids.length - 1) return jumpToLatest(true);
    const article = articleOf(el, ids[i]!);
    if (article) return focusArticle(article);
    setStick(false);
    pendingFocus.current = ids[i];
    el.scrollTop = win.offsetOf(ids, i);
    sync();
    rerender();
  };

  // Reveal a message (`message/reveal`) or a permission card (`permission/focus`): held in view (rendered first when
  // the window is elsewhere) and focused, while the rows around it are measured, until the user scrolls.
  useLayoutEffect(() => {
    if (!focusRequest || !keys.current.includes(focusRequest.messageId)) return;
    pendingFocus.current = undefined;
    setStick(false);
    hold.start(focusRequest.messageId, focusRequest.requestId);
    rerender(); // the layout effect above places and focuses it once rendered
  }, [focusRequest?.seq]);

  /** The user scrolls or acts in the list: a scroll after this may be theirs, and a revealed message is let go. */
  const onUserInput = (): void => {
    stick.current.input();
    const el = ref.current;
    if (hold.release() && el) setStick(stick.current.scrolled(el)); // let go at the bottom: the view follows it again
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    onUserInput();
    const el = ref.current;
    if (!el || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    const onLog = target === el;
    const id = target.classList.contains("message") ? target.dataset.messageId : undefined;
    if (!onLog && id === undefined) return; // keys inside a message's buttons, fields and code are theirs
    const current = id === undefined ? -1 : keys.current.indexOf(id);
    const step = (delta: 1 | -1): void => {
      if (current >= 0) return focusIndex(current + delta);
      const visible = visibleArticles(el);
      const article = delta > 0 ? visible[0] : visible[visible.length - 1];
      if (article) focusArticle(article);
    };
    switch (event.key) {
      case "ArrowDown":
      case "j":
        step(1);
        break;
      case "ArrowUp":
      case "k":
        step(-1);
        break;
      case "Home":
        // The first loaded message; the page before it starts loading (Home again goes further back).
        focusIndex(0);
        if (older?.more && !older.loading) onLoadOlder?.();
        break;
      case "End":
        jumpToLatest(true);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const range = windowNow();
  rendered.current = range;
  const newCount = leftAt === null ? 0 : keys.current.length - 1 - keys.current.lastIndexOf(leftAt);
  const rows: preact.JSX.Element[] = [];
  for (let i = range.start; i < range.end; i++) {
    const m = messages[i]!;
    rows.push(
      <MessageItem
        key={m.id}
        message={m}
        answerPermission={answerPermission}
        turn={turn}
        look={m.author.kind === "agent" ? looks.get(m.author.agentName ?? "") : undefined}
        unread={unread?.messageId === m.id ? (unread.read ? "read" : "unread") : undefined}
        queuedAhead={queuedAhead.get(m.id)}
      />,
    );
  }

  return (
    <div class="history-frame">
      <div
        ref={ref}
        class="history"
        role="log"
        // Announcements come from the app's polite status region, once per settled answer: a live log would re-read
        // streamed text as it grows and every row the virtual list adds while scrolling.
        aria-live="off"
        aria-label={TEXT.log(channelLabel(channelName))}
        aria-keyshortcuts="ArrowUp ArrowDown Home End"
        tabIndex={0}
        onScroll={onScroll}
        onWheel={onUserInput}
        onTouchStart={onUserInput}
        onPointerDown={onUserInput}
        onFocusIn={() => stick.current.input()}
        onKeyDown={onKeyDown}
        onClick={(event) => routeLink(event, editor)}
        onAuxClick={(event) => routeLink(event, undefined)}
      >
        {messages.length === 0 ? (
          <HistoryEmpty channelName={channelName} memberCount={memberCount} />
        ) : (
          [
            <OlderRow key="older" channelName={channelName} older={older} retry={onLoadOlder} />,
            <div key="before" class="history-spacer" aria-hidden="true" style={{ height: `${range.before}px` }} />,
            ...rows,
            // Absent when the latest message is rendered: the log's last child is then the latest message.
            range.after > 0 && <div key="after" class="history-spacer" aria-hidden="true" style={{ height: `${range.after}px` }} />,
          ]
        )}
      </div>
      {leftAt !== null && <JumpLatest newCount={newCount} jump={() => jumpToLatest(false)} />}
    </div>
  );
}

