/**
 * Issue 19's message actions in a real editor: Open in editor puts the answer's Markdown in an untitled Markdown tab;
 * Edit and resend sends the edited text as a new message linked to the original (both shown); Regenerate asks the
 * agent again and both answers stay. Driven through the real webview's DOM (`test/*` requests), as a user clicks.
 * Replaces the roster and puts it back after.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { fieldCaseChannel, type FieldCaseApi } from "./fieldCaseChannel";
import { screenshot } from "./harness";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";

describe("message actions in the real editor", () => {
  const kept = keptRoster<FieldCaseApi>();
  const ch = fieldCaseChannel(() => kept.api);
  const action = (id: string, name: string) => `.message[data-message-id='${id}'] .message-action[data-action='${name}']`;
  let request = "";
  let answer = "";

  before(async () => {
    // embeddedContext: the channel's earlier messages (other suites ran in #general) go as a resource, not echoed.
    await kept.write(["# The scripted fake agent: quotes each message.", "agents:", ...fakeAgentEntry("echo", { embeddedContext: true, prompt: [{ echo: true }] }, kept.extensionPath)]);
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show echo as a member", async () => ((await ch.text(".channel-header"))?.includes("echo") ? true : undefined));
    const asked = await ch.ask("@echo the quince plan");
    answer = asked.id;
    request = (await ch.attribute(".history > .message:nth-last-child(2)", "data-message-id"))!;
  });

  it("Open in editor shows the answer's Markdown in an untitled Markdown tab", async () => {
    assert.equal(await ch.click(action(answer, "open")), true);
    const doc = await poll("the answer in an editor tab", async () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.isUntitled && d.getText().includes("quince plan") ? d : undefined;
    });
    assert.equal(doc.languageId, "markdown");
    assert.match(doc.getText(), /^## @echo · \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\nYou said: the quince plan/);
    await screenshot("message-open-in-editor");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("Edit and resend: a new message linked to the original, both in the channel, and a new answer", async () => {
    assert.equal(await ch.click(action(request, "edit")), true);
    await poll("the edit banner", async () => ((await ch.count(".composer-editing")) === 1 ? true : undefined));
    const { id } = await ch.ask("@echo the quince plan, with pears");
    const resent = (await ch.attribute(".history > .message:nth-last-child(2)", "data-message-id"))!;
    assert.notEqual(resent, request);
    assert.match((await ch.text(`.message[data-message-id='${resent}'] .message-origin`)) ?? "", /^edited from/);
    assert.equal(await ch.text(`.message[data-message-id='${request}'] .message-body`), "@echo the quince plan", "the original is kept as it was");
    assert.match((await ch.text(`.message[data-message-id='${id}'] .message-body`)) ?? "", /with pears/);
    assert.equal(await ch.count(".composer-editing"), 0, "edit mode ends once sent");
    await screenshot("message-edited", "sidebar");
  });

  it("Regenerate asks the agent again; both answers stay", async () => {
    const before = await ch.lastId();
    assert.equal(await ch.click(action(answer, "regenerate")), true);
    const again = await poll("the regenerated answer", async () => {
      const last = await ch.lastId();
      return last && last !== before && (await ch.attribute(`.message[data-message-id='${last}']`, "data-author")) === "agent" ? last : undefined;
    });
    await ch.settled(`.message[data-message-id='${again}']`);
    assert.match((await ch.text(`.message[data-message-id='${again}'] .message-origin`)) ?? "", /^regenerated from/);
    assert.match((await ch.text(`.message[data-message-id='${again}'] .message-body`)) ?? "", /You said: the quince plan/);
    assert.match((await ch.text(`.message[data-message-id='${answer}'] .message-body`)) ?? "", /You said: the quince plan/, "the first answer stays");
    await screenshot("message-regenerated", "sidebar");
  });
});
