/**
 * Signing in to an agent from the editor (issue 3, "Authentication"): an agent whose `session/new` answers
 * "authentication required" gets a clear error in the channel and a notification offering its sign-in methods; the
 * user clicks one (the harness clicks the notification button, as a person would), Sidekicks signs in through ACP
 * `authenticate`, confirms with a fresh session, and the next mention is answered. The agent is the scripted fake
 * agent (test/fixtures/fake-agent.mjs) with an agent-kind sign-in that succeeds by writing a file.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { existsSync, mkdtempSync } from "node:fs";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { poll } from "./poll";
import { screenshot } from "./harness";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

describe("signing in to an agent", () => {
  let api: SidekicksTestApi;
  let roster: vscode.Uri;
  let original: string;
  let authFile: string;
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    original = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    authFile = path.join(mkdtempSync(path.join(os.tmpdir(), "sidekicks-signin-")), "signed-in");
    const script = {
      authRequired: true,
      authFile,
      authMethods: [{ id: "login", name: "Log in with fake-agent" }],
      // Echoed without "@": the catch-up block it quotes names @example and @demo, which would otherwise be
      // delegated to (and the example agent would then wait on its permission request for the rest of the run).
      prompt: [{ echoWithoutMentions: true }],
    };
    const entry = fakeAgentEntry("locked", script, extension.extensionPath).join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(original.trimEnd() + "\n" + entry));
    await poll("the locked agent in #general", async () => ((await text(".channel-header"))?.includes("locked") ? true : undefined));
  });

  after(async () => {
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(original));
  });

  it("shows the refusal in the channel and signs in from the notification, then the agent answers", async () => {
    assert.equal((await api.webview("test/compose", { text: "@locked hi" })).sent, true);
    const error = await poll("the sign-in error", async () => (await text('.message[data-author="agent"][data-status="error"] .message-error')) ?? undefined);
    assert.match(error, /Agent "locked" needs you to sign in first \(Log in with fake-agent\)/);
    await screenshot("signin-required");
    console.log("SIDEKICKS_CLICK Log in with fake-agent");
    // The fake agent's ACP `authenticate` writes this file: the click reached the agent.
    await poll("ACP authenticate to reach the agent", () => (existsSync(authFile) ? true : undefined));
    assert.equal((await api.webview("test/compose", { text: "@locked are you there?" })).sent, true);
    const answer = await poll("locked's answer", async () => {
      const history = await text(".history");
      // The fake agent echoes its whole prompt: the channel's catch-up block, then the user's text.
      return history && /You said:[\s\S]*are you there\?/.test(history) ? history : undefined;
    }, 30_000);
    assert.match(answer, /You said:[\s\S]*are you there\?/);
  });
});
