// @ts-check
/**
 * Languages (issue 8) in the webview: the host writes the editor's l10n bundle (`vscode.l10n.bundle`) into the page
 * (`webviewDocument`'s `l10n`), and the webview's `@vscode/l10n` says its words from it. VS Code itself would need
 * a French language pack to pick French (not available offline); here the page carries the French bundle
 * (`l10n/bundle.l10n.fr.json`) exactly as the host writes it, and the same page without a bundle stays English.
 * Screenshots: test-results/webview-l10n-fr.png, test-results/webview-l10n-fr-list.png.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { installFakeHost } from "./fakeHost.mjs";
import { message, openResult, webviewDocument, withBrowser } from "./harness.mjs";
import { themeCss } from "./theme.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");
/** @type {Record<string, string>} */
const french = JSON.parse(readFileSync(path.join(root, "l10n/bundle.l10n.fr.json"), "utf8"));

/** A channel with a pending permission request and a plan, so cards speak too. */
const channel = () =>
  openResult({
    members: [{ name: "demo", state: "ready" }],
    messages: [
      message({ id: "m1", author: "user", text: "@demo tidy the README" }),
      message({
        id: "m2",
        status: "streaming",
        parts: [
          { type: "plan", entries: [{ content: "Read the README", priority: "high", status: "completed" }, { content: "Rewrite it", priority: "medium", status: "in_progress" }] },
          {
            type: "permission",
            requestId: "r1",
            toolCallId: "t1",
            title: "Edit README.md",
            options: [
              { optionId: "allow", name: "Allow", kind: "allow_once" },
              { optionId: "reject", name: "Reject", kind: "reject_once" },
            ],
          },
        ],
      }),
    ],
  });

/**
 * A long channel (so it scrolls) ending with what the message list says itself: the user's message, a code block,
 * an answer cut at the token limit, a failed one to retry and one still streaming; one member still starting.
 */
const busyChannel = () =>
  openResult({
    members: [
      { name: "demo", state: "ready" },
      { name: "claude", state: "starting" },
    ],
    messages: [
      ...Array.from({ length: 40 }, (_, i) => message({ id: `f${i}`, text: `Earlier answer ${i}, long enough to take a line or two in a narrow view.` })),
      message({ id: "u1", author: "user", text: "@demo show the snippet" }),
      message({ id: "c1", text: "Here:\n\n```js\nlet a = 1;\n```" }),
      message({ id: "t1", text: "A long answer", stopReason: "max_tokens" }),
      { ...message({ id: "e1", error: { code: "agent/exited", message: "demo exited" } }), outcome: "failed", retryable: true },
      message({ id: "s1", status: "streaming", text: "Working on it" }),
    ],
  });

/**
 * Opens the view on a page the host wrote with `language` and `bundle` (none: English), served from the harness's
 * origin so the bundle's URIs and the CSP are the real ones; `open` is the channel the fake host opens.
 * @param {import("playwright-core").Browser} browser
 * @param {string} origin
 * @param {{ language?: string, bundle?: Record<string, string>, open?: import("../../src/shared/protocol").WebviewRequests["channel/open"][1] }} page
 */
async function openLocalized(browser, origin, { language, bundle, open = channel() }) {
  const page = await browser.newPage({ viewport: { width: 320, height: 700 } });
  /** @type {string[]} */
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  const nonce = randomBytes(16).toString("base64");
  // What VS Code adds to a webview (its default styles, the theme class), as the harness's page does.
  const html = webviewDocument({ cspSource: origin, nonce, styleUri: `${origin}/dist/webview.css`, scriptUri: `${origin}/dist/webview.js`, language, l10n: bundle })
    .replace('<link rel="stylesheet"', `<style nonce="${nonce}" id="_defaultStyles">${themeCss("dark")}</style>\n<link rel="stylesheet"`)
    .replace("<body>", '<body class="vscode-dark">');
  await page.route(`${origin}/localized.html`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.addInitScript(installFakeHost, { open });
  await page.goto(`${origin}/localized.html`);
  await page.waitForSelector(".history:not(.history-loading)");
  const csp = await page.evaluate(() => window.__cspViolations);
  return { page, problems: () => [...problems, ...csp.map((v) => `CSP ${v.directive} blocked ${v.blocked}`)] };
}

/** @param {import("playwright-core").Page} page */
const texts = (page) =>
  page.evaluate(() => ({
    lang: document.documentElement.lang,
    placeholder: document.querySelector("#composer textarea")?.getAttribute("placeholder"),
    send: document.querySelector("#composer .send")?.textContent?.trim(),
    hint: document.querySelector(".composer-hint")?.textContent?.trim(),
    permission: document.querySelector(".permission-title")?.textContent?.trim(),
    plan: document.querySelector(".plan-title")?.textContent?.trim(),
    progress: document.querySelector(".plan-progress")?.textContent?.trim(),
    addChannel: document.querySelector(".channel-add")?.getAttribute("aria-label"),
  }));

describe("webview languages", () => {
  const env = withBrowser();

  test("with the French bundle in the page the composer, cards and channel form speak French; without one, English", async () => {
    const fr = await openLocalized(env.browser, env.server.origin, { language: "fr", bundle: french });
    try {
      assert.deepEqual(await texts(fr.page), {
        lang: "fr",
        placeholder: "Message à #general — @agent pour mentionner",
        send: "Envoyer",
        hint: "Entrée pour envoyer · Maj+Entrée pour aller à la ligne · @ et / complètent",
        permission: "Autoriser Edit README.md ?",
        plan: "Plan",
        progress: "1/2 faits",
        addChannel: "Nouveau canal",
      });
      assert.equal(await fr.page.locator(".permission-title strong").textContent(), "Edit README.md", "the title stays in bold inside the French sentence");
      // The longer French hint wraps to a second line rather than losing its end (it was cut to "@ et / …").
      assert.equal(await fr.page.$eval(".composer-hint", (el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1), true, "the whole hint shows");
      // A name the webview itself refuses, in French, as it is typed.
      await fr.page.click(".channel-add");
      await fr.page.fill(".channel-create-name", "Ideas");
      await fr.page.waitForFunction(() => document.querySelector(".channel-create .channel-name-problem")?.textContent === "Les noms de canaux sont en minuscules : essayez #ideas.");
      assert.equal(await fr.page.locator(".channel-create-ok").textContent(), "Créer");
      mkdirSync(outDir, { recursive: true });
      await fr.page.screenshot({ path: path.join(outDir, "webview-l10n-fr.png") });
      assert.deepEqual(fr.problems(), [], "the bundle's data block breaks no CSP rule and logs nothing");
    } finally {
      await fr.page.close();
    }

    const en = await openLocalized(env.browser, env.server.origin, {});
    try {
      assert.deepEqual(await texts(en.page), {
        lang: "en",
        placeholder: "Message #general — @agent to mention",
        send: "Send",
        hint: "Enter to send · Shift+Enter for a new line · @ and / complete",
        permission: "Allow Edit README.md?",
        plan: "Plan",
        progress: "1/2 done",
        addChannel: "New channel",
      });
      assert.deepEqual(en.problems(), []);
    } finally {
      await en.page.close();
    }
  });

  test("with the French bundle the message list, its buttons, member states and code blocks speak French", async () => {
    /** @param {import("playwright-core").Page} page */
    const listTexts = async (page) => {
      await page.waitForSelector(".message[data-message-id='s1'] .message-stop");
      await page.waitForSelector(".message[data-message-id='c1'] .code-action[data-code-action='copy']");
      return page.evaluate(() => {
        const text = (/** @type {string} */ selector) => document.querySelector(selector)?.textContent?.trim();
        const attr = (/** @type {string} */ selector, /** @type {string} */ name) => document.querySelector(selector)?.getAttribute(name);
        return {
          you: text(".message[data-message-id='u1'] .message-author"),
          copy: text(".message[data-message-id='c1'] .code-action[data-code-action='copy']"),
          insert: text(".message[data-message-id='c1'] .code-action[data-code-action='insert']"),
          stopNote: text(".message[data-message-id='t1'] .message-note"),
          retry: text(".message[data-message-id='e1'] .message-retry"),
          stop: text(".message[data-message-id='s1'] .message-stop"),
          stopTitle: attr(".message[data-message-id='s1'] .message-stop", "title"),
          typing: attr(".message[data-message-id='s1'] .typing", "aria-label"),
          states: [...document.querySelectorAll(".member-state")].map((el) => el.textContent),
          members: attr(".members", "aria-label"),
          log: attr(".history", "aria-label"),
        };
      });
    };
    /** @param {import("playwright-core").Page} page */
    const jumpText = async (page) => {
      await page.$eval(".history", (el) => {
        el.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
        el.scrollTop = 0;
      });
      await page.waitForSelector(".jump-latest");
      return (await page.innerText(".jump-latest")).replace(/^↓\s*/, "");
    };

    const fr = await openLocalized(env.browser, env.server.origin, { language: "fr", bundle: french, open: busyChannel() });
    try {
      assert.deepEqual(await listTexts(fr.page), {
        you: "Vous",
        copy: "Copier",
        insert: "Insérer",
        stopNote: "Arrêté : limite de tokens atteinte",
        retry: "Réessayer",
        stop: "Arrêter",
        stopTitle: "Arrêter cette réponse (ACP session/cancel)",
        typing: "demo est en train d'écrire",
        states: ["prêt", "démarrage…"],
        members: "Membres",
        log: "Messages de #general",
      });
      mkdirSync(outDir, { recursive: true });
      await fr.page.screenshot({ path: path.join(outDir, "webview-l10n-fr-list.png") });
      assert.equal(await jumpText(fr.page), "Aller au plus récent");
      assert.deepEqual(fr.problems(), []);
    } finally {
      await fr.page.close();
    }

    const en = await openLocalized(env.browser, env.server.origin, { open: busyChannel() });
    try {
      assert.deepEqual(await listTexts(en.page), {
        you: "You",
        copy: "Copy",
        insert: "Insert",
        stopNote: "Stopped: token limit reached",
        retry: "Retry",
        stop: "Stop",
        stopTitle: "Stop this answer (ACP session/cancel)",
        typing: "demo is typing",
        states: ["ready", "starting…"],
        members: "Members",
        log: "Messages in #general",
      });
      assert.equal(await jumpText(en.page), "Jump to latest");
      assert.deepEqual(en.problems(), []);
    } finally {
      await en.page.close();
    }
  });

  test("a bundle that would close its script element stays data: the page is not broken into", async () => {
    const hostile = { ...french, Send: "</script><script>window.__pwned = true</script>Envoyer" };
    const view = await openLocalized(env.browser, env.server.origin, { language: "fr", bundle: hostile });
    try {
      assert.equal(await view.page.locator("#composer .send").textContent().then((t) => t?.trim()), "</script><script>window.__pwned = true</script>Envoyer");
      assert.equal(await view.page.evaluate(() => window.__pwned), undefined);
    } finally {
      await view.page.close();
    }
  });
});
