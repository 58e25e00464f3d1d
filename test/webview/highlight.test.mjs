// @ts-check
// Code highlighting (issue 6): finished code blocks are coloured by highlight.js, loaded lazily from dist/chunks/ the
// first time a block in a known language needs it; open fences, unknown languages and huge blocks stay plain text;
// Copy and Insert still give the code exactly as written.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inPageColours, inPageContrast } from "./contrast.mjs";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const CH = "ch-general";
/** @param {string} id */
const body = (id) => `.message[data-message-id='${id}'] .message-body`;

const TS = [
  "interface Point { x: number; y: number }",
  "// the origin",
  "export const origin: Point = { x: 0, y: 0 };",
  "const label = `<b>${origin.x}</b> & \"quoted\" </span>`;",
].join("\n");

/**
 * The lazily loaded chunks `page` fetched so far, by name without their content hash, from the page's Resource Timing
 * entries. esbuild's shared helper chunks (`chunk-<hash>.js`, whether there is one is esbuild's business) are left out.
 * @param {import("./harness.mjs").Page} page
 */
function chunksFetched(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith("/dist/chunks/") && !p.startsWith("/dist/chunks/chunk-"))
      .map((p) => p.slice("/dist/chunks/".length).replace(/-[A-Z0-9]{8}\.js$/, ".js"))
      .sort(),
  );
}

/** Every request `page` made under dist/chunks/, helpers included. @param {import("./harness.mjs").Page} page */
function anyChunkFetched(page) {
  return page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/dist/chunks/")));
}

/** @param {import("./harness.mjs").HostDriver} host @param {string} id */
async function streamingMessage(host, id) {
  await host.emit("message/started", message({ id, status: "streaming" }));
  return (/** @type {Omit<import("../../src/shared/protocol").HostEvents["message/delta"], "channelId" | "messageId">} */ d) => host.emit("message/delta", { channelId: CH, messageId: id, ...d });
}

/** @param {{ server: { origin: string } }} env @param {import("./harness.mjs").View} view */
async function withClipboard(env, view) {
  await view.page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.origin });
  return () => view.page.evaluate(() => navigator.clipboard.readText());
}

describe("code highlighting", () => {
  const env = withBrowser();

  it("colours a finished ```ts block with the theme's colours, fetching only the TypeScript grammar", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "h1", text: `Here:\n\n\`\`\`ts\n${TS}\n\`\`\`` })] }) });
    const { page } = view;
    await page.waitForSelector(`${body("h1")} .code-block[data-highlight='done']`);
    const tokens = await page.$$eval(`${body("h1")} code span[class^='hljs-']`, (spans) => spans.map((s) => [s.className, s.textContent]));
    assert.ok(tokens.some(([c, t]) => c === "hljs-keyword" && t === "interface"), `keyword token: ${JSON.stringify(tokens)}`);
    assert.ok(tokens.some(([c, t]) => c === "hljs-comment" && t === "// the origin"), "comment token");
    assert.ok(tokens.some(([c, t]) => c === "hljs-number" && t === "0"), "number token");
    assert.equal(await page.$eval(`${body("h1")} code`, (c) => c.textContent), `${TS}\n`, "the text is unchanged");
    assert.equal(await page.$$eval(`${body("h1")} code b`, (els) => els.length), 0, "markup in the code stays text");
    // Tokens are visibly coloured: a keyword, a string and a comment each differ from plain code.
    const colours = await page.$eval(`${body("h1")} code`, (code) => {
      /** @param {Element | null} el */
    const colour = (el) => (el ? getComputedStyle(el).color : "missing");
      return {
        plain: colour(code),
        keyword: colour(code.querySelector(".hljs-keyword")),
        string: colour(code.querySelector(".hljs-string")),
        comment: colour(code.querySelector(".hljs-comment")),
      };
    });
    for (const token of /** @type {const} */ (["keyword", "string", "comment"])) assert.notEqual(colours[token], colours.plain, `${token}: ${JSON.stringify(colours)}`);
    assert.deepEqual(await chunksFetched(page), ["highlighter.js", "typescript.js"]);
    assert.deepEqual(await view.problems(), []);
  });

  // Minimum contrast of every token against the code block's real background: 3:1 (large text, WCAG AA) in the
  // ordinary themes, 7:1 (WCAG AAA) in high contrast.
  for (const [theme, minimum] of /** @type {const} */ ([["light", 3], ["dark", 3], ["high-contrast", 7]])) {
    it(`tokens stand out from plain code and stay readable in the ${theme} theme`, async () => {
      const view = await openView(env.browser, env.server.origin, { theme, open: openResult({ messages: [message({ id: "t1", text: `\`\`\`ts\n${TS}\n\`\`\`` })] }) });
      const { page } = view;
      await page.waitForSelector(`${body("t1")} .code-block[data-highlight='done']`);
      await page.evaluate(inPageContrast, []);
      const [block] = await page.evaluate(inPageColours, `${body("t1")} .code-block`);
      /** @param {string} kind */
    const style = (kind) => page.$eval(`${body("t1")} code ${kind}`, (el) => `${getComputedStyle(el).color} ${getComputedStyle(el).fontWeight} ${getComputedStyle(el).fontStyle}`);
      const plain = await style("");
      // A user tells a keyword, a string and a comment from plain code (by colour, or weight / style where the theme
      // gives keywords the text colour, as high contrast does).
      for (const kind of [".hljs-keyword", ".hljs-string", ".hljs-comment"]) assert.notEqual(await style(kind), plain, `${kind} looks different from plain code`);
      for (const token of [block.plain, ...block.tokens]) assert.ok(token.contrast >= minimum, `${token.kind} "${token.text}": contrast ${token.contrast.toFixed(2)} < ${minimum}`);
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("a page without code fetches no chunk; the first code block fetches the highlighter", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({ messages: [message({ id: "p1", author: "user", text: "hello" }), message({ id: "p2", text: "Plain **answer** with `inline code` and a list:\n\n- one\n- two" })] }),
    });
    const { page, host } = view;
    await page.waitForSelector(`${body("p2")} li`);
    await frames(page, 3);
    assert.deepEqual(await anyChunkFetched(page), [], "no highlighter without a code block");
    assert.equal(await page.$$eval(".history [class^='hljs']", (els) => els.length), 0);

    await host.emit("message/finished", message({ id: "p3", text: "```python\ndef f(x):\n    return x + 1\n```" }));
    await page.waitForSelector(`${body("p3")} .code-block[data-highlight='done'] .hljs-keyword`);
    assert.deepEqual(await chunksFetched(page), ["highlighter.js", "python.js"]);
    assert.deepEqual(await view.problems(), []);
  });

  it("a streaming open fence stays plain until it closes, then is highlighted once", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const delta = await streamingMessage(host, "s1");
    for (const piece of ["Run:\n\n```rust\nfn main() {\n", "    let n = 42;\n", "    println!(\"{n}\");\n"]) await delta({ appendText: piece });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("println!"), `${body("s1")} pre code`);
    await frames(page, 3);
    // An open block is never queued: it carries no highlight state and no token, and nothing was fetched for it.
    assert.equal(await page.getAttribute(`${body("s1")} .code-block`, "data-highlight"), null);
    assert.equal(await page.$$eval(`${body("s1")} code span`, (els) => els.length), 0);
    assert.deepEqual(await anyChunkFetched(page), []);
    const runsBefore = await page.evaluate(() => window.__sidekicksStats.highlight.runs);

    // The fence closes and text follows: the block is final now.
    for (const piece of ["}\n```\n", "\nDone, it prints 42."]) await delta({ appendText: piece });
    await page.waitForSelector(`${body("s1")} .code-block[data-highlight='done'] .hljs-keyword`);
    assert.equal(await page.$eval(`${body("s1")} code`, (c) => c.textContent), 'fn main() {\n    let n = 42;\n    println!("{n}");\n}\n');
    // More streamed text, then the committed message (rendered whole once more): the block is not highlighted again.
    await delta({ appendText: " More text." });
    await host.emit("message/finished", message({ id: "s1", text: 'Run:\n\n```rust\nfn main() {\n    let n = 42;\n    println!("{n}");\n}\n```\n\nDone, it prints 42. More text.' }));
    await page.waitForSelector(".message[data-message-id='s1'][data-status='done']");
    await page.waitForSelector(`${body("s1")} .code-block[data-highlight='done'] .hljs-keyword`);
    assert.equal(await page.evaluate(() => window.__sidekicksStats.highlight.runs) - runsBefore, 1, "one highlight for the block");
    assert.deepEqual(await chunksFetched(page), ["highlighter.js", "rust.js"]);
    assert.deepEqual(await view.problems(), []);
  });

  it("a text part followed by a tool call is final: its closed block is highlighted while the message still streams", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const delta = await streamingMessage(host, "s2");
    for (const piece of ["I'll pin the zone:\n\n", "```ts\nprocess.env.TZ = \"UTC\";\n", "```\n"]) await delta({ appendText: piece });
    await page.waitForSelector(`${body("s2")} pre code`);
    await frames(page, 3);
    assert.equal(await page.getAttribute(`${body("s2")} .code-block`, "data-highlight"), null, "the last text part may still grow: not yet");
    await delta({ part: { type: "toolCall", toolCallId: "t1", kind: "edit", title: "test/setup.ts", status: "pending" } });
    await page.waitForSelector(`${body("s2")} .code-block[data-highlight='done'] .hljs-string`);
    assert.equal(await page.getAttribute(".message[data-message-id='s2']", "data-status"), "streaming");
    assert.deepEqual(await view.problems(), []);
  });

  it("unknown, absent and plain-text languages stay plain and fetch nothing; a block over 100 KB stays plain", async () => {
    const huge = Array.from({ length: 3_000 }, (_, i) => `const value${i} = "${"x".repeat(30)}";`).join("\n");
    assert.ok(huge.length > 100_000);
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({
        // The huge block first: the history is a virtual list that opens at the latest messages, so the small ones
        // are on screen at once and the huge one is reached by scrolling up to it.
        messages: [
          message({ id: "u4", text: `\`\`\`ts\n${huge}\n\`\`\`` }),
          message({ id: "u1", text: "```brainfudge\n+++[>++<-]>.\n```" }),
          message({ id: "u2", text: "```\nconst noLanguage = 1;\n```" }),
          message({ id: "u3", text: "```text\nif (x) return y;\n```" }),
        ],
      }),
    });
    const { page } = view;
    for (const id of ["u1", "u2", "u3"]) {
      await page.waitForSelector(`${body(id)} .code-block[data-highlight='plain']`);
      assert.equal(await page.$$eval(`${body(id)} code span`, (els) => els.length), 0, `${id} has no token`);
    }
    assert.equal(await page.innerText(`${body("u1")} .code-language`), "brainfudge", "the header still names the language");
    await page.focus(".history");
    await page.keyboard.press("Home");
    await page.waitForSelector(`${body("u4")} .code-block[data-highlight='skipped']`);
    assert.equal(await page.$eval(`${body("u4")} code`, (c) => c.textContent), `${huge}\n`, "the huge block shows its whole text");
    assert.equal(await page.$$eval(`${body("u4")} code span`, (els) => els.length), 0);
    await frames(page, 3);
    assert.deepEqual(await anyChunkFetched(page), []);
    assert.deepEqual(await view.problems(), []);
  });

  it("Copy and Insert give exactly the code after highlighting (field case 11)", async () => {
    const code = 'kill $1\necho \\(x\\) "<b>&amp;</b>" \'$HOME\'\t# done';
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "c1", text: `\`\`\`bash\n${code}\n\`\`\`` })] }) });
    const { page, host } = view;
    const clipboard = await withClipboard(env, view);
    await page.waitForSelector(`${body("c1")} .code-block[data-highlight='done']`);
    assert.ok((await page.$$eval(`${body("c1")} code span`, (els) => els.length)) > 2, "the block is highlighted");
    await page.click(`${body("c1")} .code-action[data-code-action='copy']`);
    await page.waitForSelector(`${body("c1")} .code-action[data-feedback='Copied']`);
    assert.equal(await clipboard(), code);
    await page.click(`${body("c1")} .code-action[data-code-action='insert']`);
    assert.deepEqual(await host.waitForRequests("editor/insert"), [{ text: code }]);

    // The case's own pieces, streamed: highlighted once closed, copied as written.
    const delta = await streamingMessage(host, "c2");
    for (const piece of ["Run:\n```bash\nkill $1\n", "echo \\(x\\)\n", "```\nDone."]) await delta({ appendText: piece });
    await page.waitForSelector(`${body("c2")} .code-block[data-highlight='done']`);
    await page.click(`${body("c2")} .code-action[data-code-action='copy']`);
    await page.waitForSelector(`${body("c2")} .code-action[data-feedback='Copied']`);
    assert.equal(await clipboard(), "kill $1\necho \\(x\\)");
    assert.deepEqual(await view.problems(), []);
  });
});
