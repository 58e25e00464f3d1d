// @ts-check
// Agent text is untrusted: nothing it contains may run script, navigate the webview, or pass for the UI.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, webviewCsp, withBrowser } from "./harness.mjs";

const HOSTILE = [
  "Look: <img src=x onerror=window.__pwned=1>",
  'Quoted: <img src="x" onerror="window.__pwned=1">',
  "<script>window.__pwned=1</script>",
  "[x](javascript:window.__pwned=1)",
  '<a href="javascript:window.__pwned=1">y</a> <svg onload="window.__pwned=1"></svg>',
  '<iframe src="javascript:window.__pwned=1"></iframe> <div style="color:red" id="composer" class="send-error">spoof</div>',
  '<button class="permission-option" data-option-id="allow" onclick="window.__pwned=1">Allow</button>',
  "![pic](x) ![pixel](javascript:window.__pwned=1)",
  "[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+) [site](https://example.com/)",
].join("\n\n");

describe("sanitizing agent text", () => {
  const env = withBrowser();

  /** @param {import("./harness.mjs").View} view @param {string} messageId */
  async function assertInert(view, messageId) {
    const { page } = view;
    const body = `.message[data-message-id='${messageId}'] .message-body`;
    await page.waitForSelector(`${body} a`);
    const url = page.url();
    for (const link of await page.$$(`${body} a`)) await link.click();
    await frames(page, 3);
    assert.equal(page.url(), url, "links do not navigate the webview");
    assert.equal(await page.evaluate(() => window.__pwned), undefined, "no agent script ran");
    const found = await page.$eval(body, (el) => ({
      scripts: el.querySelectorAll("script, iframe, svg, style, button, form").length,
      // The view's own wrappers (`.md-group`, `.md-chunk`) carry the estimated height it sets; nothing inside them has a style.
      handlers: [...el.querySelectorAll("*")].filter((n) => !n.classList.contains("md-chunk") && !n.classList.contains("md-group")).flatMap((n) => [...n.attributes].map((a) => a.name)).filter((n) => n.startsWith("on") || n === "style" || n === "id"),
      chunkStyles: [...el.querySelectorAll(".md-chunk[style], .md-group[style]")].map((n) => n.getAttribute("style")).filter((s) => !/^contain-intrinsic-size: auto \d+px;?$/.test(s ?? "")),
      hrefs: [...el.querySelectorAll("a")].map((a) => a.getAttribute("href")),
      imgSrc: [...el.querySelectorAll("img")].map((i) => i.getAttribute("src")),
      classes: [...el.querySelectorAll("[class]")].map((n) => n.className).filter((c) => /send-error|permission/.test(c)),
    }));
    assert.deepEqual(found.scripts, 0);
    assert.deepEqual(found.handlers, []);
    assert.deepEqual(found.chunkStyles, [], "a chunk's wrapper has no style but its estimated height");
    assert.ok(found.hrefs.every((h) => h === null || h.startsWith("https:")), `only https links kept: ${found.hrefs}`);
    assert.deepEqual(found.imgSrc, [null, null], "image sources the CSP would block, or scripts, are dropped");
    assert.deepEqual(found.classes, [], "agent text cannot borrow the UI's classes");
    // `[x](javascript:…)` keeps its text, but it is no link, and does not look like one.
    const unlinked = await page.$$eval(`${body} a:not([href])`, (els) => els.map((a) => getComputedStyle(a).color === getComputedStyle(/** @type {Element} */ (a.parentElement)).color));
    assert.ok(unlinked.length >= 1 && unlinked.every(Boolean), `a link whose address was dropped reads as its text (${unlinked})`);
    assert.equal(await page.$$eval("#composer", (els) => els.length), 1, "agent text cannot clobber #composer");
    assert.match(await page.innerText(body), /<script>window\.__pwned=1<\/script>/, "raw HTML is shown as text, not lost");
    assert.equal(await page.$$eval(".send-error", (els) => els.length), 0);
    assert.equal(await page.$$eval("button.permission-option", (els) => els.length), 0);
    assert.deepEqual(await view.problems(), [], "and no CSP violation either");
  }

  it("renders hostile Markdown from history inert", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({ messages: [message({ id: "h1", text: HOSTILE })] }),
    });
    await assertInert(view, "h1");
  });

  it("renders hostile Markdown inert while it streams", async () => {
    const view = await openView(env.browser, env.server.origin);
    await view.host.emit("message/started", message({ id: "h2", status: "streaming" }));
    for (const piece of HOSTILE.match(/[\s\S]{1,7}/g) ?? []) {
      await view.host.emit("message/delta", { channelId: "ch-general", messageId: "h2", appendText: piece });
    }
    await view.page.waitForFunction(() => document.querySelector(".message[data-message-id='h2']")?.textContent?.includes("site"));
    await assertInert(view, "h2");
  });

  it("renders a user's own HTML inert too", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({ messages: [message({ id: "u1", author: "user", text: "<img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1)" })] }),
    });
    await view.page.click(".message[data-message-id='u1'] a");
    await frames(view.page, 2);
    assert.equal(await view.page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(await view.problems(), []);
  });

  it("runs under the policy the extension writes: a script without the page's nonce never runs", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page } = view;
    const { policy, nonce } = await page.evaluate(() => ({
      policy: document.querySelector("meta[http-equiv='Content-Security-Policy']")?.getAttribute("content"),
      nonce: /** @type {HTMLScriptElement} */ (document.querySelector("script[type='module']")).nonce,
    }));
    assert.ok(nonce.length >= 16, "a per-load nonce");
    assert.equal(policy, webviewCsp(env.server.origin, nonce), "the page's CSP is the one src/shared/webviewDocument.ts writes");
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__pwned = 1";
      document.body.append(script);
    });
    await frames(page, 2);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, "the injected script did not run");
    assert.ok((await view.problems()).some((p) => p.startsWith("CSP script-src")), "and the browser reported it");
    assert.ok(await page.isVisible("#composer textarea"), "while the nonce'd bundle runs");
  });

  it("still reports a real CSP violation (the check above is not vacuous)", async () => {
    const view = await openView(env.browser, env.server.origin);
    await view.page.evaluate(() => {
      const div = document.createElement("div");
      div.innerHTML = '<span style="color: red">inline style</span>';
      document.body.append(div);
    });
    await frames(view.page, 2);
    assert.ok((await view.problems()).some((p) => p.startsWith("CSP style-src")), "an inline style attribute is reported");
  });
});

describe("bidirectional controls", () => {
  const env = withBrowser();

  it("shows bidi override characters as visible markers in text, titles and output, so agent text cannot read reversed", async () => {
    const evil = "evil \u202eRTL\u202c text";
    // Character references become the characters only when the HTML is parsed: hexadecimal, decimal, and one in a
    // link's address (its title shows the address).
    const references = "\n\nhex &#x202E;one, dec &#8238;abc, [link](https://example.com/a&#X2067;b)";
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const tool = { type: "toolCall", toolCallId: "b1", title: `Run ${evil}`, kind: "execute", status: "completed", content: evil };
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "bd", parts: [{ type: "text", text: evil + references }, tool] })] }) });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='bd'] .tool-call");
    const all = await page.innerText(".message[data-message-id='bd']");
    assert.doesNotMatch(all, /[\u202a-\u202e\u2066-\u2069]/, "no bidi control reaches the page");
    assert.match(all, /evil \[U\+202E\]RTL\[U\+202C\] text/);
    assert.match(await page.innerText(".message[data-message-id='bd'] .tool-title"), /\[U\+202E\]/);
    assert.match(all, /hex \[U\+202E\]one, dec \[U\+202E\]abc/, "character references are shown as markers too");
    const title = await page.getAttribute(".message[data-message-id='bd'] .message-body a", "title");
    assert.doesNotMatch(title ?? "", /[\u202a-\u202e\u2066-\u2069]/, `no bidi control in a link's title: ${title}`);
  });
});
