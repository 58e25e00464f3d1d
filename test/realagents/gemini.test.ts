/**
 * Gemini CLI (the published @google/gemini-cli, `gemini --experimental-acp`) runs full turns offline through
 * Sidekicks' agent manager and channels, against the scripted model server's Gemini API (test/fixtures/model-gemini.mjs;
 * scripts in model-scripts.mjs): streamed thoughts and text, read_file / replace / write_file / run_shell_command that
 * really run in the workspace, permission requests in its default mode answered through the channel, Stop during a long
 * command, a failing command, model-server faults, and a Retry after a window reload (its session/load fails: the
 * Retry runs in a new session told the channel's history). Each test has its
 * own temp folder (HOME, workspace, store) and agent process; the tests of this file run one after the other.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PermissionPart } from "../../src/shared/protocol";
import { waitFor } from "../unit/helpers";
import { processesWith, realAgentConfig, realWorld, startModelServer, textOf, toolCalls, type ModelServer, type RealWorld } from "./harness";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

async function withGemini(body: (world: RealWorld) => Promise<void>, options: { served?: boolean } = {}): Promise<void> {
  const world = await realWorld((dir, workspace) => [realAgentConfig("gemini", { dir, workspace, modelUrl: server.url })], options);
  try {
    await body(world);
  } finally {
    await world.teardown();
  }
}

/** Answers every permission request of `messageId` with its option of `kind`, until the answer settles. */
function answerAll(world: RealWorld, messageId: string, kind: PermissionPart["options"][number]["kind"]): () => void {
  const answered = new Set<string>();
  const timer = setInterval(() => {
    for (const d of world.events.of("message/delta")) {
      const p = d.part;
      if (d.messageId !== messageId || p?.type !== "permission" || p.outcome !== undefined || answered.has(p.requestId)) continue;
      answered.add(p.requestId);
      void world.channels.turns.answerPermission(p.requestId, p.options.find((o) => o.kind === kind)!.optionId);
    }
  }, 20);
  return () => clearInterval(timer);
}

const TIMEOUT = { timeout: 180_000 };

test("gemini: streamed thoughts and text arrive as a thought part and a text part", TIMEOUT, async () => {
  await withGemini(async (world) => {
    const id = await world.send("@gemini say hello script:text");
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    const thought = answer.parts.find((p) => p.type === "thought");
    assert.match(thought && "text" in thought ? thought.text : "", /Considering the greeting\./);
    assert.equal(textOf(answer), "Hello from the scripted model.");
  });
});

// Gemini CLI announces an edit by its permission request alone (no tool_call first) and then reports its end as a
// tool_call_update of that id: Sidekicks shows the request's card, but no tool card for it (shapes.test.ts).
test("gemini: read_file, replace, write_file and run_shell_command really run (edits allowed once each); the files change", TIMEOUT, async () => {
  await withGemini(async (world) => {
    const id = await world.send("@gemini work on the notes script:tools");
    const stop = answerAll(world, id, "allow_once");
    try {
      const answer = await world.settled(id);
      assert.equal(answer.outcome, "completed");
      const cards = answer.parts.filter((p): p is PermissionPart => p.type === "permission").map((p) => [p.title, p.toolKind, p.options.find((o) => o.optionId === p.outcome)?.kind]);
      assert.deepEqual(cards, [["notes.txt: alpha => beta", "edit", "allow_once"], ["Writing to created.txt", "edit", "allow_once"]]);
      const calls = toolCalls(answer);
      assert.deepEqual(calls.filter((c) => c.kind !== "edit").map((c) => [c.kind, c.title, c.status]), [["read", "notes.txt", "completed"], ["execute", "echo tools-ran-ok", "completed"]]);
      assert.equal(readFileSync(path.join(world.workspace, "notes.txt"), "utf8"), "beta\n");
      assert.equal(readFileSync(path.join(world.workspace, "created.txt"), "utf8"), "created by the scripted model\n");
      assert.equal(textOf(answer), "All tools ran.");
    } finally {
      stop();
    }
  });
});

// As in the editor: Sidekicks serves Gemini its files. Gemini reads created.txt before writing it and takes any refused
// read for a failure (gemini-cli#9280): it called the write failed and created nothing (a fresh-user trial).
test("gemini, with Sidekicks serving its files as the editor does: write_file creates a new file; the edit lands", TIMEOUT, async () => {
  await withGemini(
    async (world) => {
      const id = await world.send("@gemini work on the notes script:tools");
      const stop = answerAll(world, id, "allow_once");
      try {
        const answer = await world.settled(id);
        assert.equal(answer.outcome, "completed");
        const failed = answer.parts.filter((p) => p.type === "toolCall" && p.status === "failed");
        assert.deepEqual(failed, [], "no tool call failed");
        assert.equal(readFileSync(path.join(world.workspace, "notes.txt"), "utf8"), "beta\n");
        assert.equal(readFileSync(path.join(world.workspace, "created.txt"), "utf8"), "created by the scripted model\n");
        const logs = world.events.of("agent/log").map((l) => l.line);
        assert.ok(logs.some((l) => /fs\/read_text_file: .*created\.txt does not exist; answered with empty text/.test(l)), `the log says how the missing file was answered:\n${logs.join("\n")}`);
      } finally {
        stop();
      }
    },
    { served: true },
  );
});

test("gemini: a command answered No through the channel does not run", TIMEOUT, async () => {
  await withGemini(async (world) => {
    const id = await world.send("@gemini create the file script:permission");
    const request = await world.permission(id);
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "nothing ran before the answer");
    await world.channels.turns.answerPermission(request.requestId, request.options.find((o) => o.kind === "reject_once")!.optionId);
    const answer = await world.settled(id);
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), false, "the rejected command did not run");
    assert.notEqual(toolCalls(answer)[0]?.status, "completed");
  });
});

test("gemini: a command answered Allow once through the channel runs", TIMEOUT, async () => {
  await withGemini(async (world) => {
    const id = await world.send("@gemini create the file script:permission");
    const request = await world.permission(id);
    await world.channels.turns.answerPermission(request.requestId, request.options.find((o) => o.kind === "allow_once")!.optionId);
    const answer = await world.settled(id);
    assert.equal(answer.outcome, "completed");
    assert.equal(existsSync(path.join(world.workspace, "permitted.txt")), true, "the allowed command ran");
  });
});

test("gemini: Stop during a long command settles the answer cancelled and the command's processes are gone", TIMEOUT, async () => {
  await withGemini(async (world) => {
    const secs = `30.${process.pid % 1000}3`;
    const id = await world.send(`@gemini wait script:long secs=${secs}`);
    const stop = answerAll(world, id, "allow_once");
    try {
      await waitFor(() => (processesWith(`sleep ${secs}`).length > 0 ? true : undefined), 30_000, "the sleep process");
      assert.equal(await world.channels.turns.cancel(id), true);
      const answer = await world.settled(id, 20_000);
      assert.equal(answer.outcome, "cancelled");
      await waitFor(() => (processesWith(`sleep ${secs}`).length === 0 ? true : undefined), 10_000, "the end of the sleep process");
    } finally {
      stop();
    }
  });
});

test("gemini: a failing command (exit 3) is asked, runs, and the turn completes", TIMEOUT, async () => {
  await withGemini(async (world) => {
    const id = await world.send("@gemini run it script:fail");
    const stop = answerAll(world, id, "allow_once");
    try {
      const answer = await world.settled(id);
      assert.equal(answer.outcome, "completed");
      assert.equal(answer.parts.find((p): p is PermissionPart => p.type === "permission")?.title, "exit 3");
      assert.match(textOf(answer), /failed with exit code 3/);
    } finally {
      stop();
    }
  });
});

// Gemini CLI retries a failed model call twice, with a backoff (about 17 s in all), then answers the prompt with the
// error. (With nothing listening at all it takes about 90 s: not run here.)
for (const [fault, expected] of [
  ["http500", /Internal server error \(scripted HTTP 500\)/],
  ["cut", /fetch failed/],
] as const) {
  test(`gemini: a model server fault (${fault}) ends the turn failed with the agent's error, never a hang`, TIMEOUT, async () => {
    await withGemini(async (world) => {
      const id = await world.send(`@gemini answer script:${fault}`);
      const answer = await world.settled(id, 90_000);
      assert.equal(answer.outcome, "failed");
      assert.equal(answer.retryable, true);
      assert.match(answer.error?.message ?? "", expected);
    });
  });
}

// Gemini CLI 0.61 offers session/load but answers it "No previous sessions found for this project" for the sessions it
// opened with session/new (its chat record is not found under the ACP session id). Sidekicks then opens a new session
// and tells it the channel's history: the Retry still completes, knowing what was said.
test("gemini: after a window reload mid-answer, Retry completes in a new session told the channel's history when session/load fails", TIMEOUT, async () => {
  await withGemini(async (world) => {
    assert.equal((await world.settled(await world.send("@gemini say hello script:text"))).outcome, "completed");
    const id = await world.send("@gemini talk slowly script:slow chunks=20 delay=150");
    await waitFor(() => world.events.of("message/delta").find((d) => d.messageId === id && d.appendText?.includes("word2")), 60_000, "the slow answer streaming");
    const sessionId = (await world.store.members(world.general.id)).find((m) => m.agentName === "gemini")?.acpSessionId;
    assert.ok(sessionId, "the session id is stored with the membership");
    await world.reload();
    const before = server.requests.length;
    const mark = world.mark();
    assert.equal(await world.channels.turns.retry(world.general.id, id), true);
    const answer = await world.settled(id, 90_000, mark);
    assert.equal(answer.outcome, "completed");
    assert.equal(answer.attempt, 2);
    assert.match(textOf(answer), /word20/);
    const logs = world.events.of("agent/log").map((l) => l.line);
    assert.ok(logs.some((l) => l.includes(`session ${sessionId} `) && /resumed \(ACP session\/load\)|could not be resumed/.test(l)), `session/load was tried:\n${logs.join("\n")}`);
    const retried = JSON.stringify(server.requests.slice(before).find((r) => r.kind === "main")?.body);
    assert.ok(retried.includes("say hello script:text"), "the retried prompt carries the earlier message of the channel");
  });
});
