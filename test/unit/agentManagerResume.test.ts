/**
 * Agent manager, resuming sessions (issue 4): an agent that offers ACP `session/load` resumes the session stored
 * before a restart, and the history it replays never reaches the channel; one that does not, or whose load fails,
 * gets a new session (`fresh`, so the channel re-injects its context). Scripted fake agents (real subprocesses)
 * whose sessions persist in a file, as a real agent's do across restarts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { AgentUpdate } from "../../src/acp/types";
import type { SessionSink } from "../../src/agents/AgentManager";
import { fakeAgent, harness } from "./agentManagerHarness";
import { tempDir } from "./helpers";

/** A sink that keeps every update it receives (text or not), and the text. */
function recordingSink(): SessionSink & { updates: AgentUpdate[]; text: () => string } {
  const updates: AgentUpdate[] = [];
  return {
    updates,
    onUpdate: (u) => updates.push(u),
    onPermissionRequest: async () => ({ outcome: "cancelled" }),
    text: () => updates.map((u) => (u.kind === "text" ? u.text : "")).join(""),
  };
}

/** The fake agent's script: sessions kept in `sessionsFile`; each answer says what it remembers of the session. */
const remembering = (sessionsFile: string, extra: object = {}) => ({ loadSession: true, sessionsFile, prompt: [{ recall: true }], ...extra });

test("after a restart, an agent with session/load resumes the stored session: not fresh, and the replayed history is not shown again", async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const roster = [fakeAgent("garfield", remembering(path.join(dir, "sessions.json")))];

  // Before the restart: a new session, which remembers nothing yet.
  const before = harness();
  t.after(() => before.manager.stopAll());
  before.manager.setRoster(roster);
  const first = await before.manager.session("garfield", "general", recordingSink());
  assert.equal(first.fresh, true);
  assert.equal(first.resumed, false);
  await first.prompt("Il pleut des cordes");
  const stored = first.sessionId;
  await before.manager.stopAll();

  // After the restart (a new window): resumed with the stored id.
  const after = harness();
  t.after(() => after.manager.stopAll());
  after.manager.setRoster(roster);
  const sink = recordingSink();
  const session = await after.manager.session("garfield", "general", sink, { resumeSessionId: stored });
  assert.equal(session.resumed, true);
  assert.equal(session.fresh, false, "the agent remembers: no context to re-inject");
  assert.equal(session.sessionId, stored);
  assert.deepEqual(sink.updates, [], "the replayed prompt and answer are not shown again");

  assert.equal(await session.prompt("Et alors ?"), "end_turn");
  assert.equal(sink.text(), "I remember: Il pleut des cordes", "only the new answer reaches the channel");
  assert.equal(session.fresh, false);
  assert.ok(after.events.logs("garfield").some((l) => l.includes(`session ${stored} resumed (ACP session/load)`)), after.events.logs("garfield").join("\n"));
  assert.ok(after.events.logs("garfield").some((l) => /2 replayed session\/update\(s\) dropped/.test(l)), "the dropped replay is counted in the log");
});

test("a long replay (300 updates) never reaches the sink, however the agent's writes are chunked", async (t) => {
  const { manager } = harness();
  t.after(() => manager.stopAll());
  const replay = Array.from({ length: 300 }, (_, i) => `old line ${i}\n`);
  manager.setRoster([fakeAgent("odie", { loadSession: true, replay, prompt: [{ chunk: "fresh answer" }] })]);
  const sink = recordingSink();
  const session = await manager.session("odie", "general", sink, { resumeSessionId: "stored-elsewhere" });
  assert.equal(session.resumed, true);
  assert.equal(await session.prompt("hello"), "end_turn");
  assert.equal(sink.text(), "fresh answer");
});

test("an agent without session/load gets a new session: fresh, so the channel's context goes again", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("nolo", { prompt: [{ echo: true }] })]);
  const sink = recordingSink();
  const session = await manager.session("nolo", "general", sink, { resumeSessionId: "s-from-last-week" });
  assert.equal(session.resumed, false);
  assert.equal(session.fresh, true);
  assert.notEqual(session.sessionId, "s-from-last-week");
  await session.prompt("hi");
  assert.equal(sink.text(), "You said: hi");
  assert.ok(events.logs("nolo").some((l) => l.includes("not resumed: the agent does not offer ACP session/load")));
});

test("a session/load the agent refuses falls back to a new session, and the log says why", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("broken", { loadSession: true, failLoad: "session store is corrupt", prompt: [{ echo: true }] })]);
  const sink = recordingSink();
  const session = await manager.session("broken", "general", sink, { resumeSessionId: "s7" });
  assert.equal(session.resumed, false);
  assert.equal(session.fresh, true);
  assert.notEqual(session.sessionId, "s7");
  assert.deepEqual(sink.updates, []);
  await session.prompt("still there?");
  assert.equal(sink.text(), "You said: still there?");
  assert.ok(
    events.logs("broken").some((l) => l.includes("session s7 could not be resumed") && l.includes("session store is corrupt")),
    events.logs("broken").join("\n"),
  );
});

test("a session the agent does not know (expired, another machine) falls back to a new session that remembers nothing", async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("garfield", remembering(path.join(dir, "sessions.json")))]);
  const sink = recordingSink();
  const session = await manager.session("garfield", "general", sink, { resumeSessionId: "s42" });
  assert.equal(session.resumed, false);
  assert.equal(session.fresh, true);
  await session.prompt("hello");
  assert.equal(sink.text(), "I remember nothing");
  assert.ok(events.logs("garfield").some((l) => l.includes("session s42 could not be resumed")), events.logs("garfield").join("\n"));
});

test("a session handle kept across a stop resumes its session on the new process when the agent can", async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const { manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("garfield", remembering(path.join(dir, "sessions.json")))]);
  const sink = recordingSink();
  const session = await manager.session("garfield", "general", sink);
  await session.prompt("lasagna");
  const id = session.sessionId;
  const pid = manager.processId("garfield");

  await manager.stop("garfield");
  assert.equal(session.fresh, true, "its process is gone: what comes next is not known yet");
  assert.equal(await session.prompt("what did I say?"), "end_turn");
  assert.notEqual(manager.processId("garfield"), pid, "a new process");
  assert.equal(session.sessionId, id, "the same session, resumed");
  assert.equal(session.resumed, true);
  assert.equal(session.fresh, false);
  assert.equal(sink.text(), "I remember nothing" + "I remember: lasagna", "the replay did not reach the sink");
});

test("a session handle kept across a stop gets a new session when the agent cannot load it", async (t) => {
  const { manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("odie", { loadSession: true, failLoad: "gone", prompt: [{ echo: true }] })]);
  const sink = recordingSink();
  const session = await manager.session("odie", "general", sink);
  await session.prompt("one");
  const id = session.sessionId;
  await manager.stop("odie");
  await session.prompt("two");
  assert.equal(session.resumed, false);
  assert.equal(sink.text(), "You said: one" + "You said: two");
  assert.equal(session.fresh, false, "prompted once on its new session");
  assert.ok(id.length > 0);
});
