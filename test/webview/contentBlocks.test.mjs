// @ts-check
// Field cases 18 and 19 in the view: an image in an answer and in a tool card is shown (bounded, whole on click),
// never "[image]" or base64; an embedded file shows its name and its text verbatim, highlighted; a blob image shows;
// a binary, an unsupported image type and an image too large to keep are named; a resource link opens through the
// host, and a refusal says so next to it. Screenshots in dark and light.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";
import { gradientPng } from "../fixtures/png.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");

const WIDE = gradientPng(1200, 300);
const SMALL = gradientPng(48, 32);
const PY = "def f():\n    return 1\n\n\nclass A:\n    ```not a fence```\n";

/** @type {import("../../src/shared/protocol").Part[]} */
const PARTS = [
  { type: "text", text: "Here is the chart:" },
  { type: "content", block: { kind: "image", mimeType: "image/png", bytes: Buffer.from(WIDE, "base64").length, data: WIDE } },
  { type: "text", text: "and the code:" },
  { type: "content", block: { kind: "file", uri: "file:///w/a.py", name: "a.py", mimeType: "text/x-python", text: PY } },
  { type: "content", block: { kind: "image", mimeType: "image/png", bytes: 900, data: SMALL, uri: "file:///w/logo.png", name: "logo.png" } },
  { type: "content", block: { kind: "binary", uri: "file:///w/model.bin", name: "model.bin", mimeType: "application/octet-stream", bytes: 2048 } },
  { type: "content", block: { kind: "image", mimeType: "image/tiff", bytes: 5000, omitted: "type" } },
  { type: "content", block: { kind: "image", mimeType: "image/png", bytes: 5_000_000, omitted: "size" } },
  { type: "content", block: { kind: "link", uri: "file:///w/notes [draft].md", name: "notes [draft].md" } },
  {
    type: "toolCall",
    toolCallId: "t1",
    kind: "other",
    title: "Take a screenshot",
    status: "completed",
    content: "Screenshot of the page",
    locations: [{ path: "/w/shots/page.png" }],
    blocks: [{ kind: "image", mimeType: "image/png", bytes: 900, data: SMALL }],
  },
];

const ANSWER = () => message({ id: "a1", agentName: "shows", parts: PARTS, stopReason: "end_turn" });
const body = ".message[data-message-id='a1'] .message-body";

describe("content blocks", () => {
  const env = withBrowser();

  it("show images bounded (whole on click), files verbatim and highlighted, binaries and refused images by name; no base64, no [image]", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "shows", state: "ready" }], messages: [ANSWER()] }), width: 420 });
    const { page } = view;
    await page.waitForSelector(`${body} .content-image img`);
    const text = await page.innerText(body);
    assert.equal(text.includes("[image]"), false);
    assert.equal(text.includes(WIDE.slice(0, 40)), false, "no base64 shown as text");
    // The wide image is bounded by the view; a click shows it whole; a second click bounds it again.
    const image = `${body} > * .content-image img, ${body} .content-image img`;
    const first = await page.$eval(image, (img) => ({ w: img.getBoundingClientRect().width, natural: /** @type {HTMLImageElement} */ (img).naturalWidth }));
    assert.equal(first.natural, 1200, "the image decoded");
    assert.ok(first.w <= 420, `bounded: ${first.w}px in a 420px view`);
    await page.click(`${body} .content-image-toggle`);
    await page.waitForSelector(`${body} .content-image[data-whole='true']`);
    assert.equal(await page.$eval(image, (img) => img.getBoundingClientRect().width), 1200, "whole");
    await page.click(`${body} .content-image-toggle`);
    await page.waitForSelector(`${body} .content-image[data-whole='true']`, { state: "detached" });
    // The file: its name, then its text as written (indentation and backticks kept), highlighted as Python.
    const file = `${body} .content-file`;
    assert.equal((await page.innerText(`${file} .content-name`)).trim(), "a.py");
    assert.equal(await page.$eval(`${file} pre code`, (el) => el.textContent), PY);
    await page.waitForSelector(`${file} .code-block[data-highlight='done']`);
    // The blob image is shown with its name; the binary, the TIFF and the too-large image are named.
    assert.equal(await page.$eval(`${body} .content-image img[alt^='logo.png']`, (img) => /** @type {HTMLImageElement} */ (img).naturalWidth), 48);
    assert.match(text, /model\.bin\s+application\/octet-stream, 2 KB/);
    assert.match(text, /Image of type image\/tiff \(5 KB\): this view does not show that type\./);
    assert.match(text, /Image \(image\/png, 4\.8 MB\): too large to keep in the channel\./);
    // The tool card shows its text and its image.
    assert.equal(await page.$eval(`${body} .tool-call .tool-blocks img`, (img) => /** @type {HTMLImageElement} */ (img).naturalWidth), 48);
    assert.deepEqual(await view.problems(), []);
  });

  it("a resource link opens through the host's link rule; a click the host refuses says why above the composer, until dismissed, the next one works or a message is sent", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "shows", state: "ready" }], messages: [ANSWER()] }) });
    const { page, host } = view;
    const link = `${body} .content-link .content-name`;
    assert.equal((await page.innerText(link)).trim(), "notes [draft].md");
    await page.click(link);
    assert.deepEqual(await host.waitForRequests("editor/openLink"), [{ href: "file:///w/notes [draft].md" }]);
    assert.equal(await page.$$eval(".action-note", (els) => els.length), 0, "opened: nothing to say");
    await page.evaluate(() => {
      window.__host.handlers["editor/openLink"] = () => ({ error: { code: "editor/cannotOpen", message: "/w/notes [draft].md does not exist (any more)." } });
    });
    await page.click(link);
    await page.waitForSelector(".action-note");
    assert.equal((await page.innerText(".action-note-text")).trim(), "/w/notes [draft].md does not exist (any more).");
    await page.click(".action-note-dismiss");
    await page.waitForSelector(".action-note", { state: "detached" });
    // Refused again, then a click that works: the note goes away by itself.
    await page.click(link);
    await page.waitForSelector(".action-note");
    await page.evaluate(() => {
      window.__host.handlers["editor/openLink"] = () => ({ opened: true });
    });
    await page.click(link);
    await page.waitForSelector(".action-note", { state: "detached" });
    // Refused once more, then the user sends a message: they have moved on, the note goes.
    await page.evaluate(() => {
      window.__host.handlers["editor/openLink"] = () => ({ error: { code: "editor/cannotOpen", message: "/w/notes [draft].md does not exist (any more)." } });
    });
    await page.click(link);
    await page.waitForSelector(".action-note");
    await page.fill("#composer textarea", "@shows thanks");
    await page.press("#composer textarea", "Enter");
    await host.waitForRequests("channel/send");
    await page.waitForSelector(".action-note", { state: "detached" });
    assert.deepEqual(await view.problems(), []);
  });

  it("a tool call's location whose file is gone says why, announced", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "shows", state: "ready" }], messages: [ANSWER()] }) });
    const { page } = view;
    await page.evaluate(() => {
      window.__host.handlers["editor/openLocation"] = () => ({ error: { code: "editor/cannotOpen", message: "/w/shots/page.png does not exist (any more)." } });
    });
    await page.click(`${body} .tool-location`);
    await page.waitForSelector(".action-note");
    assert.equal((await page.innerText(".action-note-text")).trim(), "/w/shots/page.png does not exist (any more).");
    assert.equal(await page.getAttribute(".action-note", "role"), "status", "announced to screen readers");
    assert.deepEqual(await view.problems(), []);
  });

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`screenshot (${theme})`, async () => {
      const user = message({ id: "u1", author: "user", text: "@shows show me the chart and the code", to: ["shows"] });
      const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "shows", state: "ready" }], messages: [user, ANSWER()] }), theme, width: 420, height: 1400 });
      const { page } = view;
      await page.waitForSelector(`${body} .content-file .code-block[data-highlight='done']`);
      await page.evaluate(() => document.fonts.ready);
      await frames(page, 3);
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-content-blocks-${theme}.png`) });
      assert.deepEqual(await view.problems(), []);
    });
  }
});
