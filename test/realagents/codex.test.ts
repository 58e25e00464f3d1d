/**
 * Codex (the published codex-acp, Codex's app-server inside) runs full turns offline through Sidekicks' agent manager
 * and channels, against the scripted model server's OpenAI Responses API (test/fixtures/model-server.mjs; scripts in
 * model-scripts.mjs): streamed reasoning and text, exec_command and apply_patch that really run in the workspace
 * (Codex's own sandbox), a permission request in mode `read-only` answered through the channel, a plan
 * (update_plan), Stop during a long command, a failing command, model-server faults, a Retry after a window
 * reload that resumes the session with ACP `session/load`, and Read-only kept across that reload (a Retry asks again
 * for a write never answered). Each test has its own temp folder (HOME, CODEX_HOME,
 * workspace, store) and agent process; the tests of this file run one after the other.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PermissionPart, ToolCallPart } from "../../src/shared/protocol";
import { waitFor } from "../unit/helpers";
import { modeSurvivesReloadAndRetryAsksAgain } from "./scenarios";
import { processesWith, realAgentConfig, setMode, shownOutput, realWorld, startModelServer, textOf, toolCalls, type ModelServer, type RealWorld } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

/** Runs `body` in a fresh world with Codex pointed at the scripted server. */
async function withCodex(body: (world: RealWorld) => Promise<void>): Promise<void> {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: server.url })]);
  try {
    await body(world);
  } finally {
    await world.teardown();
  }
}

const TIMEOUT = { timeout: 180_000 };

test("codex: the reasoning summary and the streamed text arrive as a thought part and a text part", TIMEOUT, async () => {
  await withCodex(async (world) => {
    const id = await world.send("@codex say hello script:text");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const thought = answer.parts.find((p) => p.type === "thought");
    assert.equal(thought && "text" in thought ? thought.text.trim() : undefined, "Considering the greeting.");
    assert.equal(textOf(answer), "Hello from the scripted model.");
    const request = server.requests.find((r) => r.api === "openai" && r.script === "text");
    assert.equal(request?.model, "gpt-5.5");
  });
});

test("codex: exec_command and apply_patch really run; the patch carries its diffs and the files change on disk", TIMEOUT, async () => {
  await withCodex(async (world) => {
    const id = await world.send("@codex work on the notes script:tools");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const calls = toolCalls(answer);
    assert.deepEqual(calls.map((c) => [c.kind, c.status]), [["read", "completed"], ["edit", "completed"], ["execute", "completed"]]);
    const [read, patch, exec] = calls as [ToolCallPart, ToolCallPart, ToolCallPart];
    const notes = path.join(world.workspace, "notes.txt");
    assert.equal(read.title, `Read file '${notes}'`);
    assert.deepEqual(patch.diffs?.map((d) => [path.basename(d.path), d.oldText, d.newText]), [
      ["created.txt", null, "created by the scripted model\n"],
      ["notes.txt", "alpha\n", "beta\n"],
    ]);
    assert.equal(exec.title, "echo tools-ran-ok");
    assert.equal(readFileSync(notes, "utf8"), "beta\n");
    assert.equal(readFileSync(path.join(world.workspace, "created.txt"), "utf8"), "created by the scripted model\n");
    assert.equal(textOf(answer), "All tools ran.");
  });
});

test("codex: the output of its read and of its command (only in _meta.terminal_output_delta) reaches their cards", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: server.url })]);
  try {
    const id = await world.send("@codex work on the notes script:tools");
    const answer = await world.settled(id);
    const [read, , exec] = toolCalls(answer) as [ToolCallPart, ToolCallPart, ToolCallPart];
    assert.match(shownOutput(world, read), /alpha/, `the read's text (notes.txt held "alpha") is shown: ${JSON.stringify(read)}`);
    assert.match(shownOutput(world, exec), /tools-ran-ok/, `the command's output is shown: ${JSON.stringify(exec)}`);
  } finally {
    await world.teardown();
  }
});

test("codex (Read-only): a write asks permission; Allow once through the channel lets apply_patch write the file", TIMEOUT, async () => {
  await withCodex(async (world) => {
    await setMode(world, "codex", "read-only");
    const id = await world.send("@codex create the file script:permission");
    const request = await world.permission(id);
    assert.deepEqual(request.options.map((o) => [o.name, o.kind]), [
      ["Yes, proceed", "allow_once"],
      ["Yes, and don't ask again for these files", "allow_always"],
      ["No, and tell Codex what to do differently", "reject_once"],
    ]);
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "nothing was written before the answer");
    await world.channels.turns.answerPermission(request.requestId, "allow_once");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    assert.equal(readFileSync(path.join(world.workspace, "permitted.txt"), "utf8"), "permitted\n");
    assert.equal(toolCalls(answer)[0]?.status, "completed");
  });
});

test("codex (Read-only): a write answered No is not performed", TIMEOUT, async () => {
  await withCodex(async (world) => {
    await setMode(world, "codex", "read-only");
    const id = await world.send("@codex create the file script:permission");
    const request = await world.permission(id);
    await world.channels.turns.answerPermission(request.requestId, request.options.find((o) => o.kind === "reject_once")!.optionId);
    const answer = await world.settled(id);
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "the rejected write did not happen");
    assert.notEqual(toolCalls(answer)[0]?.status, "completed");
  });
});

test("codex: the permission card shows the title its request carries (\"Edit files\"; its tool call says \"Editing files\")", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => [realAgentConfig("codex", { dir, workspace, modelUrl: server.url })]);
  try {
    await setMode(world, "codex", "read-only");
    const id = await world.send("@codex create the file script:permission");
    const request = await world.permission(id);
    const tool = toolCalls((await world.store.message(world.general.id, id)) as never).at(0);
    assert.equal(request.title, "Edit files", `the card shows "${request.title}" (its tool call says "${tool?.title}")`);
    await world.channels.turns.answerPermission(request.requestId, request.options.find((o: PermissionPart["options"][number]) => o.kind === "reject_once")!.optionId);
    await world.settled(id);
  } finally {
    await world.teardown();
  }
});

test("codex: update_plan arrives as the answer's plan", TIMEOUT, async () => {
  await withCodex(async (world) => {
    const id = await world.send("@codex plan it script:plan");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const plan = answer.parts.find((p) => p.type === "plan");
    assert.deepEqual(plan && "entries" in plan ? plan.entries.map((e) => [e.content, e.status]) : [], [
      ["Read the notes", "completed"],
      ["Write the summary", "in_progress"],
      ["Review the result", "pending"],
    ]);
  });
});

// Unlike Claude Code, Codex does not end the command on session/cancel: its exec sessions outlive an interrupted turn
// and the command runs on until it ends by itself (seen with codex-acp 2.6.0). So this test does not check the
// process after Stop; the answer settles and the agent stays usable.
test("codex: Stop during a long command settles the answer cancelled; the agent stays ready", TIMEOUT, async () => {
  await withCodex(async (world) => {
    const secs = `30.${process.pid % 1000}2`;
    const id = await world.send(`@codex wait script:long secs=${secs}`);
    await world.part(id, (p): p is ToolCallPart => p.type === "toolCall" && p.title.includes(`sleep ${secs}`));
    await waitFor(() => (processesWith(`sleep ${secs}`).length > 0 ? true : undefined), 20_000, "the sleep process");
    assert.equal(await world.channels.turns.cancel(id), true);
    // Bounded: the answer settles within 20 s of Stop (the command alone would run 30 s).
    const answer = await world.settled(id, 20_000);
    assert.equal(answer.outcome, "cancelled");
    assert.equal(world.agents.state("codex"), "ready", "the agent itself keeps running");
    const next = await world.send("@codex again script:text");
    assert.equal((await world.settled(next)).outcome, "completed");
  });
});

test("codex: a failing command (exit 3) shows failed; the turn itself completes", TIMEOUT, async () => {
  await withCodex(async (world) => {
    const id = await world.send("@codex run it script:fail");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const [call] = toolCalls(answer);
    assert.equal(call?.title, "exit 3");
    assert.equal(call?.status, "failed");
    assert.match(textOf(answer), /failed with exit code 3/);
  });
});

// codex-acp reports a failed model call as an ordinary answer: its error text, then stop reason end_turn (and no
// usage). The turn settles, and what went wrong is what the user reads.
for (const [fault, expected] of [
  ["http500", /currently experiencing high demand/],
  ["cut", /stream disconnected before completion/],
] as const) {
  test(`codex: a model server fault (${fault}) settles the turn with Codex's error text, never a hang`, TIMEOUT, async () => {
    await withCodex(async (world) => {
      const id = await world.send(`@codex answer script:${fault}`);
      const answer = await world.settled(id, 60_000);
      assert.equal(answer.status, "done");
      assert.match(textOf(answer), expected);
    });
  });
}

test("codex: after a window reload mid-answer, Retry resumes the same session with session/load and completes", TIMEOUT, async () => {
  await withCodex(async (world) => {
    const id = await world.send("@codex talk slowly script:slow chunks=20 delay=150");
    await waitFor(() => world.events.of("message/delta").find((d) => d.messageId === id && d.appendText?.includes("word2")), 60_000, "the slow answer streaming");
    const sessionId = (await world.store.members(world.general.id)).find((m) => m.agentName === "codex")?.acpSessionId;
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
    const retried = server.requests.slice(before).find((r) => r.kind === "main");
    const input = JSON.stringify((retried?.body as { input?: unknown[] }).input ?? []);
    assert.equal(input.split("talk slowly script:slow").length - 1, 2, "the first prompt and the retried one");
  });
});

test("codex: Read-only set before a window reload is in force after it, and a Retry asks again for an unanswered write", TIMEOUT, async () => {
  await withCodex((world) => modeSurvivesReloadAndRetryAsksAgain(world, "codex", "read-only"));
});

test("codex-acp with no model provider configured still says clearly that it needs a sign-in", TIMEOUT, async () => {
  const world = await realWorld((dir, workspace) => {
    const config = realAgentConfig("codex", { dir, workspace, modelUrl: server.url });
    return [{ ...config, env: { HOME: config.env.HOME! } }];
  });
  try {
    const id = await world.send("@codex hello");
    const answer = await world.settled(id, 60_000);
    assert.equal(answer.status, "error");
    assert.equal(answer.error?.code, "agent/request");
    assert.match(answer.error?.message ?? "", /Agent "codex" needs you to sign in first \(API Key.*ChatGPT/);
  } finally {
    await world.teardown();
  }
});
