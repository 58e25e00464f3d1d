// @ts-check
// Permission cards with Claude Code's real options (issue 15, item 2; ADR 0005): the agent's own options stay the
// agent's (its "always" one says so), Sidekicks' own "always" actions sit apart and say what their rule matches, and a
// card answered without asking says which rule answered. Screenshots in light and dark: test-results/webview-permission-rules-*.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");

/** Claude Code's Bash options (claude-agent-acp 0.101.0). */
/** @type {import("../../src/shared/protocol").PermissionOption[]} */
const CLAUDE = [
  { optionId: "allow-once", name: "Yes", kind: "allow_once" },
  { optionId: "allow-with-updates", name: "Yes, and don't ask again for `exit 3` commands", kind: "allow_always" },
  { optionId: "reject", name: "No", kind: "reject_once" },
];

/** @param {string} toolCallId @param {string} title @param {import("../../src/shared/protocol").ToolCallPart["status"]} [status] @returns {import("../../src/shared/protocol").ToolCallPart} */
const tool = (toolCallId, title, status = "pending") => ({ type: "toolCall", toolCallId, kind: "execute", title, status });
/** @param {string} requestId @param {string} toolCallId @param {string} title @param {Partial<import("../../src/shared/protocol").PermissionPart>} [extra] @returns {import("../../src/shared/protocol").PermissionPart} */
const permission = (requestId, toolCallId, title, extra = {}) => ({ type: "permission", requestId, toolCallId, title, toolKind: "execute", options: CLAUDE, ...extra });

function channel() {
  return openResult({
    members: [{ name: "claude", state: "busy" }],
    messages: [
      message({ id: "u1", author: "user", text: "@claude run the tests, then check the folder", to: ["claude"] }),
      message({
        id: "a1",
        agentName: "claude",
        status: "streaming",
        parts: [
          tool("t1", "npm test", "completed"),
          permission("r1", "t1", "npm test", {
            outcome: "allow-once",
            auto: "Allowed by your Sidekicks rule: always allow @claude's request “npm test” (tool kind execute).",
          }),
          tool("t2", "exit 3"),
          permission("r2", "t2", "exit 3", { notice: "Asked: your rule from an older version of Sidekicks (always allow every execute tool of @claude) no longer answers requests, as it matched more than you chose. Sidekicks: Remembered permissions… lists it." }),
        ],
      }),
    ],
  });
}

describe("permission cards: the agent's options and Sidekicks' rules", () => {
  const env = withBrowser();
  before(() => mkdirSync(outDir, { recursive: true }));

  it("shows the agent's options as the agent's, Sidekicks' action apart with what it matches, and which rule answered", async () => {
    const view = await openView(env.browser, env.server.origin, { open: channel() });
    const { page, host } = view;
    const pending = ".permission[data-request-id='r2']";
    await page.waitForSelector(`${pending} button.permission-remember`);

    assert.deepEqual(await page.$$eval(`${pending} .permission-options button`, (bs) => bs.map((b) => b.textContent)), ["Yes", "Yes, and don't ask again for `exit 3` commands", "No"], "the agent's options, as the agent named them");
    assert.match((await page.getAttribute(`${pending} [data-option-id='allow-with-updates']`, "title")) ?? "", /@claude's own option: @claude decides what it covers and keeps that rule itself\. Sidekicks remembers nothing for it\./);
    assert.equal(await page.getAttribute(`${pending} .permission-options [data-option-id='allow-once']`, "title"), null, "a one-time option needs no warning");

    assert.deepEqual(await page.$$eval(`${pending} .permission-rule button`, (bs) => bs.map((b) => b.textContent)), ["Always allow this request", "Always reject this request"]);
    assert.match(await page.innerText(`${pending} .permission-rule-matches`), /For @claude's requests titled exactly “exit 3” \(tool kind execute\): Sidekicks answers with the one-time option/);
    assert.match(await page.innerText(`${pending} .permission-notice`), /older version of Sidekicks \(always allow every execute tool of @claude\) no longer answers/);

    const answered = ".permission[data-request-id='r1']";
    assert.equal(await page.getAttribute(answered, "data-state"), "auto");
    assert.match(await page.innerText(`${answered} .permission-auto`), /Allowed by your Sidekicks rule: always allow @claude's request “npm test” \(tool kind execute\)\./, "the card says which rule answered and what it matches");
    assert.equal(await page.$(`${answered} .permission-rule`), null, "no Sidekicks action on an answered card");

    for (const theme of /** @type {const} */ (["dark", "light"])) {
      const themed = await openView(env.browser, env.server.origin, { open: channel(), theme, height: 1000 });
      await themed.page.waitForSelector(`${pending} button.permission-remember`);
      await themed.page.evaluate(() => document.fonts.ready);
      await frames(themed.page, 3);
      await themed.page.screenshot({ path: path.join(outDir, `webview-permission-rules-${theme}.png`) });
      assert.deepEqual(await themed.problems(), []);
    }

    await page.click(`${pending} button.permission-remember[data-decision='allow']`);
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r2", optionId: "allow-once", remember: true }], "Sidekicks' action answers with the agent's one-time option, and asks for a rule");
    assert.equal(await page.$eval(`${pending} [data-option-id='allow-once']`, (b) => /** @type {HTMLButtonElement} */ (b).disabled), true, "the card waits for the host");
    assert.deepEqual(await view.problems(), []);
  });

  it("the agent's own “always” option is sent as the user chose it, with no Sidekicks rule", async () => {
    const view = await openView(env.browser, env.server.origin, { open: channel() });
    const { page, host } = view;
    await page.click(".permission[data-request-id='r2'] [data-option-id='allow-with-updates']");
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r2", optionId: "allow-with-updates" }]);
  });

  it("a rule on a request that names files says it matches exactly those files", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({ messages: [message({ id: "a3", agentName: "codex", status: "streaming", parts: [permission("r5", "t5", "Edit files", { toolKind: "edit", paths: ["/w/src/b.ts", "/w/src/a.ts"] })] })] }),
    });
    const { page } = view;
    await page.waitForSelector(".permission[data-request-id='r5'] .permission-rule-matches");
    assert.match(await page.innerText(".permission[data-request-id='r5'] .permission-rule-matches"), /For @codex's requests titled exactly “Edit files” on exactly \/w\/src\/a.ts, \/w\/src\/b.ts \(tool kind edit\)/);
  });

  it("offers no Sidekicks action when the request has no title or no one-time option", async () => {
    const view = await openView(env.browser, env.server.origin, {
      open: openResult({
        messages: [message({ id: "a2", status: "streaming", parts: [permission("r3", "t3", "  "), permission("r4", "t4", "rm -rf build", { options: [CLAUDE[1]] })] })],
      }),
    });
    const { page } = view;
    await page.waitForSelector(".permission[data-request-id='r4'] button.permission-option");
    assert.equal(await page.$(".permission .permission-rule"), null);
  });
});
