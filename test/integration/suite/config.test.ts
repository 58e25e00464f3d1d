/**
 * A broken roster in a real editor: the Problems panel shows each problem at its line, the channel says the file has
 * problems while the last valid roster keeps working, and fixing the file clears both and the agent answers again.
 * Runs after the skeleton and Agents suites, whose roster holds the `demo` agent.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { screenshot, squiggleLines } from "./harness";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}


describe("a broken sidekicks.yaml", () => {
  let api: SidekicksTestApi;
  let roster: vscode.Uri;
  let valid: string;

  before(async () => {
    const exports = await vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!.activate();
    api = exports.testing!;
    roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    valid = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    await vscode.commands.executeCommand("sidekicks.focus");
  });

  it("shows each problem in the Problems panel at its line, and the channel says the file has problems", async () => {
    const broken = "version: 1\nagents:\n  - name: demo\n    comand: sidekicks:demo\n";
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(broken));
    const diagnostics = await poll("Problems entries for sidekicks.yaml", () => {
      const found = vscode.languages.getDiagnostics(roster);
      return found.length > 0 ? found : undefined;
    });
    const byLine = diagnostics.map((d) => [d.range.start.line + 1, d.message]).sort();
    assert.deepEqual(
      byLine.map(([line]) => line),
      [3, 4],
    );
    assert.match(String(byLine.find(([line]) => line === 4)?.[1]), /unknown key "comand" \(did you mean "command"\?\)/);
    assert.ok(diagnostics.every((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source === "sidekicks"));
    await poll("the channel's config banner", async () => {
      const { text } = await api.webview("test/text", { selector: ".config-banner" });
      return text && /sidekicks\.yaml has 2 problems/.test(text) ? text : undefined;
    });
    // The banner is compact (the first problem, then "1 more"): the user opens the rest.
    await api.webview("test/click", { selector: ".config-banner .banner-more" });
    await poll("every problem in the banner", async () => {
      const { text } = await api.webview("test/text", { selector: ".config-banner" });
      return text?.includes('unknown key "comand" (did you mean "command"?)') ? text : undefined;
    });
    await screenshot("config-problems");
  });

  it("keeps the last valid roster running meanwhile, and fixing the file clears the problems", async () => {
    const { sent } = await api.webview("test/compose", { text: "@demo still here?" });
    assert.equal(sent, true, "the last valid roster (with demo) is still in force");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(valid));
    await poll("the Problems entries to clear", () => (vscode.languages.getDiagnostics(roster).length === 0 ? true : undefined));
    await poll("the banner to go away", async () => ((await api.webview("test/text", { selector: ".config-banner" })).text === null ? true : undefined));
    await poll("demo's answer", async () => {
      const { text } = await api.webview("test/text", { selector: ".history" });
      return text && /You said:\s+still here\?/.test(text) ? true : undefined;
    }, 30_000);
  });

  it("draws each squiggle on the line its Problems entry names when the file changes on disk while open in an editor", async () => {
    const editor = await vscode.window.showTextDocument(roster, { preview: false });
    /** Writes `text` to the roster on disk; resolves once the editor holds it and the squiggles sit on `expected`. */
    const rewrite = async (text: string, expected: number[]) => {
      await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(text));
      await poll("the editor to reload the file", () => (editor.document.getText() === text && !editor.document.isDirty ? true : undefined));
      const lines = await poll("Problems entries for the changed file", () => {
        const found = [...new Set(vscode.languages.getDiagnostics(roster).map((d) => d.range.start.line + 1))].sort((a, b) => a - b);
        return JSON.stringify(found) === JSON.stringify(expected) ? found : undefined;
      });
      await poll(`the squiggles on lines ${JSON.stringify(lines)}`, async () => {
        const drawn = [...new Set(await squiggleLines())];
        if (JSON.stringify(drawn) === JSON.stringify(lines)) return true;
        throw new Error(`drawn on lines ${JSON.stringify(drawn)}`);
      });
    };
    const broken = "version: 1\nagents:\n  - name: demo\n    comand: sidekicks:demo\n";
    await rewrite(broken, [3, 4]);
    // The same problems two lines lower: the editor's reload inserts the lines above squiggles set for the new text,
    // which must not push them further down (a tryout saw a squiggle lines away from its Problems entry).
    await rewrite(`# Our agents\n# (the demo one)\n${broken}`, [5, 6]);
    await screenshot("config-squiggles");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(valid));
    await poll("the Problems entries to clear", () => (vscode.languages.getDiagnostics(roster).length === 0 ? true : undefined));
    await poll("the squiggles to go", async () => ((await squiggleLines()).length === 0 ? true : undefined));
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});
