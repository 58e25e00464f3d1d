/**
 * The hostile-agent suite, what the agent streams (issue 17): content written after a prompt's answer stays with
 * that prompt's turn, and rejected stdout lines do not stay in memory. Real agent subprocesses (the scripted fake
 * agent), the real agent manager and ACP client.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import v8 from "node:v8";
import vm from "node:vm";
import { AcpClient } from "../../src/acp/AcpClient";
import { fakeAgent, harness, textSink } from "./agentManagerHarness";
import { recordingHandlers, tempDir, until } from "./helpers";

const HOSTILE_AGENT = path.resolve(__dirname, "../fixtures/hostile-agent.mjs");

test("chunks an agent writes after answering its prompt go to that prompt's turn, never to the session's next sink", async () => {
  const t = tempDir();
  const trigger = path.join(t.dir, "late");
  const { manager } = harness();
  manager.setRoster([fakeAgent("a", { prompt: [{ chunk: "first" }, { lateChunk: " (late)", when: { path: trigger, includes: "go" } }] })]);
  try {
    const first = textSink();
    const session = await manager.session("a", "c1", first);
    assert.equal(await session.prompt("one"), "end_turn");
    // The next turn of the same session takes the session (its sink is the session's now) but has not prompted yet.
    const next = textSink();
    await manager.session("a", "c1", next);
    writeFileSync(trigger, "go");
    assert.ok(await until(() => first.text() === "first (late)", 10_000), `the late chunk reaches the first turn (it has "${first.text()}")`);
    assert.equal(next.text(), "", "nothing of the first prompt lands in the next turn");
  } finally {
    await manager.stopAll();
    t.cleanup();
  }
});

test("rejected stdout lines are kept only as short quotes: fifty 1 MB garbage lines leave no megabytes behind", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const { handlers, logs } = recordingHandlers();
  gc();
  const before = process.memoryUsage().heapUsed;
  const launch = { command: process.execPath, args: [HOSTILE_AGENT], env: { ...(process.env as Record<string, string>), HOSTILE_GARBAGE_LINES: "50" }, cwd: process.cwd() };
  const client = await AcpClient.start(launch, handlers, { agentName: "noisy" });
  try {
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    assert.equal(logs.filter((l) => l.includes("stdout line skipped")).length, 50, "each rejected line has its log line");
    assert.ok(logs.every((l) => l.length < 1_000), "log lines quote the start only");
    assert.ok(growth < 8 * 1024 * 1024, `rejected lines keep ${(growth / 1024 / 1024).toFixed(1)} MB alive (50 MB of lines came)`);
  } finally {
    await client.stop();
  }
});
