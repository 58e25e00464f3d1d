/**
 * Workspace Trust in a real editor (brief: "an untrusted workspace's config never starts a process"): with trust on
 * and the folder untrusted, Sidekicks activates in restricted mode, says why its agents do not start and how to
 * trust, and a mention fails with that reason instead of starting the agent.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { screenshot } from "./harness";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  agents(): { label: string; description: string }[];
}


describe("an untrusted workspace", () => {
  let api: SidekicksTestApi;
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, "the harness must leave this folder untrusted");
    const exports = await vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!.activate();
    assert.ok(exports.testing);
    api = exports.testing;
    await vscode.commands.executeCommand("sidekicks.focus");
  });

  it("says the agents do not start, and why", async () => {
    const banner = await poll("the untrusted banner", async () => {
      const found = await text(".config-banner.state-untrusted");
      return found ?? undefined;
    });
    assert.match(banner, /Workspace not trusted/);
    assert.match(banner, /trust the workspace to run agents/);
  });

  it("answers a mention with the reason and how to trust, and starts no process", async () => {
    const { sent } = await api.webview("test/compose", { text: "@example hello" });
    assert.equal(sent, true);
    const error = await poll("the refusal", async () => (await text('.message[data-author="agent"] .message-error')) ?? undefined);
    assert.match(error, /not trusted/);
    assert.match(error, /Manage Workspace Trust/);
    assert.deepEqual(
      api.agents().map((a) => [a.label, a.description]),
      [["example", "stopped"]],
      "the example agent never started",
    );
    await screenshot("untrusted-workspace");
  });
});
