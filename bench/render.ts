/**
 * Webview render figures, in headless Chromium (Debian's `chromium`, or `CHROMIUM_PATH`) against the built bundle
 * (`dist/webview.js`, run `npm run build` first) driven through the fake host, as the webview tests do
 * (test/webview/harness.mjs, fakeHost.mjs). The streamed text is realistic Markdown (bench/renderMarkdownDoc.ts:
 * headings, paragraphs, lists, code fences), so `StreamingMarkdown` (webview/markdown.ts) does its real work.
 *
 * render.longMessageRatio — main-thread time (CDP `Performance.getMetrics` TaskDuration in thread ticks: every task
 * of the page's main thread, script, style, layout and paint) per 100-byte chunk appended to a streaming agent message that is
 * already 1 MB long, divided by the same at 10 KB. Each chunk is its own `message/delta` and is rendered in its own
 * frame (the worst case: no batching helps). Median of 3 alternating runs of 100 chunks. Target ≤ 3: a chunk must
 * not re-render (or re-lex, re-sanitize, re-diff) the whole message.
 *
 * render.chunksPerSecond — 20,000 chunks of 100 bytes (a 2 MB answer) sent as fast as the page takes them, each as
 * its own window message (VS Code's host bridge batches a frame's deltas into one post; this is the harder case),
 * from the first delta until the last chunk is in the DOM: chunks per second of the page's main-thread time
 * (TaskDuration in thread ticks, so time the thread waited for a CPU on a loaded machine does not count), and
 * `render.wallChunksPerSecond` the same per second of wall time. Renders per frame: `markdownStats.renders` over
 * the animation frames counted meanwhile (must be ≤ 1). Median of 3. Target ≥ 2,000.
 *
 * Both throw if the history stopped following the answer (a view not pinned to the bottom renders less).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { markdownDocument } from "./renderMarkdownDoc";
import { median } from "./stats";

const CHUNK = 100;
const SMALL = 10_000;
const LARGE = 1_000_000;
const RATIO_CHUNKS = Number(process.env.BENCH_RENDER_CHUNKS ?? 100);
const RUNS = Number(process.env.BENCH_RENDER_RUNS ?? 3);
const THROUGHPUT_CHUNKS = Number(process.env.BENCH_RENDER_THROUGHPUT_CHUNKS ?? 20_000);
const BODY = ".message[data-message-id='m'] .message-body";

/** What bench/render.ts uses of test/webview/harness.mjs (an untyped ES module). */
interface Harness {
  startServer(): Promise<{ origin: string; close(): Promise<void> }>;
  launchBrowser(): Promise<Browser>;
  openView(browser: Browser, origin: string, options?: { width?: number; height?: number }): Promise<{ page: Page; host: { emit(name: string, payload: unknown): Promise<void> }; problems(): Promise<string[]> }>;
  message(init: { id: string; status?: string; text?: string }): unknown;
  frames(page: Page, n?: number): Promise<void>;
}

/** tsx compiles this file with esbuild's `keepNames`: functions passed to `page.evaluate` call its `__name`. */
const definePageName = (page: Page) => page.evaluate("globalThis.__name = (f) => f");

/** The page's globals the in-page loops use (bench/ is compiled without the DOM library). */
interface PageWindow {
  __host: { emit(name: string, payload: unknown): void };
  __sidekicksStats: { store: { flushes: number }; markdown: { renders: number } };
  requestAnimationFrame(callback: () => void): number;
  cancelAnimationFrame(handle: number): void;
  document: { querySelector(selector: string): { scrollTop: number; scrollHeight: number; textContent: string | null } | null };
}

async function harness(): Promise<Harness> {
  const root = path.resolve(__dirname, "..");
  if (!existsSync(path.join(root, "dist/webview.js"))) throw new Error("dist/webview.js is missing: run `npm run build` first.");
  return (await import(pathToFileURL(path.join(root, "test/webview/harness.mjs")).href)) as Harness;
}

/** Main-thread metrics of a page, in ms (CDP `Performance.getMetrics`). */
async function metrics(page: Page, cdp: Awaited<ReturnType<ReturnType<Page["context"]>["newCDPSession"]>>): Promise<Record<string, number>> {
  void page;
  const { metrics: list } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  const out: Record<string, number> = {};
  for (const m of list) out[m.name] = m.value * 1000;
  return out;
}

/**
 * Throws unless the history is still scrolled to the bottom: a view that stopped following the answer would
 * render less and make the figures look better than what a user gets.
 */
async function assertPinned(page: Page): Promise<void> {
  const gap = await page.$eval(".history", (el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  if (gap > 40) throw new Error(`the history stopped following the answer (${gap} px above the bottom)`);
}

/** A wide view of the webview with CDP's thread-tick metrics on: the view, its page and fake host, and the CDP session. */
async function measuredView(h: Harness, browser: Browser, origin: string) {
  const view = await h.openView(browser, origin, { width: 800, height: 900 });
  await definePageName(view.page);
  const cdp = await view.page.context().newCDPSession(view.page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  return { view, page: view.page, host: view.host, cdp };
}

/** Per-chunk main-thread ms (task, script, layout) when appending 100-byte chunks to a message of `prefix` bytes. */
async function perChunk(h: Harness, browser: Browser, origin: string, doc: string, prefix: number): Promise<{ taskMs: number; scriptMs: number; layoutMs: number }> {
  const { view, page, host, cdp } = await measuredView(h, browser, origin);
  try {
    await host.emit("message/started", h.message({ id: "m", status: "streaming", text: doc.slice(0, prefix) }));
    await page.waitForSelector(`${BODY} .md-chunk`, { state: "attached" });
    await h.frames(page, 3);
    const chunks: string[] = [];
    for (let i = 0; i < RATIO_CHUNKS + 20; i++) chunks.push(doc.slice(prefix + i * CHUNK, prefix + (i + 1) * CHUNK));
    const appendEach = (list: string[]) =>
      page.evaluate(async (items) => {
        const w = globalThis as unknown as PageWindow;
        const frame = () => new Promise((resolve) => w.requestAnimationFrame(() => resolve(undefined)));
        for (const text of items) {
          const before = w.__sidekicksStats.store.flushes;
          w.__host.emit("message/delta", { channelId: "ch-general", messageId: "m", appendText: text });
          while (w.__sidekicksStats.store.flushes === before) await frame();
          await frame(); // the frame that rendered it was laid out and painted
        }
      }, list);
    await appendEach(chunks.slice(0, 20)); // warm-up: JIT, the tail's first re-renders
    const before = await metrics(page, cdp);
    await appendEach(chunks.slice(20));
    const after = await metrics(page, cdp);
    await assertPinned(page);
    const expectedEnd = doc.slice(prefix + (RATIO_CHUNKS + 19) * CHUNK, prefix + (RATIO_CHUNKS + 20) * CHUNK).trim().split(/\s+/).pop() ?? "";
    const text = await page.$eval(BODY, (el) => el.textContent ?? "");
    if (expectedEnd && !text.includes(expectedEnd.replace(/[`*[\]()#]/g, "").slice(0, 6))) throw new Error(`the last chunk is not in the DOM (${expectedEnd})`);
    const problems = await view.problems();
    if (problems.length) throw new Error(`the page reported problems: ${problems.join("; ")}`);
    const d = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) / RATIO_CHUNKS;
    return { taskMs: d("TaskDuration"), scriptMs: d("ScriptDuration"), layoutMs: d("LayoutDuration") + d("RecalcStyleDuration") };
  } finally {
    await page.close();
  }
}

/** Streams `THROUGHPUT_CHUNKS` chunks as fast as the page takes them; chunks/s and renders per frame. */
async function throughput(h: Harness, browser: Browser, origin: string, doc: string): Promise<{ chunksPerSecond: number; wallChunksPerSecond: number; busyMs: number; wallMs: number; rendersPerFrame: number; renders: number; frames: number }> {
  const { view, page, host, cdp } = await measuredView(h, browser, origin);
  try {
    await host.emit("message/started", h.message({ id: "m", status: "streaming" }));
    await page.waitForSelector(BODY, { state: "attached" });
    await h.frames(page, 3);
    const end = `\n\nDone: ${THROUGHPUT_CHUNKS} chunks.\n`;
    const chunks: string[] = [];
    for (let i = 0; i < THROUGHPUT_CHUNKS - 1; i++) chunks.push(doc.slice(i * CHUNK, (i + 1) * CHUNK));
    chunks.push(end.padStart(CHUNK, " "));
    const before = await metrics(page, cdp);
    const result = await page.evaluate(
      async ([items, marker, body]) => {
        const w = globalThis as unknown as PageWindow;
        let frames = 0;
        let raf = 0;
        const history = w.document.querySelector(".history");
        const tick = () => {
          frames++;
          // Follow the answer as a reader does (History's own pinning can lose the bottom under load, see
          // docs/performance.md): a view scrolled away would skip rendering most of the answer.
          if (history) history.scrollTop = history.scrollHeight;
          raf = w.requestAnimationFrame(tick);
        };
        raf = w.requestAnimationFrame(tick);
        const rendersBefore = w.__sidekicksStats.markdown.renders;
        const start = performance.now();
        for (let i = 0; i < items.length; i++) {
          w.__host.emit("message/delta", { channelId: "ch-general", messageId: "m", appendText: items[i] });
          if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 0));
        }
        const el = w.document.querySelector(body);
        while (!el?.textContent?.includes(marker)) await new Promise((resolve) => w.requestAnimationFrame(() => resolve(undefined)));
        const ms = performance.now() - start;
        w.cancelAnimationFrame(raf);
        return { ms, frames, renders: w.__sidekicksStats.markdown.renders - rendersBefore };
      },
      [chunks, end.trim(), BODY] as const,
    );
    const after = await metrics(page, cdp);
    await assertPinned(page);
    const problems = await view.problems();
    if (problems.length) throw new Error(`the page reported problems: ${problems.join("; ")}`);
    const busyMs = (after.TaskDuration ?? 0) - (before.TaskDuration ?? 0);
    return {
      chunksPerSecond: Math.round(THROUGHPUT_CHUNKS / (busyMs / 1000)),
      wallChunksPerSecond: Math.round(THROUGHPUT_CHUNKS / (result.ms / 1000)),
      busyMs: Math.round(busyMs),
      wallMs: Math.round(result.ms),
      rendersPerFrame: result.renders / Math.max(result.frames, 1),
      renders: result.renders,
      frames: result.frames,
    };
  } finally {
    await page.close();
  }
}

/** The render figures (see the file's docstring), with their samples. */
export async function renderFigures(): Promise<Record<string, unknown>> {
  const h = await harness();
  const server = await h.startServer();
  const browser = await h.launchBrowser();
  try {
    const doc = markdownDocument(Math.max(LARGE + (RATIO_CHUNKS + 20) * CHUNK, THROUGHPUT_CHUNKS * CHUNK));
    const small: Awaited<ReturnType<typeof perChunk>>[] = [];
    const large: Awaited<ReturnType<typeof perChunk>>[] = [];
    for (let i = 0; i < RUNS; i++) {
      small.push(await perChunk(h, browser, server.origin, doc, SMALL));
      large.push(await perChunk(h, browser, server.origin, doc, LARGE));
    }
    const runs: Awaited<ReturnType<typeof throughput>>[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await throughput(h, browser, server.origin, doc));
    const r2 = (x: number) => Math.round(x * 100) / 100;
    const smallMs = median(small.map((s) => s.taskMs));
    const largeMs = median(large.map((s) => s.taskMs));
    return {
      "render.chunk10KBMs": r2(smallMs),
      "render.chunk1MBMs": r2(largeMs),
      "render.longMessageRatio": r2(largeMs / smallMs),
      "render.longMessageTarget": "≤ 3",
      "render.chunksPerSecond": median(runs.map((r) => r.chunksPerSecond)),
      "render.rendersPerFrame": r2(Math.max(...runs.map((r) => r.rendersPerFrame))),
      "render.chunksPerSecondTarget": "≥ 2000",
      "render.wallChunksPerSecond": median(runs.map((r) => r.wallChunksPerSecond)),
      renderSamples: {
        chunk10KB: small.map((s) => ({ task: r2(s.taskMs), script: r2(s.scriptMs), styleLayout: r2(s.layoutMs) })),
        chunk1MB: large.map((s) => ({ task: r2(s.taskMs), script: r2(s.scriptMs), styleLayout: r2(s.layoutMs) })),
        throughput: runs.map((r) => ({ ...r, rendersPerFrame: r2(r.rendersPerFrame) })),
      },
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (require.main === module) {
  void renderFigures()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
