// @ts-check
// Screenshots of a realistic channel in a 320px sidebar, for people to look at: test-results/webview-*.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");

const ANSWER = [
  "The failing test is **parses dates**: it builds the expected value in the *local* time zone.",
  "",
  "```ts",
  "expect(parse(\"2025-01-15\"))",
  "  .toEqual(new Date(2025, 0, 15));",
  "```",
  "",
  "CI runs in `UTC`, your laptop doesn't. Two options:",
  "",
  "1. pin `TZ=UTC` in the test setup",
  "2. compare with `Date.UTC(...)`",
].join("\n");

function channel() {
  return openResult({
    members: [
      { name: "demo", state: "busy" },
      { name: "garfield", state: "ready" },
    ],
    messages: [
      message({ id: "m1", author: "user", text: "@demo why does `npm test` fail on CI?" }),
      message({
        id: "m2",
        parts: [
          { type: "toolCall", toolCallId: "t1", kind: "read", title: "test/date.test.ts", status: "completed" },
          { type: "text", text: ANSWER },
        ],
        stopReason: "end_turn",
      }),
      message({ id: "m3", author: "user", text: "@demo option 1 please, then run the tests" }),
    ],
  });
}

/** @param {import("./harness.mjs").HostDriver} host */
async function streamAnswer(host) {
  await host.emit("message/started", message({ id: "m4", status: "streaming" }));
  /** @param {Omit<import("../../src/shared/protocol").HostEvents["message/delta"], "channelId" | "messageId">} d */
  const delta = (d) => host.emit("message/delta", { channelId: "ch-general", messageId: "m4", ...d });
  for (const chunk of ["I'll pin the time zone ", "in `test/setup.ts`:\n\n", "```ts\nprocess.env.TZ = \"UTC\";\n", "```\n"]) {
    await delta({ appendText: chunk });
  }
  await delta({ part: { type: "toolCall", toolCallId: "t2", kind: "edit", title: "test/setup.ts", status: "completed", content: "+ process.env.TZ = \"UTC\";" } });
  await delta({ part: { type: "toolCall", toolCallId: "t3", kind: "execute", title: "npm test", status: "pending" } });
  await delta({
    part: {
      type: "permission",
      requestId: "r1",
      toolCallId: "t3",
      title: "npm test",
      options: [
        { optionId: "allow", name: "Allow once", kind: "allow_once" },
        { optionId: "always", name: "Always allow", kind: "allow_always" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
    },
  });
}

describe("screenshots", () => {
  const env = withBrowser();
  before(() => mkdirSync(outDir, { recursive: true }));

  for (const theme of /** @type {const} */ (["dark", "light"])) {
    it(`renders a realistic channel at 320x700 (${theme})`, async () => {
      const view = await openView(env.browser, env.server.origin, { open: channel(), theme, width: 320, height: 700 });
      const { page, host } = view;
      await streamAnswer(host);
      await page.waitForSelector(".permission[data-request-id='r1'] button.permission-option");
      await page.evaluate(() => document.fonts.ready);
      await frames(page, 3);
      const file = path.join(outDir, theme === "dark" ? "webview-channel.png" : "webview-channel-light.png");
      await page.screenshot({ path: file });
      // Nothing is wider than the sidebar: no horizontal scrolling of the whole view.
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
      const history = await page.$eval(".history", (el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
      assert.ok(history.sw <= history.cw, `history does not scroll sideways: ${JSON.stringify(history)}`);
      assert.deepEqual(await view.problems(), []);
    });
  }

  it("renders the invalid-config banner and a refused send at 320px", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({
        config: {
          state: "invalid",
          path: "/home/me/project/sidekicks.yaml",
          problems: ["/home/me/project/sidekicks.yaml:4:12: agents.demo.command must be string", "/home/me/project/sidekicks.yaml:9:3: unknown property 'workspce'"],
        },
        messages: [message({ id: "e1", status: "error", text: "Let me check", error: { code: "agent/exited", message: "demo exited with code 1", detail: "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\nError: Cannot find module '/x/agent.js'" } })],
      }),
    });
    const { page } = view;
    await page.fill("#composer textarea", "@foo hello");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".send-error");
    await frames(page, 2);
    await page.screenshot({ path: path.join(outDir, "webview-problems.png") });
    assert.deepEqual(await view.problems(), []);
  });
});
