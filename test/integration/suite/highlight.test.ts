/**
 * Code highlighting in a real editor (issue 6): the webview loads its highlighter lazily from `dist/chunks/` with
 * `import()`, which must pass the real webview's resource loading (`localResourceRoots`, the resource service worker)
 * and its CSP (nonce'd module script). The scripted fake agent answers with a TypeScript block; the block ends up
 * highlighted (`data-highlight="done"`, a keyword token), not `failed`. Then its Insert button puts the code at the
 * cursor of a real text editor. Replaces the roster and puts it back after.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

describe("code highlighting in the real webview", () => {
  const kept = keptRoster<SidekicksTestApi>();
  const text = async (selector: string) => (await kept.api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await kept.api.webview("test/attribute", { selector, name })).text;

  before(async () => {
    const script = { prompt: [{ chunk: "Here:\n\n```ts\nconst answer: number = 42;\n```\n\nDone." }] };
    await kept.write(["# The scripted fake agent: answers with a TypeScript code block.", "agents:", ...fakeAgentEntry("coder", script, kept.extensionPath)]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show coder as a member", async () => ((await text(".channel-header"))?.includes("coder") ? true : undefined));
  });

  it("highlights a finished TypeScript block, its grammar fetched from dist/chunks/", async () => {
    assert.equal((await kept.api.webview("test/compose", { text: "@coder show me the answer in TypeScript" })).sent, true);
    const block = ".history > .message:nth-last-child(1) .code-block";
    const state = await poll(
      "the answer's code block to be highlighted (or to fail)",
      async () => {
        const value = await attribute(block, "data-highlight");
        return value === "done" || value === "failed" ? value : undefined;
      },
      30_000,
    );
    assert.equal(state, "done", "the highlighter chunk loaded in the real webview");
    assert.equal(await text(`${block} .hljs-keyword`), "const");
    assert.equal((await text(`${block} pre code`))?.trimEnd(), "const answer: number = 42;", "the code reads as written");
  });

  it("Insert puts the block's code at the cursor of the text editor, on its own lines", async () => {
    const document = await vscode.workspace.openTextDocument({ content: "# Notes\nkeep this line\n", language: "markdown" });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    await vscode.commands.executeCommand("sidekicks.focus");
    const insert = ".history > .message:nth-last-child(1) .code-block button[data-code-action='insert']";
    assert.equal((await kept.api.webview("test/click", { selector: insert })).clicked, true);
    await poll("the code to be inserted", async () => (document.getText().includes("const answer") ? true : undefined), 15_000);
    assert.equal(document.getText(), "# Notes\nconst answer: number = 42;\nkeep this line\n", "the code, then the line that was at the cursor");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
});
