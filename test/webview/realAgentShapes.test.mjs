// @ts-check
// What real agents send, shown right (field case 26; issue 15, item 5): Codex's own terminals (output reported in
// `_meta`, for a terminal the client never created), Claude's Markdown tool-call content, a permission card's own
// title. Screenshots in light and dark, looked at.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
/** @param {string} id */
const body = (id) => `.message[data-message-id='${id}'] .message-body`;

/** Codex's shapes as Sidekicks stores them: a command with its own terminal, a read whose text is only in `_meta`. */
/** @type {import("../../src/shared/protocol").ToolCallPart} */
const COMMAND = {
  type: "toolCall",
  toolCallId: "call_1",
  kind: "execute",
  title: "Run npm test",
  status: "failed",
  terminals: ["call_1"],
  agentTerminals: [{ terminalId: "call_1", output: "\u001b[32m✓\u001b[0m dates\n\u001b[31m✗\u001b[0m zones\n1 failing\n", exit: { exitCode: 1, signal: null } }],
};
/** @type {import("../../src/shared/protocol").ToolCallPart} */
const READ = {
  type: "toolCall",
  toolCallId: "call_2",
  kind: "read",
  title: "Read notes.md",
  status: "completed",
  agentTerminals: [{ terminalId: "call_2", output: "# Notes\nPin TZ before the suite.\n" }],
};

describe("an agent's own terminals", () => {
  const env = withBrowser();

  it("show the output and exit code the agent reported, never 'not available in this window'", async () => {
    const answer = message({ id: "c1", agentName: "codex", parts: [COMMAND, READ, { type: "text", text: "One test fails." }], stopReason: "end_turn" });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "codex", state: "ready" }], messages: [answer] }) });
    const { page } = view;
    const command = `${body("c1")} .tool-call[data-tool-call-id='call_1']`;
    await page.waitForSelector(`${command} .agent-terminal`);
    const text = await page.innerText(command);
    assert.match(text, /✓ dates\n✗ zones\n1 failing/, "the output, escapes stripped");
    assert.match(text, /exited with code 1/);
    assert.doesNotMatch(text, /not available/);
    assert.equal(await page.$(`${command} .terminal-open`), null, "nothing to open: the terminal lives in the agent");
    const read = `${body("c1")} .tool-call[data-tool-call-id='call_2']`;
    assert.match(await page.innerText(read), /# Notes\nPin TZ before the suite\./, "a read's text, which came only in _meta");
    assert.deepEqual(await view.problems(), []);
  });

  it("a running command says so while the answer streams, and its output grows", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "codex", state: "busy" }] }) });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "c2", agentName: "codex", status: "streaming" }));
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const running = { ...COMMAND, status: "in_progress", agentTerminals: [{ terminalId: "call_1", output: "building…\n" }] };
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c2", part: running });
    const card = `${body("c2")} .tool-call[data-tool-call-id='call_1']`;
    await page.waitForSelector(`${card} .agent-terminal`);
    assert.match(await page.innerText(`${card} .tool-terminal-state`), /running/);
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c2", part: { ...running, agentTerminals: [{ terminalId: "call_1", output: "building…\ndone\n", exit: { exitCode: 0, signal: null } }] } });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("exited with code 0"), card);
    assert.match(await page.innerText(card), /building…\ndone/);
    assert.deepEqual(await view.problems(), []);
  });

  it("a command waiting for its permission does not say it runs; once allowed it does", async () => {
    // Claude Code's Bash in Manual mode: the tool call is `pending`, with the terminal it will run in (terminal_info),
    // no output, while its permission request waits; allowed, it runs (still `pending` for Claude Code, for a while).
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "claude", state: "busy" }] }) });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "c3", agentName: "claude", status: "streaming" }));
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const waiting = { type: "toolCall", toolCallId: "toolu_9", kind: "execute", title: "touch permitted.txt", status: "pending", terminals: ["toolu_9"], agentTerminals: [{ terminalId: "toolu_9", output: "" }] };
    /** @type {import("../../src/shared/protocol").PermissionPart} */
    const request = { type: "permission", requestId: "r9", toolCallId: "toolu_9", title: "touch permitted.txt", options: [{ optionId: "allow", name: "Yes", kind: "allow_once" }, { optionId: "reject", name: "No", kind: "reject_once" }] };
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c3", part: waiting });
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c3", part: request });
    const card = `${body("c3")} .tool-call[data-tool-call-id='toolu_9']`;
    await page.waitForSelector(`${body("c3")} .permission.card[data-state='pending']`);
    assert.equal(await page.$(`${card} .tool-terminal-state`), null, `the card says: ${await page.innerText(card)}`);
    assert.match(await page.innerText(`${card} .status-badge`), /awaiting permission/);
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c3", part: { ...request, outcome: "allow" } });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("running"), `${card} .tool-terminal-state`);
    assert.match(await page.innerText(`${card} .status-badge`), /pending/);
    assert.deepEqual(await view.problems(), []);
  });

  it("an edit the agent reports in progress while its permission request waits says it awaits permission, not that it runs", async () => {
    // Codex in Read-only: its apply_patch "Editing files" is in_progress (with its diff) while "Edit files" is asked.
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "codex", state: "busy" }] }) });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "c4", agentName: "codex", status: "streaming" }));
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const editing = { type: "toolCall", toolCallId: "call_7", kind: "edit", title: "Editing files", status: "in_progress", diffs: [{ path: "/w/permitted.txt", oldText: null, newText: "x\n" }] };
    /** @type {import("../../src/shared/protocol").PermissionPart} */
    const request = { type: "permission", requestId: "r7", toolCallId: "call_7", title: "Edit files", options: [{ optionId: "approved", name: "Yes, proceed", kind: "allow_once" }, { optionId: "abort", name: "No", kind: "reject_once" }] };
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c4", part: editing });
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c4", part: request });
    const badge = `${body("c4")} .tool-call[data-tool-call-id='call_7'] .status-badge`;
    await page.waitForSelector(`${body("c4")} .permission.card[data-state='pending']`);
    assert.match(await page.innerText(badge), /awaiting permission/);
    await host.emit("message/delta", { channelId: "ch-general", messageId: "c4", part: { ...request, outcome: "approved" } });
    await page.waitForFunction((sel) => /running/.test(document.querySelector(sel)?.textContent ?? ""), badge);
    assert.deepEqual(await view.problems(), []);
  });
});

/** Claude Code's completed Bash card: its content text is Markdown, the output fenced. */
/** @type {import("../../src/shared/protocol").ToolCallPart} */
const CLAUDE_BASH = {
  type: "toolCall",
  toolCallId: "toolu_1",
  kind: "execute",
  title: "`exit 3`",
  status: "failed",
  content: "```console\nError: Exit code 3\n```",
};

describe("Markdown in a tool call's content", () => {
  const env = withBrowser();

  it("renders Claude's fenced output as a code block, with no literal fences; plain output (JSON) stays preformatted", async () => {
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const plain = { type: "toolCall", toolCallId: "t2", kind: "other", title: "Notes", status: "completed", content: '{\n  "ok": true,\n  "items": [1, 2]\n}' };
    const answer = message({ id: "m1", agentName: "claude", parts: [CLAUDE_BASH, plain], stopReason: "end_turn" });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "claude", state: "ready" }], messages: [answer] }) });
    const { page } = view;
    const card = `${body("m1")} .tool-call[data-tool-call-id='toolu_1']`;
    await page.waitForSelector(`${card} .tool-markdown pre code`);
    assert.equal(await page.$eval(`${card} .tool-markdown pre code`, (el) => el.textContent), "Error: Exit code 3\n");
    assert.doesNotMatch(await page.innerText(card), /```/, "no literal fences");
    const plainCard = `${body("m1")} .tool-call[data-tool-call-id='t2']`;
    assert.equal(await page.$(`${plainCard} .tool-markdown`), null, "plain output is not Markdown");
    assert.equal(await page.$eval(`${plainCard} pre.tool-content`, (el) => el.textContent), "{\n  \"ok\": true,\n  \"items\": [1, 2]\n}", "its indentation and lines kept");
    assert.deepEqual(await view.problems(), []);
  });
});

describe("titles", () => {
  const env = withBrowser();

  it("a tool call's and a permission request's code spans show as code, without backticks; the request's own title is shown", async () => {
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const tool = { type: "toolCall", toolCallId: "toolu_2", kind: "execute", title: "`python3 -c \"print(1)\"`", status: "pending" };
    /** @type {import("../../src/shared/protocol").PermissionPart} */
    const ask = { type: "permission", requestId: "r1", toolCallId: "toolu_2", title: "`python3 -c \"print(1)\"`", options: [{ optionId: "allow", name: "Yes", kind: "allow_once" }, { optionId: "reject", name: "No", kind: "reject_once" }] };
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const odd = { type: "toolCall", toolCallId: "t3", title: "a ``b ` c`` and `unclosed", status: "completed" };
    const answer = message({ id: "p1", agentName: "claude", status: "streaming", parts: [tool, ask, odd] });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "claude", state: "busy" }], messages: [answer] }) });
    const { page } = view;
    const card = `${body("p1")} .permission[data-request-id='r1']`;
    await page.waitForSelector(card);
    assert.equal(await page.$eval(`${card} .permission-title code`, (el) => el.textContent), 'python3 -c "print(1)"');
    assert.equal((await page.innerText(`${card} .permission-title`)).trim(), 'Allow python3 -c "print(1)"?');
    assert.equal(await page.$eval(`${body("p1")} .tool-call[data-tool-call-id='toolu_2'] .tool-title code`, (el) => el.textContent), 'python3 -c "print(1)"');
    const oddTitle = `${body("p1")} .tool-call[data-tool-call-id='t3'] .tool-title`;
    assert.deepEqual(await page.$$eval(`${oddTitle} code`, (els) => els.map((el) => el.textContent)), ["b ` c"]);
    assert.equal(await page.innerText(oddTitle), "a b ` c and `unclosed");
    assert.deepEqual(await view.problems(), []);
  });
});

describe("Claude's mode, offered as modes and as a config option", () => {
  const env = withBrowser();

  it("is one control, named by the config option, whose value the compact button shows", async () => {
    // What the host sends for claude-agent-acp: the modes were set aside for the config option (sessionState.ts).
    /** @param {string} id @param {string} name @param {string} category @param {string} currentValue @param {[string, string][]} values @returns {import("../../src/shared/protocol").SessionConfigOptionView} */
    const option = (id, name, category, currentValue, values) => ({ type: "select", id, name, category, currentValue, options: values.map(([value, n]) => ({ value, name: n })) });
    /** @type {import("../../src/shared/protocol").SessionStateView} */
    const state = {
      channelId: "ch-general",
      agent: "claude",
      live: true,
      configOptions: [option("mode", "Mode", "mode", "default", [["default", "Manual"], ["acceptEdits", "Accept edits"], ["plan", "Plan"], ["auto", "Auto"]]), option("model", "Model", "model", "sonnet", [["sonnet", "Sonnet"]])],
    };
    const open = { ...openResult({ members: [{ name: "claude", state: "ready" }] }), sessions: { claude: state } };
    const view = await openView(env.browser, env.server.origin, { open, width: 360 });
    const { page } = view;
    const trigger = ".member[data-member='claude'] .session-trigger";
    await page.waitForSelector(trigger);
    assert.equal(await page.innerText(trigger), "Manual");
    const tooltip = (await page.getAttribute(trigger, "title")) ?? "";
    assert.equal(tooltip.match(/Mode: /g)?.length, 1, `one mode line: ${tooltip}`);
    await page.click(trigger);
    await page.waitForSelector(".session-dialog .session-field");
    const labels = await page.$$eval(".session-dialog .session-field-name", (els) => els.map((el) => el.textContent?.trim()));
    assert.equal(labels.filter((l) => l === "Mode").length, 1, `one mode control: ${JSON.stringify(labels)}`);
    assert.deepEqual(await view.problems(), []);
  });
});

describe("an agent's notice", () => {
  const env = withBrowser();

  it("a text piece of its own (Claude Code's notice after its answer, no messageId) is set apart as a paragraph, not run on", async () => {
    /** @type {import("../../src/shared/protocol").Part[]} */
    const parts = [
      { type: "text", text: "Hello from the scripted model.", messageId: "msg_1" },
      { type: "text", text: "**Warning:** We're changing auto mode to no longer charge for classifier requests." },
    ];
    const answer = message({ id: "w1", agentName: "claude", parts, stopReason: "end_turn" });
    const paragraphs = message({ id: "w2", agentName: "claude", text: "First paragraph.\n\nSecond paragraph.", stopReason: "end_turn" });
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "claude", state: "ready" }], messages: [answer, paragraphs] }) });
    const { page } = view;
    await page.waitForSelector(`${body("w1")} .markdown + .markdown`);
    /** @param {string} selector */
    const gap = (selector) => page.$$eval(selector, (els) => els[1].getBoundingClientRect().top - els[0].getBoundingClientRect().bottom);
    const between = await gap(`${body("w1")} > .markdown`);
    const paragraph = await gap(`${body("w2")} .markdown p`);
    assert.ok(paragraph >= 6, `a paragraph gap (${paragraph} px)`);
    assert.ok(between >= paragraph - 0.5, `the notice is set apart like a paragraph: ${between} px between the pieces, ${paragraph} px between paragraphs`);
    assert.deepEqual(await view.problems(), []);
  });

  it("says what the agent reports about itself while the answer has no text, and that it is trying again", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "codex", state: "busy" }] }) });
    const { page, host } = view;
    await host.emit("message/started", message({ id: "n1", agentName: "codex", status: "streaming" }));
    /** @param {string} text */
    const notice = (text) => host.emit("message/delta", { channelId: "ch-general", messageId: "n1", part: { type: "notice", text, retrying: true } });
    await notice("Reconnecting... 1/5 (Connection failed: error sending request)");
    await notice("Reconnecting... 2/5 (Connection failed: error sending request)");
    const shown = `${body("n1")} .agent-notice`;
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("2/5"), shown);
    assert.equal(await page.$$eval(shown, (els) => els.length), 1, "one notice, the latest");
    assert.equal(await page.innerText(shown), "Reconnecting... 2/5 (Connection failed: error sending request) (it is trying again)");
    assert.deepEqual(await view.problems(), []);
  });
});

describe("screenshots of real agents' shapes", () => {
  const env = withBrowser();

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`Codex's command and read cards (${theme})`, async () => {
      const user = message({ id: "u1", author: "user", text: "@codex why does `npm test` fail?", to: ["codex"] });
      const answer = message({ id: "c1", agentName: "codex", parts: [READ, COMMAND, { type: "text", text: "One test fails: `zones`." }], stopReason: "end_turn" });
      /** @type {import("../../src/shared/protocol").TextPart} */
      const notice = { type: "text", text: "**Warning:** Nothing breaks: auto mode keeps working." };
      const claude = message({ id: "m1", agentName: "claude", parts: [CLAUDE_BASH, { type: "text", text: "The command exited with code 3.", messageId: "msg_1" }, notice], stopReason: "end_turn" });
      const silent = message({ id: "n2", agentName: "codex", status: "streaming", parts: [{ type: "notice", text: "Reconnecting... 2/5 (Connection failed: error sending request)", retrying: true }] });
      /** @type {import("../../src/shared/protocol").MemberView[]} */
      const members = [{ name: "codex", state: "ready" }, { name: "claude", state: "ready" }];
      const view = await openView(env.browser, env.server.origin, { open: openResult({ members, messages: [user, answer, claude, silent] }), theme, width: 360, height: 820 });
      const { page } = view;
      await page.waitForSelector(`${body("c1")} .agent-terminal`);
      await page.evaluate(() => document.fonts.ready);
      await frames(page, 3);
      mkdirSync(outDir, { recursive: true });
      await page.screenshot({ path: path.join(outDir, `webview-agent-terminal-${theme}.png`) });
      assert.deepEqual(await view.problems(), []);
    });
  }
});
