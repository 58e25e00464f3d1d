/**
 * Issue 21's search and export in a real editor: `Sidekicks: Search history…` typed into VS Code's own quick pick
 * finds a message older than the page the view holds and the view opens it in place (loading its page), and says
 * so when `in:#channel` names no channel; Ctrl+F pressed in the view opens it within the channel shown;
 * `Sidekicks: Export channel…` through the quick picks and the save dialog writes the channel as Markdown, opened in
 * an editor, with what was said in it. Replaces the roster and puts it back after; removes the exported file.
 */
import * as assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { fieldCaseChannel, type FieldCaseApi } from "./fieldCaseChannel";
import { screenshot, typeInWorkbench, workbenchVisible } from "./harness";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";
import { webview } from "./vsixBridge";

describe("history search and export in the real editor", () => {
  const kept = keptRoster<FieldCaseApi>();
  const ch = fieldCaseChannel(() => kept.api);
  const exported = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, "general-export.md");
  let target = "";

  before(async () => {
    await kept.write(["# The scripted fake agent: quotes each message.", "agents:", ...fakeAgentEntry("echo", { prompt: [{ echo: true }] }, kept.extensionPath)]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show echo as a member", async () => ((await ch.text(".channel-header"))?.includes("echo") ? true : undefined));
    await ch.ask("@echo the marmalade plan is ready");
    target = (await ch.attribute(".history > .message:nth-last-child(2)", "data-message-id"))!;
    // More than a page after it (the view opens a channel at its latest 50 messages).
    for (let i = 0; i < 28; i++) await ch.ask(`@echo filler ${i}`);
    await poll("the searched message to leave the view's page", async () => ((await ch.count(`.message[data-message-id='${target}']`)) === 0 ? true : undefined), 30_000);
  });

  after(() => rmSync(exported(), { force: true }));

  it("Search history… finds the message and the view opens it in place", async () => {
    const done = vscode.commands.executeCommand("sidekicks.searchHistory");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Search history')");
    await typeInWorkbench("marmalade");
    await workbenchVisible(".quick-input-widget .quick-input-list .monaco-list-row:has-text('marmalade')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await done;
    await poll("the found message in the view", async () => ((await ch.count(`.message[data-message-id='${target}']`)) === 1 ? true : undefined), 30_000);
    assert.match((await ch.text(`.message[data-message-id='${target}'] .message-body`)) ?? "", /the marmalade plan is ready/);
    // In the DOM is not enough: the user must see it, scrolled into the history's visible part.
    await poll("the found message scrolled into view", async () => ((await ch.inView(`.message[data-message-id='${target}']`)) ? true : undefined), 10_000);
    assert.equal(await ch.inView(".history > .message:last-of-type"), false, "the messages loaded after it are below, out of view");
    await screenshot("history-search-revealed", "sidebar");
  });

  it("Ctrl+F in the view opens the search within the channel shown, and the found message opens in place", async () => {
    // Sending follows the history to its end: the message found before is out of view again.
    for (let i = 0; i < 2; i++) await ch.ask(`@echo more filler ${i}`);
    await poll("the found message out of view", async () => ((await ch.inView(`.message[data-message-id='${target}']`)) ? undefined : true), 10_000);
    await vscode.commands.executeCommand("sidekicks.focus");
    await webview("vsix/press", { selector: "#composer textarea", key: "Control+f" });
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Search history')");
    assert.equal((await webview("workbench/value", {})).value, "in:#general ", "the search starts within #general, the cursor after it");
    await webview("workbench/type", { text: "marmalade" });
    assert.equal((await webview("workbench/value", {})).value, "in:#general marmalade", "the first key typed adds a word after the filter");
    await workbenchVisible(".quick-input-widget .quick-input-list .monaco-list-row:has-text('marmalade')");
    await screenshot("history-search-ctrl-f");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await poll("the found message scrolled into view", async () => ((await ch.inView(`.message[data-message-id='${target}']`)) ? true : undefined), 30_000);
  });

  it("Search history… with in:#nochannel says there is no such channel instead of showing nothing", async () => {
    const done = vscode.commands.executeCommand("sidekicks.searchHistory");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Search history')");
    await typeInWorkbench("marmalade in:#nochannel");
    await workbenchVisible(".quick-input-widget .quick-input-list .monaco-list-row:has-text('No channel named #nochannel')");
    await screenshot("history-search-no-channel");
    await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
    await done;
  });

  it("Export channel… writes #general as Markdown and opens it", async () => {
    const done = vscode.commands.executeCommand("sidekicks.exportChannel");
    await workbenchVisible(".quick-input-widget .quick-input-list .monaco-list-row:has-text('#general')");
    await typeInWorkbench("#general");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Export #general')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"); // all messages
    // The save dialog has the range pick's title: wait for its own value, the file name offered, before typing (typing
    // into the range pick while it closes left the save dialog open and the command waiting, once in CI).
    await poll("the save dialog offering general-<day>.md", async () => {
      const { value } = await webview("workbench/value", {});
      return /general-\d{4}-\d{2}-\d{2}\.md$/.test(String(value ?? "")) ? true : undefined;
    });
    await typeInWorkbench(exported());
    await done;
    const doc = await poll("the exported file in an editor", async () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.fsPath === exported() ? d : undefined;
    });
    const text = doc.getText();
    assert.match(text, /the marmalade plan is ready/);
    assert.match(text, /filler 27/);
    assert.ok(text.indexOf("marmalade") < text.indexOf("filler 27"), "oldest first");
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});
