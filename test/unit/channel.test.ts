import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentManager } from "../../src/agents/AgentManager";
import { ChannelService } from "../../src/channels/ChannelService";
import { SidekicksError } from "../../src/errors";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/protocol";
import { Store } from "../../src/store/Store";
import { FAKE_AGENT, tempDir } from "./helpers";

/** A channel service over a temp LevelDB and fake agents (real subprocesses), one per script. */
async function setup(scripts: Record<string, object>) {
  const { dir, cleanup } = tempDir();
  const events = new Recorder();
  const agents = new AgentManager(events, {
    launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env },
  });
  agents.setRoster(
    Object.entries(scripts).map(([name, script]) => ({
      name, command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify(script) },
    })),
  );
  const store = await Store.open(dir);
  const logs: string[] = [];
  const channels = new ChannelService(store, agents, events, (l) => logs.push(l));
  const general = await channels.syncGeneral(agents.names());
  const finished = (predicate: (m: MessageView) => boolean, timeoutMs = 5000) =>
    new Promise<MessageView>((resolve, reject) => {
      const started = Date.now();
      const poll = () => {
        const hit = events.of("message:finished").find(predicate);
        if (hit) return resolve(hit);
        if (Date.now() - started > timeoutMs) return reject(new Error("no finished message in time"));
        setTimeout(poll, 10);
      };
      poll();
    });
  const state = { dir, events, agents, store, channels, general, finished, logs, teardown: async () => {} };
  state.teardown = async () => {
    await state.channels.close();
    await state.store.close();
    await agents.stopAll();
    cleanup();
  };
  return state;
}

const agentText = (m: MessageView) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

test("@name routes to that member; the streamed answer is committed and shows again after the store reopens", async () => {
  const s = await setup({ demo: { prompt: [{ chunk: "Hello" }, { chunk: ", " }, { echo: true }] } });
  try {
    await s.channels.send(s.general.id, "@demo hello");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(agentText(answer), "Hello, You said: hello");
    assert.equal(answer.stopReason, "end_turn");
    assert.equal(answer.status, "done");
    // deltas streamed before the commit, finished after
    const names = s.events.events.map((e) => e.name);
    assert.ok(names.indexOf("message:delta") < names.lastIndexOf("message:finished"));
    await s.channels.close();
    await s.store.close();
    s.store = await Store.open(s.dir);
    s.channels = new ChannelService(s.store, s.agents, new Recorder());
    const { messages } = await s.channels.open("general");
    assert.deepEqual(messages.map((m) => [m.author.kind, agentText(m)]), [["user", "@demo hello"], ["agent", "Hello, You said: hello"]]);
    const member = (await s.store.members(s.general.id))[0];
    assert.equal(member?.lastSeenMessageId, answer.id, "the agent has seen its own answer");
  } finally {
    await s.teardown();
  }
});

test("field case 7: an agent dying mid-turn saves the partial text, fails its tool call, and says why", async () => {
  const s = await setup({
    demo: { prompt: [{ chunk: "Working on it" }, { toolCall: { toolCallId: "t9", title: "Run tests", status: "in_progress" } }, { stderr: "panic: boom" }, { sleep: 30 }, { exit: 143 }] },
  });
  try {
    await s.channels.send(s.general.id, "@demo go");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(answer.status, "error");
    assert.equal(agentText(answer), "Working on it");
    assert.equal(answer.error?.code, "agent/exited");
    assert.match(answer.error?.message ?? "", /exited \(code 143\)/);
    assert.match(answer.error?.detail ?? "", /panic: boom/);
    const tool = answer.parts.find((p) => p.type === "toolCall");
    assert.equal(tool?.type === "toolCall" && tool.status, "failed");
    assert.equal(s.agents.state("demo"), "error");
  } finally {
    await s.teardown();
  }
});

test("field case 2: a tool_call_update for an unknown id creates nothing and logs one warning", async () => {
  const s = await setup({ demo: { prompt: [{ toolCallUpdate: { toolCallId: "nope_1", status: "completed" } }, { chunk: "done" }] } });
  try {
    await s.channels.send(s.general.id, "@demo go");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.deepEqual(answer.parts, [{ type: "text", text: "done" }]);
    assert.equal(s.logs.filter((l) => l.includes("nope_1")).length, 1);
  } finally {
    await s.teardown();
  }
});

test("a permission request is shown as a part and the user's choice reaches the agent", async () => {
  const s = await setup({ demo: { prompt: [{ permission: { toolCallId: "t1", title: "Edit config.json" } }] } });
  try {
    await s.channels.send(s.general.id, "@demo edit");
    const requestId = await new Promise<string>((resolve) => {
      const poll = () => {
        const delta = s.events.of("message:delta").find((d) => d.part?.type === "permission");
        if (delta?.part?.type === "permission") resolve(delta.part.requestId);
        else setTimeout(poll, 10);
      };
      poll();
    });
    assert.equal(s.channels.answerPermission(requestId, "not-an-option"), false);
    assert.equal(s.channels.answerPermission(requestId, "ok"), true);
    assert.equal(s.channels.answerPermission(requestId, "ok"), false, "answered once only");
    const answer = await s.finished((m) => m.author.kind === "agent");
    const permission = answer.parts.find((p) => p.type === "permission");
    assert.equal(permission?.type === "permission" && permission.outcome, "ok");
    assert.equal(agentText(answer), " [chose ok]");
  } finally {
    await s.teardown();
  }
});

test("several mentions start parallel turns that stream into separate messages", async () => {
  const s = await setup({ a: { prompt: [{ chunk: "from a, " }, { sleep: 1500 }, { chunk: "done" }] }, b: { prompt: [{ chunk: "from b" }] } });
  try {
    await s.channels.send(s.general.id, "@a @b compare");
    const a = await s.finished((m) => m.author.agentName === "a");
    const b = await s.finished((m) => m.author.agentName === "b");
    assert.equal(agentText(a), "from a, done");
    assert.equal(agentText(b), "from b");
    assert.notEqual(a.id, b.id);
    // a was mentioned first and pauses 1.5 s mid-turn; b finishing first shows the turns ran side by side (run one
    // after the other, b could only start once a had finished).
    const finishedOrder = s.events.of("message:finished").map((m) => m.author.agentName ?? "user");
    assert.deepEqual(finishedOrder, ["user", "b", "a"]);
  } finally {
    await s.teardown();
  }
});

test("an unknown @name is refused with the member list and nothing is stored", async () => {
  const s = await setup({ demo: {} });
  try {
    await assert.rejects(s.channels.send(s.general.id, "@nobody hi"), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "channel/unknownMember");
      assert.match(err.message, /No member named @nobody .* Members: @demo/);
      return true;
    });
    assert.deepEqual((await s.channels.open("general")).messages, []);
  } finally {
    await s.teardown();
  }
});

test("a command that does not exist ends the turn with a clear agent/spawn error, not a hang", async () => {
  const s = await setup({ demo: {} });
  try {
    s.agents.setRoster([{ name: "demo", command: "no-such-agent-binary", args: [], env: {} }]);
    await s.channels.send(s.general.id, "@demo hi");
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.equal(answer.error?.code, "agent/spawn");
    assert.match(answer.error?.message ?? "", /command not found: "no-such-agent-binary"/);
  } finally {
    await s.teardown();
  }
});

test("field case 1: a chunk after the prompt result joins the finished message; no phantom turn", async () => {
  const s = await setup({ demo: { prompt: [{ chunk: "Hello" }, { lateChunk: ", world." }] } });
  try {
    await s.channels.send(s.general.id, "@demo hi");
    const first = await s.finished((m) => m.author.kind === "agent");
    assert.equal(agentText(first), "Hello");
    const late = await s.finished((m) => m.author.kind === "agent" && agentText(m) === "Hello, world.");
    assert.equal(late.id, first.id, "the same message, not a new one");
    assert.equal(s.events.of("message:started").length, 1, "no phantom turn");
    assert.equal(s.agents.state("demo"), "ready");
    const stored = (await s.channels.open("general")).messages.filter((m) => m.author.kind === "agent");
    assert.deepEqual(stored.map(agentText), ["Hello, world."]);
    assert.ok(s.logs.some((l) => l.includes("after the prompt ended")));
  } finally {
    await s.teardown();
  }
});
