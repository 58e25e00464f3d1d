/**
 * The walking skeleton in a real editor: the Sidekicks view opens #general, a user message mentioning the ACP SDK's
 * example agent (a real subprocess, declared in the workspace's sidekicks.yaml by test/integration/workspace.mjs)
 * streams an answer, a permission request is answered from the webview, and the conversation survives a store
 * reopen. The DOM is read and driven through the extension's test API (`exports.testing`, HostRequests `test/*`).
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { screenshot } from "./harness";

/** What the extension's `activate()` returns outside production mode. */
interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  reopenStore(): Promise<void>;
}

const EXTENSION_ID = "sidekicks.sidekicks";
const AGENT = '.message[data-author="agent"]';
const AGENT_DONE = '.message[data-author="agent"][data-status="done"]';
const USER = '.message[data-author="user"]';



describe("walking skeleton: a channel with the ACP SDK example agent", () => {
  let api: SidekicksTestApi;

  /** `innerText` of the first element matching `selector` once it contains `expected`. */
  const textContaining = (selector: string, expected: string, timeoutMs?: number) => {
    let seen: string | null = null;
    return poll(
      `${selector} to contain ${JSON.stringify(expected)}`,
      async () => {
        seen = (await api.webview("test/text", { selector })).text;
        return seen !== null && seen.includes(expected) ? seen : undefined;
      },
      timeoutMs,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; text was ${JSON.stringify(seen)}`);
    });
  };

  /** The webview's count of rendered `channel/open` snapshots (`.app[data-snapshot]`). */
  const snapshotCount = async (): Promise<number> => {
    const { text } = await api.webview("test/attribute", { selector: ".app", name: "data-snapshot" });
    return Number(text ?? 0);
  };

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    const exports = await extension.activate();
    assert.ok(exports?.testing, "the extension exports no test API (exports.testing) outside production mode");
    api = exports.testing;
  });

  it("opens #general in the Sidekicks view", async () => {
    await vscode.commands.executeCommand("sidekicks.focus");
    await textContaining(".channel-header", "#general");
  });

  it("streams the example agent's answer to @example", async () => {
    const { sent } = await api.webview("test/compose", { text: "@example hello" });
    assert.equal(sent, true, "the composer did not send");
    await textContaining(`${USER} .message-body`, "@example hello");
    await textContaining(`${AGENT} .message-body`, "I'll help you with that");
  });

  it("answers the agent's permission request from the webview", async () => {
    await poll("the allow option to be clicked", async () => {
      const { clicked } = await api.webview("test/click", {
        selector: 'button.permission-option[data-option-id="allow"]',
      });
      return clicked ? true : undefined;
    });
    const answer = await textContaining(AGENT_DONE, "Perfect!", 30_000);
    assert.match(answer, /I'll help you with that/);
    await screenshot("skeleton-answer");
  });

  it("shows the conversation again from the store after a reopen", async () => {
    // `data-snapshot` counts the `channel/open` answers the webview rendered: wait for one more than before the
    // reopen, so the checks below read what came from the reopened store, not the DOM left from before.
    const before = await snapshotCount();
    await api.reopenStore();
    await poll("a new channel/open snapshot rendered", async () => ((await snapshotCount()) > before ? true : undefined), 15_000);
    await textContaining(`${AGENT_DONE} .message-body`, "Perfect!");
    await textContaining(`${USER} .message-body`, "@example hello");
    await screenshot("skeleton-reopened");
  });

  it("Create config writes a roster with the demo agent, which joins #general live and answers @demo", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, "the test workspace has a folder");
    const roster = vscode.Uri.joinPath(folder, "sidekicks.yaml");
    await vscode.workspace.fs.delete(roster);
    await textContaining(".config-banner", "No sidekicks.yaml yet");
    await vscode.commands.executeCommand("sidekicks.createConfig");
    const written = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    assert.match(written, /command: sidekicks:demo/);
    assert.match(written, /# - name: claude/, "real agents are shown as commented examples");
    await textContaining(".channel-header", "demo");
    const { sent } = await api.webview("test/compose", { text: "@demo hello" });
    assert.equal(sent, true);
    const history = await textContaining(".history", "/idioms Il pleut", 30_000);
    assert.match(history, /Hello from the demo agent\. You said:\s+hello/);
    await poll("the demo's answer to be committed", async () => {
      const { text } = await api.webview("test/text", { selector: '.message[data-status="streaming"]' });
      return text === null ? true : undefined;
    });
    await screenshot("demo-answer");
  });
});
