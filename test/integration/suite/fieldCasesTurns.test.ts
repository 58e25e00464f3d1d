/**
 * Field cases 1, 2, 4, 5, 6, 7, 8, 20, 23, 24 and 25 (`../shared/cases/field-cases.md`) replayed in a real editor:
 * one scripted fake agent per case, each a real subprocess speaking ACP, in #general; what the real webview shows
 * is read from its DOM, and what the store kept through the test API. Each exchange ends: the answer settles, with
 * the state and the words the case expects. Screenshot `field-cases-turns`. Replaces the roster and puts it back after.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { fieldCaseChannel, update, type FieldCaseApi } from "./fieldCaseChannel";
import { screenshot } from "./harness";
import { keptRoster } from "./keptRoster";
import { poll } from "./poll";

const plan = (...entries: [string, string][]) => update({ sessionUpdate: "plan", entries: entries.map(([content, status]) => ({ content, priority: "medium", status })) });
/** Field case 8: 20 chunks, each after 2,000 stderr lines of 256 bytes (10 MB of stderr in all). */
const flood = Array.from({ length: 20 }, (_, i) => [{ stderrFlood: { lines: 2_000, size: 256 } }, { chunk: `${i} ` }]).flat();

const AGENTS: Record<string, object> = {
  late: { prompt: [{ chunk: "Hello" }, { lateChunk: ", world." }] },
  unknowntool: { prompt: [{ toolCallUpdate: { toolCallId: "nope_1", status: "completed" } }, { chunk: "Still here." }] },
  othersession: { prompt: [{ notifySession: "not-mine" }, { chunk: "Mine only." }] },
  banner: { banner: ["Loaded cached credentials.", "\u001b]0;zsh\u0007{not json"], prompt: [{ raw: "\u001b]0;zsh\u0007not json either" }, { chunk: "Started anyway." }] },
  notacp: { banner: ["Welcome to FooCLI 2.1 — type /help"], silent: true },
  dies: { prompt: [{ chunk: "Working on it" }, { toolCall: { toolCallId: "t9", title: "Run tests", status: "in_progress" } }, { stderr: "panic: boom" }, { sleep: 30 }, { exit: 143 }] },
  flood: { prompt: flood },
  asks: { honorCancel: false, prompt: [{ permission: { toolCallId: "t2" } }, { permission: { toolCallId: "t3" } }, { chunk: " after" }] },
  stubborn: { ignoreCancel: true, prompt: [{ chunk: "Working" }, { untilCancelled: true, once: true }, { chunk: " and still talking" }, { lateChunk: " (late)" }, { stop: "end_turn" }] },
  planner: { prompt: [plan(["Read", "in_progress"], ["Fix", "pending"]), plan(["Read", "completed"], ["Fix", "in_progress"], ["Test", "pending"]), { chunk: "Halfway." }] },
  unplanned: { prompt: [plan(["Read", "in_progress"]), { chunk: "No plan " }, plan(), { chunk: "after all." }] },
  future: {
    prompt: [
      update({ sessionUpdate: "something_new", payload: 1 }),
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Shown", _meta: { a: 1 } }, _meta: { b: 2 } }),
      { toolCall: { toolCallId: "t1", title: "Read a.ts", kind: "read", status: "completed", _meta: { c: 3 }, content: [{ type: "content", content: { type: "text", text: "ok" }, _meta: {} }] } },
    ],
  },
  newer: { protocolVersion: 2, prompt: [{ chunk: "never" }] },
};

describe("field cases in the real editor: every exchange ends as the case expects", () => {
  const kept = keptRoster<FieldCaseApi>();
  const ch = fieldCaseChannel(() => kept.api);
  const state = (agent: string) => ch.attribute(`.channel-header .member[data-member='${agent}']`, "data-state");
  /** Asserts the send added exactly the user's message and one answer (no phantom turn). */
  const twoAdded = async (before: string | null) => assert.equal(await ch.attribute(".history > .message:nth-last-child(3)", "data-message-id"), before, "the send added the message and one answer");

  before(async () => {
    const entries = Object.entries(AGENTS).flatMap(([name, script]) => fakeAgentEntry(name, script, kept.extensionPath));
    await kept.write(["# One scripted fake agent per field case.", "agents:", ...entries]);
    await vscode.commands.executeCommand("sidekicks.focus");
    // Many members: the header folds them behind "+N more", so the badge is looked for, not its text.
    await poll("#general to list every case's agent", async () => ((await ch.attribute(".channel-header .member[data-member='newer']", "data-state")) ? true : undefined));
  });

  it("case 1: a chunk after the prompt result joins the finished message; the agent is ready; no phantom turn", async () => {
    const { answer, id, before } = await ch.ask("@late hi");
    await poll("the late chunk in the answer", async () => ((await ch.text(`${answer} .message-body`))?.trim() === "Hello, world." ? true : undefined));
    await twoAdded(before);
    assert.equal(await state("late"), "ready");
    await poll("the store to keep the whole text", async () => ((await kept.api.savedText("general", id)) === "Hello, world." ? true : undefined));
  });

  it("case 2: an update for a tool call never announced shows no card and the answer goes on", async () => {
    const { answer } = await ch.ask("@unknowntool go");
    assert.equal(await ch.attribute(answer, "data-status"), "done");
    assert.equal(await ch.count(`${answer} .tool-call`), 0);
    assert.equal((await ch.text(`${answer} .message-body`))?.trim(), "Still here.");
  });

  it("case 5: text for another session is dropped; the connection stays", async () => {
    const { answer } = await ch.ask("@othersession go");
    assert.equal((await ch.text(`${answer} .message-body`))?.trim(), "Mine only.");
    assert.equal((await ch.text(".history"))?.includes("not yours"), false);
    assert.equal((await ch.ask("@othersession again")).answer !== answer, true, "the same agent answers again");
  });

  it("case 6: lines that are not JSON are skipped and the agent starts; a CLI that never speaks ACP fails soon, quoting its banner", async () => {
    const { answer } = await ch.ask("@banner go");
    assert.equal((await ch.text(`${answer} .message-body`))?.trim(), "Started anyway.");
    const failed = await ch.ask("@notacp go", 45_000);
    assert.equal(await ch.attribute(failed.answer, "data-status"), "error");
    assert.match((await ch.text(`${failed.answer} .message-error`)) ?? "", /printed text that is not ACP \("Welcome to FooCLI 2\.1 — type \/help"\)/);
    assert.equal((await ch.text(`${failed.answer} .message-error`))?.includes("\u001b"), false);
  });

  it("case 7: an agent dying mid-turn keeps the partial text, fails its tool call, says why with its stderr, offers Retry", async () => {
    const { answer } = await ch.ask("@dies go");
    assert.equal(await ch.attribute(answer, "data-status"), "error");
    assert.match((await ch.text(`${answer} .message-body`)) ?? "", /^Working on it/);
    assert.equal(await ch.attribute(`${answer} .tool-call[data-tool-call-id='t9']`, "data-status"), "failed");
    assert.match((await ch.text(`${answer} .message-error-text`)) ?? "", /exited \(code 143\)/);
    assert.match((await ch.text(`${answer} .message-error-detail`)) ?? "", /panic: boom/);
    assert.equal(await ch.count(`${answer} .message-retry`), 1, "Retry is offered");
    assert.equal(await ch.attribute("#composer textarea", "disabled"), null, "the composer stays usable");
  });

  it("case 8: a stderr flood while streaming keeps every chunk, in order, and no error", async () => {
    const { answer } = await ch.ask("@flood go", 60_000);
    assert.equal(await ch.attribute(answer, "data-status"), "done");
    assert.equal((await ch.text(`${answer} .message-body`))?.trim(), Array.from({ length: 20 }, (_, i) => i).join(" "));
    assert.equal(await ch.count(`${answer} .message-error`), 0);
    assert.equal(await state("flood"), "ready");
  });

  it("case 4: Stop answers the pending permission cancelled; one asked after Stop is never shown; no button left to press", async () => {
    const before = await ch.lastId();
    assert.equal((await kept.api.webview("test/compose", { text: "@asks edit" })).sent, true);
    const id = await poll("the permission card", async () => {
      const last = await ch.lastId();
      return last !== before && last && (await ch.count(`.message[data-message-id='${last}'] button.permission-option`)) > 0 ? last : undefined;
    });
    const answer = `.message[data-message-id='${id}']`;
    assert.equal(await ch.click(`${answer} .message-stop`), true);
    await ch.settled(answer);
    assert.equal(await ch.attribute(answer, "data-outcome"), "cancelled");
    assert.equal(await ch.count(`${answer} button.permission-option:enabled`), 0, "no button can be pressed any more");
    assert.equal((await ch.text(`${answer} .permission-outcome`))?.trim(), "Cancelled");
    assert.equal(await ch.count(`${answer} .permission.card`), 1, "the request asked after Stop was never shown");
    await twoAdded(before);
  });

  it("case 23: end_turn after Stop still settles cancelled; late text stays with it; the next prompt works", async () => {
    const before = await ch.lastId();
    assert.equal((await kept.api.webview("test/compose", { text: "@stubborn go" })).sent, true);
    const id = await poll("the first words", async () => {
      const last = await ch.lastId();
      return last !== before && last && (await ch.text(`.message[data-message-id='${last}'] .message-body`))?.includes("Working") ? last : undefined;
    });
    const answer = `.message[data-message-id='${id}']`;
    assert.equal(await ch.click(`${answer} .message-stop`), true);
    await ch.settled(answer);
    assert.equal(await ch.attribute(answer, "data-outcome"), "cancelled");
    await poll("the late text in the stopped answer", async () => ((await ch.text(`${answer} .message-body`))?.includes("(late)") ? true : undefined));
    await twoAdded(before);
    const next = await ch.ask("@stubborn again");
    assert.equal(await ch.attribute(next.answer, "data-outcome"), "completed");
  });

  it("case 24: each plan replaces the last: one plan card, the latest", async () => {
    const { answer } = await ch.ask("@planner fix it");
    assert.equal(await ch.count(`${answer} .plan.card`), 1);
    const statuses = [];
    for (let i = 1; i <= 3; i++) statuses.push(await ch.attribute(`${answer} .plan-entry:nth-child(${i})`, "data-status"));
    assert.deepEqual(statuses, ["completed", "in_progress", "pending"]);
    assert.match((await ch.text(`${answer} .plan.card`)) ?? "", /Test/);
  });

  it("case 24: an empty plan clears it: no card once the answer settles, nor after the store is reopened", async () => {
    const { answer } = await ch.ask("@unplanned go");
    assert.equal(await ch.count(`${answer} .plan`), 0);
    assert.match((await ch.text(`${answer} .message-body`)) ?? "", /No plan after all\./);
    await kept.api.reopenStore();
    await poll("the answer back from the store, with no plan", async () => ((await ch.text(`${answer} .message-body`))?.includes("after all") ? true : undefined), 30_000);
    assert.equal(await ch.count(`${answer} .plan`), 0);
  });

  it("case 25: an update kind ACP does not define is ignored and _meta everywhere hides nothing", async () => {
    const { answer } = await ch.ask("@future go");
    assert.equal(await ch.attribute(answer, "data-outcome"), "completed");
    assert.match((await ch.text(`${answer} .message-body`)) ?? "", /^Shown/);
    assert.equal(await ch.count(`${answer} .tool-call[data-tool-call-id='t1']`), 1);
    assert.equal(await ch.count(`${answer} .message-error`), 0);
  });

  it("case 20: an agent answering a protocol version Sidekicks does not speak is told apart, naming both versions", async () => {
    const { answer } = await ch.ask("@newer hi");
    assert.equal(await ch.attribute(answer, "data-status"), "error");
    assert.match((await ch.text(`${answer} .message-error`)) ?? "", /speaks ACP protocol version 2; Sidekicks speaks version 1/);
    assert.equal((await ch.text(`${answer} .message-body`))?.includes("never"), false);
    await screenshot("field-cases-turns", "sidebar");
  });
});
