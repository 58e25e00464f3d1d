// @ts-check
// Issue 18, "every question shown has a way out", in the view: a request whose title is a whole script is folded, its
// buttons right below it in view, and opens whole on demand; an option of a kind ACP does not define is a plain
// button that answers with its id; a request answered cancelled because it offered no choice says so. Screenshot.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
const SCRIPT = Array.from({ length: 120 }, (_, i) => `echo "step ${i}" && make target-${i}`).join("\n");

/** @type {import("../../src/shared/protocol").PermissionPart} */
const LONG = {
  type: "permission",
  requestId: "r-long",
  toolCallId: "t1",
  title: SCRIPT,
  toolKind: "execute",
  options: [
    { optionId: "maybe", name: "Allow for an hour", kind: "other" },
    { optionId: "ok", name: "Allow once", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ],
};
/** @type {import("../../src/shared/protocol").PermissionPart} */
const NO_CHOICE = {
  type: "permission",
  requestId: "r-none",
  toolCallId: "t2",
  title: "Run `rm -rf build`",
  options: [],
  outcome: "cancelled",
  notice: "@odd asked without offering a choice Sidekicks can show, so Sidekicks answered Cancelled. The agent's log says what was wrong.",
};

/** @type {import("../../src/shared/protocol").PermissionPart} */
const UNANSWERED = {
  type: "permission",
  requestId: "r-reload",
  toolCallId: "t3",
  title: "Edit demo-notes.md",
  options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }],
  outcome: "cancelled",
  unanswered: true,
  notice: "Not answered: the answer was interrupted (a reload, or the window closed) before you chose. Retry asks again.",
};

const asking = () => message({ id: "a1", agentName: "odd", status: "streaming", parts: [{ type: "text", text: "I need to run this:" }, UNANSWERED, NO_CHOICE, LONG] });
const card = ".permission[data-request-id='r-long']";

describe("odd permission requests", () => {
  const env = withBrowser();

  it("a long title is folded with its buttons in view, opens whole, and a plain choice answers with its id", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "odd", state: "busy" }], messages: [asking()] }), width: 380, height: 700 });
    const { page, host } = view;
    await page.waitForSelector(`${card} .permission-option[data-option-id='maybe']`);
    const fold = await page.$eval(card, (el) => {
      const title = /** @type {HTMLElement} */ (el.querySelector(".permission-title"));
      const button = /** @type {HTMLElement} */ (el.querySelector(".permission-option"));
      return { titleHeight: title.getBoundingClientRect().height, scrolls: title.scrollHeight > title.clientHeight, gap: button.getBoundingClientRect().top - title.getBoundingClientRect().bottom, viewport: window.innerHeight, buttonBottom: button.getBoundingClientRect().bottom };
    });
    assert.ok(fold.titleHeight < 200, `folded: ${fold.titleHeight}px`);
    assert.ok(fold.scrolls, "the rest scrolls inside the title");
    assert.ok(fold.gap < 60, `the buttons right below the folded title (${fold.gap}px)`);
    assert.ok(fold.buttonBottom <= fold.viewport, "the buttons are in view");
    assert.match(await page.innerText(`${card} .permission-unfold`), /Show the whole request \([\d,.\u202f]+ characters\)/);
    await page.click(`${card} .permission-unfold`);
    await page.waitForSelector(`${card} .permission-title:not([data-folded])`);
    assert.equal(await page.getAttribute(`${card} .permission-unfold`, "aria-expanded"), "true");
    await page.click(`${card} .permission-unfold`);
    await page.waitForSelector(`${card} .permission-title[data-folded='true']`);
    // The plain choice is a button like the others, and answers with its id.
    assert.equal((await page.innerText(`${card} .permission-option[data-option-id='maybe']`)).trim(), "Allow for an hour");
    await page.click(`${card} .permission-option[data-option-id='maybe']`);
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r-long", optionId: "maybe" }]);
    // A request closed by a reload says Not answered, never Cancelled (a tryout took it for a refusal).
    assert.match(await page.innerText(".permission[data-request-id='r-reload'] .permission-outcome"), /^Not answered$/);
    // The request with no choice: answered, and says why.
    assert.equal(await page.getAttribute(".permission[data-request-id='r-none']", "data-state"), "cancelled");
    assert.match(await page.innerText(".permission[data-request-id='r-none']"), /asked without offering a choice Sidekicks can show/);
    assert.deepEqual(await view.problems(), []);
  });

  it("a call of Sidekicks' own MCP tool is said in words, on its permission card and its tool card; the raw name stays the tooltip", async () => {
    /** @type {import("../../src/shared/protocol").PermissionPart} */
    const delegate = { type: "permission", requestId: "r-mcp", toolCallId: "t-mcp", title: "mcp__sidekicks__delegate", toolKind: "other", options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }] };
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const call = { type: "toolCall", toolCallId: "t-read", title: "mcp__sidekicks__skill_read", kind: "read", status: "completed" };
    const asked = message({ id: "a2", agentName: "claude", status: "streaming", parts: [call, delegate] });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "claude", state: "busy" }], messages: [asked] }) });
    const { page } = view;
    await page.waitForSelector(".permission[data-request-id='r-mcp']");
    assert.equal(await page.innerText(".permission[data-request-id='r-mcp'] .permission-title"), "Allow Sidekicks' delegate tool (hand work to another member of the channel)?");
    // The rule offered matches the raw title, and says which tool that is.
    assert.equal(
      await page.innerText(".permission[data-request-id='r-mcp'] .permission-rule-matches"),
      "Sidekicks' delegate tool (hand work to another member of the channel). For @claude's requests titled exactly “mcp__sidekicks__delegate” (tool kind other): Sidekicks answers with the one-time option, without asking, until you forget the rule.",
    );
    assert.equal(await page.innerText(".tool-call[data-tool-call-id='t-read'] .tool-title"), "Sidekicks' skill_read tool (read an attached skill)");
    assert.equal(await page.getAttribute(".tool-call[data-tool-call-id='t-read'] .tool-title", "title"), "mcp__sidekicks__skill_read");
    assert.deepEqual(await view.problems(), []);
  });

  it("a request and a tool call that came with no title say so, instead of 'Allow Permission requested?' and an empty card", async () => {
    /** @type {import("../../src/shared/protocol").PermissionPart} */
    const bare = { type: "permission", requestId: "r-bare", toolCallId: "t-bare", title: "Permission requested", untitled: true, options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }] };
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const call = { type: "toolCall", toolCallId: "t-id-only", title: "", status: "pending" };
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "odd", state: "busy" }], messages: [message({ id: "b1", agentName: "odd", status: "streaming", parts: [call, bare] })] }) });
    const { page } = view;
    await page.waitForSelector(".permission[data-request-id='r-bare']");
    assert.equal(await page.innerText(".permission[data-request-id='r-bare'] .permission-title"), "Allow this request of @odd? It gave no title saying what it is for.");
    assert.equal(await page.innerText(".tool-call[data-tool-call-id='t-id-only'] .tool-title"), "Tool call (no title)");
    assert.deepEqual(await view.problems(), []);
  });

  it("an answer the agent ended because the user declined says so and offers to tell it what to do, not a bare Cancelled", async () => {
    /** @type {import("../../src/shared/protocol").PermissionPart} */
    const asked = {
      type: "permission",
      requestId: "r-no",
      toolCallId: "t-edit",
      title: "Edit permitted.txt",
      options: [
        { optionId: "approved", name: "Yes", kind: "allow_once" },
        { optionId: "abort", name: "No, and tell Codex what to do differently", kind: "reject_once" },
      ],
      outcome: "abort",
    };
    const ended = { ...message({ id: "c1", agentName: "codex", stopReason: "cancelled", parts: [{ type: "text", text: "I will edit it." }, asked] }), outcome: /** @type {const} */ ("completed") };
    const stopped = { ...message({ id: "c2", agentName: "codex", stopReason: "cancelled", parts: [asked] }), outcome: /** @type {const} */ ("cancelled") };
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "codex", state: "ready" }], messages: [stopped, ended] }) });
    const { page } = view;
    await page.waitForSelector(".message[data-message-id='c1'] .message-declined");
    assert.equal(
      await page.innerText(".message[data-message-id='c1'] .message-declined"),
      "You declined “No, and tell Codex what to do differently”: codex ended its answer and is waiting for what to do instead. Tell codex what to do",
    );
    assert.equal(await page.$(".message[data-message-id='c2'] .message-declined"), null, "the user's own Stop stays a Stop");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-declined.png") });
    await page.click(".message[data-message-id='c1'] .message-tell");
    await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
    assert.equal(await page.inputValue("#composer textarea"), "@codex ");
    assert.deepEqual(await view.problems(), []);
  });

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`screenshot (${theme})`, async () => {
      const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "odd", state: "busy" }], messages: [asking()] }), theme, width: 380, height: 700 });
      const { page } = view;
      await page.waitForSelector(`${card} .permission-option`);
      await page.evaluate(() => document.fonts.ready);
      await frames(page, 3);
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-permission-odd-${theme}.png`) });
      assert.deepEqual(await view.problems(), []);
    });
  }
});
