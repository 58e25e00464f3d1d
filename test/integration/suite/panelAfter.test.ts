/**
 * Panel suite, phase 2 (issue 6), in the extension host that started after phase 1 reloaded the window: VS Code hands
 * the editor tabs back to Sidekicks' serializer (`onWebviewPanel:sidekicks.channelPanel`), and each shows its channel
 * again: #tabs with the conversation with the demo agent, #general without it. Then a permission request in #general
 * while #tabs is in front: `Go to next permission request` brings the #general tab forward and focuses the card there.
 * Last, the side view on #tabs, #tabs renamed #tabs2: `Open channel in editor` brings forward the #tabs2 tab (it used to
 * open a new tab for the #tabs that no longer exists, which showed #general). Screenshot `panel-restored`.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { poll } from "./poll";
import { screenshot } from "./harness";
import { LAST, type PanelTestApi } from "./panelApi";
import { readPanelMarker, type PanelMarker } from "./panelIndex";

describe("a channel in an editor tab (phase 2, after the reload)", () => {
  let api: PanelTestApi;
  let marker: PanelMarker;
  const inTab = async (channel: string, selector: string) => (await api.panel(channel, "test/text", { selector })).text;
  const attribute = async (channel: string, selector: string, name: string) => (await api.panel(channel, "test/attribute", { selector, name })).text;

  before(async () => {
    marker = readPanelMarker()!;
    const extension = vscode.extensions.getExtension<{ testing?: PanelTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
  });

  it("restores the active tab on #tabs with its history: the request and the demo agent's answer", async () => {
    const restored = await poll("the #tabs tab to be restored", () => api.panels().find((t) => t.channel === "tabs"), 60_000);
    assert.equal(restored.title, "#tabs");
    await poll("the restored tab to show #tabs", async () => ((await inTab("tabs", ".channel-header .channel-name")) === "#tabs" ? true : undefined), 30_000);
    await poll("the history to be shown", async () => ((await attribute("tabs", LAST, "data-status")) === "done" ? true : undefined), 30_000);
    assert.equal(await attribute("tabs", LAST, "data-author"), "agent");
    assert.match((await inTab("tabs", `${LAST} .message-body`)) ?? "", /You said:[\s\S]*hello from an editor tab/);
    assert.match((await inTab("tabs", ".history > .message:nth-last-child(2) .message-body")) ?? "", new RegExp(marker.request.slice(0, 20)));
    // Taken before the next test brings another tab forward.
    await screenshot("panel-restored");
  });

  it("restores the other tab on #general once it is shown", async () => {
    // VS Code revives a tab's webview when the tab is shown: bring the other one to the front.
    await vscode.commands.executeCommand("workbench.action.previousEditor");
    const general = await poll("the #general tab to be restored", () => api.panels().find((t) => t.channel === "general"), 30_000);
    assert.equal(general.title, "#general");
    await poll("the #general tab to show #general", async () => ((await inTab("general", ".channel-header .channel-name")) === "#general" ? true : undefined), 30_000);
    // Its history has arrived (the channel's snapshot applied) before checking what it does not hold.
    await poll("the #general tab's history to open", async () => ((await attribute("general", ".app", "data-phase")) === "open" ? true : undefined), 30_000);
    assert.doesNotMatch((await inTab("general", ".history")) ?? "", /hello from an editor tab/);
    assert.deepEqual(api.panels().map((t) => t.title).sort(), ["#general", "#tabs"]);
  });

  it("Go to next permission request brings forward the tab whose channel the request waits in and focuses its card", async () => {
    assert.equal((await api.panel("general", "test/compose", { text: "@demo ask permission" })).sent, true, "the #general tab's composer did not send");
    const option = ".permission .permission-option:not([disabled])";
    await poll("the permission card in the #general tab", async () => ((await inTab("general", option)) ? true : undefined), 60_000);
    await vscode.commands.executeCommand("workbench.action.nextEditor"); // #tabs in front: the #general tab is hidden
    await poll("the #tabs tab to be in front", () => (api.panels().find((t) => t.active)?.channel === "tabs" ? true : undefined), 10_000);
    await vscode.commands.executeCommand("sidekicks.nextPermission");
    await poll("the #general tab to be in front again", () => (api.panels().find((t) => t.active)?.channel === "general" ? true : undefined), 10_000);
    await poll("the card's first option to have the focus in the #general tab", async () => ((await attribute("general", `${option}:focus`, "class")) !== null ? true : undefined), 30_000);
    assert.equal((await api.panel("general", "test/click", { selector: option })).clicked, true, "answered, so nothing is left waiting");
  });

  it("Open channel in editor, after the side view's channel was renamed, opens it under its new name", async () => {
    await vscode.commands.executeCommand("sidekicks.focus");
    const inView = async (selector: string) => (await api.webview("test/text", { selector })).text;
    await poll("the side view to switch to #tabs", async () => ((await api.webview("test/click", { selector: ".channel-tab[data-channel='tabs']" })).clicked ? true : undefined), 30_000);
    await poll("the side view to show #tabs", async () => ((await inView(".channel-header .channel-name")) === "#tabs" ? true : undefined), 30_000);
    await api.renameChannel("tabs", "tabs2");
    await poll("the side view to show #tabs2", async () => ((await inView(".channel-header .channel-name")) === "#tabs2" ? true : undefined), 30_000);
    await vscode.commands.executeCommand("sidekicks.openChannelInEditor");
    await poll("the #tabs2 tab to be in front", () => (api.panels().find((t) => t.active)?.channel === "tabs2" ? true : undefined), 30_000);
    assert.deepEqual(api.panels().map((t) => t.title).sort(), ["#general", "#tabs2"], "the existing tab, renamed; no new tab");
  });
});
