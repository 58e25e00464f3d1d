import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { MessageView, SessionStateView } from "../../src/shared/protocol";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";
import { createTestApp } from "./appHarness";
import { textOf } from "./channelHarness";

const MODES = {
  currentModeId: "ask",
  availableModes: [
    { id: "ask", name: "Ask", description: "Asks before changing files" },
    { id: "code", name: "Code" },
  ],
};
const EFFORT = {
  type: "select",
  id: "effort",
  name: "Effort",
  category: "thought_level",
  currentValue: "medium",
  options: [
    { value: "low", name: "Low" },
    { value: "medium", name: "Medium" },
    { value: "high", name: "High" },
  ],
};
const MODELS = {
  currentModelId: "small",
  availableModels: [
    { modelId: "small", name: "Small" },
    { modelId: "large", name: "Large", description: "Slower, smarter" },
  ],
};

/** The app with fake agents (real subprocesses): garfield offers modes and an effort option, odie only legacy models. */
async function setup(dir: string, scripts: { garfield: object; odie: object }) {
  const configPath = path.join(dir, "sidekicks.yaml");
  const agent = (name: string, script: object) => `  - name: ${name}
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(FAKE_AGENT)}]
    env:
      FAKE_AGENT_SCRIPT: ${JSON.stringify(JSON.stringify(script))}
`;
  writeFileSync(configPath, `version: 1\nagents:\n${agent("garfield", scripts.garfield)}${agent("odie", scripts.odie)}`);
  const app = await createTestApp(dir, configPath);
  const states: SessionStateView[] = [];
  const finished: MessageView[] = [];
  const disconnect = app.connectWebview((name, payload) => {
    if (name === "session/state") states.push(payload as SessionStateView);
    if (name === "message/finished") finished.push(payload as MessageView);
  });
  const handlers = app.webviewHandlers();
  const general = (await handlers["channel/open"]({})).channel;
  return {
    app, handlers, states, finished, general,
    /** The last state the view heard for `agent`. */
    last: (agent: string) => states.filter((s) => s.agent === agent).at(-1),
    /** Sends `text` in #general and waits for the answer to finish. */
    ask: async (text: string) => {
      const before = finished.length;
      await handlers["channel/send"]({ channelId: general.id, text });
      return waitFor(() => finished.slice(before).find((m) => m.author.kind === "agent" && m.status !== "streaming"), 10_000, "the answer");
    },
    close: async () => {
      disconnect();
      await app.dispose();
    },
  };
}

const logOf = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> }) : []);

test("modes and a config option round trip: the view shows them, set_mode and set_config_option reach the agent, and the agent's own mode change is shown", async () => {
  const { dir, cleanup } = tempDir();
  const log = path.join(dir, "settings.jsonl");
  const s = await setup(dir, {
    garfield: {
      modes: MODES,
      configOptions: [EFFORT],
      settingsLog: log,
      prompt: [
        { echo: true },
        { update: { sessionUpdate: "usage_update", used: 12_345, size: 200_000, cost: { amount: 0.04, currency: "USD" } } },
        { update: { sessionUpdate: "session_info_update", title: "Greeting the cat" } },
      ],
    },
    odie: {},
  });
  try {
    await s.ask("@garfield hello");
    const opened = await waitFor(() => (s.last("garfield")?.title ? s.last("garfield") : undefined), 5000, "the title");
    assert.equal(opened.channelId, s.general.id);
    assert.equal(opened.modes?.currentModeId, "ask");
    assert.deepEqual(opened.modes?.availableModes.map((m) => m.name), ["Ask", "Code"]);
    assert.deepEqual(opened.usage, { used: 12_345, size: 200_000, cost: { amount: 0.04, currency: "USD" } }, "usage_update reaches the view");
    assert.equal(opened.title, "Greeting the cat", "session_info_update reaches the view");
    const effort = opened.configOptions?.find((o) => o.id === "effort");
    assert.equal(effort?.type === "select" && effort.currentValue, "medium");

    const { state } = await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } });
    assert.equal(state.modes?.currentModeId, "code");
    const { state: after } = await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "config", configId: "effort", value: "high" } });
    const high = after.configOptions?.find((o) => o.id === "effort");
    assert.equal(high?.type === "select" && high.currentValue, "high");
    assert.deepEqual(logOf(log).map((l) => [l.method, l.params.modeId ?? l.params.value]), [
      ["session/set_mode", "code"],
      ["session/set_config_option", "high"],
    ]);

    const reopened = await s.handlers["channel/open"]({ id: s.general.id });
    assert.equal(reopened.sessions?.garfield?.modes?.currentModeId, "code", "a webview reload gets the state with channel/open");
    assert.equal(reopened.sessions?.garfield?.title, "Greeting the cat");
  } finally {
    await s.close();
    cleanup();
  }
});

test("the agent switching its own mode (current_mode_update) changes the mode shown", async () => {
  const { dir, cleanup } = tempDir();
  const s = await setup(dir, { garfield: { modes: MODES, prompt: [{ update: { sessionUpdate: "current_mode_update", currentModeId: "code" } }, { chunk: "switched" }] }, odie: {} });
  try {
    await s.ask("@garfield go");
    const state = await waitFor(() => (s.last("garfield")?.modes?.currentModeId === "code" ? s.last("garfield") : undefined), 5000, "mode code");
    assert.equal(state.modes?.currentModeId, "code");
  } finally {
    await s.close();
    cleanup();
  }
});

test("an agent that only offers the legacy models gets session/set_model", async () => {
  const { dir, cleanup } = tempDir();
  const log = path.join(dir, "settings.jsonl");
  const s = await setup(dir, { garfield: {}, odie: { models: MODELS, settingsLog: log, prompt: [{ chunk: "ok" }] } });
  try {
    await s.ask("@odie hi");
    const opened = await waitFor(() => s.last("odie"), 5000, "odie's session state");
    assert.deepEqual(opened.models?.availableModels.map((m) => m.name), ["Small", "Large"], "the models of the session/new answer are read although the SDK does not type them");
    const { state } = await s.handlers["session/configure"]({ channelId: s.general.id, agent: "odie", change: { kind: "model", modelId: "large" } });
    assert.equal(state.models?.currentModelId, "large");
    assert.deepEqual(logOf(log).map((l) => [l.method, l.params.modelId]), [["session/set_model", "large"]]);
  } finally {
    await s.close();
    cleanup();
  }
});

test("a change the agent rejects fails with its reason and the view gets the unchanged state back", async () => {
  const { dir, cleanup } = tempDir();
  const s = await setup(dir, { garfield: { modes: MODES, configOptions: [EFFORT], refuseSettings: true, prompt: [{ chunk: "ok" }] }, odie: {} });
  try {
    await s.ask("@garfield hi");
    await waitFor(() => s.last("garfield"), 5000, "garfield's session state");
    const count = s.states.length;
    await assert.rejects(
      s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } }),
      (err: Error & { code?: string }) => err.code === "agent/request" && /set_mode/.test(err.message) && /refused by the script/.test(err.message),
    );
    const reverted = s.states.slice(count).at(-1);
    assert.equal(reverted?.modes?.currentModeId, "ask", "the state posted after the refusal still says ask");
    await assert.rejects(
      s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "config", configId: "effort", value: "extreme" } }),
      /has no value "extreme"/,
    );
    await assert.rejects(s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "nonsense" } as never }), /not one Sidekicks knows/);
  } finally {
    await s.close();
    cleanup();
  }
});

test("after a window reload the last state shows (not live) and a change reopens the session on a new process", async () => {
  const { dir, cleanup } = tempDir();
  const log = path.join(dir, "settings.jsonl");
  const scripts = {
    garfield: { modes: MODES, settingsLog: log, loadSession: true, sessionsFile: path.join(dir, "sessions.json"), prompt: [{ chunk: "ok" }, { update: { sessionUpdate: "session_info_update", title: "Kept title" } }] },
    odie: {},
  };
  let s = await setup(dir, scripts);
  try {
    await s.ask("@garfield hi");
    await waitFor(() => s.last("garfield")?.title, 5000, "the title");
    await s.close();
    s = await setup(dir, scripts);
    const opened = await s.handlers["channel/open"]({ id: s.general.id });
    const kept = opened.sessions?.garfield;
    assert.equal(kept?.title, "Kept title", "the stored state survives the reload");
    assert.equal(kept?.live, false);
    const { state } = await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } });
    assert.equal(state.live, true);
    assert.equal(state.modes?.currentModeId, "code");
    assert.equal(state.title, "Kept title", "a resumed session keeps its title");
    assert.deepEqual(logOf(log).map((l) => l.params.sessionId), ["s1"], "the change went to the resumed session");
  } finally {
    await s.close();
    cleanup();
  }
});

test("the demo agent offers modes and an effort option, reports usage and a title, and follows a change", async () => {
  const { dir, cleanup } = tempDir();
  const configPath = path.join(dir, "sidekicks.yaml");
  writeFileSync(
    configPath,
    `version: 1\nagents:\n  - name: demo\n    command: ${JSON.stringify(process.execPath)}\n    args: ["--import", "tsx", ${JSON.stringify(path.resolve("src/demo-agent/main.ts"))}]\n    env:\n      SIDEKICKS_DEMO_DELAY_MS: "0"\n`,
  );
  const app = await createTestApp(dir, configPath, process.cwd());
  const states: SessionStateView[] = [];
  const finished: MessageView[] = [];
  const off = app.connectWebview((name, payload) => {
    if (name === "session/state") states.push(payload as SessionStateView);
    if (name === "message/finished") finished.push(payload as MessageView);
  });
  try {
    const handlers = app.webviewHandlers();
    const general = (await handlers["channel/open"]({})).channel;
    const answer = async (text: string) => {
      const before = finished.length;
      await handlers["channel/send"]({ channelId: general.id, text });
      return waitFor(() => finished.slice(before).find((m) => m.author.kind === "agent"), 20_000, "the demo's answer");
    };
    await answer("@demo hello there");
    const state = await waitFor(() => [...states].reverse().find((s) => s.title !== undefined && s.usage !== undefined), 5000, "usage and title");
    assert.deepEqual(state.modes?.availableModes.map((m) => m.id), ["ask", "code"]);
    assert.equal(state.title, "hello there");
    assert.equal(state.usage?.size, 200_000);
    assert.equal(state.usage?.cost?.currency, "USD");
    await handlers["session/configure"]({ channelId: general.id, agent: "demo", change: { kind: "config", configId: "effort", value: "high" } });
    await handlers["session/configure"]({ channelId: general.id, agent: "demo", change: { kind: "mode", modeId: "code" } });
    const second = await answer("@demo again");
    assert.match(second.parts.map((p) => (p.type === "text" ? p.text : "")).join(""), /Mode: code, effort: high/);
  } finally {
    off();
    await app.dispose();
    cleanup();
  }
});

test("updates sent right behind the session/new answer, before any prompt, still reach the view", async () => {
  const { dir, cleanup } = tempDir();
  const s = await setup(dir, {
    garfield: {
      modes: MODES,
      afterNew: [
        { sessionUpdate: "current_mode_update", currentModeId: "code" },
        { sessionUpdate: "usage_update", used: 500, size: 1000 },
        { sessionUpdate: "session_info_update", title: "Fresh" },
      ],
      prompt: [{ sleep: 100 }, { chunk: "ok" }],
    },
    odie: {},
  });
  try {
    await s.ask("@garfield hi");
    const state = await waitFor(() => (s.last("garfield")?.title === "Fresh" ? s.last("garfield") : undefined), 5000, "the early title");
    assert.equal(state.modes?.currentModeId, "code");
    assert.deepEqual(state.usage, { used: 500, size: 1000 });
  } finally {
    await s.close();
    cleanup();
  }
});

/** garfield resumable across processes (each new process reports its default mode "ask" on session/load, as codex-acp does). */
const resumable = (dir: string, extra: object = {}) => ({
  garfield: { modes: MODES, configOptions: [EFFORT], settingsLog: path.join(dir, "settings.jsonl"), loadSession: true, sessionsFile: path.join(dir, "sessions.json"), prompt: [{ inForce: true }], ...extra },
  odie: {},
});

test("what the user chose stays chosen: after a window reload the resumed session reports its default mode, and the user's mode and effort are set again before the next prompt", async () => {
  const { dir, cleanup } = tempDir();
  const log = path.join(dir, "settings.jsonl");
  let s = await setup(dir, resumable(dir));
  try {
    assert.match(textOf(await s.ask("@garfield hi")), /in force: ask effort=medium/);
    await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } });
    await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "config", configId: "effort", value: "high" } });
    await s.close();
    s = await setup(dir, resumable(dir));
    assert.match(textOf(await s.ask("@garfield again")), /in force: code effort=high/, "the prompt ran in the mode the user set");
    const state = s.last("garfield")!;
    assert.equal(state.modes?.currentModeId, "code", "the header shows what is in force");
    assert.deepEqual(state.chosen, { mode: "code", config: { effort: "high" } });
    assert.equal(state.notRestored, undefined);
    assert.deepEqual(logOf(log).map((l) => [l.method, l.params.sessionId, l.params.modeId ?? l.params.value]), [
      ["session/set_mode", "s1", "code"],
      ["session/set_config_option", "s1", "high"],
      ["session/set_mode", "s1", "code"],
      ["session/set_config_option", "s1", "high"],
    ], "set again on the resumed session, once");
  } finally {
    await s.close();
    cleanup();
  }
});

test("an agent restart, or an agent that cannot resume (a new session), gets the user's mode again too", async () => {
  const { dir, cleanup } = tempDir();
  const s = await setup(dir, { garfield: { modes: MODES, prompt: [{ inForce: true }] }, odie: {} });
  try {
    await s.ask("@garfield hi");
    await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } });
    await s.app.agents.stop("garfield");
    assert.match(textOf(await s.ask("@garfield after a restart")), /in force: code/);
    assert.equal(s.last("garfield")?.modes?.currentModeId, "code");
  } finally {
    await s.close();
    cleanup();
  }
});

test("a choice the agent refuses to take back is shown as not restored, with its reason, and the header shows the mode really in force", async () => {
  const { dir, cleanup } = tempDir();
  let s = await setup(dir, resumable(dir));
  try {
    await s.ask("@garfield hi");
    await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } });
    await s.close();
    s = await setup(dir, resumable(dir, { refuseSettings: true }));
    assert.match(textOf(await s.ask("@garfield again")), /in force: ask/);
    const state = s.last("garfield")!;
    assert.equal(state.modes?.currentModeId, "ask");
    assert.equal(state.chosen?.mode, "code", "the choice is kept: a later session may take it");
    assert.equal(state.notRestored?.length, 1);
    assert.deepEqual([state.notRestored![0]!.setting, state.notRestored![0]!.value], ["mode", "code"]);
    assert.match(state.notRestored![0]!.reason, /refused by the script/);
  } finally {
    await s.close();
    cleanup();
  }
});

test("a mode the agent itself moves to mid-session (after the user approved a plan) replaces the earlier choice: it is not undone at the next open", async () => {
  const { dir, cleanup } = tempDir();
  const log = path.join(dir, "settings.jsonl");
  const leaves = (d: string) => resumable(d, { prompt: [{ update: { sessionUpdate: "current_mode_update", currentModeId: "ask" } }, { inForce: true }] });
  let s = await setup(dir, resumable(dir));
  try {
    await s.ask("@garfield hi");
    await s.handlers["session/configure"]({ channelId: s.general.id, agent: "garfield", change: { kind: "mode", modeId: "code" } });
    await s.close();
    s = await setup(dir, leaves(dir));
    await s.ask("@garfield plan approved");
    await waitFor(() => (s.last("garfield")?.chosen?.mode === "ask" ? true : undefined), 5000, "the choice following the agent");
    await s.close();
    s = await setup(dir, resumable(dir));
    assert.match(textOf(await s.ask("@garfield next")), /in force: ask/);
    assert.equal(logOf(log).filter((l) => l.method === "session/set_mode").length, 2, "the user's change, and its one restore before the agent moved on");
  } finally {
    await s.close();
    cleanup();
  }
});
