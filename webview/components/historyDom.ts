/**
 * The history's DOM helpers: finding a message's row, focusing it, the rows in the viewport, links routed to the host,
 * and the hooks that keep the message ids and the members' looks stable between renders, and the queue's order.
 */
import { useMemo, useRef } from "preact/hooks";
import type { MemberView, MessageView } from "../../src/shared/protocol";
import type { EditorActions } from "../editorActions";
import type { AgentLook } from "./MessageItem";

/** The ids of `messages`, as one array that keeps its identity while no message was added or removed. */
export function useKeys(messages: readonly MessageView[]): { current: readonly string[] } {
  const keys = useRef<readonly string[]>([]);
  const ids = keys.current;
  if (ids.length !== messages.length || ids[0] !== messages[0]?.id || ids[ids.length - 1] !== messages[messages.length - 1]?.id) {
    keys.current = messages.map((m) => m.id);
  }
  return keys;
}

/** Each member's look (icon, colour) by agent name; one object per member while its look is unchanged. */
export function useLooks(members: readonly MemberView[] | undefined): Map<string, AgentLook> {
  const cache = useRef(new Map<string, AgentLook>());
  return useMemo(() => {
    const next = new Map<string, AgentLook>();
    for (const m of members ?? []) {
      if (!m.icon && !m.color) continue;
      const old = cache.current.get(m.name);
      const same = old && old.color === m.color && JSON.stringify(old.icon) === JSON.stringify(m.icon);
      next.set(m.name, same ? old : { icon: m.icon, color: m.color });
    }
    cache.current = next;
    return next;
  }, [members]);
}

/** The rendered row of message `id` in `list`, if it is in the DOM. */
export function articleOf(list: HTMLElement, id: string): HTMLElement | null {
  return list.querySelector<HTMLElement>(`:scope > .message[data-message-id="${CSS.escape(id)}"]`);
}

/** Focuses a message's row (or an element inside it) without moving the list, then scrolls it just into view. */
export function focusArticle(article: HTMLElement): void {
  article.focus({ preventScroll: true });
  article.scrollIntoView({ block: "nearest" });
}

/** The rendered messages that intersect the list's viewport, top to bottom. */
export function visibleArticles(list: HTMLElement): HTMLElement[] {
  const box = list.getBoundingClientRect();
  return [...list.querySelectorAll<HTMLElement>(":scope > .message")].filter((a) => {
    const r = a.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  });
}

/**
 * A click on a link inside a message: the webview's own navigation is always prevented; a (primary) click asks the
 * host to open the link, which decides what may open (`editor/openLink`). Middle clicks open nothing.
 */
export function routeLink(event: MouseEvent, editor: EditorActions | undefined): void {
  const target = event.target;
  const link = target instanceof Element ? target.closest("a") : null;
  if (!link) return;
  event.preventDefault();
  const href = link.getAttribute("href");
  if (editor && href && link.closest(".markdown")) void editor.openLink(href);
}

/**
 * For each queued message, how many queued messages to the same agent come before it among `messages` (the order the
 * agent takes them in, Send now aside): a trial saw two queued messages both saying only "answers after its current
 * message" and could not tell which went first.
 */
export function useQueuedAhead(messages: readonly MessageView[]): Map<string, number> {
  return useMemo(() => {
    const perAgent = new Map<string, number>();
    const ahead = new Map<string, number>();
    for (const m of messages) {
      if (m.status !== "queued") continue;
      const agent = m.author.agentName ?? "";
      const before = perAgent.get(agent) ?? 0;
      ahead.set(m.id, before);
      perAgent.set(agent, before + 1);
    }
    return ahead;
  }, [messages]);
}
