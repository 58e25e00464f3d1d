/**
 * The channel switcher in a real editor: "+" offers a direct conversation with a roster agent, which the real host
 * creates in the real store (`direct/<agent>`) and the view opens; the tabs then switch back to #general. The palette
 * command `Sidekicks: Open direct conversation…` opens one too, and the view follows.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

describe("channel switcher: a direct conversation", () => {
  let api: SidekicksTestApi;
  const text = (selector: string, expected: string) =>
    poll(`${selector} to contain ${JSON.stringify(expected)}`, async () => {
      const seen = (await api.webview("test/text", { selector })).text;
      return seen !== null && seen.includes(expected) ? seen : undefined;
    });
  const click = (selector: string) =>
    poll(`${selector} to be clicked`, async () => ((await api.webview("test/click", { selector })).clicked ? true : undefined));

  before(async () => {
    const exports = await vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")?.activate();
    assert.ok(exports?.testing, "the extension exports no test API");
    api = exports.testing;
    await vscode.commands.executeCommand("sidekicks.focus");
  });

  it("opens a direct conversation from + and switches back to #general from its tab", async () => {
    await text(".channel-tab[data-channel='general']", "#general");
    await click(".channel-add");
    const agent = await poll("an agent offered for a direct conversation", async () => (await api.webview("test/attribute", { selector: ".channel-direct", name: "data-agent" })).text ?? undefined);
    await click(`.channel-direct[data-agent='${agent}']`);
    await text(".channel-header .channel-name", `@${agent}`);
    await text(`.channel-tab[data-channel='@${agent}'][aria-current='page']`, `@${agent}`);
    await click(".channel-tab[data-channel='general']");
    await text(".channel-header .channel-name", "#general");
  });

  it("Sidekicks: Open direct conversation… picks an agent and the view follows", async () => {
    let finished = false;
    void Promise.resolve(vscode.commands.executeCommand("sidekicks.openDirect")).then(() => (finished = true));
    // Accept the quick pick's first agent the way a user presses Enter, once it is shown.
    await poll("the agent quick pick to be accepted", async () => {
      if (finished) return true;
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return undefined;
    });
    await text(".channel-tab[data-kind='direct'][aria-current='page']", "@");
    await text(".channel-header .channel-name", "@");
    await click(".channel-tab[data-channel='general']");
    await text(".channel-header .channel-name", "#general");
  });
});
