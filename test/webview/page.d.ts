// What the test page's window holds besides the DOM, for the callbacks the tests pass to `page.evaluate`: the fake
// host (`fakeHost.mjs`), the webview's own counters (`webview/main.tsx`), the Markdown oracle
// (`markdownOracle.ts`), and the scratch values some tests leave there between two `evaluate` calls.
import type { FakeHost } from "./fakeHost.mjs";

declare global {
  interface Window {
    /** The fake host `installFakeHost` put in the page. */
    __host: FakeHost;
    /** VS Code's webview API, as the fake host defines it before the bundle runs (see `webview/host.ts`). */
    acquireVsCodeApi: () => { postMessage(message: import("../../src/shared/protocol").WebviewToHost): void; getState(): unknown; setState(state: unknown): unknown };
    /** The CSP violations the page reported (`securitypolicyviolation`), recorded by the fake host. */
    __cspViolations: { type: string; directive: string; blocked: string; sample: string }[];
    /** The webview's counters (`webview/main.tsx`: `storeStats`, `markdownStats`, `highlightStats`). */
    __sidekicksStats: { store: { flushes: number }; markdown: { renders: number; built: number }; highlight: { runs: number } };
    /** `markdownOracle.ts`'s functions, once its bundle was added to the page (see its signatures there). */
    oracle: {
      built(text: string): string;
      reference(text: string): string;
      streamed(text: string, size: number): string;
      elementCount(canon: string): number;
      benchDocument(bytes: number): string;
    };
    /** The contrast measure `contrast.mjs`'s `inPageContrast` leaves for `inPageColours`. */
    __contrastOf?: (el: Element) => number;
    /** Set by a hostile payload if it ever ran (the XSS tests assert it stays unset). */
    __pwned?: unknown;
    /** Called by the XSS corpus's payloads if they ever run; `__calls` counts the calls. */
    __trap: () => number;
    __calls: number;
    /**
     * Scratch values of single tests (a11y, older, streaming, channel, xss): each test sets its own before it reads
     * them, so they are declared present.
     */
    __said: string[];
    __held: { resolve: (reply: { messages: import("../../src/shared/protocol").MessageView[]; more: boolean } | { error: import("../../src/shared/protocol").ErrorInfo }) => void; page: { messages: import("../../src/shared/protocol").MessageView[]; more: boolean } }[];
    __frames: number;
    __mutationBatches: number;
    __raf: number;
    __observer: MutationObserver;
    __rendersBefore: number;
    __flushesBefore: number;
    __beforeReload?: boolean;
  }
}

export {};
