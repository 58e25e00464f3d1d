/**
 * `@file` in a real editor (issue 21): part of a workspace file's name typed after `@` in the real webview's composer
 * is offered by the real host (`vscode.workspace.findFiles`), accepting it makes a chip, and the scripted fake agent
 * (a real subprocess) receives the file as a `resource_link` block (its `blocks` step answers with the prompt's
 * content blocks). Screenshot `file-mention`. An image pasted into the composer reaches an agent that takes images
 * (`promptCapabilities.image`) as an `image` block, and is left out with a note on the answer of one that does not
 * (screenshots `image-paste`, `image-refused`). Replaces the roster and puts it back after.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { keptRoster } from "./keptRoster";
import { screenshot } from "./harness";
import { poll } from "./poll";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

describe("@file completion in the real editor (issue 21)", () => {
  const kept = keptRoster<SidekicksTestApi>();
  const text = async (selector: string) => (await kept.api.webview("test/text", { selector })).text;

  before(async () => {
    await kept.write(["# The scripted fake agent: answers with the prompt's content blocks.", "agents:", ...fakeAgentEntry("blocks", { prompt: [{ blocks: true }] }, kept.extensionPath)]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show blocks as a member", async () => ((await text(".channel-header"))?.includes("blocks") ? true : undefined));
  });

  it("offers sidekicks.yaml for @sidekicks.y, attaches it on Enter, and the agent receives a resource_link to it", async () => {
    const typed = "@blocks what is in @sidekicks.y";
    assert.equal((await kept.api.webview("test/type", { text: typed })).typed, true);
    const label = "#composer-suggestions .suggestion.active .suggestion-label";
    await poll("the file to be offered", async () => ((await text(label)) === "sidekicks.yaml" ? true : undefined), 15_000);
    await screenshot("file-mention", "sidebar");
    assert.equal((await kept.api.webview("test/compose", { text: typed })).sent, false, "Enter accepts the file, does not send");
    await poll("the file chip", async () => ((await text("#composer .chip[data-kind='file'] .chip-label")) === "sidekicks.yaml" ? true : undefined), 5_000);
    assert.equal((await kept.api.webview("test/compose", { text: "@blocks what is in it?" })).sent, true);
    const answer = ".history > .message:nth-last-child(1) .message-body";
    // The answer is the prompt's blocks as JSON, shown as rendered markdown: a backslash before a quote in the channel
    // context the earlier tests left is dropped by markdown, so the JSON is not parsed; the link's own fields are read.
    const uri = await poll("the agent's answer to carry a resource_link", async () => {
      const body = (await text(answer)) ?? "";
      const link = /"type":"resource_link"[^{}]*?"uri":"([^"]+)"|"uri":"([^"]+)"[^{}]*?"type":"resource_link"/.exec(body);
      if (!link) throw new Error(`the answer reads: ${body.slice(-300).replace(/\s+/g, " ")}`);
      return link[1] ?? link[2];
    }, 30_000);
    assert.equal(uri, kept.uri.toString(), "a link to the workspace's sidekicks.yaml");
  });
});

describe("a terminal's selected output in the real editor (issue 21)", () => {
  const kept = keptRoster<SidekicksTestApi>();
  const text = async (selector: string) => (await kept.api.webview("test/text", { selector })).text;

  before(async () => {
    await kept.write(["# The scripted fake agent: answers with the prompt's content blocks.", "agents:", ...fakeAgentEntry("blocks", { prompt: [{ blocks: true }] }, kept.extensionPath)]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show blocks as a member", async () => ((await text(".channel-header"))?.includes("blocks") ? true : undefined));
  });

  it("Send terminal selection to agent… puts the selected output in a chip the agent receives as text", async () => {
    const written = new vscode.EventEmitter<string>();
    const terminal = vscode.window.createTerminal({ name: "build", pty: { onDidWrite: written.event, open: () => written.fire("$ npm test\r\nError: boom at a.ts:3\r\n"), close: () => undefined } });
    try {
      terminal.show();
      await poll("the terminal to be active", async () => (vscode.window.activeTerminal === terminal ? true : undefined), 15_000);
      const clipboard = "what the user had copied";
      await vscode.env.clipboard.writeText(clipboard);
      await vscode.commands.executeCommand("workbench.action.terminal.selectAll");
      let picked = false;
      const picking = vscode.commands.executeCommand("sidekicks.sendTerminalSelection").then(() => (picked = true));
      // The agent picker (a quick pick) has no event to wait on: Enter in it until the command has run.
      await poll("the agent picker to take Enter", async () => (await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"), picked ? true : undefined), 15_000);
      await picking;
      const chip = await poll("the terminal chip", async () => (await text("#composer .chip[data-kind='terminal'] .chip-label")) ?? undefined, 5_000);
      assert.equal(chip, "build");
      assert.equal(await vscode.env.clipboard.readText(), clipboard, "the clipboard holds what it held");
      await screenshot("terminal-selection", "sidebar");
      assert.equal((await kept.api.webview("test/compose", { text: "@blocks why?" })).sent, true);
      const answer = ".history > .message:nth-last-child(1) .message-body";
      const body = await poll("the agent's answer", async () => ((await text(answer))?.includes("Terminal output from build") ? (await text(answer))! : undefined), 30_000);
      assert.match(body, /Error: boom at a\.ts:3/);
    } finally {
      terminal.dispose();
      written.dispose();
    }
  });
});

/** A 1×1 PNG, as a screenshot tool would put on the clipboard. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAIAAAUAAeIhvDMAAAAASUVORK5CYII=";

describe("an image pasted into the composer in the real editor (issue 21)", () => {
  const kept = keptRoster<SidekicksTestApi>();
  const text = async (selector: string) => (await kept.api.webview("test/text", { selector })).text;
  const answer = ".history > .message:nth-last-child(1)";
  /** Pastes the PNG (a paste event holding it: code-server lets no page put an image on the real clipboard). */
  const paste = async () => {
    assert.equal((await kept.api.webview("test/paste", { name: "image.png", mimeType: "image/png", base64: PNG })).pasted, true);
    await poll("the image chip", async () => ((await text("#composer .chip[data-kind='image'] .chip-label")) === "image.png" ? true : undefined), 5_000);
  };

  before(async () => {
    await kept.write([
      "# Two scripted fake agents answering with the prompt's content blocks: one takes images, one does not.",
      "agents:",
      ...fakeAgentEntry("seeing", { image: true, prompt: [{ blocks: true }] }, kept.extensionPath),
      ...fakeAgentEntry("blind", { prompt: [{ blocks: true }] }, kept.extensionPath),
    ]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show both agents", async () => ((await text(".channel-header"))?.match(/seeing[\s\S]*blind|blind[\s\S]*seeing/) ? true : undefined));
  });

  it("reaches an agent that takes images as an image block", async () => {
    await paste();
    await screenshot("image-paste", "sidebar");
    assert.equal((await kept.api.webview("test/compose", { text: "@seeing what is in this picture?" })).sent, true);
    const body = await poll("the agent's answer to list its blocks", async () => {
      const t = (await text(`${answer} .message-body`)) ?? "";
      return /"type":"image"/.test(t) ? t : undefined;
    }, 30_000);
    // The blocks as JSON (keys sorted): the request, then the image, last.
    assert.ok(body.trim().endsWith(`{"data":"${PNG}","mimeType":"image/png","type":"image"}]`), "the pasted bytes reach the agent as they were, as an image block");
    assert.equal(await text(`${answer} .agent-notice-text`), null, "no note: nothing was left out");
  });

  it("is left out with a note for an agent that does not take images", async () => {
    await paste();
    assert.equal((await kept.api.webview("test/compose", { text: "@blind and you?" })).sent, true);
    const note = await poll("the note on the answer", async () => (await text(`${answer} .agent-notice-text`)) ?? undefined, 30_000);
    assert.match(note, /Not sent to "blind": image\.png\. This agent does not take images/);
    const body = await poll("the agent's answer", async () => {
      const t = (await text(`${answer} .message-body`)) ?? "";
      return /"type":"text"\}\]$/.test(t.trim()) ? t.trim() : undefined;
    }, 30_000);
    // Its prompt ends with the request's text block (the channel context before it quotes the earlier answer's image block).
    assert.ok(body.endsWith('\\n\\nand you?","type":"text"}]'), "no image block after the request in its prompt");
    await screenshot("image-refused", "sidebar");
  });
});
