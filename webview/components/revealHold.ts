/**
 * Keeps a revealed message in view (issue 21, "a result opens its message in context, loading its page"): a history
 * search result, a delegation link or a permission card asks the history to show one message. Scrolling once is not
 * enough in a virtualised list: the row is placed where the height estimates put it, then the rows around it are
 * rendered and measured (a 1 MB single-line answer is hundreds of thousands of px tall, not the mean of the others),
 * code blocks are highlighted and images load, and each of those moves it. So the history holds the target: after
 * every render and every measurement it puts the target back in place (its top a margin below the viewport's top, or
 * centred when it fits), until the user scrolls (wheel, touch, pointer, key) or asks for another place (End, a new
 * message of theirs, another reveal). The same idea as the chat views that "stick to the bottom" (`bottomPin.ts`),
 * with a message instead of the bottom as the anchor. While it holds, Chromium's scroll anchoring is off in the list:
 * when a row above the target grows by 300,000 px, the browser would move the view with the row it picked as its
 * anchor (and scroll the target's neighbour out of the window before it was measured); the hold moves it instead.
 */
import type { VirtualWindow, WindowRange } from "../virtualWindow";
import { articleOf } from "./historyDom";

/** Space (px) left above a revealed message taller than the viewport. */
export const REVEAL_MARGIN_PX = 8;

/** What a reveal asks for: message `id`, and inside it the element `inside` (a CSS selector) to focus, if any. */
export interface RevealTarget {
  id: string;
  inside?: string;
}

/** The held reveal of one history list. */
export class RevealHold {
  /** The target, and the element the hold focused (absent until the focus was taken). */
  private target: (RevealTarget & { focused?: HTMLElement }) | undefined;
  /** The list whose scroll anchoring the hold turned off. */
  private list: HTMLElement | undefined;

  /** The message held in view, if any. */
  get id(): string | undefined {
    return this.target?.id;
  }

  /**
   * Holds message `id` in view from now on (replacing any earlier one); it is focused once rendered, or with
   * `requestId` its permission card's first enabled option (`permission/focus`), when that card is in it.
   */
  start(id: string, requestId?: string): void {
    const inside = requestId === undefined ? undefined : `.permission[data-request-id="${CSS.escape(requestId)}"] .permission-option:not([disabled])`;
    this.target = { id, inside };
  }

  /** Lets go: the user scrolled, or asked for another place. Returns whether a message was held. */
  release(): boolean {
    const held = this.target !== undefined;
    this.target = undefined;
    this.list?.style.removeProperty("overflow-anchor");
    this.list = undefined;
    return held;
  }

  /**
   * The rows of `win` to render for the scroll position `top` (px) in a viewport of `viewport` px (`atBottom`: pinned
   * to the bottom; see `VirtualWindow.range`), with the held message always among them: it is placed by its real box,
   * and the rows around it stay in the DOM while they are laid out (a 1 MB answer re-created would start from its
   * estimated height again, and move it again).
   */
  window(win: VirtualWindow, keys: readonly string[], top: number, viewport: number, overscan: number, atBottom: boolean): WindowRange {
    const range = win.range(keys, top, viewport, overscan, atBottom);
    const held = this.target ? keys.indexOf(this.target.id) : -1;
    if (held < 0 || (held >= range.start && held < range.end)) return range;
    return win.range(keys, win.offsetOf(keys, held), viewport, overscan, false);
  }

  /**
   * Records the heights of the rendered rows in `win`, then puts the held message in place in `list` (its top
   * `REVEAL_MARGIN_PX` below the viewport's top, or centred when it fits) and focuses it, or its `inside` element, once
   * (until the focus is taken; again when that element was re-created and the focus fell to the body). When it is
   * not rendered, scrolls to where the estimates of `win` put it and returns `"away"`: the caller renders the window
   * there, and the next call places it exactly. Returns `"none"` when nothing is held (or the message is not in
   * `keys` any more: the hold ends), `"placed"` when it is in place.
   */
  apply(list: HTMLElement, keys: readonly string[], win: VirtualWindow): "none" | "placed" | "away" {
    const target = this.target;
    if (!target) return "none";
    if (this.list !== list) {
      this.list = list;
      list.style.overflowAnchor = "none";
    }
    // The rows as laid out now, before the window is computed from them: a row that grew by 300,000 px since the
    // last ResizeObserver report would otherwise put the window (and the target) elsewhere, away from its report.
    for (const row of list.querySelectorAll<HTMLElement>(":scope > .message")) {
      const height = row.getBoundingClientRect().height;
      if (row.dataset.messageId && height > 0) win.measure(row.dataset.messageId, height);
    }
    const row = articleOf(list, target.id);
    if (!row) {
      const index = keys.indexOf(target.id);
      if (index < 0) {
        this.release();
        return "none";
      }
      list.scrollTop = Math.max(0, win.offsetOf(keys, index) - REVEAL_MARGIN_PX);
      return "away";
    }
    const inner = target.inside ? row.querySelector<HTMLElement>(target.inside) : null;
    const shown = inner ?? row;
    const box = list.getBoundingClientRect();
    const r = shown.getBoundingClientRect();
    const fits = r.height + 2 * REVEAL_MARGIN_PX <= box.height;
    const wanted = fits ? box.top + (box.height - r.height) / 2 : box.top + REVEAL_MARGIN_PX;
    const delta = r.top - wanted;
    if (Math.abs(delta) >= 1) list.scrollTop += delta;
    // Focused once rendered (again while a hidden view cannot take it), and again when the focused element was
    // re-created and the focus fell to the page's body; never taken back from where the user put it.
    const doc = list.ownerDocument;
    const fell = doc.activeElement === null || doc.activeElement === doc.body;
    if (target.focused === undefined || (!target.focused.isConnected && fell)) {
      shown.focus({ preventScroll: true });
      if (doc.activeElement === shown) target.focused = shown;
    }
    return "placed";
  }
}
