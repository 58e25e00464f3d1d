// @ts-check
/**
 * Test harness for the webview: serves the BUILT `dist/webview.js` + `dist/webview.css` from 127.0.0.1 inside the
 * host's own HTML (`webviewDocument` from `src/shared/webviewDocument.ts`: the same CSP with a per-load nonce,
 * `<div id="root">`), plus what VS Code adds to a webview (its default styles and theme variables, the body's theme
 * class), injects the fake host before the bundle, and drives it from headless Chromium.
 */
import { existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { buildSync } from "esbuild";
import { chromium } from "playwright-core";
import { installFakeHost } from "./fakeHost.mjs";
import { themeCss } from "./theme.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dist = path.join(root, "dist");

/**
 * The host's page, from its one source: `src/shared/webviewDocument.ts` (pure TypeScript, no `vscode` import),
 * compiled with esbuild as the build compiles it and imported here.
 * @type {typeof import("../../src/shared/webviewDocument")}
 */
export const { webviewCsp, webviewDocument } = await import(
  `data:text/javascript;base64,${Buffer.from(
    buildSync({ entryPoints: [path.join(root, "src/shared/webviewDocument.ts")], bundle: true, format: "esm", platform: "neutral", write: false }).outputFiles[0].text,
  ).toString("base64")}`
);

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/**
 * Registers `before`/`after` hooks in the current suite that start the page server and Chromium, and stop them.
 * Returns `{ browser, server }`, filled once the `before` hook ran.
 */
export function withBrowser() {
  /** @type {{ browser: import("playwright-core").Browser, server: Awaited<ReturnType<typeof startServer>> }} */
  const env = /** @type {typeof env} */ (/** @type {unknown} */ ({})); // filled by the `before` hook below
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** Launches headless Chromium (Debian's, or `CHROMIUM_PATH`). */
export function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** Serves `/index.html?theme=dark|light|high-contrast` and `/dist/*` (the bundle, `dist/chunks/` and the codicon font in `dist/assets/`); resolves `{ origin, close }`. */
export async function startServer() {
  for (const file of ["webview.js", "webview.css"]) {
    if (!existsSync(path.join(dist, file))) throw new Error(`dist/${file} is missing: run \`node scripts/build.mjs\` first.`);
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/index.html") {
      const origin = `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (server.address()).port}`;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      const theme = url.searchParams.get("theme");
      res.end(pageHtml(origin, theme === "light" || theme === "high-contrast" ? theme : "dark", url.searchParams.get("channel") ?? undefined));
      return;
    }
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204).end(); // VS Code webviews have no favicon; keep the console clean
      return;
    }
    // The bundle, and the chunks it imports lazily (dist/chunks/: the code highlighter and its grammars).
    const match = /^\/dist\/(webview\.(?:js|css)(?:\.map)?|chunks\/[\w-]+\.js(?:\.map)?|assets\/[\w-]+\.ttf)$/.exec(url.pathname);
    if (!match?.[1]) {
      res.writeHead(404).end();
      return;
    }
    const type = match[1].endsWith(".css") ? "text/css" : match[1].endsWith(".js") ? "text/javascript" : match[1].endsWith(".ttf") ? "font/ttf" : "application/json";
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    res.end(readFileSync(path.join(dist, match[1])));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * The host's HTML, as the extension writes it, with `cspSource` = the test server's origin, and what VS Code adds
 * inside a webview: its default styles (nonce'd, before the extension's stylesheet) and the body's theme class.
 * `channel` pins the page to a channel, as an editor tab's page is (src/vscode/ChannelPanels.ts).
 * @param {string} cspSource
 * @param {Theme} theme
 * @param {string | undefined} channel
 */
function pageHtml(cspSource, theme, channel) {
  const nonce = randomBytes(16).toString("base64");
  const html = webviewDocument({ cspSource, nonce, styleUri: `${cspSource}/dist/webview.css`, scriptUri: `${cspSource}/dist/webview.js`, channel });
  const withVsCode = html
    .replace("<link rel=\"stylesheet\"", `<style nonce="${nonce}" id="_defaultStyles">${themeCss(theme)}</style>\n<link rel="stylesheet"`)
    .replace("<body>", `<body class="vscode-${theme}">`);
  if (!withVsCode.includes("_defaultStyles") || !withVsCode.includes(`vscode-${theme}`)) throw new Error("webviewDocument changed shape: update pageHtml in test/webview/harness.mjs");
  return withVsCode;
}

/** @typedef {import("../../src/shared/protocol").MessageView} MessageView */
/** @typedef {import("../../src/shared/protocol").MemberView} MemberView */
/** @typedef {import("../../src/shared/protocol").WebviewRequests} WebviewRequests */
/** @typedef {import("../../src/shared/protocol").HostEvents} HostEvents */
/** @typedef {import("../../src/shared/protocol").HostRequests} HostRequests */
/** @typedef {import("../../src/shared/protocol").HostToWebview} HostToWebview */
/** @typedef {import("../../src/shared/protocol").WebviewToHost} WebviewToHost */
/** @typedef {"dark" | "light" | "high-contrast"} Theme */
/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("../../src/shared/protocol").Part} Part */
/** The Node-side driver of a page's fake host (`openView`'s `host`). @typedef {ReturnType<typeof hostDriver>} HostDriver */
/** An opened view (`openView`'s result). @typedef {Awaited<ReturnType<typeof openView>>} View */

/**
 * A channel snapshot as `channel/open` returns it.
 * @param {{ name?: string, members?: MemberView[], messages?: MessageView[], config?: import("../../src/shared/protocol").ConfigStatus }} [snapshot]
 * @returns {WebviewRequests["channel/open"][1]}
 */
export function openResult({ name = "general", members = [{ name: "demo", state: "ready" }], messages = [], config } = {}) {
  return {
    channel: { id: `ch-${name}`, name, members },
    messages,
    config: config ?? { state: "ok", path: "/work/sidekicks.yaml", problems: [] },
  };
}

let clock = Date.UTC(2025, 0, 15, 9, 30);

/**
 * A `MessageView`; `text` becomes one text part.
 * @param {object} fields
 * @param {string} fields.id
 * @param {MessageView["author"]["kind"]} [fields.author] "agent" (default: `agentName`'s), "user" or "system"
 * @param {string} [fields.agentName]
 * @param {string} [fields.text]
 * @param {MessageView["parts"]} [fields.parts]
 * @param {MessageView["status"]} [fields.status]
 * @param {string} [fields.channelId]
 * @param {MessageView["error"]} [fields.error]
 * @param {MessageView["stopReason"]} [fields.stopReason]
 * @param {MessageView["to"]} [fields.to]
 * @returns {MessageView}
 */
export function message({ id, author = "agent", agentName = "demo", text, parts, status = "done", channelId = "ch-general", error, stopReason, to }) {
  clock += 60_000;
  return {
    id,
    channelId,
    author: author === "agent" ? { kind: "agent", agentName } : { kind: author },
    parts: parts ?? (text === undefined ? [] : [{ type: "text", text }]),
    createdAt: clock,
    status,
    ...(error ? { error } : {}),
    ...(stopReason ? { stopReason } : {}),
    ...(to ? { to } : {}),
  };
}

/**
 * Opens the view in a new page (pinned to `channel` like an editor tab when given). Resolves `{ page, problems, host }` once the channel rendered; `problems` collects
 * CSP violations, console errors and uncaught exceptions; `host` wraps `window.__host` (see fakeHost.mjs).
 * @param {import("playwright-core").Browser} browser
 * @param {string} origin the test server's (`startServer`)
 * @param {Partial<Omit<import("./fakeHost.mjs").FakeHostInit, "open">> & { open?: WebviewRequests["channel/open"][1], theme?: Theme, width?: number, height?: number, channel?: string }} [options]
 */
export async function openView(browser, origin, { open = openResult(), state, delayMs, channels, agents, refuse, theme = "dark", width = 320, height = 700, channel } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  /** @type {string[]} */
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  await page.addInitScript(installFakeHost, { open, state, delayMs, channels, agents, refuse });
  await page.goto(`${origin}/index.html?theme=${theme}${channel === undefined ? "" : `&channel=${encodeURIComponent(channel)}`}`);
  await page.waitForSelector(".history:not(.history-loading), .open-error");
  const host = hostDriver(page);
  return {
    page,
    host,
    /** CSP violations seen by the page plus console errors/warnings and uncaught exceptions. */
    async problems() {
      const csp = await page.evaluate(() => window.__cspViolations);
      return [...problems, ...csp.map((v) => `CSP ${v.directive} blocked ${v.blocked} ${v.sample}`)];
    },
  };
}

/**
 * Node-side helpers over the in-page fake host.
 * @param {import("playwright-core").Page} page
 */
function hostDriver(page) {
  return {
    /**
     * Delivers a host event to the webview (the message `__host.emit` delivers, built here: Playwright's argument
     * types lose the link of the event's name to its payload).
     * @template {keyof HostEvents} E
     * @param {E} name
     * @param {HostEvents[E]} payload
     */
    emit: (name, payload) => page.evaluate((m) => window.__host.deliver(m), /** @type {HostToWebview} */ ({ kind: "event", name, payload })),
    /** Delivers any host message. @param {HostToWebview} message */
    deliver: (message) => page.evaluate((m) => window.__host.deliver(m), message),
    /**
     * Sends a `test/*` request; resolves with the webview's response.
     * @template {keyof HostRequests} M
     * @param {M} method
     * @param {HostRequests[M][0]} params
     * @returns {Promise<{ result?: HostRequests[M][1], error?: import("../../src/shared/protocol").ErrorInfo }>}
     */
    request: async (method, params) =>
      /** @type {{ result?: HostRequests[M][1], error?: import("../../src/shared/protocol").ErrorInfo }} */ (await page.evaluate(({ m, p }) => window.__host.request(m, p), { m: method, p: params })),
    /**
     * Params of every request of `method` the webview posted (the webview posts them typed by the protocol).
     * @template {keyof WebviewRequests} M
     * @param {M} method
     * @returns {Promise<WebviewRequests[M][0][]>}
     */
    requests: (method) => /** @type {Promise<WebviewRequests[M][0][]>} */ (page.evaluate((m) => window.__host.requests(m), method)),
    /** Everything the webview posted. */
    posted: () => page.evaluate(() => window.__host.posted),
    /**
     * The last `setState` value (what the webview persists, `webview/viewState.ts`).
     * @returns {Promise<import("../../webview/viewState").PersistedState>}
     */
    state: async () => /** @type {import("../../webview/viewState").PersistedState} */ (await page.evaluate(() => window.__host.state)),
    /**
     * Waits until the webview posted `count` requests of `method`; resolves their params.
     * @template {keyof WebviewRequests} M
     * @param {M} method
     * @returns {Promise<WebviewRequests[M][0][]>}
     */
    async waitForRequests(method, count = 1) {
      await page.waitForFunction(({ m, c }) => window.__host.requests(m).length >= c, { m: method, c: count });
      return /** @type {WebviewRequests[M][0][]} */ (await page.evaluate((m) => window.__host.requests(m), method));
    },
  };
}

/**
 * Waits `n` animation frames in the page.
 * @param {import("playwright-core").Page} page
 */
export function frames(page, n = 2) {
  return page.evaluate(
    (count) => new Promise((resolve) => {
      let left = count;
      const tick = () => (--left <= 0 ? resolve(undefined) : requestAnimationFrame(tick));
      requestAnimationFrame(tick);
    }),
    n,
  );
}

/**
 * `count` sections of Markdown, each a heading, a paragraph, a list and a code fence, then `after` (a closing
 * paragraph of each section, or nothing): the long answers the streaming tests send.
 * @param {number} count
 */
export function markdownSections(count, after = "") {
  const parts = [];
  for (let i = 0; i < count; i++) {
    parts.push(
      `## Step ${i}\n\nThe agent reads \`file${i}.ts\` and updates the handler so that each request is validated before it reaches the store.\n\n` +
        `- first item of step ${i}\n- second item of step ${i}\n\n` +
        "```ts\n" + `const value${i} = store.get("key${i}");\n` + "```\n\n" + after,
    );
  }
  return parts.join("");
}
