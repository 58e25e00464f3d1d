// @ts-check
// Session controls in the channel header (issue 6): each member's compact button (mode and usage), its dialog with the
// mode, config option and usage, used by keyboard only; a refused change shows why and the control goes back; the
// badge says "waiting for you" while a permission request waits. Screenshots: test-results/webview-session-{controls,header,narrow,open-light,refused-light}.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "test-results");

/** @type {import("../../src/shared/protocol").SessionConfigOptionView} */
const EFFORT = {
  type: "select",
  id: "effort",
  name: "Effort",
  category: "thought_level",
  currentValue: "medium",
  options: [
    { value: "low", name: "Low" },
    { value: "medium", name: "Medium" },
    { value: "high", name: "High" },
  ],
};
/** @type {import("../../src/shared/protocol").SessionStateView & { modes: NonNullable<import("../../src/shared/protocol").SessionStateView["modes"]> }} */
const DEMO = {
  channelId: "ch-general",
  agent: "demo",
  live: true,
  title: "Greeting the cat",
  modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code", description: "Changes files" }] },
  configOptions: [EFFORT],
  usage: { used: 12_345, size: 200_000, cost: { amount: 0.04, currency: "USD" } },
};

/**
 * #general with demo (a session with modes, effort and usage) and odie, whose answer waits on a permission request.
 * @param {import("playwright-core").Browser} browser
 * @param {string} origin
 * @param {import("./harness.mjs").Theme} [theme]
 */
function openSessions(browser, origin, theme = "dark") {
  const open = {
    ...openResult({
      members: [{ name: "demo", state: "ready" }, { name: "odie", state: "busy" }],
      messages: [
        message({ id: "m1", author: "user", text: "@odie edit the file" }),
        message({
          id: "m2",
          agentName: "odie",
          status: "streaming",
          parts: [{ type: "permission", requestId: "r1", toolCallId: "t1", title: "Edit a file", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] }],
        }),
      ],
    }),
    sessions: { demo: DEMO },
  };
  return openView(browser, origin, { open, width: 360, theme });
}

/** Picks the next value of the focused `vscode-single-select` by keyboard: Space opens it, ArrowDown, Enter picks. @param {import("./harness.mjs").Page} page */
async function pickNext(page) {
  await page.keyboard.press("Space");
  await frames(page, 2);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
}

/** @param {import("./harness.mjs").Page} page */
const activeControl = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-control") ?? document.activeElement?.className);

describe("session controls in the channel header", () => {
  const env = withBrowser();
  before(() => mkdirSync(outDir, { recursive: true }));

  it("shows mode and usage compactly, changes the mode by keyboard, and follows the host's state", async () => {
    const { page, host, problems } = await openSessions(env.browser, env.server.origin);
    const trigger = ".member[data-member='demo'] .session-trigger";
    await page.waitForSelector(trigger);
    assert.equal(await page.innerText(trigger), "Ask · 12.3k / 200k · $0.04");
    const tooltip = await page.getAttribute(trigger, "title");
    assert.match(tooltip ?? "", /Greeting the cat/);
    assert.match(tooltip ?? "", /12,345 of 200,000 tokens in context \(6%\) · cost so far \$0\.04/);
    assert.equal(await page.getAttribute(".member[data-member='odie']", "data-activity"), "waiting", "odie's permission request waits for the user");
    assert.equal(await page.innerText(".member[data-member='odie'] .member-state"), "waiting for you");
    assert.equal(await page.innerText(".member[data-member='demo'] .member-state"), "ready", "the Agents view's word for the state");
    assert.equal(await page.$(".member[data-member='odie'] .session-trigger"), null, "no session known for odie: no button");

    await page.evaluate((demo) => {
      window.__host.handlers["session/configure"] = ({ change }) => ({ state: { ...demo, modes: { ...demo.modes, currentModeId: change.kind === "mode" ? change.modeId : "" } } });
    }, DEMO);
    await page.focus(trigger);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".session-popover[role='dialog']");
    assert.equal(await page.getAttribute(trigger, "aria-expanded"), "true");
    assert.equal(await activeControl(page), "mode", "the first control takes the focus");
    await page.evaluate(() => document.fonts.ready);
    await frames(page, 3);
    await page.screenshot({ path: path.join(outDir, "webview-session-controls.png") });
    await pickNext(page);
    const [sent] = await host.waitForRequests("session/configure");
    assert.deepEqual(sent, { channelId: "ch-general", agent: "demo", change: { kind: "mode", modeId: "code" } });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.startsWith("Code ·"), trigger);

    await host.emit("session/state", { ...DEMO, modes: { ...DEMO.modes, currentModeId: "code" }, usage: { used: 150_000, size: 200_000, cost: { amount: 1.5, currency: "EUR" } } });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Code · 150k / 200k · €1.50", trigger);
    await page.keyboard.press("Escape");
    await page.waitForSelector(".session-popover", { state: "detached" });
    assert.equal(await activeControl(page), "session-trigger", "Escape gives the focus back to the button");
    // Open again, the focus put back on the button (a trial pressed Escape there and nothing closed): Escape closes.
    await page.keyboard.press("Enter");
    await page.waitForSelector(".session-popover[role='dialog']");
    await page.focus(trigger);
    assert.equal(await page.getAttribute(trigger, "aria-expanded"), "true");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".session-popover", { state: "detached" });
    await frames(page, 3);
    await page.screenshot({ path: path.join(outDir, "webview-session-header.png"), clip: { x: 0, y: 0, width: 360, height: 120 } });
    assert.deepEqual(await problems(), []);
  });

  it("in a 300 px view a long agent name and mode end the button in an ellipsis inside the view, and it still opens", async () => {
    const agent = "claude-code-reviewer";
    const long = { ...DEMO, agent, modes: { currentModeId: "arch", availableModes: [{ id: "arch", name: "Architect (plan only)" }] }, usage: { used: 150_000, size: 200_000, cost: { amount: 1.5, currency: "EUR" } } };
    const open = { ...openResult({ members: [{ name: agent, state: "ready" }, { name: "codex", state: "busy" }] }), sessions: { [agent]: long } };
    const { page, problems } = await openView(env.browser, env.server.origin, { open, width: 300 });
    const trigger = `.member[data-member='${agent}'] .session-trigger`;
    await page.waitForSelector(trigger);
    await page.evaluate(() => document.fonts.ready);
    await frames(page, 2);
    const box = await page.evaluate((sel) => {
      const el = /** @type {HTMLElement} */ (document.querySelector(sel));
      const chip = /** @type {HTMLElement} */ (el.closest(".member"));
      return { right: el.getBoundingClientRect().right, chipRight: chip.getBoundingClientRect().right, view: document.documentElement.clientWidth, cut: el.scrollWidth > el.clientWidth, overflow: getComputedStyle(el).textOverflow };
    }, trigger);
    assert.ok(box.chipRight <= box.view, `the member chip ends inside the view (${box.chipRight} ≤ ${box.view} px)`);
    assert.ok(box.right <= box.chipRight, "the button ends inside its chip");
    assert.equal(box.cut, true, "the text is longer than the room: it is cut…");
    assert.equal(box.overflow, "ellipsis", "…with an ellipsis");
    assert.match((await page.getAttribute(trigger, "aria-label")) ?? "", /Architect \(plan only\) · 150k \/ 200k · €1\.50/, "the label still says it all");
    await page.click(trigger);
    await page.waitForSelector(".session-popover[role='dialog']");
    await page.screenshot({ path: path.join(outDir, "webview-session-narrow.png"), clip: { x: 0, y: 0, width: 300, height: 300 } });
    assert.deepEqual(await problems(), []);
  });

  it("while its dialog is open the button keeps the chip's colours (readable in a light theme); a click elsewhere closes it", async () => {
    const { page, problems } = await openSessions(env.browser, env.server.origin, "light");
    const trigger = ".member[data-member='demo'] .session-trigger";
    await page.waitForSelector(trigger);
    await page.click(trigger);
    await page.waitForSelector(".session-popover[role='dialog']");
    const colours = await page.evaluate((sel) => {
      const el = /** @type {HTMLElement} */ (document.querySelector(sel));
      return { text: getComputedStyle(el).color, chip: getComputedStyle(/** @type {Element} */ (el.closest(".member"))).color };
    }, trigger);
    assert.equal(colours.text, colours.chip, "the open button's text is the chip's text colour");
    await page.screenshot({ path: path.join(outDir, "webview-session-open-light.png"), clip: { x: 0, y: 0, width: 360, height: 320 } });
    // A click on the history's text, which takes no focus.
    const box = await page.locator(".history").boundingBox();
    assert.ok(box);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 20);
    await page.waitForSelector(".session-popover", { state: "detached" });
    assert.equal(await page.getAttribute(trigger, "aria-expanded"), "false");
    assert.deepEqual(await problems(), []);
  });

  it("a change the agent refuses shows why and the control goes back to the session's value", async () => {
    const { page, host } = await openSessions(env.browser, env.server.origin, "light");
    const trigger = ".member[data-member='demo'] .session-trigger";
    await page.waitForSelector(trigger);
    await page.evaluate(() => {
      window.__host.handlers["session/configure"] = () => ({ error: { code: "agent/request", message: "Agent \"demo\" answered session/set_config_option with an error: effort is locked" } });
    });
    await page.focus(trigger);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".session-popover");
    await page.keyboard.press("Tab");
    assert.equal(await activeControl(page), "config-effort");
    await pickNext(page);
    const [sent] = await host.waitForRequests("session/configure");
    assert.deepEqual(sent.change, { kind: "config", configId: "effort", value: "high" });
    await page.waitForSelector(".session-error[role='alert']");
    assert.match(await page.innerText(".session-error"), /^Not changed: .*effort is locked/);
    assert.equal(await page.$eval("[data-control='config-effort']", (el) => /** @type {HTMLSelectElement} */ (el).value), "medium", "the select shows the session's value again");
    assert.equal(await activeControl(page), "config-effort", "the focus stays on the control");
    await frames(page, 3);
    await page.screenshot({ path: path.join(outDir, "webview-session-refused-light.png"), clip: { x: 0, y: 0, width: 360, height: 360 } });
  });
  it("a choice the agent refused to take back is marked on the button and said in the dialog, with the agent's reason", async () => {
    /** @type {import("../../src/shared/protocol").SessionStateView} */
    const state = { ...DEMO, modes: { ...DEMO.modes, currentModeId: "ask" }, chosen: { mode: "code" }, notRestored: [{ setting: "mode", value: "code", reason: "set_mode refused by the agent" }] };
    const open = { ...openResult({ members: [{ name: "demo", state: "ready" }] }), sessions: { demo: state } };
    const view = await openView(env.browser, env.server.origin, { open, width: 360 });
    const { page } = view;
    const trigger = ".member[data-member='demo'] .session-trigger";
    await page.waitForSelector(`${trigger}[data-not-restored='true']`);
    assert.match((await page.getAttribute(trigger, "title")) ?? "", /Your choice Mode: Code was not set again when the session opened: set_mode refused by the agent/);
    await page.click(trigger);
    await page.waitForSelector(".session-not-restored");
    assert.equal(await page.innerText(".session-not-restored"), "Your choice Mode: Code was not set again when the session opened: set_mode refused by the agent");
    await frames(page, 2);
    await page.screenshot({ path: path.join(outDir, "webview-session-not-restored.png") });
    assert.deepEqual(await view.problems(), []);
  });
  it("the header shows the channel's cost total (all members, earlier sessions included) and the dialog a member's", async () => {
    /** @type {import("../../src/shared/protocol").SessionStateView} */
    const demo = { ...DEMO, usage: { used: 1_000, size: 200_000, cost: { amount: 0.03, currency: "USD" } }, spent: [{ amount: 0.04, currency: "USD" }] };
    /** @type {import("../../src/shared/protocol").SessionStateView} */
    const odie = { channelId: "ch-general", agent: "odie", live: false, spent: [{ amount: 1.2, currency: "USD" }, { amount: 5, currency: "credits" }] };
    const open = { ...openResult({ members: [{ name: "demo", state: "ready" }, { name: "odie", state: "stopped" }] }), sessions: { demo, odie } };
    const { page, host, problems } = await openView(env.browser, env.server.origin, { open, width: 360 });
    await page.waitForSelector(".channel-total");
    assert.equal(await page.innerText(".channel-total"), "Total: $1.27 + 5 credits", "demo's $0.04 + $0.03 and odie's earlier $1.20, by currency");
    assert.equal(await page.getAttribute(".channel-total", "title"), "Cost of #general so far: $1.27 + 5 credits (all members, all sessions)");
    const trigger = ".member[data-member='demo'] .session-trigger";
    assert.match((await page.getAttribute(trigger, "title")) ?? "", /\$0\.07 in this channel, earlier sessions included/);
    await host.emit("session/state", { ...demo, usage: { used: 2_000, size: 200_000, cost: { amount: 0.13, currency: "USD" } } });
    await page.waitForFunction(() => document.querySelector(".channel-total")?.textContent === "Total: $1.37 + 5 credits");
    await page.evaluate(() => document.fonts.ready);
    await frames(page, 3);
    await page.screenshot({ path: path.join(outDir, "webview-channel-total.png"), clip: { x: 0, y: 0, width: 360, height: 120 } });
    await page.click(trigger);
    await page.waitForSelector(".session-total");
    assert.equal(await page.innerText(".session-total-detail"), "$0.17 in this channel, earlier sessions included");
    await page.evaluate(() => document.fonts.ready);
    await frames(page, 3);
    await page.screenshot({ path: path.join(outDir, "webview-session-totals.png"), clip: { x: 0, y: 0, width: 360, height: 340 } });
    assert.deepEqual(await problems(), []);
  });
});
