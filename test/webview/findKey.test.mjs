// @ts-check
// Ctrl+F inside the view opens `Sidekicks: Search history…` within the channel shown (issue 21): the host is asked to
// run the search with the channel's id, the key types nothing in the composer, and it never reaches the frame's own
// window listener, through which VS Code would hand it to the workbench (the open editor's find widget).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { message, openResult, openView, withBrowser } from "./harness.mjs";

describe("Ctrl+F in the view", () => {
  const env = withBrowser();

  it("asks the host to search within the channel shown, from the composer and from the history, and goes no further", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ name: "design", messages: [message({ id: "m1", text: "the fix is in" })] }) });
    const { page, host } = view;
    await page.waitForSelector(".message[data-message-id='m1']");
    // What VS Code's webview frame does with a key: a bubbling window listener that forwards it to the workbench.
    await page.evaluate(() => {
      /** @type {string[]} */
      const forwarded = [];
      Object.assign(window, { forwarded });
      window.addEventListener("keydown", (e) => forwarded.push(`${e.ctrlKey ? "Ctrl+" : ""}${e.shiftKey ? "Shift+" : ""}${e.key}`));
    });

    await page.click("#composer textarea");
    await page.keyboard.type("draft");
    await page.keyboard.press("Control+f");
    assert.deepEqual(await host.waitForRequests("command/run"), [{ command: "searchHistory", channelId: "ch-design" }]);
    assert.equal(await page.inputValue("#composer textarea"), "draft", "the key typed nothing in the composer");

    await page.focus(".history");
    await page.keyboard.press("Control+F");
    assert.equal((await host.waitForRequests("command/run", 2)).length, 2, "from the history too");
    // A plain f is a letter, and Ctrl+Shift+F stays the workbench's (Search in files): both go on as before.
    await page.click("#composer textarea");
    await page.keyboard.press("f");
    await page.keyboard.press("Control+Shift+F");
    assert.equal(await page.inputValue("#composer textarea"), "draftf");
    assert.equal((await host.requests("command/run")).length, 2, "only the two Ctrl+F asked for the search");
    const forwarded = await page.evaluate(() => /** @type {{ forwarded: string[] }} */ (/** @type {unknown} */ (window)).forwarded);
    assert.ok(!forwarded.some((k) => /^Ctrl\+f$/i.test(k)), `Ctrl+F never reached the frame's listener: ${forwarded.join(", ")}`);
    assert.ok(forwarded.includes("Ctrl+Shift+F"), `Ctrl+Shift+F did (its key is F): ${forwarded.join(", ")}`);
    assert.deepEqual(await view.problems(), []);
  });
});
