// @ts-check
// The composer's autocomplete: @members and /commands (and /agent:cmd) with descriptions and input hints, by
// keyboard and mouse, within a 300 px sidebar.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { frames, openResult, openView, withBrowser } from "./harness.mjs";

/** @type {import("../../src/shared/protocol").MemberView[]} */
const members = [
  { name: "garfield", state: "ready" },
  { name: "odie", state: "stopped" },
];
const commands = {
  garfield: [
    { name: "idioms", description: "Explain a French idiom", hint: "a French phrase, e.g. Il pleut" },
    { name: "lasagna", description: "Order lasagna" },
  ],
};

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results");

const open = () => ({ ...openResult({ members }), commands });
/** @param {import("./harness.mjs").Page} page */
const labels = (page) => page.$$eval("#composer-suggestions .suggestion-label", (els) => els.map((e) => e.textContent));
/** @param {import("./harness.mjs").Page} page */
const value = (page) => page.$eval("#composer textarea", (t) => /** @type {HTMLTextAreaElement} */ (t).value);

describe("composer autocomplete", () => {
  const env = withBrowser();

  it("completes @members by keyboard, then the addressed agent's /commands with their hints, and sends the result", async () => {
    const view = await openView(env.browser, env.server.origin, { open: open(), width: 300 });
    const { page, host } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("@");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["@garfield", "@odie"]);
    assert.match(await page.innerText("#composer-suggestions"), /stopped/);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Tab");
    assert.equal(await value(page), "@garfield ");
    await page.waitForSelector("#composer-suggestions", { state: "detached" });

    await page.keyboard.type("/");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["/idioms", "/lasagna"]);
    assert.match(await page.innerText("#composer-suggestions .suggestion.active"), /a French phrase, e\.g\. Il pleut/);
    assert.match(await page.innerText("#composer-suggestions .suggestion.active"), /Explain a French idiom/);
    await page.keyboard.press("Enter"); // accepts, does not send
    assert.equal(await value(page), "@garfield /idioms ");
    assert.match(await page.innerText(".composer-hint"), /\/idioms a French phrase/);
    assert.deepEqual(await host.requests("channel/send"), []);

    await page.keyboard.type("Il pleut");
    await page.keyboard.press("Enter");
    const sent = await host.waitForRequests("channel/send");
    assert.equal(sent[0].text, "@garfield /idioms Il pleut");
    assert.deepEqual(await view.problems(), []);
  });

  it("offers /agent:cmd when no one is addressed, narrows as you type, closes on Esc, and accepts a click", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, { open: open(), width: 300 });
    await page.click("#composer textarea");
    await page.keyboard.type("/");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["/garfield:idioms", "/garfield:lasagna"]);
    await page.keyboard.type("garfield:la");
    await page.waitForFunction(() => document.querySelectorAll("#composer-suggestions .suggestion").length === 1);
    assert.deepEqual(await labels(page), ["/garfield:lasagna"]);
    await page.keyboard.press("Escape");
    await page.waitForSelector("#composer-suggestions", { state: "detached" });
    assert.equal(await value(page), "/garfield:la", "Esc keeps the text");

    await page.fill("#composer textarea", "");
    await page.keyboard.type("ask @o");
    await page.waitForSelector("#composer-suggestions");
    // the list stays inside the 300 px view
    const box = await page.$eval("#composer-suggestions", (el) => el.getBoundingClientRect().toJSON());
    assert.ok(box.left >= 0 && box.right <= 300, JSON.stringify(box));
    await page.click("#composer-suggestions .suggestion");
    assert.equal(await value(page), "ask @odie ");

    // a commands/changed event reaches the list without reopening
    await host.emit("commands/changed", { agent: "odie", commands: [{ name: "fetch", description: "Fetch the ball" }] });
    await page.fill("#composer textarea", "");
    await page.keyboard.type("@odie /");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["/fetch"]);
  });

  it("does not offer again an agent the draft already mentions, wherever it is mentioned", async () => {
    /** @type {import("../../src/shared/protocol").MemberView[]} */
    const trio = [...members, { name: "garfunkel", state: "ready" }];
    const { page } = await openView(env.browser, env.server.origin, { open: { ...openResult({ members: trio }), commands }, width: 300 });
    await page.click("#composer textarea");
    await page.keyboard.type("@garfield and @");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["@odie", "@garfunkel"], "@garfield is mentioned already");
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, "webview-autocomplete-mentioned.png") });
    await page.keyboard.type("gar");
    await page.waitForSelector("#composer-suggestions .suggestion:only-child");
    assert.deepEqual(await labels(page), ["@garfunkel"]);
    await page.keyboard.press("Enter");
    assert.equal(await value(page), "@garfield and @garfunkel ");

    // a mention after the caret counts too, and so does one in another case; one inside code does not
    await page.fill("#composer textarea", " please, @ODIE");
    await page.keyboard.press("Home");
    await page.keyboard.type("@");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["@garfield", "@garfunkel"]);
    await page.fill("#composer textarea", "`@garfield` ");
    await page.keyboard.press("End");
    await page.keyboard.type("@");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["@garfield", "@odie", "@garfunkel"], "code is not a mention");

    // every member mentioned: nothing left to offer, the list stays closed
    await page.fill("#composer textarea", "@garfield @odie @garfunkel @");
    await frames(page, 2);
    assert.equal(await page.$("#composer-suggestions"), null);
  });

  it("offers nothing inside a code span", async () => {
    const { page } = await openView(env.browser, env.server.origin, { open: open() });
    await page.click("#composer textarea");
    await page.keyboard.type("see `@");
    await frames(page, 2);
    assert.equal(await page.$("#composer-suggestions"), null);
  });
  it("field case 22: odd command names are text; one typing cannot call is greyed with why and never inserted", async () => {
    /** @type {Record<string, import("../../src/shared/protocol").AgentCommand[]>} */
    const odd = {
      odie: [
        { name: "help", description: "Help" },
        { name: "has space", description: "Spaced", notCallable: "whitespace" },
        { name: "<img src=x onerror=window.__pwned=1>", description: "Markup", notCallable: "whitespace" },
      ],
    };
    const view = await openView(env.browser, env.server.origin, { open: { ...openResult({ members }), commands: odd }, width: 300 });
    const { page } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("@odie /");
    await page.waitForSelector("#composer-suggestions");
    assert.deepEqual(await labels(page), ["/help", "/has space", "/<img src=x onerror=window.__pwned=1>"]);
    assert.equal(await page.$$eval("#composer-suggestions img", (els) => els.length), 0, "the markup is text");
    const greyed = await page.$$eval("#composer-suggestions .suggestion", (els) => els.map((e) => [e.getAttribute("aria-disabled"), e.getAttribute("title")]));
    assert.deepEqual(greyed.map(([d]) => d), [null, "true", "true"]);
    assert.match(greyed[1]?.[1] ?? "", /Cannot be called from Sidekicks: its name holds a space/);
    assert.match(await page.innerText("#composer-suggestions .suggestion:nth-child(2)"), /holds a space.*Spaced/s);
    await page.screenshot({ path: path.join(outDir, "webview-autocomplete-not-callable.png") });
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.click("#composer-suggestions .suggestion:nth-child(3)", { force: true }); // a user can still press it
    assert.equal(await value(page), "@odie /", "neither Enter nor a click inserts a name typing cannot call");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    assert.equal(await value(page), "@odie /help ");
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).__pwned), undefined);
    assert.deepEqual(await view.problems(), []);
  });
});
