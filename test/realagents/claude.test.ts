/**
 * Claude Code (the published claude-agent-acp, its CLI inside) runs full turns offline through Sidekicks' agent
 * manager and channels, against the scripted model server (test/fixtures/model-server.mjs; scripts in
 * model-scripts.mjs): streamed text and thinking, Read/Edit/Write/Bash that really run in the workspace, permission
 * requests answered through the channel, a plan, plan-mode approval, Stop during a long command, Run again after Stop,
 * a failing command, model-server faults, and a Retry after a window reload that resumes the session with ACP
 * `session/load` (Manual mode kept across it).
 * Each test has its own temp folder (HOME, workspace, store) and agent process; the tests of this file run one after
 * the other.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PermissionPart, ToolCallPart } from "../../src/shared/protocol";
import { waitFor } from "../unit/helpers";
import { modeSurvivesReloadAndRetryAsksAgain } from "./scenarios";
import { ABSENT_URL, NODE24, AGENT_ENTRIES, currentMode, processesWith, realAgentConfig, setMode, shownOutput, realWorld, startModelServer, textOf, toolCalls, type ModelServer, type RealWorld } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

/** Runs `body` in a fresh world with Claude pointed at `modelUrl` (default: the scripted server). */
async function withClaude(body: (world: RealWorld) => Promise<void>, modelUrl?: string): Promise<void> {
  const world = await realWorld((dir, workspace) => [realAgentConfig("claude", { dir, workspace, modelUrl: modelUrl ?? server.url })]);
  try {
    await body(world);
  } finally {
    await world.teardown();
  }
}

const TIMEOUT = { timeout: 180_000 };

test("claude: streamed thinking and text arrive as a thought part and a text part of the stored answer", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude say hello script:text");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    assert.equal(answer.stopReason, "end_turn");
    assert.deepEqual(answer.parts.slice(0, 2).map((p) => [p.type, "text" in p ? p.text : undefined]), [
      ["thought", "Considering the greeting."],
      ["text", "Hello from the scripted model."],
    ]);
    // The committed record is what a reload shows.
    const stored = await world.store.message(world.general.id, id);
    assert.deepEqual(stored?.parts, answer.parts);
    const main = server.requests.filter((r) => r.kind === "main" && r.script === "text");
    assert.ok(main.length >= 1, "the agent called the model server");
  });
});

test("claude: its informational notice after the answer is a separate message, not glued to the answer's text", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude say hello script:text");
    await world.settled(id);
    const all = world.events.of("message/finished").filter((m) => m.author.agentName === "claude" && m.status === "done");
    const texts = all.flatMap((m) => m.parts.filter((p) => p.type === "text").map((p) => ("text" in p ? p.text : "")));
    assert.ok(texts.some((t) => t.includes("**Warning:**")), `the notice is shown: ${JSON.stringify(texts)}`);
    for (const text of texts) assert.doesNotMatch(text, /model\.\*\*Warning/, "the answer and the notice run together");
  });
});

test("claude: Read, Edit, Write and Bash really run; the edit carries its diff and the files change on disk", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude work on the notes script:tools");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const calls = toolCalls(answer);
    assert.deepEqual(calls.map((c) => [c.kind, c.status]), [["read", "completed"], ["edit", "completed"], ["edit", "completed"], ["execute", "completed"]]);
    const [read, edit, write, bash] = calls as [ToolCallPart, ToolCallPart, ToolCallPart, ToolCallPart];
    assert.equal(read.title, "Read notes.txt");
    const notes = path.join(world.workspace, "notes.txt");
    assert.deepEqual(edit.diffs, [{ path: notes, oldText: "alpha", newText: "beta" }]);
    assert.deepEqual(write.diffs, [{ path: path.join(world.workspace, "created.txt"), oldText: null, newText: "created by the scripted model\n" }]);
    assert.equal(bash.title, "echo tools-ran-ok");
    assert.match(shownOutput(world, bash), /tools-ran-ok/);
    assert.equal(readFileSync(notes, "utf8"), "beta\n");
    assert.equal(readFileSync(path.join(world.workspace, "created.txt"), "utf8"), "created by the scripted model\n");
    assert.match(textOf(answer), /All tools ran\./);
    // The turn's "files changed" lists both files (found by the walk at the end of the turn).
    const files = answer.parts.find((p) => p.type === "files");
    const finished = files ?? (await waitFor(() => world.events.of("message/finished").filter((m) => m.id === id).map((m) => m.parts.find((p) => p.type === "files")).find(Boolean), 10_000, "the files part"));
    assert.deepEqual(finished && "files" in finished ? finished.files.map((f) => [path.basename(f.path), f.kind]).sort() : [], [["created.txt", "created"], ["notes.txt", "modified"]]);
  });
});

test("claude (Manual mode): a permission request answered Allow once through the channel lets the command run", TIMEOUT, async () => {
  await withClaude(async (world) => {
    await setMode(world, "claude", "default");
    const id = await world.send("@claude create the file script:permission");
    const request = await world.permission(id);
    assert.equal(request.title, "touch permitted.txt");
    assert.deepEqual(request.options.map((o) => o.kind), ["allow_once", "reject_once"]);
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "nothing ran before the answer");
    assert.equal(await world.channels.turns.answerPermission(request.requestId, request.options.find((o) => o.kind === "allow_once")!.optionId), true);
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), true, "the allowed command ran");
    assert.equal(toolCalls(answer)[0]?.status, "completed");
    const card = answer.parts.find((p): p is PermissionPart => p.type === "permission");
    assert.equal(card?.outcome, "allow-once");
  });
});

test("claude (Manual mode): a permission request answered No stops the command; the tool call shows failed", TIMEOUT, async () => {
  await withClaude(async (world) => {
    await setMode(world, "claude", "default");
    const id = await world.send("@claude create the file script:permission");
    const request = await world.permission(id);
    await world.channels.turns.answerPermission(request.requestId, request.options.find((o) => o.kind === "reject_once")!.optionId);
    const answer = await world.settled(id);
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "the rejected command did not run");
    assert.equal(toolCalls(answer)[0]?.status, "failed");
    assert.match(shownOutput(world, toolCalls(answer)[0]!), /refused permission/);
  });
});

test("claude: a TodoWrite tool use arrives as the answer's plan", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude plan it script:plan");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const plan = answer.parts.find((p) => p.type === "plan");
    assert.deepEqual(plan && "entries" in plan ? plan.entries.map((e) => [e.content, e.status]) : [], [
      ["Read the notes", "completed"],
      ["Writing the summary", "in_progress"],
      ["Review the result", "pending"],
    ]);
  });
});

test("claude (Plan mode): ExitPlanMode asks to approve the plan with 4 options; approving switches the mode", TIMEOUT, async () => {
  await withClaude(async (world) => {
    await setMode(world, "claude", "plan");
    const id = await world.send("@claude plan first script:planmode");
    const request = await world.permission(id);
    assert.equal(request.toolKind, "switch_mode");
    assert.deepEqual(request.options.map((o) => o.name), ["Yes, manually approve edits", "Yes, and use auto mode", "Yes, and bypass permissions", "No, keep planning"]);
    await world.channels.turns.answerPermission(request.requestId, request.options[0]!.optionId);
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    assert.match(textOf(answer), /Plan approved\./);
    const state = await waitFor(() => world.events.of("session/state").filter((s) => s.agent === "claude" && currentMode(s) === "default").at(-1), 10_000, "the mode after approval");
    assert.equal(currentMode(state), "default");
  });
});

test("claude: Stop during a long command settles the answer cancelled and the command's processes are gone", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const secs = `30.${process.pid % 1000}1`;
    const id = await world.send(`@claude wait script:long secs=${secs}`);
    await world.part(id, (p): p is ToolCallPart => p.type === "toolCall" && p.title.includes(`sleep ${secs}`));
    await waitFor(() => (processesWith(`sleep ${secs}`).length > 0 ? true : undefined), 20_000, "the sleep process");
    assert.equal(await world.channels.turns.cancel(id), true);
    // Bounded: the answer settles within 20 s of Stop (the command alone would run 30 s).
    const answer = await world.settled(id, 20_000);
    assert.equal(answer.outcome, "cancelled");
    await waitFor(() => (processesWith(`sleep ${secs}`).length === 0 ? true : undefined), 10_000, "the end of the sleep process");
    assert.equal(world.agents.state("claude"), "ready", "the agent itself keeps running");
  });
});

test("claude: an answer stopped mid-stream can run again in the same message, and then completes", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude talk slowly script:slow chunks=20 delay=150");
    await waitFor(() => world.events.of("message/delta").find((d) => d.messageId === id && d.appendText?.includes("word2")), 60_000, "the slow answer streaming");
    assert.equal(await world.channels.turns.cancel(id), true);
    const stopped = await world.settled(id, 20_000);
    assert.equal(stopped.outcome, "cancelled");
    assert.equal(stopped.retryable, true, "a stopped answer offers Run again");
    const mark = world.mark();
    assert.equal(await world.channels.turns.retry(world.general.id, id), true);
    const again = await world.settled(id, 90_000, mark);
    assert.equal(again.outcome, "completed");
    assert.equal(again.attempt, 2);
    assert.match(textOf(again), /word20/);
  });
});

test("claude: a failing command (exit 3) shows failed; the turn itself completes", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude run it script:fail");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const [call] = toolCalls(answer);
    assert.equal(call?.title, "exit 3");
    assert.equal(call?.status, "failed");
    assert.match(shownOutput(world, call!), /Exit code 3/);
  });
});

for (const [fault, expected] of [
  ["http500", /API Error: 500 Internal server error \(scripted HTTP 500\)/],
  ["cut", /Connection dropped \(ECONNRESET\)/],
] as const) {
  test(`claude: a model server fault (${fault}) ends the turn failed with the agent's error, never a hang`, TIMEOUT, async () => {
    await withClaude(async (world) => {
      const id = await world.send(`@claude answer script:${fault}`);
      const answer = await world.settled(id, 60_000);
      assert.equal(answer.outcome, "failed");
      assert.equal(answer.retryable, true);
      assert.match(`${answer.error?.message ?? ""} ${textOf(answer)}`, expected);
    });
  });
}

test("claude: with no model server listening, the turn ends failed with 'Connection refused', never a hang", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude answer script:text");
    const answer = await world.settled(id, 60_000);
    assert.equal(answer.outcome, "failed");
    assert.match(`${answer.error?.message ?? ""} ${textOf(answer)}`, /Connection refused/);
  }, ABSENT_URL);
});

test("claude: after a window reload mid-answer, Retry resumes the same session with session/load and completes", TIMEOUT, async () => {
  await withClaude(async (world) => {
    const id = await world.send("@claude talk slowly script:slow chunks=20 delay=150");
    await waitFor(() => world.events.of("message/delta").find((d) => d.messageId === id && d.appendText?.includes("word2")), 60_000, "the slow answer streaming");
    const member = (await world.store.members(world.general.id)).find((m) => m.agentName === "claude");
    const sessionId = member?.acpSessionId;
    assert.ok(sessionId, "the session id is stored with the membership");
    await world.reload();
    const interrupted = await world.store.message(world.general.id, id);
    assert.equal((await world.store.turn(interrupted!.turnId!))?.outcome, "interrupted");
    const before = server.requests.length;
    const mark = world.mark();
    assert.equal(await world.channels.turns.retry(world.general.id, id), true);
    const answer = await world.settled(id, 90_000, mark);
    assert.equal(answer.outcome, "completed");
    assert.equal(answer.attempt, 2);
    assert.match(textOf(answer), /word20/);
    const logs = world.events.of("agent/log").map((l) => l.line);
    assert.ok(logs.some((l) => l.includes(`session ${sessionId} resumed (ACP session/load)`)), `resumed with session/load:\n${logs.join("\n")}`);
    // The agent remembered the conversation: the retried call carries the first attempt's prompt in its history.
    const retried = server.requests.slice(before).find((r) => r.kind === "main");
    const userTexts = JSON.stringify((retried?.body as { messages?: unknown[] }).messages ?? []);
    assert.equal(userTexts.split("talk slowly script:slow").length - 1, 2, "the first prompt and the retried one");
  });
});

test("claude: Manual mode set before a window reload is in force after it, and a Retry asks again for an unanswered write", TIMEOUT, async () => {
  await withClaude((world) => modeSurvivesReloadAndRetryAsksAgain(world, "claude", "default"));
});

test("claude-agent-acp with no model server configured still says clearly that it needs a sign-in", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => {
    const config = realAgentConfig("claude", { dir, workspace, modelUrl: server.url });
    return [{ ...config, env: { HOME: config.env.HOME!, IS_SANDBOX: "1" } }];
  });
  try {
    assert.equal(AGENT_ENTRIES.claude.endsWith("index.js") && existsSync(NODE24), true);
    const id = await world.send("@claude hello");
    const answer = await world.settled(id, 60_000);
    assert.equal(answer.status, "error");
    assert.equal(answer.error?.code, "agent/request");
    assert.match(answer.error?.message ?? "", /Agent "claude" needs you to sign in first \(Claude Subscription.*Anthropic Console/);
  } finally {
    await world.teardown();
  }
});
