// @ts-check
// Screenshots of the conversation UI in the light and dark themes (issue 6, "Tests and figures"): a long answer with
// highlighted code, a tool call with a diff, a permission request, a plan, an interrupted turn. Each is written to
// test-results/scene-<name>-<theme>.png for people to look at (the long answer also in high contrast), and each asserts what a user would notice in it:
// the text is there and readable (contrast against what is really behind it), tokens are coloured, controls are
// reachable by keyboard, nothing overflows the sidebar.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { inPageColours, inPageContrast } from "./contrast.mjs";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
const CH = "ch-general";
/**
 * A screenshot scene: its channel, what streams into it once open, and what a user would notice in it.
 * @typedef {object} Scene
 * @property {number} height the viewport's (CSS px)
 * @property {import("./harness.mjs").Theme[]} [themes] default light and dark
 * @property {() => import("../../src/shared/protocol").WebviewRequests["channel/open"][1]} open
 * @property {(host: import("./harness.mjs").HostDriver) => Promise<void>} [stream]
 * @property {(page: import("./harness.mjs").Page, host: import("./harness.mjs").HostDriver) => Promise<void>} check
 */

/** @param {string} id */
const msg = (id) => `.message[data-message-id='${id}']`;

const LONG_ANSWER = [
  "The failing test is **parses dates**: it builds the expected value in the *local* time zone, and CI runs in `UTC`.",
  "",
  "Here is the test as it stands:",
  "",
  "```ts",
  "import { describe, expect, it } from \"vitest\";",
  "import { parse } from \"../src/date\";",
  "",
  "// Builds the expected value in local time.",
  "describe(\"parse\", () => {",
  "  it(\"parses dates\", () => {",
  "    const expected = new Date(2025, 0, 15);",
  "    expect(parse(\"2025-01-15\")).toEqual(expected);",
  "  });",
  "});",
  "```",
  "",
  "The fix pins the zone for the whole suite:",
  "",
  "```diff",
  "--- a/test/setup.ts",
  "+++ b/test/setup.ts",
  "@@ -1,3 +1,5 @@",
  " import { beforeAll } from \"vitest\";",
  "+",
  "+process.env.TZ = \"UTC\";",
  "-// TODO: time zones",
  "```",
  "",
  "Then run it again:",
  "",
  "```bash",
  "TZ=UTC npm test -- --run test/date.test.ts  # about 2 s",
  "```",
  "",
  "And the config it reads, for reference:",
  "",
  "```json",
  "{ \"test\": { \"environment\": \"node\", \"retries\": 0, \"globals\": true } }",
  "```",
  "",
  "1. pin `TZ=UTC` in the test setup (done above)",
  "2. or compare with `Date.UTC(...)` in each test",
].join("\n");

const OLD_SETUP = "import { beforeAll } from \"vitest\";\n\nbeforeAll(() => {\n  globalThis.fetch = fakeFetch;\n});\n";
const NEW_SETUP = "import { beforeAll } from \"vitest\";\n\nprocess.env.TZ = \"UTC\";\n\nbeforeAll(() => {\n  globalThis.fetch = fakeFetch;\n});\n";

/** @param {string} id @param {string} text */
const user = (id, text) => message({ id, author: "user", text, to: ["demo"] });

/** The scenes: what the channel holds, what streams in after it opened, and what must be true on screen. */
/** @type {Record<string, Scene>} */
const SCENES = {
  "long-answer": {
    height: 960,
    themes: ["light", "dark", "high-contrast"],
    open: () => openResult({ messages: [user("u1", "@demo why does `npm test` fail on CI?"), message({ id: "a1", text: LONG_ANSWER, stopReason: "end_turn" })] }),
    async check(page) {
      await page.waitForFunction((sel) => {
        const blocks = [...document.querySelectorAll(`${sel} .code-block`)];
        return blocks.length === 4 && blocks.every((b) => b.getAttribute("data-highlight") === "done");
      }, msg("a1"));
      const colours = await page.evaluate(inPageColours, `${msg("a1")} .code-block`);
      for (const block of colours) {
        assert.ok(block.tokens.length > 0, `${block.language}: highlighted tokens`);
        const differing = block.tokens.filter((t) => t.colour !== block.plain.colour);
        assert.ok(differing.length > 0, `${block.language}: some token has a colour of its own: ${JSON.stringify(block.tokens)}`);
        for (const token of [block.plain, ...block.tokens]) assert.ok(token.contrast >= 3, `${block.language} ${token.kind} "${token.text}" readable: contrast ${token.contrast.toFixed(2)}`);
      }
      const ts = colours.find((b) => b.language === "ts");
      const kinds = new Set(ts?.tokens.map((t) => t.kind));
      for (const kind of ["hljs-keyword", "hljs-string", "hljs-comment", "hljs-number"]) assert.ok(kinds.has(kind), `ts block has ${kind}`);
      const diff = colours.find((b) => b.language === "diff");
      const added = diff?.tokens.find((t) => t.kind === "hljs-addition");
      const deleted = diff?.tokens.find((t) => t.kind === "hljs-deletion");
      assert.ok(added && deleted && added.colour !== deleted.colour, "added and deleted lines differ in colour");
      // A long line scrolls inside its block, not the view.
      const pre = await page.$eval(`${msg("a1")} .code-block pre`, (el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
      assert.ok(pre.sw > pre.cw, "the long TypeScript line scrolls inside its block");
    },
  },
  "tool-diff": {
    height: 520,
    open: () => openResult({ messages: [user("u1", "@demo pin the time zone"), message({
      id: "a1",
      parts: [
        { type: "text", text: "Pinning the zone in the test setup." },
        {
          type: "toolCall",
          toolCallId: "t1",
          kind: "edit",
          title: "Edit test/setup.ts",
          status: "completed",
          diffs: [
            { path: "/home/me/project/test/setup.ts", oldText: OLD_SETUP, newText: NEW_SETUP },
            { path: "/home/me/project/test/tz.ts", oldText: null, newText: "export const TZ = \"UTC\";\n" },
          ],
          locations: [{ path: "/home/me/project/test/setup.ts", line: 3 }],
        },
        { type: "text", text: "Done: `process.env.TZ` is `UTC` before any test runs." },
      ],
      stopReason: "end_turn",
    })] }),
    async check(page, host) {
      const card = `${msg("a1")} .tool-call`;
      assert.match(await page.innerText(`${card} .tool-title`), /Edit test\/setup\.ts/);
      assert.equal((await page.innerText(`${card} .status-badge`)).trim(), "done");
      assert.deepEqual(await page.$$eval(`${card} .tool-diff`, (els) => els.map((e) => e.querySelector(".diff-stat")?.textContent)), ["+2 −0", "+1 −0"]);
      const texts = await page.evaluate(inPageContrast, [`${card} .tool-title`, `${card} .diff-added`, `${card} .diff-file`, `${card} .diff-open`, `${card} .status-badge`]);
      for (const t of texts) assert.ok(t.contrast >= 3, `"${t.text}" readable: contrast ${t.contrast.toFixed(2)}`);
      const added = await page.$eval(`${card} .diff-added`, (el) => getComputedStyle(el).color);
      const title = await page.$eval(`${card} .tool-title`, (el) => getComputedStyle(el).color);
      assert.notEqual(added, title, "added lines are coloured");
      // "Open diff" is reachable by keyboard and asks the editor for the diff.
      await page.focus(`${card} .tool-location`);
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Open diff of /home/me/project/test/setup.ts");
      await page.keyboard.press("Enter");
      const [request] = await host.waitForRequests("editor/openDiff");
      assert.equal(request.path, "/home/me/project/test/setup.ts");
      await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
    },
  },
  permission: {
    height: 520,
    open: () => openResult({ members: [{ name: "demo", state: "busy" }], messages: [user("u1", "@demo run the tests")] }),
    async stream(host) {
      await host.emit("message/started", message({ id: "a1", status: "streaming" }));
      /** @param {Omit<import("../../src/shared/protocol").HostEvents["message/delta"], "channelId" | "messageId">} d */
      const delta = (d) => host.emit("message/delta", { channelId: CH, messageId: "a1", ...d });
      await delta({ appendText: "I'll run the suite." });
      await delta({ part: { type: "toolCall", toolCallId: "t1", kind: "execute", title: "npm test -- --run", status: "pending" } });
      await delta({
        part: {
          type: "permission",
          requestId: "r1",
          toolCallId: "t1",
          title: "npm test -- --run",
          options: [
            { optionId: "once", name: "Allow once", kind: "allow_once" },
            { optionId: "always", name: "Always allow", kind: "allow_always" },
            { optionId: "reject", name: "Reject", kind: "reject_once" },
          ],
        },
      });
    },
    async check(page) {
      const card = ".permission[data-request-id='r1']";
      await page.waitForSelector(`${card} button.permission-option:not([disabled])`);
      assert.equal((await page.innerText(`${card} .permission-title`)).trim(), "Allow npm test -- --run?");
      const box = await page.$eval(card, (el) => el.getBoundingClientRect().toJSON());
      assert.ok(box.top >= 0 && box.bottom <= viewportHeight(page), `the request is in view: ${JSON.stringify(box)}`);
      // Every option is a focusable button, in order, by keyboard.
      const names = await page.$$eval(`${card} button.permission-option`, (els) => els.map((e) => e.textContent));
      assert.deepEqual(names, ["Allow once", "Always allow", "Reject"]);
      await page.focus(`${card} button.permission-option`);
      const focused = [await page.evaluate(() => document.activeElement?.textContent)];
      for (let i = 1; i < names.length; i++) {
        await page.keyboard.press("Tab");
        focused.push(await page.evaluate(() => document.activeElement?.textContent));
      }
      assert.deepEqual(focused, names);
      const texts = await page.evaluate(inPageContrast, [`${card} .permission-title`, ...names.map((_, i) => `${card} button.permission-option:nth-child(${i + 1})`)]);
      for (const t of texts) assert.ok(t.contrast >= 3, `"${t.text}" readable: contrast ${t.contrast.toFixed(2)}`);
      // Leave the first option focused in the picture, as a keyboard user sees it.
      await page.focus(`${card} button.permission-option`);
    },
  },
  plan: {
    height: 440,
    open: () => openResult({ members: [{ name: "demo", state: "busy" }], messages: [user("u1", "@demo fix the date test"), message({
      id: "a1",
      status: "streaming",
      parts: [
        {
          type: "plan",
          entries: [
            { content: "Read the failing test", priority: "high", status: "completed" },
            { content: "Pin TZ=UTC in test/setup.ts so every test runs in the same zone as CI", priority: "medium", status: "in_progress" },
            { content: "Run the suite again", priority: "low", status: "pending" },
          ],
        },
        { type: "text", text: "Starting with the test file." },
      ],
    })] }),
    async check(page) {
      const card = `${msg("a1")} .plan`;
      assert.equal(await page.innerText(`${card} .plan-progress`), "1/3 done");
      assert.deepEqual(await page.$$eval(`${card} .plan-entry`, (els) => els.map((e) => [e.getAttribute("data-status"), e.querySelector(".plan-status")?.getAttribute("aria-label")])), [
        ["completed", "Done"],
        ["in_progress", "In progress"],
        ["pending", "To do"],
      ]);
      // The three statuses look different (their icons), and the long entry wraps instead of being cut.
      const icons = await page.$$eval(`${card} .plan-status`, (els) => els.map((e) => {
        const s = getComputedStyle(e);
        const b = getComputedStyle(e, "::before");
        return `${s.backgroundColor}|${s.borderColor}|${s.backgroundImage}|${b.content}|${b.backgroundColor}|${b.borderColor}`;
      }));
      assert.equal(new Set(icons).size, 3, `three distinct status icons: ${JSON.stringify(icons)}`);
      const long = await page.$eval(`${card} .plan-entry:nth-child(2) .plan-content`, (el) => ({ sw: el.scrollWidth, cw: el.clientWidth, h: el.getBoundingClientRect().height, lh: parseFloat(getComputedStyle(el).lineHeight) || 16 }));
      assert.ok(long.sw <= long.cw && long.h > long.lh * 1.5, `the long entry wraps: ${JSON.stringify(long)}`);
      const texts = await page.evaluate(inPageContrast, [`${card} .plan-title`, `${card} .plan-progress`, `${card} .plan-entry:nth-child(1) .plan-content`, `${card} .plan-entry:nth-child(3) .plan-content`, `${card} .priority-high`, `${card} .priority-medium`]);
      for (const t of texts) assert.ok(t.contrast >= 3, `"${t.text}" readable: contrast ${t.contrast.toFixed(2)}`);
    },
  },
  interrupted: {
    height: 480,
    open: () => openResult({ messages: [user("u1", "@demo refactor main.ts"), {
      ...message({
        id: "a1",
        parts: [
          { type: "text", text: "I am halfway through the **refactor**: `parseArgs` now returns an object." },
          { type: "toolCall", toolCallId: "t1", title: "Edit src/main.ts", kind: "edit", status: "in_progress", outcomeUnknown: true },
        ],
        status: "error",
        error: { code: "turn/interrupted", message: "Interrupted: the window closed or Sidekicks restarted while @demo was answering (attempt 1). What arrived before is kept; Retry runs it again." },
      }),
      outcome: "interrupted",
      retryable: true,
    }] }),
    async check(page) {
      assert.match(await page.innerText(`${msg("a1")} .message-interrupted`), /Interrupted: the window closed .*Retry runs it again/);
      assert.equal((await page.innerText(`${msg("a1")} .tool-call .status-badge`)).trim(), "outcome unknown");
      assert.match(await page.innerText(`${msg("a1")} .markdown`), /halfway through the refactor/);
      const texts = await page.evaluate(inPageContrast, [`${msg("a1")} .message-interrupted`, `${msg("a1")} .tool-call .status-badge`, `${msg("a1")} .message-retry`]);
      for (const t of texts) assert.ok(t.contrast >= 3, `"${t.text}" readable: contrast ${t.contrast.toFixed(2)}`);
      await page.focus(`${msg("a1")} .message-retry`);
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("message-retry")), true, "Retry takes the keyboard focus");
      await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
    },
  },
};

/** The viewport's height in CSS pixels (the page is sized per scene). */
/** @param {import("./harness.mjs").Page} page */
function viewportHeight(page) {
  return page.viewportSize()?.height ?? 0;
}

describe("screenshots of the conversation, light and dark", () => {
  const env = withBrowser();
  before(() => mkdirSync(outDir, { recursive: true }));

  for (const [name, scene] of Object.entries(SCENES)) {
    for (const theme of scene.themes ?? ["light", "dark"]) {
      it(`${name} (${theme})`, async () => {
        const view = await openView(env.browser, env.server.origin, { open: scene.open(), theme, width: 360, height: scene.height });
        const { page, host } = view;
        await page.evaluate(inPageContrast, []);
        if (scene.stream) await scene.stream(host);
        await page.waitForSelector(msg("a1"));
        await scene.check(page, host);
        // Nothing is wider than the sidebar.
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, "no sideways scrolling");
        await page.evaluate(() => document.fonts.ready);
        await frames(page, 3);
        await page.screenshot({ path: path.join(outDir, `scene-${name}-${theme}.png`) });
        assert.deepEqual(await view.problems(), []);
      });
    }
  }
});
