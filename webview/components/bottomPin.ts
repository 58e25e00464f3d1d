/**
 * Whether the history follows its bottom (issue 6, "the view follows the answer"), told apart from what moved it.
 * The view is pinned while the user is at the bottom; it lets go only when the *user* scrolls away. A scroll event
 * away from the bottom after Sidekicks last pinned the view, with no wheel, touch, pointer, key or focus in the list
 * since, is the layout's doing and the view goes back to the bottom: in the real editor, the rows of a 1 MB answer
 * laid out again clamped the view 36,000 px up just as the user's own message arrived, and the view then showed
 * "Jump to latest" instead of the answer (test/integration/suite/fieldCasesShown.test.ts, field case 11 after 9).
 * The idea is the one of chat views that "stick to the bottom": only the user's input unsticks.
 */

/** How close to the bottom (px) still counts as "at the bottom". */
export const STICK_THRESHOLD_PX = 40;

/** The pin of one history list. */
export class BottomPin {
  /** Whether the view follows the bottom. */
  stuck = true;
  /** `performance.now()` when the view was last put at the bottom, and when the user last acted in the list. */
  private pinnedAt = -Infinity;
  private inputAt = -Infinity;

  /** Puts `el` at its bottom (its `scrollTop` to its `scrollHeight`). */
  pin(el: HTMLElement): void {
    el.scrollTop = el.scrollHeight;
    this.pinnedAt = performance.now();
  }

  /** The user wheeled, touched, pressed a key or moved the focus in the list: a scroll after this may be theirs. */
  input(): void {
    this.inputAt = performance.now();
  }

  /**
   * Judges a scroll event of `el`: returns whether the view is at the bottom now. When the layout moved a pinned view
   * (no input since it was pinned), it is put back at the bottom first, and the answer is true.
   */
  scrolled(el: HTMLElement): boolean {
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD_PX;
    if (atBottom || !this.stuck || this.inputAt >= this.pinnedAt) return atBottom;
    this.pin(el);
    return true;
  }
}
