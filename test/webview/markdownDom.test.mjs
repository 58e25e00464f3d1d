// @ts-check
// Markdown to nodes (webview/markdownDom.ts, docs/adr/0004-markdown-to-dom.md): the webview builds a message's nodes
// from `marked`'s tokens, with no HTML parse. This checks, in Chromium, that what a user sees is what `marked`'s own
// HTML renderer followed by DOMPurify showed (the way the webview rendered before): the same elements, attributes and
// text, on a corpus of Markdown edge cases, the XSS payloads and a long generated answer. And that an answer that
// streams in pieces ends as the same nodes as the whole text rendered at once.
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { buildSync } from "esbuild";
import { withBrowser } from "./harness.mjs";
import { PAYLOADS } from "./xssPayloads.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const script = buildSync({ entryPoints: [path.join(root, "test/webview/markdownOracle.ts")], bundle: true, format: "iife", platform: "browser", write: false }).outputFiles[0].text;

/** Markdown that exercises each kind of token and the places where text and markup meet. */
const CASES = [
  "",
  "AT&T &amp; &copy; &copy &#35; &#x2192; &#0; &#xD800; &bogus; &#38; &#X41;",
  "\\*not em\\* \\<b\\> \\& \\\\ \\` \\[x\\](y)",
  "*em* **strong** ***both*** _u_ __uu__ ~~del~~ ~single~ a*b*c snake_case_word * spaced *",
  "`a &amp; <b>` ``x ` y`` `` ` `` `unclosed",
  "# H1\n## H2 *em* `code`\n###### H6\n####### not a heading\n\nSetext\n===\n\nSetext two\n---",
  "- one\n- two\n  - nested *em*\n  - nested two\n- three",
  "- loose one\n\n- loose two\n\n  second paragraph",
  "3. three\n4. four\n\n1. one\n2. two",
  "- [ ] todo\n- [x] done *em*\n- [X] upper\n\n- [ ] loose task\n\n- [x] loose done",
  "- item\n\n  ```ts\n  const inList = 1;\n  ```\n- after",
  "> quote *em*\n> > nested\n>\n> - list in quote",
  "```ts\nconst a = 1 < 2 && b > 0;\n```",
  "```\nplain & <plain>\n```",
  "    indented code <x>\n    second line",
  "```c++ extra info words\nint x;\n```",
  "```&lt;lang\nx\n```",
  "```a&amp;b\ny\n```",
  "~~~\ntilde fence\n~~~",
  "```js\nopen fence to the end",
  "| a | b | c |\n|:--|:-:|--:|\n| 1 | **2** | `3` |\n| x |",
  "| only header |\n|---|",
  "| pipe \\| escaped | b |\n|---|---|\n| <i>x</i> | [l](https://t.example) |",
  '[t](https://example.com "Title") [u](<https://example.com/with space>) [rel](./path/file.ts#L3) [abs](/x) [anchor](#h)',
  "[mail](mailto:a@b.c) [file](file:///w/x.ts) [tel](tel:123) [ftp](ftp://x.example) [empty]() [ws]( https://t.example )",
  "[amp](https://x.com/?a=1&amp;b=2) [pct](https://ex.com/%zz%20ok) [space](https://x.com/a b) [unicode](https://例え.jp/パス)",
  "[lone](https://x.example/\uD800) ![lone](https://x.example/\uD800)",
  '[titled only](javascript:void(0) "kept title") [JS](JAVASCRIPT:x) [entity js](&#106;avascript:x) [colon](java&#58;script:x)',
  '[r][id] and [missing][nope] and [id]\n\n[id]: https://r.example "Ref title"',
  "<https://a.example/c?d=e&f> <me@x.org> www.example.com/path https://bare.example.com. contact me@x.org",
  '![alt *em* `c` [l](https://l.example)](https://img.example/x.png "t") ![x](http://insecure.example/x.png)',
  "![d](data:image/png;base64,AAAA) ![d2](data:text/html,xx) ![](javascript:alert(1)) ![alt &amp; ref](https://i.example/x.png)",
  "<div>\n*md in html*\n</div>",
  "inline <span class=x>tag</span> and <br> and <b>bold</b>",
  "<!-- a comment -->\n\nafter",
  "<pre>\n raw < b &amp; c\n</pre>",
  "line1\nline2  \nline3\\\nline4",
  "***\n---\n___",
  "text \u202E reversed \u2066 isolated \u2069 end",
  "&#x202E; a reference, &#8238; decimal",
  "`code \u202E` and\n\n```\nblock \u202E\n```",
  "[\u202Elink](https://x.example/\u202E) [ref](https://x.example/&#x202E; \"&#x202E;\")",
  "emoji 🎉 and 日本語 and \u00a0non-breaking",
  "a\r\nb\r\n\r\n- x\r\n- y",
  "[a]: https://only-a-definition.example",
  "> > > - 1. *deep*",
  "Term with trailing backslash\\",
  "1) paren list\n2) second",
  "* star\n+ plus\n- dash",
];

describe("Markdown to nodes", () => {
  const env = withBrowser();

  it("shows what marked's HTML renderer and DOMPurify showed, node for node", async () => {
    const page = await env.browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: script });
    const docs = [
      ...CASES,
      ...PAYLOADS.map((payload, i) => `Answer ${i}:\n\n${payload}`),
      ...PAYLOADS.map((payload) => `Inline ${payload} in a sentence.`),
    ];
    const result = await page.evaluate((texts) => {
      const o = window.oracle;
      const long = o.benchDocument(100_000);
      let elements = 0;
      const differences = [];
      for (const text of [...texts, long]) {
        const built = o.built(text);
        const reference = o.reference(text);
        elements += o.elementCount(built);
        if (built !== reference) differences.push({ text: text.slice(0, 200), built: built.slice(0, 600), reference: reference.slice(0, 600) });
      }
      return { documents: texts.length + 1, elements, differences };
    }, docs);
    console.log(`Markdown to nodes: ${result.documents} documents, ${result.elements} elements, ${result.differences.length} differences from marked + DOMPurify`);
    assert.deepEqual(result.differences, []);
    assert.ok(result.elements > 2_000, `the corpus renders many elements (${result.elements})`);
    await page.close();
  });

  it("reads only the character references CommonMark knows (the one place it differs, and is stricter)", async () => {
    const page = await env.browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: script });
    const shown = await page.evaluate(() => {
      const o = window.oracle;
      return { built: o.built("&notit; &copy;"), reference: o.reference("&notit; &copy;") };
    });
    // `&notit;` is no character reference: it shows as written. An HTML parser reads the legacy `&not` in it ("¬it;").
    assert.equal(shown.built, '<p>"&notit; ©"</p>');
    assert.equal(shown.reference, '<p>"¬it; ©"</p>');
    await page.close();
  });

  it("ends a streamed answer with the same nodes as the whole text", async () => {
    const page = await env.browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: script });
    const docs = CASES.filter((text) => !/^ {0,3}\[[^\]\n]+\]:/m.test(text)).concat([CASES.filter((text) => !/^ {0,3}\[[^\]\n]+\]:/m.test(text)).join("\n\n")]);
    const differences = await page.evaluate((texts) => {
      const o = window.oracle;
      const out = [];
      for (const [text, size] of /** @type {[string, number][]} */ ([...texts.map((t) => [t, 7]), [o.benchDocument(100_000), 997]])) {
        const whole = o.built(text);
        const streamed = o.streamed(text, size);
        if (whole !== streamed) out.push({ text: text.slice(0, 200), whole: whole.slice(0, 400), streamed: streamed.slice(0, 400) });
      }
      return out;
    }, docs);
    assert.deepEqual(differences, []);
    await page.close();
  });
});
