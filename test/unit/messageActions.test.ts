// Message actions, Edit and resend, Regenerate (issue 19): through the real bridge (WebviewBridge, its guard) to the
// composed app over LevelDB in a temp folder, with the scripted fake agent as a real subprocess. What the user
// notices: a resent message is a new turn beside the original, which stays as it was; a regenerated answer is asked
// of the agent again and both answers remain, linked; the Markdown of a message is the export's, and opens in a tab.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createSidekicks } from "../../src/app/compose";
import type { EditorPort, SidekicksApp } from "../../src/app/SidekicksApp";
import type { ErrorInfo, HostToWebview, MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";
import { connectView as connectBase } from "./viewBridge";

/**
 * `echo` quotes the prompt and recalls the session's earlier prompts; `slow` waits for Stop the first time only;
 * `writer` adds a line to `notes` on disk.
 */
function roster(notes: string): string {
  const agent = (name: string, prompt: object[]) =>
    `  - name: ${name}\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FAKE_AGENT)}]\n    env:\n      FAKE_AGENT_SCRIPT: ${JSON.stringify(JSON.stringify({ prompt }))}\n`;
  return `version: 1\nagents:\n${agent("echo", [{ echo: true }, { chunk: "\n" }, { recall: true }])}${agent("slow", [{ chunk: "thinking" }, { untilCancelled: true, once: true }, { chunk: " done" }])}${agent("writer", [{ appendFile: { path: notes, text: "by writer\n" } }, { chunk: "Done" }])}`;
}

function connectView(app: SidekicksApp) {
  const { posted, ask, close } = connectBase(app);
  /** The message `id` as committed (`message/finished`), once it is. */
  const finished = (id: string) =>
    waitFor(() => posted.find((m): m is Extract<HostToWebview, { kind: "event"; name: "message/finished" }> => m.kind === "event" && m.name === "message/finished" && m.payload.id === id)?.payload, 10_000, `message ${id} to finish`);
  /** The id of the answer that started for a request (the first `message/started` of `agent` not in `known`). */
  const started = (agent: string, known: readonly string[]) =>
    waitFor(() => posted.find((m) => m.kind === "event" && m.name === "message/started" && m.payload.author.agentName === agent && !known.includes(m.payload.id)), 10_000, `an answer of @${agent}`).then((m) => (m as Extract<HostToWebview, { kind: "event"; name: "message/started" }>).payload.id);
  /** The message `id` as the channel shows it once committed (its streamed text included: `message/finished` leaves it out). */
  const shown = async (channelId: string, id: string): Promise<MessageView> => {
    await finished(id);
    const { messages } = (await ask("channel/open", { id: channelId })).result as { messages: MessageView[] };
    return messages.find((m) => m.id === id)!;
  };
  return { posted, ask, finished, started, shown, close };
}

async function setup() {
  const { dir, cleanup } = tempDir();
  const workspace = path.join(dir, "ws");
  mkdirSync(workspace, { recursive: true });
  const configPath = path.join(workspace, "sidekicks.yaml");
  const notes = path.join(workspace, "notes.md");
  writeFileSync(notes, "# notes\n");
  writeFileSync(configPath, roster(notes));
  const opened: string[] = [];
  const editor: EditorPort = {
    isTrusted: () => true,
    runCommand: async () => undefined,
    log: () => undefined,
    showProblems: () => undefined,
    workspaceRoots: () => [workspace],
    openMarkdown: async (markdown) => (opened.push(markdown), true),
  };
  const storageDir = path.join(dir, "store");
  const app = await createSidekicks({ configPath, storageDir, editor, launch: { workspaceFolder: workspace, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  return { app, opened, storageDir, notes, teardown: async () => (await app.dispose(), cleanup()) };
}

const textOf = (m: MessageView) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
const refused = (answer: { error?: ErrorInfo }, code: string, why?: RegExp) => {
  assert.equal(answer.error?.code, code, `refused with ${code}: ${JSON.stringify(answer)}`);
  if (why) assert.match(answer.error?.message ?? "", why);
};

test("Edit and resend: a new turn linked to the original, which stays in the history as it was, also after a reload", async () => {
  const s = await setup();
  const view = connectView(s.app);
  const other = connectView(s.app);
  try {
    const { channel } = (await view.ask("channel/open", {})).result as { channel: { id: string } };
    const first = ((await view.ask("channel/send", { channelId: channel.id, text: "@echo add a test" })).result as { messageId: string }).messageId;
    const firstAnswer = await view.finished(await view.started("echo", []));
    const resent = (await view.ask("channel/send", { channelId: channel.id, text: "@echo add two tests", editOf: first })).result as { messageId: string };
    const resentMessage = await view.finished(resent.messageId);
    assert.equal(resentMessage.editOf, first, "the new message says which one it was edited from");
    const answer = await view.shown(channel.id, await view.started("echo", [firstAnswer.id]));
    assert.match(textOf(answer), /You said: .*add two tests/, "the edited text went to the agent as a new turn");

    // An agent's answer is not the user's to edit; a message the view does not show is refused too.
    refused(await view.ask("channel/send", { channelId: channel.id, text: "@echo x", editOf: firstAnswer.id }), "webview/refused", /Only your own messages/);
    await other.ask("channel/create", { name: "elsewhere" });
    const elsewhere = (await other.ask("channel/open", { name: "elsewhere" })).result as { channel: { id: string } };
    refused(await other.ask("channel/send", { channelId: elsewhere.channel.id, text: "@echo x", editOf: first }), "webview/refused", /not in the channel this view shows/);
    refused(await view.ask("channel/send", { channelId: channel.id, text: "@echo x", editOf: "not-an-id" }), "webview/invalidRequest");

    // Durable: a fresh store over the same folder holds both user messages, the original unchanged, and the link.
    view.close();
    other.close();
    await s.app.dispose();
    const store = await Store.open(s.storageDir);
    try {
      const messages = await store.latestMessages(channel.id, 50);
      const users = messages.filter((m) => m.author.kind === "user").map((m) => [m.id, m.parts.map((p) => (p.type === "text" ? p.text : "")).join(""), m.editOf]);
      assert.deepEqual(users, [[first, "@echo add a test", undefined], [resent.messageId, "@echo add two tests", first]]);
      assert.equal(messages.filter((m) => m.author.kind === "agent").length, 2, "both answers are kept");
    } finally {
      await store.close();
    }
  } finally {
    view.close();
    other.close();
    await s.teardown();
  }
});

test("Edit and resend can undo the files the earlier answer changed first: the new turn starts from the files as they were", async () => {
  const s = await setup();
  const view = connectView(s.app);
  try {
    const { channel } = (await view.ask("channel/open", {})).result as { channel: { id: string } };
    const first = ((await view.ask("channel/send", { channelId: channel.id, text: "@writer add a line" })).result as { messageId: string }).messageId;
    const answer = await view.finished(await view.started("writer", []));
    assert.equal(readFileSync(s.notes, "utf8"), "# notes\nby writer\n");
    assert.deepEqual((await view.ask("message/answerFiles", { messageId: first })).result, { answers: 1, undoable: 1 }, "the composer is told there is a file to undo");
    refused(await view.ask("message/answerFiles", { messageId: answer.id }), "webview/refused", /Only your own messages/);

    const resent = (await view.ask("channel/send", { channelId: channel.id, text: "@writer add one line", editOf: first, undoAnswers: true })).result as { messageId: string; undone?: object };
    assert.deepEqual(resent.undone, { done: 1, skipped: 0, conflicts: 0 });
    await view.finished(await view.started("writer", [answer.id]));
    assert.equal(readFileSync(s.notes, "utf8"), "# notes\nby writer\n", "one line: the first answer's was undone before the new turn ran");
    const shown = await view.shown(channel.id, answer.id);
    const files = shown.parts.find((p) => p.type === "files");
    assert.deepEqual(files?.type === "files" ? files.files.map((f) => f.state) : [], ["undone"], "the first answer's card says undone");
  } finally {
    view.close();
    await s.teardown();
  }
});

test("Regenerate asks the same agent the same request again; both answers remain, the new one linked; refused while it runs", async () => {
  const s = await setup();
  const view = connectView(s.app);
  try {
    const { channel } = (await view.ask("channel/open", {})).result as { channel: { id: string } };
    const request = ((await view.ask("channel/send", { channelId: channel.id, text: "@echo name a colour" })).result as { messageId: string }).messageId;
    const first = await view.shown(channel.id, await view.started("echo", []));
    assert.match(textOf(first), /I remember nothing/);
    const again = (await view.ask("turn/regenerate", { messageId: first.id })).result as { messageId: string };
    const second = await view.shown(channel.id, again.messageId);
    assert.equal(second.regenerates, first.id, "the new answer says which one it regenerates");
    assert.match(textOf(second), /You said: .*name a colour/, "the same request went to the agent");
    assert.match(textOf(second), /I remember: .*name a colour/, "the agent was asked again, in the same session");
    const { messages } = (await view.ask("channel/open", { id: channel.id })).result as { messages: MessageView[] };
    assert.deepEqual(messages.map((m) => [m.id, m.author.kind]), [[request, "user"], [first.id, "agent"], [second.id, "agent"]], "one request, both answers, nothing rewritten");
    assert.equal(textOf(messages[1]!), textOf(first), "the first answer is kept as it was");

    refused(await view.ask("turn/regenerate", { messageId: request }), "webview/refused", /Only an agent's answer/);

    // While the agent's turn for that request runs, Regenerate is refused; once it is stopped, it runs again.
    await view.ask("channel/send", { channelId: channel.id, text: "@slow think" });
    const slow = await view.started("slow", []);
    await waitFor(() => view.posted.some((m) => m.kind === "event" && m.name === "message/delta" && m.payload.messageId === slow) || undefined, 10_000, "the slow answer to stream");
    refused(await view.ask("turn/regenerate", { messageId: slow }), "channel/busy", /still answering this request/);
    await view.ask("turn/cancel", { messageId: slow });
    await view.finished(slow);
    const redo = (await view.ask("turn/regenerate", { messageId: slow })).result as { messageId: string };
    assert.match(textOf(await view.shown(channel.id, redo.messageId)), /thinking done/);
  } finally {
    view.close();
    await s.teardown();
  }
});

test("Copy as Markdown and Open in editor give the message as the channel export writes it; only a message the view shows", async () => {
  const s = await setup();
  const view = connectView(s.app);
  const other = connectView(s.app);
  try {
    const { channel } = (await view.ask("channel/open", {})).result as { channel: { id: string } };
    await view.ask("channel/send", { channelId: channel.id, text: "@echo plan\n# Plan\nstep <b>one</b>" });
    const answer = await view.finished(await view.started("echo", []));
    const { markdown, body } = (await view.ask("message/markdown", { messageId: answer.id })).result as { markdown: string; body: string };
    assert.match(markdown, /^## @echo · \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\nYou said: /, "the export's heading");
    assert.ok(markdown.endsWith(body), "the body follows the heading");
    assert.match(body, /### Plan/, "its headings nest under the message's");
    assert.match(body, /&lt;b>one/, "raw HTML is shown as text, as in the view");
    assert.deepEqual((await view.ask("message/openInEditor", { messageId: answer.id })).result, { opened: true });
    assert.deepEqual(s.opened, [markdown], "the editor tab holds the same Markdown");

    await other.ask("channel/create", { name: "elsewhere" });
    await other.ask("channel/open", { name: "elsewhere" });
    refused(await other.ask("message/markdown", { messageId: answer.id }), "webview/refused", /not in the channel this view shows/);
    refused(await other.ask("message/openInEditor", { messageId: answer.id }), "webview/refused");
    refused(await other.ask("turn/regenerate", { messageId: answer.id }), "webview/refused");
    assert.equal(s.opened.length, 1, "nothing else opened");
  } finally {
    view.close();
    other.close();
    await s.teardown();
  }
});
