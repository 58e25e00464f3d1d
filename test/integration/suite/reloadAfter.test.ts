/**
 * Reload suite, phase 2 (issue 5), in the extension host that started after phase 1 reloaded the window: the answer
 * that was streaming shows the text that had been checkpointed, an "Interrupted: …" notice and Retry; the message
 * that was queued runs, never "cancelled" (issue 15, item 4: a reload is not the user's Stop); Retry runs attempt 2 in
 * the same message, below a divider, and it completes. Screenshots `turn-interrupted`, `turn-retried`.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { screenshot } from "./harness";
import { quoted, readMarker, type ReloadMarker } from "./reloadPhase";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

describe("reloading the window in the middle of an answer (phase 2, after the reload)", () => {
  let api: SidekicksTestApi;
  let marker: ReloadMarker;
  let answer = "";
  let queued = "";
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await api.webview("test/attribute", { selector, name })).text;

  before(async () => {
    marker = readMarker()!;
    answer = `.history > .message[data-message-id='${marker.answerId}']`;
    queued = `.history > .message[data-message-id='${marker.queuedId}']`;
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    await vscode.commands.executeCommand("sidekicks.focus");
    // Room for the whole answer in the screenshots: a narrower editor area, so a wider side bar (60 px a step).
    for (let i = 0; i < 6; i++) await vscode.commands.executeCommand("workbench.action.decreaseViewWidth");
  });

  it("shows the checkpointed text, the interrupted notice and Retry", async () => {
    const outcome = await poll("the answer to show as interrupted", async () => ((await attribute(answer, "data-outcome")) === "interrupted" ? "interrupted" : undefined), 30_000);
    assert.equal(outcome, "interrupted");
    assert.equal(await attribute(answer, "data-author"), "agent");
    assert.equal(await attribute(answer, "data-status"), "error", "settled, not streaming");
    const user = await text(`.history > .message:has(+ .message[data-message-id='${marker.answerId}']) .message-body`);
    assert.ok(user?.includes(marker.request), "the request is kept above the answer");

    const body = (await text(`${answer} .message-body`)) ?? "";
    // What was shown early had been checkpointed (phase 1 saw the saved record cover it): it is all there (its last word may have been
    // cut by the render; compare whole words up to the one before it).
    const early = quoted(marker.shownEarly).split(" ").slice(0, -1).join(" ");
    const kept = quoted(body);
    assert.match(body, /Hello from the demo agent\. You said:/);
    assert.ok(early.length > 20 && kept.startsWith(early), `the checkpointed text is kept: ${JSON.stringify(kept)} starts with ${JSON.stringify(early)}`);
    // …and the answer was cut: not the whole request, no closing line.
    assert.ok(!kept.includes(quoted(`You said: ${marker.request}`)), "the answer was cut by the reload");
    assert.doesNotMatch(body, /Try @demo show a tool call/);
    const words = (t: string) => quoted(t).split(" ").length;
    console.log(`reload suite: kept ${words(body)} quoted words; ${words(marker.shownEarly)} were shown once checkpointed, ${words(marker.shownAtReload)} at the reload`);

    const notice = (await text(`${answer} .message-interrupted`)) ?? "";
    assert.match(notice, /Interrupted: the window closed or Sidekicks restarted while @demo was answering \(attempt 1\)/);
    assert.equal(await text(`${answer} .message-retry`), "Retry");
  });

  it("the message that was queued at the reload runs to the end: never cancelled", async () => {
    const outcome = await poll(
      "the queued message's answer to settle",
      async () => {
        const now = await attribute(queued, "data-outcome");
        return now && now !== "" ? now : undefined;
      },
      60_000,
    );
    assert.equal(outcome, "completed", "a reload is not the user's Stop");
    assert.equal(await attribute(queued, "data-status"), "done");
    const body = (await text(`${queued} .message-body`)) ?? "";
    const flat = (t: string) => t.replace(/\s+/g, " ").trim();
    assert.ok(flat(body).includes(flat(marker.queuedRequest)), `it answered the queued request: ${JSON.stringify(body)}`);
    assert.doesNotMatch(body, /Cancelled/);
    assert.equal(await attribute(answer, "data-outcome"), "interrupted", "the answer cut by the reload still waits for Retry");
    await screenshot("turn-interrupted");
  }).timeout(90_000);

  it("Retry runs attempt 2 in the same message, below a divider, and it completes", async () => {
    const id = await attribute(answer, "data-message-id");
    assert.equal((await api.webview("test/click", { selector: `${answer} .message-retry` })).clicked, true);
    await poll("attempt 2 to stream", async () => ((await attribute(answer, "data-status")) === "streaming" ? true : undefined), 15_000);
    await poll("attempt 2 to finish", async () => ((await attribute(answer, "data-status")) === "done" ? true : undefined), 75_000);
    assert.equal(await attribute(answer, "data-message-id"), id, "the same message");
    assert.equal(await attribute(answer, "data-outcome"), "completed");
    assert.equal(await text(`${answer} .message-interrupted`), null, "the interrupted notice is gone");
    assert.equal(await text(`${answer} .message-retry`), null, "no Retry on a completed answer");
    assert.match((await text(`${answer} .retry-divider`)) ?? "", /Retry — attempt 2/);
    assert.match((await text(`${answer} .message-attempt`)) ?? "", /attempt 2/);

    const body = (await text(`${answer} .message-body`)) ?? "";
    const [first, second] = body.split(/Retry — attempt 2/);
    assert.ok(quoted(first ?? "").startsWith(quoted(marker.shownEarly).split(" ").slice(0, -1).join(" ")), "attempt 1's text stays above the divider");
    // The demo agent quotes the request and says when Sidekicks' retry note told it what attempt 1 did.
    assert.match(second ?? "", /This is attempt 2: Sidekicks told me what my earlier attempt did\./, "Retry tells the agent about attempt 1");
    const flat = (t: string) => t.replace(/\s+/g, " ").trim();
    assert.ok(flat(second ?? "").includes(flat(marker.request)), `attempt 2 quotes the whole request: ${JSON.stringify(second)}`);
    await screenshot("turn-retried");
  }).timeout(120_000); // attempt 2 quotes the request at 100 ms a word
});
