/**
 * Real-agents suite, phase 1 (issue 15; realAgentsIndex.ts): Claude Code and Codex in the real editor. Screenshots in
 * test-results/: realagents-both, realagents-tools-claude, realagents-tools-codex, realagents-stopped-claude,
 * realagents-stopped-codex, realagents-permission-claude, realagents-permission-codex, realagents-answered,
 * realagents-rejected, realagents-streaming, realagents-delegate.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { poll } from "./poll";
import { writeRealAgentsMarker } from "./realAgentsPhase";
import { undoTests } from "./realAgentsUndo";
import { TURN_MS, assertCleanText, attribute, body, chooseMode, click, exists, message, openView, read, resetFiles, screenshot, send, sessionButton, settled, text } from "./realAgentsUi";

/** The modes that ask before a write: Claude's Manual (mode `default`), Codex's Read Only (mode `read-only`). */
export const MODES = { claude: "Manual", codex: "Read-only" } as const;

/** Phase 1's results so far: the reloading test writes them into the marker (its host never reports them). */
const counts = { passed: 0, failed: 0 };

/** Pids of live processes whose command line contains `needle` (Linux /proc). */
function processesWith(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").includes(needle)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids.filter((pid) => pid !== process.pid);
}

describe("real agents in the real editor (phase 1)", function () {
  this.timeout(480_000); // two real turns and a mode change on a loaded machine, each with generous deadlines

  before(async () => {
    await openView();
    // Room for the answers in the pictures: a narrower editor area, so a wider side bar (60 px a step).
    for (let i = 0; i < 6; i++) await vscode.commands.executeCommand("workbench.action.decreaseViewWidth");
    await Promise.resolve(vscode.commands.executeCommand("sidekicks.agents.removeView")).catch(() => undefined);
  });

  afterEach(function () {
    if (this.currentTest?.state === "passed") counts.passed += 1;
    else if (this.currentTest?.state === "failed") {
      counts.failed += 1;
      // Mocha's report of this phase never comes (its host goes away with the reload): the failure is said now.
      console.log(`real-agents suite: FAILED "${this.currentTest.title}": ${this.currentTest.err?.stack ?? this.currentTest.err?.message}`);
    }
  });

  it("@claude @codex in #general: both answer side by side, each with its streamed thinking and text", async () => {
    const [claude, codex] = await send("@claude @codex say hello script:text", ["claude", "codex"]);
    for (const [agent, id] of [["claude", claude!], ["codex", codex!]] as const) {
      assert.equal(await settled(id), "completed", `@${agent}'s answer`);
      assert.match(await body(id), /Hello from the scripted model\./, `@${agent}'s text`);
      assert.match((await text(`${message(id)} .thought`)) ?? "", /\S/, `@${agent}'s thinking is shown`);
      assertCleanText(await body(id), `@${agent}'s answer`);
    }
    await screenshot("realagents-both");
  });

  it("@claude script:delegate member=codex: Claude Code calls Sidekicks' delegate tool; Codex's answer shows nested in Claude's one card and as its own message", async () => {
    const [claude] = await send("@claude hand the greeting over script:delegate member=codex", ["claude"]);
    assert.equal(await settled(claude!), "completed", "@claude's answer");
    assert.match(await body(claude!), /Delegation done\./);
    const card = `${message(claude!)} .tool-call:has(.delegate-child)`;
    assert.equal(await text(`${card} .tool-title`), "Delegated to @codex", "one card, in words, for the MCP call");
    const child = await attribute(`${card} .tool-delegation`, "data-child-message");
    assert.ok(child, "the card links to Codex's answer");
    assert.equal(await settled(child), "completed", "@codex's delegated answer");
    assert.equal(await text(`${message(child)} .message-delegated`), "delegated by @claude via tool");
    await poll("the nested answer to say answered", async () => ((await text(`${card} .delegate-child-state`)) === "answered" ? true : undefined), TURN_MS);
    assert.match((await text(`${card} .delegate-child-preview`)) ?? "", /There are 42 tests\./, "Codex's answer to the request, nested under the card");
    assert.equal(await text(`${card} .tool-content`), null, "the tool result that repeats Codex's answer is not shown twice");
    await screenshot("realagents-delegate", "sidebar");
  });

  for (const agent of ["claude", "codex"] as const) {
    it(`@${agent} script:tools: the tools really run, their cards complete with diffs, and the answer lists the files changed`, async () => {
      resetFiles();
      const [id] = await send(`@${agent} work on the notes script:tools`, [agent]);
      assert.equal(await settled(id!), "completed");
      const answer = message(id!);
      assert.match(await body(id!), /All tools ran\./);
      assert.equal(read("notes.txt"), "beta\n", "notes.txt was edited on disk");
      assert.equal(read("created.txt"), "created by the scripted model\n");
      // Every tool card completed: none left running, failed or without an outcome.
      // The message's parts are siblings: three cards or more (Claude: Read, Edit, Write, Bash; Codex: two commands and
      // a patch).
      assert.notEqual(await attribute(`${answer} .tool-call ~ .tool-call ~ .tool-call`, "class"), null, "at least three tool cards");
      assert.equal(await attribute(`${answer} .tool-call:not([data-status='completed'])`, "data-status"), null, "a tool card did not complete");
      assert.equal(await text(`${answer} .tool-call .status-badge:not(.status-completed)`), null, "a tool card shows another status than done");
      const notes = `${answer} .tool-diff[data-path$='/notes.txt']`;
      assert.equal(await text(`${notes} .diff-added`), "+1");
      assert.equal(await text(`${notes} .diff-removed`), "−1");
      assert.notEqual(await text(`${answer} .tool-diff[data-path$='/created.txt']`), null, "the new file's diff");
      assert.match(await body(id!), /tools-ran-ok/, "the command's output is shown in its card");
      // The files-changed card: the edited file and the new one.
      await poll("the answer's files changed", async () => ((await attribute(`${answer} .files-item[data-path$='/created.txt']`, "data-kind")) !== null ? true : undefined), 30_000);
      assert.equal(await attribute(`${answer} .files-item[data-path$='/notes.txt']`, "data-kind"), "modified");
      assert.match((await text(`${answer} .files-title`)) ?? "", /2 files changed/);
      assertCleanText(await body(id!), `@${agent}'s tools answer`);
      await screenshot(`realagents-tools-${agent}`);
    });
  }

  undoTests();

  for (const agent of ["claude", "codex"] as const) {
    it(`@${agent} script:long, Stop: the answer settles cancelled and the command's card is not left running`, async () => {
      const secs = agent === "claude" ? "41.173" : "42.419";
      const begun = Date.now();
      const [id] = await send(`@${agent} wait a while script:long secs=${secs}`, [agent]);
      const answer = message(id!);
      await poll("the command's card", async () => ((await attribute(`${answer} .tool-call .status-badge.live`, "class")) !== null ? true : undefined), TURN_MS);
      const shown = Date.now();
      await poll(`the command sleep ${secs}`, () => (processesWith(`sleep ${secs}`).length > 0 ? true : undefined), 60_000);
      const running = Date.now();
      const status = await attribute(`${answer} .tool-call`, "data-status");
      await screenshot(`realagents-long-${agent}`);
      await click(`${answer} .message-stop`);
      assert.equal(await settled(id!, 60_000), "cancelled");
      console.log(`real-agents suite: @${agent}'s card showed ${shown - begun} ms after the send, its command ran ${running - shown} ms later while the card said ${status}, the answer settled cancelled ${Date.now() - running} ms after Stop`);
      assert.equal(await text(`${answer} .typing`), null, "no typing indicator after Stop");
      assert.equal(await attribute(`${answer} .tool-call .status-badge.live`, "class"), null, "the command's card still shows it running");
      assert.equal(await attribute(`${answer} .tool-call .status-badge.status-in_progress`, "class"), null, "the command's card still shows it running");
      assert.notEqual(await attribute(`${answer} .tool-call`, "data-status"), null, "the command's card is still shown");
      assertCleanText(await body(id!), `@${agent}'s stopped answer`);
      await screenshot(`realagents-stopped-${agent}`);
      // What the agent did with its command (it runs it itself, Sidekicks never started it): reported, not asserted.
      const stopped = Date.now();
      const gone = await poll(`sleep ${secs} to end`, () => (processesWith(`sleep ${secs}`).length === 0 ? true : undefined), 20_000).catch(() => false);
      console.log(`real-agents suite: after Stop, @${agent}'s sleep ${secs} ${gone ? `ended within ${Date.now() - stopped} ms` : `still runs 20 s later (pids ${processesWith(`sleep ${secs}`).join(", ")})`}`);
    });
  }

  for (const agent of ["claude", "codex"] as const) {
    it(`@${agent} in ${MODES[agent]} mode: a write asks permission; Yes from the card performs it, No leaves it undone`, async () => {
      resetFiles();
      await chooseMode(agent, MODES[agent]);
      // Allowed from the card.
      const [allowed] = await send(`@${agent} create the file script:permission`, [agent]);
      const card = `${message(allowed!)} .permission.card`;
      await poll("the permission card", async () => ((await attribute(card, "data-state")) === "pending" ? true : undefined), TURN_MS);
      assert.equal(exists("permitted.txt"), false, "nothing written before the answer");
      assert.equal(await text(`${message(allowed!)} .tool-terminal-state`), null, "a command waiting for its permission is not said to run");
      // Codex reports its edit in_progress while it asks: the card says it awaits permission, not that it runs.
      assert.equal(await text(`${message(allowed!)} .tool-call .status-badge.live`), null, "a tool call waiting for its permission is not said to run");
      await screenshot(`realagents-permission-${agent}`);
      await click(`${card} button.permission-option.kind-allow_once`);
      assert.equal(await settled(allowed!), "completed");
      assert.equal(await attribute(card, "data-state"), "answered");
      assert.match((await text(`${card} .permission-outcome`)) ?? "", /^Chosen: /);
      assert.equal(exists("permitted.txt"), true, "the allowed write was performed");
      assert.match(await body(allowed!), /Permission step finished\./);
      if (agent === "claude") await screenshot("realagents-answered");

      // Rejected from the card.
      resetFiles();
      const [rejected] = await send(`@${agent} create the file again script:permission`, [agent]);
      const second = `${message(rejected!)} .permission.card`;
      await poll("the second permission card", async () => ((await attribute(second, "data-state")) === "pending" ? true : undefined), TURN_MS);
      await click(`${second} button.permission-option.kind-reject_once`);
      assert.equal(await settled(rejected!), "completed");
      assert.equal(await attribute(second, "data-state"), "answered");
      assert.equal(exists("permitted.txt"), false, "the rejected write was not performed");
      assert.ok((await sessionButton(agent)).startsWith(MODES[agent]), `the header still shows ${MODES[agent]}`);
      if (agent === "codex") await screenshot("realagents-rejected");
    });
  }

  it("both stream a slow answer; the window reloads in the middle", async () => {
    const [claude, codex] = await send("@claude @codex talk slowly script:slow chunks=120 delay=200", ["claude", "codex"]);
    for (const id of [claude!, codex!]) {
      await poll("the slow answer to stream", async () => ((await attribute(message(id), "data-status")) === "streaming" && /word5 /.test(await body(id)) ? true : undefined), TURN_MS);
    }
    await screenshot("realagents-streaming");
    for (const id of [claude!, codex!]) assert.equal(await attribute(message(id), "data-status"), "streaming", "still streaming at the reload");
    writeRealAgentsMarker({ passedBefore: counts.passed + 1, failedBefore: counts.failed, claudeAnswer: claude!, codexAnswer: codex!, claudeMode: MODES.claude, codexMode: MODES.codex, reloadedAt: Date.now() });
    console.log("real-agents suite: reloading the window with both answers streaming");
    await vscode.commands.executeCommand("workbench.action.reloadWindow");
    // A guard, not a synchronisation: this extension host ends with the reload; if it ever elapses, the test fails.
    await new Promise((resolve) => setTimeout(resolve, 120_000));
    assert.fail("the window did not reload");
  });
});
