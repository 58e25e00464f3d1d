/**
 * Entry of the end-to-end render bench (`runCodeServer.mjs --suite e2e`, run by `npm run bench -- --e2e`, never by
 * `npm test`): `render.e2e2MBLagMs` (issue 6). In the real editor, the scripted fake agent (a real subprocess speaking
 * ACP through the SDK) streams a 2 MB answer of realistic Markdown (bench/renderMarkdownDoc.ts) as 2,000 chunks of
 * 1,000 bytes, then writes the wall clock (ms) of its last chunk to a file. Before the prompt, the harness arms a
 * check in the webview's frame (Playwright) that runs every animation frame: once the message is `data-status='done'`
 * and shows the answer's final marker, it takes one more animation frame and keeps the page's wall clock. The lag is the difference; printed as
 * `SIDEKICKS_E2E {"lagMs":N,...}` for bench/renderE2e.ts. The suite asserts only that the answer arrived whole.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostRequests } from "../../../src/shared/protocol";
import { markdownDocument } from "../../../bench/renderMarkdownDoc";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { poll } from "./poll";
import { runMocha } from "./runMocha";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

/** Bytes of the answer and of each chunk. */
const ANSWER_BYTES = 2_000_000;
const CHUNK_BYTES = 1_000;
/** The answer's last line: once the webview shows it, the whole answer is there. */
const MARKER = "E2E-FINAL-MARKER-OF-THE-ANSWER";

const replies = mkdtempSync(path.join(os.tmpdir(), "sidekicks-e2e-"));
let nextReply = 0;

/** A request the harness answers from outside (Playwright in the webview's frame), as vsixBridge.ts does. */
async function harness<T>(method: string, params: object, timeoutMs: number): Promise<T> {
  const reply = path.join(replies, `${++nextReply}.json`);
  console.log(`SIDEKICKS_WEBVIEW ${JSON.stringify({ method, params, reply })}`);
  const answer = await poll(`the harness to answer ${method}`, () => (existsSync(reply) ? (JSON.parse(readFileSync(reply, "utf8")) as { result?: T; error?: string }) : undefined), timeoutMs);
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error}`);
  return answer.result as T;
}

export function run(): Promise<void> {
  return runMocha(async () => {
    describe("end-to-end render of a 2 MB answer", function () {
      this.timeout(300_000);
      let api: SidekicksTestApi;
      const text = async (selector: string) => (await api.webview("test/text", { selector })).text;

      it("paints the whole answer after the agent's last chunk (render.e2e2MBLagMs)", async () => {
        const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
        api = (await extension.activate()).testing!;
        assert.ok(api, "the extension exports no test API");
        const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
        // Whole sections up to the size, then a filler paragraph, then the marker: exactly ANSWER_BYTES.
        const doc = markdownDocument(ANSWER_BYTES);
        const room = ANSWER_BYTES - MARKER.length - 2;
        const sections = doc.slice(0, doc.lastIndexOf("\n## ", room));
        const filler = "\n\n" + "The agent checks the handler again. ".repeat(Math.ceil((room - sections.length) / 36)).slice(0, room - sections.length - 2);
        const answer = `${sections}${filler}\n\n${MARKER}`;
        assert.equal(answer.length, ANSWER_BYTES);
        const answerFile = path.join(replies, "answer.md");
        const doneFile = path.join(replies, "last-chunk-at");
        writeFileSync(answerFile, answer);
        const script = { prompt: [{ textFile: { path: answerFile, size: CHUNK_BYTES, doneFile } }] };
        const roster = ["# The scripted fake agent: a 2 MB answer in 1,000-byte chunks.", "agents:", ...fakeAgentEntry("writer", script, extension.extensionPath)].join("\n");
        writeFileSync(path.join(folder, "sidekicks.yaml"), roster);
        await vscode.commands.executeCommand("sidekicks.focus");
        await poll("#general to show writer as a member", async () => ((await text(".channel-header"))?.includes("writer") ? true : undefined));

        await harness("e2e/arm", { marker: MARKER }, 60_000);
        assert.equal((await api.webview("test/compose", { text: "@writer write the whole plan" })).sent, true);
        const painted = await harness<{ paintedAt: number; shownBytes: number; samples: [number, number, string][]; arrivals: [number, number][] }>("e2e/painted", {}, 280_000);
        const lastChunkAt = Number(readFileSync(doneFile, "utf8"));
        const lagMs = painted.paintedAt - lastChunkAt;
        // How long the agent took to hand its 2,000 chunks to its connection (ms): the lag is measured after that.
        const streamMs = lastChunkAt - Number(readFileSync(`${doneFile}.start`, "utf8"));
        console.log(`SIDEKICKS_E2E ${JSON.stringify({ lagMs, streamMs, bytes: answer.length, chunks: Math.ceil(answer.length / CHUNK_BYTES), shownBytes: painted.shownBytes, load: os.loadavg()[0] })}`);
        console.log(`SIDEKICKS_E2E_SAMPLES ${JSON.stringify(painted.samples.map(([at, chars, status]) => [at - lastChunkAt, chars, status]))}`);
        if (painted.arrivals.length) {
          // Batches of deltas as they reached the webview: [ms after the last chunk, characters]; 10 evenly spaced.
          const a = painted.arrivals;
          const step = Math.max(1, Math.floor(a.length / 10));
          const shown = a.filter((_, i) => i % step === 0 || i === a.length - 1).map(([at, chars]) => [at - lastChunkAt, chars]);
          console.log(`SIDEKICKS_E2E_ARRIVALS ${a.length} batches ${JSON.stringify(shown)}`);
        }
        assert.ok(painted.shownBytes > ANSWER_BYTES * 0.8, `the webview shows the answer (${painted.shownBytes} characters of text)`);
      });
    });
  });
}
