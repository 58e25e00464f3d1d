/**
 * Reload suite, phase 1 (issue 5): a demo agent slowed down by its roster entry (`SIDEKICKS_DEMO_DELAY_MS`, the pause
 * between streamed words) answers a long request, and a second message to it waits queued (issue 15, item 4: a reload
 * is an interruption, never the user's Stop); after it has streamed for a while, the window reloads for real
 * (`workbench.action.reloadWindow`). Phase 2 (reloadAfter.test.ts) checks what the new window shows.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { quoted, writeMarker } from "./reloadPhase";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  savedText(channel: string, messageId: string): Promise<string | undefined>;
}

/** The request: long enough that the demo agent, at 100 ms a word, quotes it for about 6 s. */
export const REQUEST =
  "please read this long request back to me slowly, one word at a time, so that the window can be reloaded " +
  "while you are still in the middle of it: the first part arrives, is saved as a checkpoint, and the rest never " +
  "comes until I press Retry in the new window after the reload has finished and the history is open again";

/** The message sent while the demo agent answers REQUEST: it waits queued when the window reloads. */
export const QUEUED = "and once that is done, tell me the queue kept this message across the reload";

describe("reloading the window in the middle of an answer (phase 1)", () => {
  let api: SidekicksTestApi;
  const last = ".history > .message:nth-last-child(1)";
  const text = async (selector: string) => (await api.webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await api.webview("test/attribute", { selector, name })).text;

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    const roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    const slowDemo = [
      "# The demo agent, slowed down: 100 ms between streamed words, so an answer takes several seconds.",
      "agents:",
      "  - name: demo",
      "    command: sidekicks:demo",
      "    env:",
      '      SIDEKICKS_DEMO_DELAY_MS: "100"',
      "",
    ].join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(slowDemo));
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show demo as a member", async () => ((await text(".channel-header"))?.includes("demo") ? true : undefined));
  });

  it("reloads the window while the demo agent is answering, with a message queued, after more than a second of streaming", async () => {
    assert.equal((await api.webview("test/compose", { text: `@demo ${REQUEST}` })).sent, true, "the composer did not send");
    // The answer streams: wait until part of the quote is shown.
    const early = await poll(
      "the demo agent's answer to start streaming",
      async () => {
        if ((await attribute(last, "data-author")) !== "agent" || (await attribute(last, "data-status")) !== "streaming") return undefined;
        const body = await text(`${last} .message-body`);
        return body && /You said:[\s\S]*read this long request/.test(body) ? body : undefined;
      },
      30_000,
    );
    const answerId = (await attribute(last, "data-message-id"))!;
    // A second message to the busy agent: queued behind the answer.
    assert.equal((await api.webview("test/compose", { text: `@demo ${QUEUED}` })).sent, true, "the composer did not send the second message");
    const queuedId = await poll("the second message's answer to wait queued", async () =>
      (await attribute(last, "data-status")) === "queued" ? ((await attribute(last, "data-message-id")) ?? undefined) : undefined,
    );
    assert.notEqual(queuedId, answerId);
    const answer = `.history > .message[data-message-id='${answerId}']`;
    // Wait until the store's checkpoint (written at most once a second) covers what was shown early, whole words up to
    // the one before the last (the render may have cut it), and more has streamed since.
    const shownWords = quoted(early).split(" ").slice(0, -1).join(" ");
    await poll("the checkpoint to cover the text shown early", async () => {
      // The saved text is Markdown: the demo agent quotes the request as a block quote (`> `).
      const saved = quoted(((await api.savedText("general", answerId)) ?? "").replace(/^> ?/gm, ""));
      const shown = (await text(`${answer} .message-body`)) ?? "";
      return saved.startsWith(shownWords) && shown.length > early.length ? true : undefined;
    }, 30_000);
    assert.equal(await attribute(answer, "data-status"), "streaming", "the answer is still streaming when the window reloads");
    assert.equal(await attribute(last, "data-status"), "queued", "the second message still waits");
    const atReload = (await text(`${answer} .message-body`)) ?? "";
    assert.ok(atReload.length > early.length, "more text streamed meanwhile");
    assert.doesNotMatch(atReload, /Try `?@demo/, "the answer is not finished yet");
    writeMarker({ passedBefore: 1, shownEarly: early, shownAtReload: atReload, request: REQUEST, reloadedAt: Date.now(), answerId, queuedRequest: QUEUED, queuedId });
    console.log(`reload suite: reloading the window with ${atReload.length} characters shown and one message queued`);
    await vscode.commands.executeCommand("workbench.action.reloadWindow");
    // A guard, not a synchronisation: this extension host ends with the reload; if it ever elapses, the test fails.
    await new Promise((resolve) => setTimeout(resolve, 120_000));
    assert.fail("the window did not reload");
  }).timeout(90_000);
});
