// What the e2e render bench leaves in the channel view's window between two requests (webviewDriver.mjs's
// `e2e/arm` and `e2e/painted`), for the callbacks it passes to the webview's frame.
declare global {
  interface Window {
    /** The page's wall clock (ms) when the last message was painted done with its marker. */
    __e2ePaintedAt?: number;
    /** Every 500 ms with SIDEKICKS_E2E_SAMPLES=1: [wall clock, characters of the last message's text, its status]. */
    __e2eSamples: [number, number, string | null | undefined][];
    /** When each batch of deltas reached the page, and how much text it carried. */
    __e2eArrivals?: [number, number][];
    __e2eTimer?: ReturnType<typeof setInterval>;
  }
}

export {};
