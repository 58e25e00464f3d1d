// A path typed after `@` in the composer and never accepted from the completion (issue 21): sent through the real
// bridge (WebviewBridge) to the composed app over LevelDB in a temp folder, with the scripted fake agent as a real
// subprocess answering the prompt's content blocks as JSON. The user notices: the file reaches the agent as a
// resource_link (with its lines), the message goes where its real mentions say, and a word that names no file is
// neither a member nor an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createSidekicks } from "../../src/app/compose";
import type { EditorPort } from "../../src/app/SidekicksApp";
import type { MessageView } from "../../src/shared/protocol";
import { connectView } from "./viewBridge";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

const agent = (name: string) =>
  `  - name: ${name}\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FAKE_AGENT)}]\n    env:\n      FAKE_AGENT_SCRIPT: ${JSON.stringify(JSON.stringify({ prompt: [{ blocks: true }] }))}\n`;

async function setup() {
  const { dir, cleanup } = tempDir();
  const workspace = path.join(dir, "ws");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  writeFileSync(path.join(workspace, "src", "a.ts"), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const configPath = path.join(workspace, "sidekicks.yaml");
  writeFileSync(configPath, `version: 1\nagents:\n${agent("blocks")}${agent("other")}`);
  const editor: EditorPort = { isTrusted: () => true, runCommand: async () => undefined, log: () => undefined, showProblems: () => undefined, workspaceRoots: () => [workspace] };
  const app = await createSidekicks({ configPath, storageDir: path.join(dir, "store"), editor, launch: { workspaceFolder: workspace, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  return { app, workspace, teardown: async () => (await app.dispose(), cleanup()) };
}

type Block = { type: string; uri?: string; name?: string; text?: string };

test("a path typed after @ and not accepted attaches the file as the completion would (lines included); one that names no file stays text", async () => {
  const s = await setup();
  const view = connectView(s.app);
  try {
    const { channel } = (await view.ask("channel/open", {})).result as { channel: { id: string } };
    /** Sends `text` as the composer does; the blocks the answering agent received, and the stored user message. */
    const send = async (text: string) => {
      const sent = await view.ask("channel/send", { channelId: channel.id, text });
      assert.equal(sent.error, undefined, `${text}: sent without an error (${sent.error?.message})`);
      const { messageId } = sent.result as { messageId: string };
      const answer = await waitFor(
        () => view.posted.find((m) => m.kind === "event" && m.name === "message/finished" && m.payload.author.kind === "agent" && m.payload.id > messageId),
        15_000,
        `the answer to ${text}`,
      );
      const opened = (await view.ask("channel/open", { id: channel.id })).result as { messages: MessageView[] };
      const answerId = answer.kind === "event" && answer.name === "message/finished" ? answer.payload.id : "";
      const answerText = opened.messages.find((m) => m.id === answerId)!.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
      const user = opened.messages.find((m) => m.id === messageId)!;
      const unmatched = (sent.result as { unmatchedPaths?: string[] }).unmatchedPaths;
      return { blocks: JSON.parse(answerText) as Block[], user, to: answer.kind === "event" && answer.name === "message/finished" ? answer.payload.author : undefined, unmatched };
    };
    const file = path.join(s.workspace, "src", "a.ts");

    const first = await send("@blocks look at @src/a.ts");
    assert.deepEqual(first.to, { kind: "agent", agentName: "blocks" }, "routed to @blocks; @src is no member and no error");
    assert.deepEqual(first.blocks.map((b) => b.type), ["text", "resource_link", "text"], "the file reaches the agent");
    assert.equal(first.blocks[1]!.uri, `file://${file}`);
    assert.match(first.blocks[2]!.text!, /line 30/, "its text under its label (this agent takes no embedded resource)");
    assert.deepEqual(first.user.attachments?.map((a) => a.kind === "file" && [a.path, a.range]), [[file, undefined]], "shown as a chip on the sent message");

    const lines = await send("@src/a.ts:10-12, why?");
    assert.deepEqual(lines.to, { kind: "agent", agentName: "blocks" }, "no mention: the member addressed last");
    assert.deepEqual(lines.user.attachments?.map((a) => a.kind === "file" && [a.path, a.range]), [[file, { start: 10, end: 12 }]], "the lines typed, the comma not part of them");
    const linesText = lines.blocks.find((b, i) => i > 0 && b.type === "text")!.text!;
    assert.match(linesText, /line 10\nline 11\nline 12/);
    assert.doesNotMatch(linesText, /line 9|line 13/, "only those lines");

    const none = await send("@other is @docs/missing.md or @v1.2 still there?");
    assert.deepEqual(none.to, { kind: "agent", agentName: "other" }, "routed to @other; words that name no file are neither mentions nor errors");
    assert.deepEqual(none.blocks.map((b) => b.type), ["text"], "nothing attached");
    assert.match(none.blocks[0]!.text!, /is @docs\/missing\.md or @v1\.2 still there\?/, "left as the user wrote them");
    assert.equal(none.user.attachments, undefined);
    assert.deepEqual(none.unmatched, ["docs/missing.md", "v1.2"], "the view is told which words went as text (it says so)");
    assert.equal(first.unmatched, undefined, "nothing to say when every typed path named a file");

    const outside = await view.ask("channel/send", { channelId: channel.id, text: "@blocks read @../../../etc/passwd" });
    assert.equal(outside.error, undefined, "a typed path outside the workspace is no error either…");
    const kept = (await view.ask("channel/open", { id: channel.id })).result as { messages: MessageView[] };
    const sentOutside = kept.messages.find((m) => m.id === (outside.result as { messageId: string }).messageId)!;
    assert.equal(sentOutside.attachments, undefined, "…and attaches nothing: only files inside the workspace are read");
    assert.deepEqual((outside.result as { unmatchedPaths?: string[] }).unmatchedPaths, ["../../../etc/passwd"], "and the view is told");
  } finally {
    view.close();
    await s.teardown();
  }
});
