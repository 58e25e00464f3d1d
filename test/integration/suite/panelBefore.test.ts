/**
 * Panel suite, phase 1 (issue 6): `Sidekicks: Open channel in editor` opens #general and then #tabs in editor tabs
 * titled with the channel; the demo agent answers in the #tabs tab; then the window reloads for real. Phase 2
 * (panelAfter.test.ts) checks that both tabs come back. Screenshot `panel-before-reload`.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { poll } from "./poll";
import { screenshot } from "./harness";
import { LAST, type PanelTestApi } from "./panelApi";
import { writePanelMarker } from "./panelIndex";

const REQUEST = "hello from an editor tab, please answer here";

describe("a channel in an editor tab (phase 1, before the reload)", () => {
  let api: PanelTestApi;
  const inTab = async (channel: string, selector: string) => (await api.panel(channel, "test/text", { selector })).text;
  const attribute = async (channel: string, selector: string, name: string) => (await api.panel(channel, "test/attribute", { selector, name })).text;

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: PanelTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    const roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    const text = ["agents:", "  - name: demo", "    command: sidekicks:demo", "channels:", "  - name: tabs", "    members: [demo]", ""].join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(text));
    await vscode.commands.executeCommand("sidekicks.focus");
    // The roster's declared channel exists once the side view's switcher lists it.
    await poll("#tabs to be created from the roster", async () => ((await api.webview("test/text", { selector: ".channel-tab[data-channel='tabs']" })).text ?? undefined), 30_000);
  });

  it("opens #general and #tabs in editor tabs titled with the channel, each showing its channel", async () => {
    // A tab's webview runs while the tab is shown (no retainContextWhenHidden): check each while it is in front.
    await vscode.commands.executeCommand("sidekicks.openChannelInEditor", "general");
    await poll("the #general tab to show #general", async () => ((await inTab("general", ".channel-header .channel-name")) === "#general" ? true : undefined), 30_000);
    await vscode.commands.executeCommand("sidekicks.openChannelInEditor", "tabs");
    await poll("the #tabs tab to show #tabs", async () => ((await inTab("tabs", ".channel-header .channel-name")) === "#tabs" ? true : undefined), 30_000);
    const tabs = api.panels();
    assert.deepEqual(tabs.map((t) => t.title).sort(), ["#general", "#tabs"]);
    assert.equal(tabs.find((t) => t.active)?.channel, "tabs", "the tab opened last is the active one");
    // Opening a channel that already has a tab shows that tab instead of a second one.
    await vscode.commands.executeCommand("sidekicks.openChannelInEditor", "tabs");
    assert.equal(api.panels().length, 2);
  });

  it("the demo agent answers in the #tabs tab, then the window reloads", async () => {
    assert.equal((await api.panel("tabs", "test/compose", { text: `@demo ${REQUEST}` })).sent, true, "the tab's composer did not send");
    await poll(
      "the demo agent's answer in the #tabs tab",
      async () => ((await attribute("tabs", LAST, "data-author")) === "agent" && (await attribute("tabs", LAST, "data-status")) === "done" ? true : undefined),
      60_000,
    );
    assert.match((await inTab("tabs", `${LAST} .message-body`)) ?? "", /You said:[\s\S]*hello from an editor tab/);
    await screenshot("panel-before-reload");
    writePanelMarker({ passedBefore: 2, request: REQUEST });
    console.log("panel suite: reloading the window");
    await vscode.commands.executeCommand("workbench.action.reloadWindow");
    // A guard, not a synchronisation: this extension host ends with the reload; if it ever elapses, the test fails.
    await new Promise((resolve) => setTimeout(resolve, 120_000));
    assert.fail("the window did not reload");
  }).timeout(180_000);
});
