// @ts-check
// The broken-roster banner in a narrow sidebar: compact (the first problem and "N more"), collapsible by keyboard, the
// collapse kept while the webview lives, "Open config" always there. A new-user trial found it taking ~300 px.
// Screenshot: test-results/webview-config-banner.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, openResult, openView, withBrowser } from "./harness.mjs";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");
const file = "/home/me/a-rather-long/project-folder/sidekicks.yaml";
const problems = [
  `${file}:4:12: agents.0.command must be a string (the program to run, e.g. npx)`,
  `${file}:9:3: unknown property 'workspce' (did you mean 'workspace'?)`,
  `${file}:12:5: agents.1.name must match ^[a-z][a-z0-9_-]*$`,
  `${file}:15:1: channels.0.members lists 'cluade', which is not an agent`,
  `${file}:18:7: limits.idleTimeout must be a duration such as 10m`,
];
/** @type {import("../../src/shared/protocol").ConfigStatus} */
const invalid = { state: "invalid", path: file, problems };
/** @param {import("./harness.mjs").Page} page */
const height = (page) => page.$eval(".config-banner", (el) => el.getBoundingClientRect().height);

describe("the broken-config banner", () => {
  const env = withBrowser();

  it("shows the first problem and 'N more' in a 300 px sidebar; the keyboard expands, collapses and opens the config", async () => {
    mkdirSync(outDir, { recursive: true });
    const view = await openView(env.browser, env.server.origin, { width: 300, open: openResult({ config: invalid }) });
    const { page, host } = view;
    await page.waitForSelector(".config-banner.state-invalid");
    await frames(page, 2);
    await page.screenshot({ path: path.join(outDir, "webview-config-banner.png") });
    assert.match(await page.innerText(".config-banner .banner-title"), /sidekicks\.yaml has 5 problems/);
    assert.deepEqual(await page.$$eval(".config-banner li", (els) => els.map((e) => e.textContent)), ["sidekicks.yaml:4:12: agents.0.command must be a string (the program to run, e.g. npx)"]);
    const compact = await height(page);
    assert.ok(compact <= 140, `the banner leaves the history room: ${compact}px`);

    // "4 more" by keyboard lists them all.
    await page.focus(".config-banner .banner-more");
    assert.equal(await page.innerText(".config-banner .banner-more"), "4 more");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll(".config-banner li").length === 5);

    // The toggle collapses it to its title row; Open config stays.
    await page.focus(".config-banner .banner-toggle");
    assert.equal(await page.getAttribute(".config-banner .banner-toggle", "aria-expanded"), "true");
    await page.keyboard.press("Space");
    await page.waitForSelector(".config-banner li", { state: "detached" });
    assert.equal(await page.getAttribute(".config-banner .banner-toggle", "aria-expanded"), "false");
    assert.ok((await height(page)) < compact, "collapsed is smaller still");
    await page.focus(".config-banner vscode-button.banner-action");
    await page.keyboard.press("Enter");
    assert.deepEqual(await host.waitForRequests("command/run"), [{ command: "openConfig" }]);

    // Kept across a channel switch (the view reloads the channel); new problems show again.
    await host.emit("channel/reload", { name: "general" });
    await page.waitForFunction(() => document.querySelector(".app")?.getAttribute("data-snapshot") === "2");
    assert.equal(await page.$(".config-banner li"), null, "still collapsed after the reload");
    await host.emit("config/changed", { ...invalid, problems: problems.slice(1) });
    await page.waitForSelector(".config-banner li");
    assert.match(await page.innerText(".config-banner .banner-title"), /has 4 problems/);
    assert.deepEqual(await view.problems(), []);
  });
});
