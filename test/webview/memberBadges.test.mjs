// @ts-check
// A channel with many members in a narrow side bar: a fresh-user trial with 14 agents found their badges taking a third
// of a 600 px side bar. The header shows those that need the user's eye and the first others, then "+N more".
// Screenshots: test-results/webview-members-folded.png, webview-members-open.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
const names = ["claude", "codex", "gemini", "reviewer", "tester", "docs", "planner", "security", "perf", "frontend", "backend", "infra", "data", "ops"];
/** @type {import("../../src/shared/protocol").AgentState[]} */
const states = names.map((n) => (n === "backend" ? "busy" : n === "data" ? "error" : "ready"));
const members = names.map((name, i) => ({ name, state: states[i] }));
/** @param {import("./harness.mjs").Page} page */
const shown = (page) => page.$$eval(".members .member:not([hidden])", (els) => els.map((e) => e.getAttribute("data-member")));

describe("a long member list", () => {
  const env = withBrowser();

  it("shows the members that need the user's eye and the first others, then '+N more' that lists them all", async () => {
    mkdirSync(outDir, { recursive: true });
    const messages = Array.from({ length: 6 }, (_, i) => message({ id: `m${i}`, author: i % 2 ? "agent" : "user", agentName: "claude", text: `Message ${i}, long enough to wrap in a narrow side bar.` }));
    const { page } = await openView(env.browser, env.server.origin, { width: 300, height: 600, open: openResult({ members, messages }) });
    await page.waitForSelector(".member-more");
    await frames(page, 2);
    await page.screenshot({ path: path.join(outDir, "webview-members-folded.png") });
    // Answering and failed members are shown wherever they are in the roster; the first three others fill up to five.
    assert.deepEqual(await shown(page), ["claude", "codex", "gemini", "backend", "data"]);
    assert.equal(await page.innerText(".member-more"), "+9 more");
    assert.equal(await page.getAttribute(".member-more", "aria-expanded"), "false");
    assert.match((await page.getAttribute(".member-more", "title")) ?? "", /@reviewer, @tester, .*@ops/);
    assert.equal(await page.getAttribute(".member[data-member='ops']", "data-state"), "ready", "a folded member's badge is there, hidden, with its state");
    const folded = await page.$eval(".channel-header", (el) => el.getBoundingClientRect().height);
    assert.ok(folded <= 110, `the folded header leaves the history room: ${folded}px`);

    await page.focus(".member-more");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll(".members .member:not([hidden])").length === 14);
    assert.deepEqual(await shown(page), names, "opened, the roster order");
    assert.equal(await page.innerText(".member-more"), "Show fewer");
    assert.equal(await page.getAttribute(".member-more", "aria-expanded"), "true");
    await frames(page, 2);
    await page.screenshot({ path: path.join(outDir, "webview-members-open.png") });
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll(".members .member:not([hidden])").length === 5);
  });

  it("shows every member when folding would hide fewer than two", async () => {
    const { page } = await openView(env.browser, env.server.origin, { width: 300, open: openResult({ members: members.slice(0, 6) }) });
    await page.waitForSelector(".members .member");
    assert.deepEqual(await shown(page), names.slice(0, 6));
    assert.equal(await page.$(".member-more"), null);
  });
});
