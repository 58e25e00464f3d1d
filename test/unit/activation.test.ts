import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";

interface Manifest {
  activationEvents: string[];
  contributes: {
    views: Record<string, { id: string }[]>;
    commands: { command: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as Manifest;

test("Sidekicks activates only on its view, a command, a sidekicks.yaml in the workspace or a restored channel tab (issue 8)", () => {
  // Views and commands activate implicitly (VS Code ≥ 1.74 derives onView:/onCommand: from `contributes`).
  assert.deepEqual([...manifest.activationEvents].sort(), [
    "onWebviewPanel:sidekicks.channelPanel",
    "workspaceContains:.vscode/sidekicks.yaml",
    "workspaceContains:sidekicks.yaml",
  ]);
  assert.ok(!manifest.activationEvents.some((e) => e === "*" || e === "onStartupFinished"), "never at every start-up");
});

test("Open channel in editor is a command and a button in the channel view's title (issue 6)", () => {
  assert.ok(manifest.contributes.commands.some((c) => c.command === "sidekicks.openChannelInEditor"));
  assert.ok(manifest.contributes.views.sidekicks!.some((v) => v.id === "sidekicks.channel"));
  const button = manifest.contributes.menus["view/title"]?.find((m) => m.command === "sidekicks.openChannelInEditor");
  assert.equal(button?.when, "view == sidekicks.channel");
});
