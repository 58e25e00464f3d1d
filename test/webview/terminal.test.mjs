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

  it("progress redrawn with CR or cursor moves shows its last frame only: tool content, embedded and agent terminals (field case 21)", async () => {
    const frames = "Downloading   0%\rDownloading  25%\rDownloading  50%\rDownloading 100%\n";
    /** @type {import("../../src/shared/protocol").ToolCallPart[]} */
    const parts = [
      { type: "toolCall", toolCallId: "p1", title: "Fetch the model", kind: "fetch", status: "completed", content: frames },
      // Claude Code fences its outputs: Markdown, with the frames inside the fence.
      { type: "toolCall", toolCallId: "p0", title: "curl -O model.bin", kind: "execute", status: "completed", content: `\`\`\`console\n${frames}\`\`\`` },
      { type: "toolCall", toolCallId: "p2", title: "Run pip install", kind: "execute", status: "in_progress", terminals: ["term_p"] },
      {
        type: "toolCall",
        toolCallId: "p3",
        title: "npm install",
        kind: "execute",
        status: "completed",
        // Two bars redrawn in place: cursor up two lines, erase each line, write it again.
        agentTerminals: [{ terminalId: "p3", output: "added\npkg-a  10%\npkg-b   0%\n\u001b[2A\u001b[2Kpkg-a 100%\n\u001b[2Kpkg-b 100%\r\nok\r\n", exit: { exitCode: 0, signal: null } }],
      },
    ];
    const view = await openView(env.browser, env.server.origin, { width: 360 });
    const { page, host } = view;
    await page.evaluate(() => {
      window.__host.handlers["terminal/snapshot"] = () => ({ known: true, output: "Collecting torch\r\nDownloading   0%\r", truncated: false });
    });
    await host.emit("message/started", message({ id: "mp", status: "streaming", parts }));
    const embedded = ".tool-terminal[data-terminal-id='term_p'] .tool-terminal-output";
    await page.waitForSelector(embedded);
    // The chunk so far ends in CR: the line shows until later text overwrites it, as in a terminal.
    assert.equal(await page.innerText(embedded), "Collecting torch\nDownloading   0%");
    await host.emit("terminal/output", { terminalId: "term_p", text: "Downloading  40%\r\u001b[" });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("40%"), embedded);
    assert.equal(await page.innerText(embedded), "Collecting torch\nDownloading  40%");
    await host.emit("terminal/output", { terminalId: "term_p", text: "KDownloading 100%\r\n" });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes("100%"), embedded);
    assert.equal((await page.innerText(embedded)).trimEnd(), "Collecting torch\nDownloading 100%");
    assert.equal((await page.innerText(".tool-call[data-tool-call-id='p1'] .tool-content")).trimEnd(), "Downloading 100%");
    assert.equal((await page.innerText(".tool-call[data-tool-call-id='p0'] .tool-markdown pre code")).trimEnd(), "Downloading 100%");
    assert.equal((await page.innerText(".tool-call[data-tool-call-id='p3'] .tool-terminal-output")).trimEnd(), "added\npkg-a 100%\npkg-b 100%\nok");
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results", "webview-terminal-progress.png") });
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
