/**
 * The `.vsix` suite, phase 2 (issue 8), in the extension host that started after phase 1 reloaded the window: the
 * installed Sidekicks activates again, opens its store in its global storage (the installed classic-level binary) and
 * #general shows phase 1's request and the demo agent's answer, read back from it (the webview keeps no messages of
 * its own across a reload: only the channel name and drafts).
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import path from "node:path";
import { poll } from "./poll";
import { mappedFrom, readVsixMarker, runInfo, webview } from "./vsixBridge";

describe("the installed .vsix (phase 2, after the reload)", () => {
  it("reads the channel back from its store: the request and the demo agent's answer", async () => {
    const marker = readVsixMarker()!;
    const info = runInfo();
    const extension = vscode.extensions.getExtension("sidekicks.sidekicks")!;
    assert.ok(extension.extensionPath.startsWith(info.extensionsDir + path.sep), "still the installed package");
    await poll("Sidekicks to activate again", () => (extension.isActive ? true : undefined), 30_000);
    await vscode.commands.executeCommand("sidekicks.focus");
    const history = await poll(
      "#general to show the request sent before the reload",
      async () => {
        const shown = (await webview("test/text", { selector: ".history" })).text;
        return shown?.includes(`hello from the installed package ${marker.token}`) ? shown : undefined;
      },
      30_000,
    );
    assert.match(history, /Hello from the demo agent/, "and the demo agent's answer");
    assert.ok(history.includes(`hello from the installed package ${marker.token}`));
    assert.deepEqual(mappedFrom("classic-level.node"), [path.join(extension.extensionPath, "node_modules", "classic-level", "prebuilds", "linux-x64", "classic-level.node")]);
    assert.ok((await webview("vsix/screenshot", { name: "vsix-after-reload" })).taken);
  });
});
