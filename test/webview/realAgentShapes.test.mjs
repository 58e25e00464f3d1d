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
const body = (id) => `.message[data-message-id='${id}'] .message-body`;

/** Codex's shapes as Sidekicks stores them: a command with its own terminal, a read whose text is only in `_meta`. */
const COMMAND = {
  type: "toolCall",
  toolCallId: "call_1",
  kind: "execute",
  title: "Run npm test",
  status: "failed",
  terminals: ["call_1"],
  agentTerminals: [{ terminalId: "call_1", output: "\u001b[32m✓\u001b[0m dates\n\u001b[31m✗\u001b[0m zones\n1 failing\n", exit: { exitCode: 1, signal: null } }],
};
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
});

describe("screenshots of real agents' shapes", () => {
  const env = withBrowser();

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`Codex's command and read cards (${theme})`, async () => {
      const user = message({ id: "u1", author: "user", text: "@codex why does `npm test` fail?", to: ["codex"] });
      const answer = message({ id: "c1", agentName: "codex", parts: [READ, COMMAND, { type: "text", text: "One test fails: `zones`." }], stopReason: "end_turn" });
      const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "codex", state: "ready" }], messages: [user, answer] }), theme, width: 360, height: 560 });
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
