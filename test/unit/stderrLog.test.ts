/**
 * An agent's stderr in its log (field case 8): a flood reaches the log as at most 200 lines a second and a count of
 * the lines left out, so the log keeps its start-up lines and the extension host is not spent on log calls; what the
 * agent says on stdout is untouched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../src/agents/Clock";
import { StderrLog } from "../../src/agents/StderrLog";
import { fakeAgent, harness, textSink } from "./agentManagerHarness";

function recorder() {
  const lines: [string, string][] = [];
  return { lines, write: (level: "info" | "warn", line: string) => void lines.push([level, line]) };
}

test("a flood keeps the first 200 lines of each second, in order, then says how many it left out", () => {
  const clock = new ManualClock();
  const log = recorder();
  const stderr = new StderrLog(log.write, clock);
  for (let i = 0; i < 500; i++) stderr.line(`line ${i}`);
  assert.equal(log.lines.length, 200);
  assert.deepEqual(log.lines.at(-1), ["info", "line 199"]);
  assert.ok(log.lines.every(([level, line], i) => level === "info" && line === `line ${i}`), "the kept lines, in order");

  clock.advance(999);
  assert.equal(log.lines.length, 200, "the count waits for the second to end");
  clock.advance(1);
  assert.equal(log.lines.length, 201);
  assert.equal(log.lines[200]?.[0], "warn");
  assert.match(log.lines[200]?.[1] ?? "", /^\[sidekicks\] 300 stderr lines not logged: more than 200 a second\. The last 64 KB/);

  // The next second starts afresh; a quiet agent costs nothing more.
  stderr.line("after the flood");
  assert.deepEqual(log.lines.at(-1), ["info", "after the flood"]);
  stderr.flush();
  assert.equal(log.lines.length, 202, "nothing was left out, so nothing to say");
  assert.equal(clock.pending, 0, "no timer is left waiting");
});

test("a coloured stderr line reaches the log as its text, without the escape codes an output channel would show", () => {
  const log = recorder();
  const stderr = new StderrLog(log.write, new ManualClock());
  stderr.line("\u001b[31mfatal:\u001b[0m killed");
  assert.deepEqual(log.lines, [["info", "fatal: killed"]]);
});

test("the count is written when the agent exits, not lost with its timer", () => {
  const clock = new ManualClock();
  const log = recorder();
  const stderr = new StderrLog(log.write, clock, 2, 1_000);
  for (const line of ["a", "b", "c", "d"]) stderr.line(line);
  stderr.flush();
  assert.deepEqual(log.lines.map(([, line]) => line.slice(0, 40)), ["a", "b", "[sidekicks] 2 stderr lines not logged: m"]);
  assert.equal(clock.pending, 0);
  clock.advance(5_000);
  assert.equal(log.lines.length, 3, "written once");
});

test("field case 8 through the agent manager: 20,000 stderr lines while streaming log 200 lines and one count; every stdout chunk arrives", async (t) => {
  const { events, manager } = harness();
  t.after(() => manager.stopAll());
  manager.setRoster([fakeAgent("noisy", { prompt: [{ stderrFlood: { lines: 20_000, size: 256 } }, { chunks: { count: 200, size: 10 } }] })]);
  const sink = textSink();
  const session = await manager.session("noisy", "ch", sink);
  assert.equal(await session.prompt("go"), "end_turn");
  assert.equal(sink.text().length, 2_000, "every stdout chunk arrived");
  await manager.stop("noisy");
  // The manual clock never reaches the end of the second: the count comes with the exit.
  await new Promise((resolve) => setImmediate(resolve));
  const stderrLines = events.logs("noisy").filter((line) => /^e+$/.test(line));
  assert.equal(stderrLines.length, 200, "the first 200 lines are in the log");
  const counts = events.of("agent/log").filter((e) => e.agent === "noisy" && e.level === "warn").map((e) => e.line);
  assert.deepEqual(counts, ["[sidekicks] 19,800 stderr lines not logged: more than 200 a second. The last 64 KB of stderr are kept for the error shown if the agent exits."]);
});
