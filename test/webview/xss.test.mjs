// @ts-check
// The XSS corpus (issue 6): hostile payloads sent as everything an agent controls — answer text (Markdown), thoughts,
// plan entries, tool call titles, tool output, file paths of locations, diffs and changed files, permission titles,
// error text — rendered from history and while streaming, then every link clicked and every element hovered and
// focused. A trap function counts what executes; the test fails on any call. The count is printed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";
import { PAYLOADS } from "./xssPayloads.mjs";


/** A message carrying `payload` in every place an agent controls. @param {string} payload @param {number} i */
function hostile(payload, i) {
  return {
    ...message({
      id: `x${i}`,
      agentName: "demo",
      parts: [
        { type: "thought", text: payload },
        // On a line of its own, so block-level payloads (fenced code, HTML blocks) are blocks.
        { type: "text", text: `Answer ${i}:\n\n${payload}` },
        { type: "plan", entries: [{ content: payload, priority: "high", status: "in_progress" }] },
        {
          type: "toolCall",
          toolCallId: `t${i}`,
          title: payload,
          kind: "edit",
          status: "completed",
          content: payload,
          locations: [{ path: `/w/${payload}`, line: 3 }],
          diffs: [{ path: `/w/${payload}.ts`, oldText: payload, newText: `${payload}\n` }],
        },
        { type: "permission", requestId: `p${i}`, toolCallId: `t${i}`, title: payload, options: [{ optionId: "ok", name: payload, kind: "allow_once" }], outcome: "ok" },
        { type: "files", files: [{ path: `/w/${payload}`, kind: "modified", beforeKnown: true }] },
      ],
      error: { code: "agent/exited", message: payload, detail: payload },
      status: "error",
    }),
  };
}

/** Code blocks are highlighted lazily: waits until none is queued, so the highlighted DOM is what gets provoked. @param {import("./harness.mjs").Page} page */
function settleHighlighting(page) {
  return page.waitForFunction(() => !document.querySelector(".history .code-block[data-highlight='queued']"));
}

/**
 * Scrolls the (virtualised) history from the top to the bottom, most of a viewport at a time, calling `visit` at each
 * step; resolves to the ids of every message that was in the DOM at some step.
 * @param {import("./harness.mjs").Page} page
 * @param {(fresh: string[]) => Promise<void>} visit
 */
async function everyScreen(page, visit) {
  /** @type {Set<string>} */
  const seen = new Set();
  let position = 0;
  await page.evaluate(() => {
    const history = document.querySelector(".history");
    history?.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
    if (history) history.scrollTop = 0;
  });
  for (let step = 0; step < 1_000; step++) {
    await frames(page, 3);
    const ids = await page.$$eval(".history .message", (els) => els.map((e) => e.getAttribute("data-message-id") ?? ""));
    const fresh = ids.filter((id) => !seen.has(id));
    for (const id of fresh) seen.add(id);
    if (fresh.length > 0) await visit(fresh);
    // Back where this step was (focusing and clicking may have scrolled), then most of a viewport further.
    const [atEnd, next] = await page.evaluate((from) => {
      const history = document.querySelector(".history");
      if (!history) return [true, 0];
      history.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
      history.scrollTop = from;
      const end = history.scrollTop + history.clientHeight >= history.scrollHeight - 2;
      history.scrollTop = from + Math.max(50, history.clientHeight * 0.8);
      return [end, history.scrollTop];
    }, position);
    position = next;
    if (atEnd) break;
  }
  return seen;
}

/** What the sanitizer must never leave in the DOM, checked on what is rendered now. @param {import("./harness.mjs").Page} page */
async function assertInert(page) {
  assert.equal(await page.$$eval(".history script, .history iframe, .history object, .history embed, .history form, .history base, .history meta, .history link", (els) => els.length), 0);
  // The CSP would block an inline handler anyway; the sanitizer must not leave one for it to block.
  const handlers = await page.$$eval(".history *", (els) => els.flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith("on") || n === "srcdoc" || n === "xlink:href"));
  assert.deepEqual(handlers, [], "no event handler, srcdoc or xlink:href attribute survives");
  const hrefs = await page.$$eval(".history .message-body a[href]", (els) => els.map((a) => a.getAttribute("href")));
  assert.ok(hrefs.every((h) => /^(https?:|mailto:|file:|\/|\.|#)/i.test(h ?? "")), `only safe link targets remain: ${hrefs.filter((h) => !/^(https?:|mailto:|file:|\/|\.|#)/i.test(h ?? ""))}`);
}

/**
 * Opens every thought, hovers and focuses everything, and clicks every link in the history — or only in the messages
 * `ids` (the virtual list's newly rendered ones) — then checks that nothing navigated the webview.
 * @param {import("./harness.mjs").Page} page
 * @param {string[]} [ids]
 */
async function provoke(page, ids) {
  /** @param {string} selector */
  const within = (selector) => (ids ? ids.map((id) => `.history .message[data-message-id="${id}"] ${selector}`).join(", ") : `.history ${selector}`);
  for (const toggle of await page.$$(within(".thought button") + ", " + within(".thought summary"))) await toggle.click({ timeout: 2_000 }).catch(() => {});
  await settleHighlighting(page);
  await page.evaluate((selector) => {
    for (const el of document.querySelectorAll(selector)) {
      for (const type of ["mouseover", "mouseenter", "focus", "animationstart", "toggle", "load", "error"]) el.dispatchEvent(new Event(type));
      if (el instanceof HTMLElement) el.focus();
    }
  }, within("*"));
  const url = page.url();
  // A click event on each link: the same activation a user's click causes, without waiting for each to be clickable.
  for (const link of await page.$$(within(".message-body a"))) await link.dispatchEvent("click").catch(() => {});
  await frames(page, 5);
  assert.equal(page.url(), url, "nothing navigated the webview");
}

describe("XSS corpus", () => {
  const env = withBrowser();
  const places = 11;

  it(`${PAYLOADS.length} payloads × ${places} places an agent controls, from history: nothing executes`, async () => {
    assert.ok(PAYLOADS.length >= 40);
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: PAYLOADS.map(hostile) }), height: 900 });
    const { page } = view;
    await page.evaluate(() => {
      window.__calls = 0;
      window.__trap = () => (window.__calls += 1);
    });
    await page.waitForSelector(`.message[data-message-id='x${PAYLOADS.length - 1}']`);
    // The history is virtualised: only messages near the viewport are in the DOM. Every screen is visited, top to
    // bottom, so each payload is rendered, highlighted and provoked at some point.
    const highlighted = new Set();
    const seen = await everyScreen(page, async (fresh) => {
      await settleHighlighting(page);
      const done = await page.$$eval(".history .code-block[data-highlight='done']", (els) => els.map((e) => `${e.closest(".message")?.getAttribute("data-message-id")}:${[...e.parentElement?.children ?? []].indexOf(e)}`));
      for (const id of done) highlighted.add(id);
      await provoke(page, fresh);
      await assertInert(page);
    });
    assert.equal(PAYLOADS.filter((_, i) => !seen.has(`x${i}`)).length, 0, "every payload's message was rendered");
    assert.ok(highlighted.size >= 4, `hostile code blocks were highlighted (${highlighted.size})`);
    const calls = await page.evaluate(() => window.__calls);
    const problems = await view.problems();
    console.log(`XSS corpus: ${PAYLOADS.length} payloads × ${places} places rendered from history (${highlighted.size} code blocks highlighted); executed: ${calls}; CSP reports: ${problems.filter((p) => p.startsWith("CSP")).length}`);
    assert.equal(calls, 0, "no payload ran");
  });

  it(`${PAYLOADS.length} payloads streamed in small pieces: nothing executes`, async () => {
    const view = await openView(env.browser, env.server.origin, { height: 900 });
    const { page, host } = view;
    await page.evaluate(() => {
      window.__calls = 0;
      window.__trap = () => (window.__calls += 1);
    });
    const all = PAYLOADS.join("\n\n");
    await host.emit("message/started", message({ id: "s1", status: "streaming" }));
    for (const piece of all.match(/[\s\S]{1,9}/g) ?? []) await host.emit("message/delta", { channelId: "ch-general", messageId: "s1", appendText: piece });
    await host.emit("message/finished", message({ id: "s1", text: all }));
    await page.waitForSelector(".message[data-message-id='s1'][data-status='done']");
    await provoke(page);
    const calls = await page.evaluate(() => window.__calls);
    console.log(`XSS corpus: ${PAYLOADS.length} payloads streamed in 9-character pieces; executed: ${calls}`);
    assert.equal(calls, 0, "no payload ran");
  });
});
