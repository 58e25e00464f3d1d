/**
 * Field cases 18, 19 and 21 in a real editor: the scripted fake agent answers with an image, an embedded Python file,
 * a tool call whose output is carriage-return progress (only its last frame shows), and two resource links (the workspace's roster, and a file that is not there). The image shows in the real webview
 * (its `data:` URL passes the real CSP), the file reads as written and is highlighted, the first link opens the file
 * in a real text editor, and the second says why it cannot, above the composer (issue 18, "a click that cannot do what
 * it says, says why"). Screenshot `content-blocks`. Replaces the roster and puts it back after.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { keptRoster } from "./keptRoster";
import { screenshot } from "./harness";
import { poll } from "./poll";
import { gradientPng } from "../../fixtures/png.mjs";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

describe("images, embedded files, progress output and resource links in the real webview (field cases 18, 19, 21)", () => {
  const kept = keptRoster<SidekicksTestApi>();
  const text = async (selector: string) => (await kept.api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await kept.api.webview("test/attribute", { selector, name })).text;
  const answer = ".history > .message:nth-last-child(1)";

  before(async () => {
    const chunk = (content: object) => ({ update: { sessionUpdate: "agent_message_chunk", content } });
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const script = {
      prompt: [
        chunk({ type: "text", text: "The chart:" }),
        chunk({ type: "image", mimeType: "image/png", data: gradientPng(360, 90) }),
        chunk({ type: "resource", resource: { uri: vscode.Uri.joinPath(folder, "a.py").toString(), mimeType: "text/x-python", text: "def f():\n    return 1\n" } }),
        chunk({ type: "resource_link", uri: kept.uri.toString(), name: "sidekicks.yaml" }),
        chunk({ type: "resource_link", uri: vscode.Uri.joinPath(folder, "notes [draft].md").toString(), name: "notes [draft].md" }),
        // Field case 21: carriage-return progress in a tool's output.
        { toolCall: { toolCallId: "dl", title: "Download the model", kind: "fetch", status: "completed", content: [{ type: "content", content: { type: "text", text: "Downloading   0%\rDownloading  25%\rDownloading  50%\rDownloading 100%\n" } }] } },
      ],
    };
    await kept.write(["# The scripted fake agent: answers with an image, a file and two links.", "agents:", ...fakeAgentEntry("shows", script, kept.extensionPath)]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show shows as a member", async () => ((await text(".channel-header"))?.includes("shows") ? true : undefined));
  });

  it("shows the image and the file as written, highlighted; never [image] or base64", async () => {
    assert.equal((await kept.api.webview("test/compose", { text: "@shows show me" })).sent, true);
    await poll("the answer's file block to be highlighted", async () => ((await attribute(`${answer} .content-file .code-block`, "data-highlight")) === "done" ? true : undefined), 30_000);
    assert.match((await attribute(`${answer} .content-image img`, "src")) ?? "", /^data:image\/png;base64,iVBORw0KGgo/);
    assert.match((await attribute(`${answer} .content-image img`, "alt")) ?? "", /^Image \(image\/png, \d+ (B|KB)\)$/);
    assert.equal((await text(`${answer} .content-file pre code`))?.trimEnd(), "def f():\n    return 1");
    const body = (await text(`${answer} .message-body`)) ?? "";
    assert.equal(body.includes("[image]"), false);
    assert.equal(body.includes("iVBORw0KGgo"), false, "no base64 as text");
    assert.equal((await text(`${answer} .tool-call[data-tool-call-id='dl'] .tool-content`))?.trim(), "Downloading 100%", "a progress bar shows its last frame (field case 21)");
    await screenshot("content-blocks", "sidebar");
  });

  it("a link opens its file in the editor; a link to a file that is not there says why", async () => {
    assert.equal((await kept.api.webview("test/click", { selector: `${answer} .content-link[data-uri$='sidekicks.yaml'] .content-name` })).clicked, true);
    await poll("sidekicks.yaml to open in an editor", async () => (vscode.window.activeTextEditor?.document.uri.fsPath === kept.uri.fsPath ? true : undefined), 15_000);
    await vscode.commands.executeCommand("sidekicks.focus");
    const missing = `${answer} .content-link[data-uri$='%5Bdraft%5D.md'] .content-name`;
    assert.equal((await kept.api.webview("test/click", { selector: missing })).clicked, true);
    const note = await poll("the reason the link cannot open", async () => (await text(".action-note-text")) ?? undefined, 15_000);
    assert.match(note, /notes \[draft\]\.md does not exist \(any more\)\./);
  });
});
