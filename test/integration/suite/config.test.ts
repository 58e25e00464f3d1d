/**
 * A broken roster in a real editor: the Problems panel shows each problem at its line, the channel says the file has
 * problems while the last valid roster keeps working, and fixing the file clears both and the agent answers again.
 * Runs after the skeleton and Agents suites, whose roster holds the `demo` agent.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { screenshot } from "./harness";

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
});
