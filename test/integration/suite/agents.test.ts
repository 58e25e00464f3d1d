/**
 * The Agents view in a real editor, after the walking skeleton: it lists the roster's agents with their live state,
 * follows a roster edit without touching the agent that did not change, and starts an agent from its command.
 * Items are read through the extension's test API (`exports.testing.agents()`: the tree provider's own items).
 *
 * The skeleton's last test replaced the roster with the one `Sidekicks: Create config` writes (the `demo` agent), so
 * the agent it used last is `demo`; this suite then adds the ACP SDK's `example` agent back next to it.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import path from "node:path";
import { poll } from "./poll";
import { screenshot } from "./harness";

interface AgentItem {
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
}

interface SidekicksTestApi {
  agents(): AgentItem[];
}

const EXTENSION_ID = "sidekicks.sidekicks";


const pidOf = (item: AgentItem | undefined) => /pid (\d+)/.exec(item?.tooltip ?? "")?.[1];

describe("Agents view", () => {
  let api: SidekicksTestApi;
  let extensionPath: string;
  const item = (name: string) => api.agents().find((i) => i.label === name);
  const waitFor = (name: string, state: string) =>
    poll(`${name} to be ${state} (items: ${JSON.stringify(api.agents().map((i) => [i.label, i.contextValue]))})`, () => {
      const found = item(name);
      return found?.contextValue === `agent-${state}` ? found : undefined;
    });

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    extensionPath = extension.extensionPath;
  });

  it("shows the agent the skeleton used last as ready, with its workspace and pid in the tooltip", async () => {
    await vscode.commands.executeCommand("sidekicks.agents.focus");
    const demo = await waitFor("demo", "ready");
    assert.equal(demo.description, "ready");
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
    assert.ok(demo.tooltip.includes(path.basename(folder)), `tooltip names the workspace: ${demo.tooltip}`);
    assert.ok(pidOf(demo), "tooltip shows the process id");
  });

  it("a roster edit adds the example agent as stopped and leaves demo's process alone; Start agent makes it ready", async () => {
    const pidBefore = pidOf(item("demo"));
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const script = path.join(extensionPath, "node_modules", "acp-sdk-example", "dist", "examples", "agent.js");
    const roster = vscode.Uri.joinPath(folder, "sidekicks.yaml");
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    const demoEntry = "    command: sidekicks:demo\n";
    assert.ok(text.includes(demoEntry), "the roster declares the demo agent");
    const example = ["", "  - name: example", `    command: ${JSON.stringify(process.execPath)}`, `    args: [${JSON.stringify(script)}]`, ""].join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(text.replace(demoEntry, demoEntry + example)));

    const added = await waitFor("example", "stopped");
    assert.equal(added.description, "stopped");
    assert.deepEqual(api.agents().map((i) => i.label), ["demo", "example"], "roster order");
    assert.equal(pidOf(item("demo")), pidBefore, "demo, unchanged, kept its process");

    await vscode.commands.executeCommand("sidekicks.startAgent", "example");
    await waitFor("example", "ready");
    await screenshot("agents-view");
  });
});
