// @ts-check
// A terminal embedded in a tool call (issue 7): its output so far from a snapshot, then live from terminal/output
// events, ANSI stripped, its exit, and "Open in terminal"; a terminal this window does not know says so.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("embedded terminal", () => {
  const env = withBrowser();

  it("shows the snapshot, then live output and the exit; Open in terminal asks the host", async () => {
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const tool = { type: "toolCall", toolCallId: "c1", title: "Run npm test", kind: "execute", status: "in_progress", terminals: ["term_1"] };
    const view = await openView(env.browser, env.server.origin, { width: 360 });
    const { page, host } = view;
    await page.evaluate(() => {
      window.__host.handlers["terminal/snapshot"] = ({ terminalId }) => ({ known: terminalId === "term_1", output: "\u001b[32m> npm test\u001b[0m\r\n", truncated: false });
    });
    await host.emit("message/started", message({ id: "m1", status: "streaming", parts: [tool] }));
    await page.waitForSelector(".tool-terminal[data-terminal-id='term_1']");
    assert.deepEqual(await host.waitForRequests("terminal/snapshot"), [{ terminalId: "term_1" }]);
    await host.emit("terminal/output", { terminalId: "term_1", text: "\u001b[1mPASS\u001b[0m all 12 tests\r\n" });
    await host.emit("terminal/output", { terminalId: "term_1", text: "", exitStatus: { exitCode: 0, signal: null } });
    await page.waitForSelector(".tool-terminal[data-exited='true']");
    const output = await page.innerText(".tool-terminal-output");
    assert.match(output, /PASS all 12 tests/);
    assert.doesNotMatch(output, /\u001b|\[1m/, "no raw ANSI (field case 12)");
    assert.match(await page.innerText(".tool-terminal-state"), /exited with code 0/);
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results", "webview-terminal.png") });
    await page.click(".terminal-open");
    assert.deepEqual(await host.waitForRequests("terminal/show"), [{ terminalId: "term_1" }]);
    assert.deepEqual(await view.problems(), []);
  });

  it("a terminal from before a reload says its output is not available here, with no button", async () => {
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const tool = { type: "toolCall", toolCallId: "c2", title: "Run make", kind: "execute", status: "completed", terminals: ["term_old"] };
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: [message({ id: "m2", parts: [tool] })] }) });
    const { page } = view;
    await page.waitForSelector(".tool-terminal[data-terminal-id='term_old']");
    await page.waitForTimeout(500);
    assert.match(await page.innerText(".tool-terminal-state"), /not available in this window/);
    assert.equal(await page.$(".terminal-open"), null);
  });
});
