// A hostile webview (issue 17, "The webview can ask only for what its UI does"): a script in the view posts what the
// UI never would. Each attack goes through the real bridge (WebviewBridge) to the composed app over LevelDB in a temp
// folder, with a fake agent as a real subprocess; the test asserts what the user would notice: nothing opened,
// inserted, deleted, remembered or marked read, and an error reply that says why. The UI's own requests still work.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSidekicks } from "../../src/app/compose";
import type { EditorPort } from "../../src/app/SidekicksApp";
import { INSERT_MAX } from "../../src/shared/protocol/requestGuards";
import type { ErrorInfo, HostToWebview, PermissionPart } from "../../src/shared/protocol";
import { connectView } from "./viewBridge";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

const CODE = "const answer = 42;\nconsole.log(answer);";
const NAMED_OUTSIDE = "/opt/elsewhere/named-by-the-agent.txt";

/** A roster whose agent reads a file (a tool call naming two paths), answers with a code block, then asks a permission. */
function roster(workspace: string): string {
  const script = {
    prompt: [
      { toolCall: { toolCallId: "t1", title: "Read files", kind: "read", status: "completed", locations: [{ path: path.join(workspace, "src", "a.ts") }, { path: NAMED_OUTSIDE }] } },
      { chunk: `Here it is:\n\n- a list item\n\n  \`\`\`ts\n  ${CODE.replace("\n", "\n  ")}\n  \`\`\`\n\n> \`\`\`sh\n> npm test\n> \`\`\`\n` },
      {
        permission: {
          toolCallId: "t2",
          title: "Write a.ts",
          kind: "edit",
          options: [
            { optionId: "once", name: "Allow", kind: "allow_once" },
            { optionId: "always", name: "Always allow", kind: "allow_always" },
            { optionId: "no", name: "Reject", kind: "reject_once" },
          ],
        },
      },
    ],
  };
  return `version: 1\nagents:\n  - name: garfield\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FAKE_AGENT)}]\n    env:\n      FAKE_AGENT_SCRIPT: ${JSON.stringify(JSON.stringify(script))}\n`;
}

async function setup(confirmAnswer: boolean[] = []) {
  const { dir, cleanup } = tempDir();
  const workspace = path.join(dir, "ws");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  writeFileSync(path.join(workspace, "src", "a.ts"), "export {};\n");
  symlinkSync("/etc/passwd", path.join(workspace, "passwd-link"));
  const configPath = path.join(workspace, "sidekicks.yaml");
  writeFileSync(configPath, roster(workspace));
  const calls: unknown[][] = [];
  const editor: EditorPort = {
    isTrusted: () => true,
    runCommand: async (command, channelId) => void calls.push(channelId === undefined ? ["runCommand", command] : ["runCommand", command, channelId]),
    log: () => undefined,
    showProblems: () => undefined,
    workspaceRoots: () => [workspace],
    confirm: async (message) => (calls.push(["confirm", message]), confirmAnswer.shift() ?? false),
    openLocation: async (location) => (calls.push(["openLocation", location.path]), true),
    openLink: async (href) => (calls.push(["openLink", href]), true),
    insertText: async (text) => (calls.push(["insertText", text]), true),
  };
  const app = await createSidekicks({ configPath, storageDir: path.join(dir, "store"), editor, launch: { workspaceFolder: workspace, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  return { app, calls, workspace, teardown: async () => (await app.dispose(), cleanup()) };
}

const refused = (answer: { error?: ErrorInfo }, code: string, why?: RegExp) => {
  assert.equal(answer.error?.code, code, `refused with ${code}: ${JSON.stringify(answer)}`);
  if (why) assert.match(answer.error?.message ?? "", why);
};

test("a hostile view can neither answer another channel's permission request, nor pick an option it never offered, nor remember an agent's 'always'", async () => {
  const s = await setup();
  const a = connectView(s.app);
  const b = connectView(s.app);
  try {
    const general = (await a.ask("channel/open", {})).result as { channel: { id: string } };
    const other = (await b.ask("channel/create", { name: "other" })).result as { id: string };
    await b.ask("channel/open", { name: "other" });
    assert.equal(((await a.ask("channel/send", { channelId: general.channel.id, text: "@garfield hi" })).result as { messageId: string }).messageId.length, 26);
    const request = await waitFor(() => pendingIn(a.posted), 10_000, "the permission request");

    refused(await b.ask("permission/answer", { requestId: request.requestId, optionId: "once" }), "webview/refused", /not in the channel this view shows/);
    refused(await a.ask("permission/answer", { requestId: request.requestId, optionId: "anything" }), "webview/refused", /not one of the options/);
    refused(await a.ask("permission/answer", { requestId: request.requestId, optionId: "always", remember: true }), "webview/refused", /remembers only/);
    refused(await a.ask("permission/answer", { requestId: "x", optionId: "once" }), "webview/invalidRequest");
    assert.deepEqual(await s.app.permissionMemory.list(["garfield"]), [], "no rule remembered");
    refused(await b.ask("channel/older", { channelId: general.channel.id, beforeId: request.messageId }), "webview/refused", /not the one this view shows/);
    refused(await b.ask("turn/cancel", { messageId: request.messageId }), "webview/refused", /not in the channel this view shows/);

    // The card's own click still answers, from the view that shows it.
    assert.deepEqual((await a.ask("permission/answer", { requestId: request.requestId, optionId: "once" })).result, { accepted: true });
    await waitFor(() => finished(a.posted, request.messageId), 10_000, "the answer to settle");
    assert.equal(other.id.length, 26);
  } finally {
    a.close();
    b.close();
    await s.teardown();
  }
});

test("a hostile view opens no file outside the workspace, inserts only code its channel shows, and marks read only a real message", async () => {
  const s = await setup();
  const a = connectView(s.app);
  const b = connectView(s.app);
  try {
    const general = (await a.ask("channel/open", {})).result as { channel: { id: string } };
    await b.ask("channel/open", { name: (((await b.ask("channel/create", { name: "other" })).result) as { name: string }).name });
    await a.ask("channel/send", { channelId: general.channel.id, text: "@garfield hi" });
    const request = await waitFor(() => pendingIn(a.posted), 10_000, "the permission request");
    await a.ask("permission/answer", { requestId: request.requestId, optionId: "no" });
    await waitFor(() => finished(a.posted, request.messageId), 10_000, "the answer to settle");
    s.calls.length = 0;

    for (const file of ["/etc/passwd", path.join(os.homedir(), ".ssh", "id_rsa"), "../../../../etc/passwd", path.join(s.workspace, "passwd-link")]) {
      refused(await a.ask("editor/openLocation", { path: file }), "webview/refused", /not inside the workspace|folder of secrets/);
    }
    refused(await a.ask("editor/openLink", { href: "file:///etc/passwd" }), "webview/refused", /not inside the workspace/);
    refused(await b.ask("editor/openLocation", { path: NAMED_OUTSIDE }), "webview/refused", /no tool call of this channel names it/);
    refused(await a.ask("editor/insert", { text: "rm -rf ~" }), "webview/refused", /Only code shown/);
    refused(await b.ask("editor/insert", { text: CODE }), "webview/refused", /Only code shown/);
    refused(await a.ask("editor/insert", { text: "x".repeat(INSERT_MAX + 1) }), "webview/invalidRequest");
    refused(await a.ask("channel/read", { channelId: general.channel.id, messageId: "7ZZZZZZZZZZZZZZZZZZZZZZZZZ" }), "webview/refused", /not in the channel this view shows/);
    refused(await a.ask("channel/read", { channelId: general.channel.id, messageId: "far-future" }), "webview/invalidRequest");
    assert.deepEqual(s.calls, [], "nothing opened, nothing inserted");
    assert.equal((await s.app.directory.list()).find((c) => c.id === general.channel.id)?.unread, 2, "still unread");

    // What the UI itself asks still works: the tool call's files, a file of the workspace, the code blocks, a link.
    for (const file of [path.join(s.workspace, "src", "a.ts"), NAMED_OUTSIDE, "src/a.ts"]) assert.deepEqual((await a.ask("editor/openLocation", { path: file, line: 2 })).result, { opened: true });
    assert.deepEqual((await a.ask("editor/openLink", { href: "https://example.com/" })).result, { opened: true });
    assert.deepEqual((await a.ask("editor/insert", { text: CODE })).result, { inserted: true }, "a code block of a list item, re-indented by Markdown");
    assert.deepEqual((await a.ask("editor/insert", { text: "npm test" })).result, { inserted: true }, "a code block in a quote");
    assert.deepEqual(s.calls.map((c) => c[0]), ["openLocation", "openLocation", "openLocation", "openLink", "insertText", "insertText"]);
    assert.deepEqual((await a.ask("channel/read", { channelId: general.channel.id, messageId: request.messageId })).result, { unread: 0 });
  } finally {
    a.close();
    b.close();
    await s.teardown();
  }
});

test("a hostile view deletes no channel without the host's confirmation, runs no other command, and is refused unknown methods and fields", async () => {
  const s = await setup([false, true]);
  const a = connectView(s.app);
  try {
    await a.ask("channel/open", {});
    const doomed = (await a.ask("channel/create", { name: "doomed" })).result as { id: string };
    assert.deepEqual((await a.ask("channel/delete", { id: doomed.id })).result, { deleted: false }, "the user said no in the host's dialog");
    assert.ok((await s.app.directory.list()).some((c) => c.id === doomed.id), "the channel and its history stay");
    assert.deepEqual((await a.ask("channel/delete", { id: doomed.id })).result, { deleted: true }, "the user confirmed");
    assert.deepEqual(s.calls, [["confirm", "Delete #doomed and its history?"], ["confirm", "Delete #doomed and its history?"]]);
    assert.ok(!(await s.app.directory.list()).some((c) => c.id === doomed.id));

    s.calls.length = 0;
    for (const command of ["deleteChannel", "showLog", "sidekicks.restartAgent", "__proto__"]) refused(await a.ask("command/run", { command }), "webview/invalidRequest");
    assert.deepEqual((await a.ask("command/run", { command: "openConfig" })).result, { done: true });
    assert.deepEqual(s.calls, [["runCommand", "openConfig"]], "only the banner's own command ran");
    // Ctrl+F's search takes the channel shown as an id, and nothing else: no name, no text that could become a query.
    refused(await a.ask("command/run", { command: "searchHistory", channelId: "general; rm -rf" }), "webview/invalidRequest");
    refused(await a.ask("command/run", { command: "searchHistory", query: "in:#x" }), "webview/invalidRequest");
    assert.deepEqual((await a.ask("command/run", { command: "searchHistory", channelId: doomed.id })).result, { done: true });
    assert.deepEqual(s.calls, [["runCommand", "openConfig"], ["runCommand", "searchHistory", doomed.id]]);
    s.calls.length = 0;

    for (const method of ["fs/delete", "__proto__", "constructor", "toString", "hasOwnProperty"]) refused(await a.ask(method, {}), "webview/unknownRequest", /does not do/);
    refused(await a.ask("channel/open", JSON.parse('{"__proto__": {"polluted": true}}')), "webview/invalidRequest");
    refused(await a.ask("channel/open", { name: "general", extra: 1 }), "webview/invalidRequest");
    refused(await a.ask("channels/list", []), "webview/invalidRequest");
    refused(await a.ask("channel/rename", { id: "general", name: "x" }), "webview/invalidRequest");
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    const { channels } = (await a.ask("channels/list", {})).result as { channels: { name: string }[] };
    assert.deepEqual(channels.map((c) => c.name), ["general"], "the UI's own list still answers");
  } finally {
    a.close();
    await s.teardown();
  }
});

/** The pending permission request a view was shown, with its message. */
function pendingIn(posted: HostToWebview[]): { requestId: string; messageId: string } | undefined {
  for (const m of posted) {
    if (m.kind !== "event" || m.name !== "message/delta") continue;
    const part = m.payload.part as PermissionPart | undefined;
    if (part?.type === "permission" && part.outcome === undefined) return { requestId: part.requestId, messageId: m.payload.messageId };
  }
  return undefined;
}

/** Whether a view was told that message `id` finished. */
function finished(posted: HostToWebview[], id: string): true | undefined {
  return posted.some((m) => m.kind === "event" && m.name === "message/finished" && m.payload.id === id) || undefined;
}
