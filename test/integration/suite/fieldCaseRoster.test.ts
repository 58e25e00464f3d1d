/**
 * Field case 14 in a real editor: `Sidekicks: Edit agent…` driven through VS Code's own quick pick and input box, as
 * a user would (the keys typed in the workbench page), on a roster with comments, an anchor, a merge key and an agent
 * commented out. Saved, exactly one line differs, and the roster still validates with the merged `env`. Replaces the
 * roster and puts it back after.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { typeInWorkbench, workbenchVisible } from "./harness";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";

const ROSTER = [
  "# Agent definitions",
  "defaults: &defaults",
  "  env:",
  "    LOG: info   # inline note",
  "agents:",
  "  - name: claude",
  "    <<: *defaults",
  "    command: npx",
  '    args: ["@zed-industries/claude-code-acp"]',
  "",
  "# - name: gemini          # disabled",
  "#   command: gemini",
  "",
];

describe("field case 14 in the real editor: Edit agent… keeps the roster as written", () => {
  const kept = keptRoster<object>();

  it("changes only the command's line; comments, &defaults, *defaults and <<: survive; no problem reported", async () => {
    await kept.write(ROSTER);
    await poll("the roster to be read", () => (vscode.languages.getDiagnostics(kept.uri).length === 0 ? true : undefined));
    const done = vscode.commands.executeCommand("sidekicks.editAgent");
    await workbenchVisible(".quick-input-widget .quick-input-list .monaco-list-row:has-text('@claude')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('Edit @claude')");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"); // "command", the first field
    await workbenchVisible(".quick-input-widget .quick-input-title:has-text('@claude: command')");
    await typeInWorkbench("claude-code-acp");
    await done;
    const saved = new TextDecoder().decode(await vscode.workspace.fs.readFile(kept.uri)).split("\n");
    const differs = ROSTER.map((line, i) => [line, saved[i]]).filter(([before, after]) => before !== after);
    assert.deepEqual(differs, [["    command: npx", "    command: claude-code-acp"]], `exactly one line differs:\n${saved.join("\n")}`);
    assert.equal(saved.length, ROSTER.length);
    // Read again from the saved file (the watcher): still valid, so the merged env was seen (no "env" problem).
    await poll("the saved roster read without problems", () => (vscode.languages.getDiagnostics(kept.uri).length === 0 ? true : undefined));
  });
});
