/**
 * Field cases 18 and 19 in a real editor: the scripted fake agent answers with an image, an embedded Python file and
 * two resource links (the workspace's roster, and a file that is not there). The image shows in the real webview
 * (its `data:` URL passes the real CSP), the file reads as written and is highlighted, the first link opens the file
 * in a real text editor, and the second says why it cannot, above the composer (issue 18, "a click that cannot do what
 * it says, says why"). Screenshot `content-blocks`. Replaces the roster and puts it back after.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import zlib from "node:zlib";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { screenshot } from "./harness";
import { poll } from "./poll";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

/** A `width`×`height` RGB PNG of a gradient, as base64 (no image file in the repository). */
function gradientPng(width: number, height: number): string {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set([(x * 255) / width, (y * 255) / height, 160], 1 + x * 3);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]).toString("base64");
}

describe("images, embedded files and resource links in the real webview (field cases 18, 19)", () => {
  let api: SidekicksTestApi;
  let roster: vscode.Uri;
  let original: string | undefined;
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await api.webview("test/attribute", { selector, name })).text;
  const answer = ".history > .message:nth-last-child(1)";

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    original = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
    const chunk = (content: object) => ({ update: { sessionUpdate: "agent_message_chunk", content } });
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const script = {
      prompt: [
        chunk({ type: "text", text: "The chart:" }),
        chunk({ type: "image", mimeType: "image/png", data: gradientPng(360, 90) }),
        chunk({ type: "resource", resource: { uri: vscode.Uri.joinPath(folder, "a.py").toString(), mimeType: "text/x-python", text: "def f():\n    return 1\n" } }),
        chunk({ type: "resource_link", uri: roster.toString(), name: "sidekicks.yaml" }),
        chunk({ type: "resource_link", uri: vscode.Uri.joinPath(folder, "notes [draft].md").toString(), name: "notes [draft].md" }),
      ],
    };
    const lines = ["# The scripted fake agent: answers with an image, a file and two links.", "agents:", ...fakeAgentEntry("shows", script, extension.extensionPath)];
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(lines.join("\n")));
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show shows as a member", async () => ((await text(".channel-header"))?.includes("shows") ? true : undefined));
  });

  after(async () => {
    if (original !== undefined) await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(original));
  });

  it("shows the image and the file as written, highlighted; never [image] or base64", async () => {
    assert.equal((await api.webview("test/compose", { text: "@shows show me" })).sent, true);
    await poll("the answer's file block to be highlighted", async () => ((await attribute(`${answer} .content-file .code-block`, "data-highlight")) === "done" ? true : undefined), 30_000);
    assert.match((await attribute(`${answer} .content-image img`, "src")) ?? "", /^data:image\/png;base64,iVBORw0KGgo/);
    assert.match((await attribute(`${answer} .content-image img`, "alt")) ?? "", /^Image \(image\/png, \d+ (B|KB)\)$/);
    assert.equal((await text(`${answer} .content-file pre code`))?.trimEnd(), "def f():\n    return 1");
    const body = (await text(`${answer} .message-body`)) ?? "";
    assert.equal(body.includes("[image]"), false);
    assert.equal(body.includes("iVBORw0KGgo"), false, "no base64 as text");
    await screenshot("content-blocks", "sidebar");
  });

  it("a link opens its file in the editor; a link to a file that is not there says why", async () => {
    assert.equal((await api.webview("test/click", { selector: `${answer} .content-link[data-uri$='sidekicks.yaml'] .content-name` })).clicked, true);
    await poll("sidekicks.yaml to open in an editor", async () => (vscode.window.activeTextEditor?.document.uri.fsPath === roster.fsPath ? true : undefined), 15_000);
    await vscode.commands.executeCommand("sidekicks.focus");
    const missing = `${answer} .content-link[data-uri$='%5Bdraft%5D.md'] .content-name`;
    assert.equal((await api.webview("test/click", { selector: missing })).clicked, true);
    const note = await poll("the reason the link cannot open", async () => (await text(".action-note-text")) ?? undefined, 15_000);
    assert.match(note, /notes \[draft\]\.md does not exist \(any more\)\./);
  });
});
