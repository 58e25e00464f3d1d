import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createSidekicks } from "../../src/app/compose";
import type { EditorPort, SidekicksApp } from "../../src/app/SidekicksApp";
import type { ChannelSummary, MessageView } from "../../src/shared/protocol";
import { FAKE_AGENT, tempDir, until } from "./helpers";
import { createTestApp } from "./appHarness";

const FAKE_SCRIPT = JSON.stringify({ prompt: [{ chunk: "Hi. " }, { sleep: 50 }, { echo: true }] });
const ROSTER = `version: 1
agents:
  - name: garfield
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(FAKE_AGENT)}]
    env:
      FAKE_AGENT_SCRIPT: ${JSON.stringify(FAKE_SCRIPT)}
  - name: odie
    command: node
channels:
  - name: review
    description: Two reviewers
    members: [garfield, odie]
`;

/** The app over a roster file with declared channels; garfield is the fake agent (a real subprocess). */
async function setup() {
  const { dir, cleanup } = tempDir();
  const configPath = path.join(dir, "sidekicks.yaml");
  writeFileSync(configPath, ROSTER);
  const app = await createTestApp(dir, configPath);
  const lists: ChannelSummary[][] = [];
  const disconnect = app.connectWebview((name, payload) => {
    // The list as the view holds it: whole on `channels/changed`, its changed lines replaced on `channels/updated`.
    const { channels } = payload as { channels: ChannelSummary[] };
    if (name === "channels/changed") lists.push(channels);
    if (name === "channels/updated") lists.push((lists.at(-1) ?? []).map((c) => channels.find((u) => u.id === c.id) ?? c));
  });
  return {
    app, lists, handlers: app.webviewHandlers(),
    teardown: async () => {
      disconnect();
      await app.dispose();
      cleanup();
    },
  };
}

test("the app creates declared channels at startup; the webview lists, opens by id, creates and deletes through the protocol", async () => {
  const s = await setup();
  try {
    const { channels, agents } = await s.handlers["channels/list"]({});
    assert.deepEqual(channels.map((c) => [c.name, c.description, c.members]), [
      ["general", undefined, ["garfield", "odie"]],
      ["review", "Two reviewers", ["garfield", "odie"]],
    ]);
    assert.deepEqual(agents, ["garfield", "odie"]);
    const review = channels[1]!;
    const opened = await s.handlers["channel/open"]({ id: review.id });
    assert.equal(opened.channel.name, "review");

    const ideas = await s.handlers["channel/create"]({ name: "ideas", members: ["odie"] });
    assert.deepEqual(s.lists.at(-1)?.map((c) => c.name), ["general", "ideas", "review"], "the view hears of the new channel");
    const dm = await s.handlers["channel/direct"]({ agent: "garfield" });
    assert.equal((await s.handlers["channel/open"]({ name: dm.name })).channel.members[0]?.name, "garfield");
    await s.handlers["channel/delete"]({ id: ideas.id });
    assert.deepEqual((await s.handlers["channels/list"]({})).channels.map((c) => c.name), ["general", "review", "@garfield"]);
    await assert.rejects(s.handlers["channel/rename"]({ id: review.id, name: "" }), /Missing channel name/);
    assert.equal((await s.handlers["channel/open"]({ name: "ideas" })).channel.name, "general", "a deleted channel the view remembered opens #general");

    await s.app.reloadConfig();
    assert.deepEqual((await s.handlers["channels/list"]({})).channels.map((c) => c.name), ["general", "review", "@garfield"], "a reload creates nothing twice");
  } finally {
    await s.teardown();
  }
});

test("a direct conversation answers a message without a mention; the list shows it busy, then unread until read", async () => {
  const s = await setup();
  try {
    const dm = await s.handlers["channel/direct"]({ agent: "garfield" });
    await s.handlers["channel/send"]({ channelId: dm.id, text: "hello" });
    const settled = await new Promise<ChannelSummary>((resolve, reject) => {
      const giveUp = Date.now() + 10_000;
      const check = () => {
        const mine = s.lists.at(-1)?.find((c) => c.id === dm.id);
        if (mine && !mine.busy && mine.unread === 2) resolve(mine);
        else if (Date.now() > giveUp) reject(new Error(`the list never showed the answer settled: ${JSON.stringify(mine)}`));
        else setTimeout(check, 10);
      };
      check();
    });
    assert.ok(s.lists.some((list) => list.find((c) => c.id === dm.id)?.busy), "busy while garfield answered");
    const { messages } = await s.handlers["channel/open"]({ id: dm.id });
    const answer = messages.at(-1)!;
    assert.equal(answer.author.agentName, "garfield");
    assert.match(answer.parts.map((p) => (p.type === "text" ? p.text : "")).join(""), /^Hi\. You said: .*hello/s);
    assert.equal(settled.unread, 2, "the user's message and the answer are unread in the list");
    assert.deepEqual(await s.handlers["channel/read"]({ channelId: dm.id, messageId: answer.id }), { unread: 0 });
  } finally {
    await s.teardown();
  }
});

test("two windows, one store: the second says the history is open elsewhere, writes nothing, and opens it once the first lets go", async () => {
  const s = await setup();
  const storageDir = s.app.storageDir;
  const configPath = s.app.configStatus.path;
  const logs: string[] = [];
  const editor: EditorPort = { isTrusted: () => true, runCommand: async () => undefined, log: (_l, line) => logs.push(line), showProblems: () => undefined };
  const second = await createSidekicks({ configPath, storageDir, editor, lockedRetryMs: 50, launch: { workspaceFolder: path.dirname(configPath), nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  const reloads: string[] = [];
  const off = second.connectWebview((name) => {
    if (name === "channel/reload") reloads.push(name);
  });
  try {
    const first = await s.handlers["channel/open"]({ name: "general" });
    await s.handlers["channel/send"]({ channelId: first.channel.id, text: "@garfield written by the first window" });
    const handlers = second.webviewHandlers();
    await assert.rejects(handlers["channel/open"]({ name: "general" }), (e: { code?: string; message: string }) => e.code === "store/locked" && /open in another VS Code window.*as soon as that window closes/.test(e.message));
    await assert.rejects(handlers["channel/send"]({ channelId: first.channel.id, text: "@garfield hi" }), (e: { code?: string }) => e.code === "store/locked");
    assert.equal(logs.filter((l) => /another VS Code window/.test(l)).length, 1, "said once in the log, not every retry");
    // What "Open channel in editor" and "Go to next permission request" say here instead of nothing.
    assert.equal(s.app.historyProblem, undefined, "the first window has the history");
    assert.equal(second.historyProblem?.code, "store/locked");
    assert.match(second.historyProblem?.message ?? "", /open in another VS Code window.*as soon as that window closes/);
    await s.app.dispose();
    await until(() => reloads.length > 0, 5_000);
    assert.equal(reloads.length, 1, "the view reloads once the store opens here");
    const opened = await handlers["channel/open"]({ name: "general" });
    assert.ok(opened.messages.some((m) => m.parts.some((p) => p.type === "text" && p.text === "@garfield written by the first window")), "the first window's history is here");
    assert.equal(second.historyProblem, undefined, "once it opened here, the commands work again");
  } finally {
    off();
    await second.dispose();
    await s.teardown();
  }
});

test("Mention agent… sends @agent text to the channel the view shows, or to the agent's direct conversation when it is not a member there", async () => {
  const s = await setup();
  try {
    const { channels } = await s.handlers["channels/list"]({});
    const review = channels.find((c) => c.name === "review")!;
    await s.handlers["channel/create"]({ name: "solo", members: ["odie"] });
    await s.handlers["channel/open"]({ id: review.id });
    const first = await s.app.mention("garfield", "look at this");
    assert.equal(first.channel, "review");
    const opened = await s.handlers["channel/open"]({ id: review.id });
    const sent = opened.messages.find((m) => m.id === first.messageId);
    assert.deepEqual([sent?.parts[0]?.type === "text" && sent.parts[0].text, sent?.to], ["@garfield look at this", ["garfield"]]);
    const solo = (await s.handlers["channels/list"]({})).channels.find((c) => c.name === "solo")!;
    await s.handlers["channel/open"]({ id: solo.id });
    const second = await s.app.mention("garfield", "and this");
    assert.equal(second.channel, "@garfield", "garfield is not in #solo: its direct conversation");
  } finally {
    await s.teardown();
  }
});

test("a tool call that embeds a terminal: the part names it, its output streams to the view as terminal/output, and a snapshot holds it after the agent released it", async () => {
  const { dir, cleanup } = tempDir();
  const configPath = path.join(dir, "sidekicks.yaml");
  const script = JSON.stringify({ prompt: [{ terminal: { command: process.execPath, args: ["-e", "console.log('first line'); setTimeout(() => console.log('second line'), 200)"] }, embed: "run1" }] });
  writeFileSync(configPath, `version: 1\nagents:\n  - name: worker\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FAKE_AGENT)}]\n    env:\n      FAKE_AGENT_SCRIPT: ${JSON.stringify(script)}\n`);
  const app = await createTestApp(dir, configPath);
  const outputs: { terminalId: string; text: string; exitStatus?: unknown }[] = [];
  const finished: MessageView[] = [];
  const off = app.connectWebview((name, payload) => {
    if (name === "terminal/output") outputs.push(payload as (typeof outputs)[number]);
    if (name === "message/finished") finished.push(payload as MessageView);
  });
  try {
    assert.deepEqual(app.configStatus.problems, [], "the roster is valid");
    const handlers = app.webviewHandlers();
    const general = await handlers["channel/open"]({ name: "general" });
    await handlers["channel/send"]({ channelId: general.channel.id, text: "@worker run it" });
    await until(() => finished.some((m) => m.author.kind === "agent"), 15_000);
    const answer = finished.find((m) => m.author.kind === "agent")!;
    const tool = answer.parts.find((p) => p.type === "toolCall");
    assert.ok(tool?.type === "toolCall" && tool.terminals?.length === 1, "the tool call part names its terminal");
    const terminalId = tool.terminals[0]!;
    const streamed = outputs.filter((o) => o.terminalId === terminalId);
    assert.match(streamed.map((o) => o.text).join(""), /first line\r?\n.*second line/s, "the output reached the view as it came");
    assert.deepEqual(streamed.at(-1)?.exitStatus, { exitCode: 0, signal: null }, "and its exit");
    const snapshot = await handlers["terminal/snapshot"]({ terminalId });
    assert.equal(snapshot.known, true);
    assert.match(snapshot.output, /first line.*second line/s, "released by the agent, still shown");
    assert.deepEqual(await handlers["terminal/snapshot"]({ terminalId: "term_unknown" }), { known: false, output: "", truncated: false });
    assert.deepEqual(await handlers["terminal/show"]({ terminalId }), { shown: false }, "no editor terminal in this test");
  } finally {
    off();
    await app.dispose();
    cleanup();
  }
});

test("a message still queued when the window closes runs when it opens again, its agent known from the roster", async () => {
  const { dir, cleanup } = tempDir();
  const configPath = path.join(dir, "sidekicks.yaml");
  const script = JSON.stringify({ prompt: [{ chunk: "Working" }, { sleep: 1500 }, { echo: true }] });
  writeFileSync(configPath, `version: 1\nagents:\n  - name: worker\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FAKE_AGENT)}]\n    env:\n      FAKE_AGENT_SCRIPT: ${JSON.stringify(script)}\n`);
  const editor: EditorPort = { isTrusted: () => true, runCommand: async () => undefined, log: () => undefined, showProblems: () => undefined };
  const options = { configPath, storageDir: path.join(dir, "store"), editor, launch: { workspaceFolder: dir, nodePath: process.execPath, demoAgentPath: "", env: process.env } };
  const first = await createSidekicks(options);
  let second: SidekicksApp | undefined;
  try {
    const handlers = first.webviewHandlers();
    const general = await handlers["channel/open"]({ name: "general" });
    await handlers["channel/send"]({ channelId: general.channel.id, text: "@worker first" });
    const { messageId } = await handlers["channel/send"]({ channelId: general.channel.id, text: "@worker second, queued" });
    await new Promise((r) => setTimeout(r, 300));
    await first.dispose(); // the window closes (reload)
    second = await createSidekicks(options);
    const finished: MessageView[] = [];
    const off = second.connectWebview((name, payload) => {
      if (name === "message/finished") finished.push(payload as MessageView);
    });
    const answerTo = (m: MessageView) => m.author.kind === "agent" && m.parts.some((p) => p.type === "text" && p.text.includes("second, queued"));
    await until(() => finished.some(answerTo), 15_000);
    off();
    const answer = finished.find(answerTo);
    assert.ok(answer, `the queued message ran after the reopen: ${JSON.stringify(finished.map((m) => [m.outcome, m.error?.message]))}`);
    assert.equal(answer.outcome, "completed");
    const reopened = await second.webviewHandlers()["channel/open"]({ name: "general" });
    assert.ok(reopened.messages.some((m) => m.id === messageId));
    assert.deepEqual(reopened.channel.members.map((m) => m.name), ["worker"]);
  } finally {
    await second?.dispose();
    cleanup();
  }
});

test("deleting sidekicks.yaml takes its agents away (the banner says there is none), and restoring it brings them back", async () => {
  const s = await setup();
  try {
    const configPath = s.app.configStatus.path;
    const { rmSync, readFileSync } = await import("node:fs");
    const roster = readFileSync(configPath, "utf8");
    rmSync(configPath);
    const status = await s.app.reloadConfig();
    assert.equal(status.state, "missing");
    assert.deepEqual(s.app.agents.names(), []);
    assert.deepEqual((await s.handlers["channel/open"]({ name: "general" })).channel.members, [], "#general has no member left");
    writeFileSync(configPath, roster);
    await s.app.reloadConfig();
    assert.deepEqual(s.app.agents.names(), ["garfield", "odie"]);
  } finally {
    await s.teardown();
  }
});
