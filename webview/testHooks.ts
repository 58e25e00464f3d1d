/**
 * Answers the host's `test/*` requests (`HostRequests` in `src/shared/protocol`) against the real DOM, so integration
 * tests drive the webview exactly as a user would. The host only sends them in development and test modes.
 */
import type { HostRequestHandlers } from "./host";

/** What the handlers need from the app: apply pending renders now, and the promise of the latest send. */
export interface TestHookDeps {
  /** Applies queued state and renders synchronously, so the DOM reflects every event received so far. */
  flush(): void;
  /** The promise of the most recent `channel/send` (resolves whether the host accepted it), if any. */
  lastSend(): Promise<boolean> | undefined;
  document?: Document;
}

/** Builds the handlers for `test/text`, `test/attribute`, `test/click`, `test/count`, `test/inView`, `test/type`, `test/paste` and `test/compose`. */
export function createTestHandlers(deps: TestHookDeps): HostRequestHandlers {
  const doc = deps.document ?? document;
  return {
    "test/text": ({ selector }) => {
      deps.flush();
      const el = doc.querySelector(selector);
      if (!el) return { text: null };
      return { text: el instanceof HTMLElement ? el.innerText : (el.textContent ?? "") };
    },
    "test/attribute": ({ selector, name }) => {
      deps.flush();
      return { text: doc.querySelector(selector)?.getAttribute(name) ?? null };
    },
    "test/click": ({ selector }) => {
      deps.flush();
      const el = doc.querySelector(selector);
      if (!el) return { clicked: false };
      if (el instanceof HTMLElement) el.click();
      else el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      return { clicked: true };
    },
    "test/count": ({ selector }) => {
      deps.flush();
      return { count: doc.querySelectorAll(selector).length };
    },
    "test/inView": ({ selector }) => {
      deps.flush();
      const el = doc.querySelector(selector);
      if (!el) return { visible: null };
      const r = el.getBoundingClientRect();
      const box = el.closest(".history")?.getBoundingClientRect();
      const top = Math.max(r.top, box?.top ?? 0, 0);
      const bottom = Math.min(r.bottom, box?.bottom ?? Infinity, doc.defaultView?.innerHeight ?? Infinity);
      return { visible: bottom - top >= 1 };
    },
    "test/type": ({ text }) => {
      deps.flush();
      const textarea = doc.querySelector<HTMLTextAreaElement>("#composer textarea");
      if (!textarea) return { typed: false };
      textarea.focus();
      textarea.value = text;
      textarea.setSelectionRange(text.length, text.length);
      textarea.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
      return { typed: true };
    },
    "test/paste": ({ name, mimeType, base64 }) => {
      deps.flush();
      const textarea = doc.querySelector<HTMLTextAreaElement>("#composer textarea");
      if (!textarea) return { pasted: false };
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: mimeType }));
      textarea.focus();
      textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
      return { pasted: true };
    },
    /** Types into the composer and presses Enter; `sent` is whether the host accepted the resulting send. */
    "test/compose": async ({ text }) => {
      deps.flush();
      const textarea = doc.querySelector<HTMLTextAreaElement>("#composer textarea");
      if (!textarea) throw new Error("No composer in the view.");
      textarea.focus();
      textarea.value = text;
      textarea.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
      const before = deps.lastSend();
      const enter = { key: "Enter", code: "Enter", bubbles: true, cancelable: true };
      textarea.dispatchEvent(new KeyboardEvent("keydown", enter));
      textarea.dispatchEvent(new KeyboardEvent("keyup", enter));
      const after = deps.lastSend();
      if (!after || after === before) return { sent: false };
      return { sent: await after };
    },
  };
}
