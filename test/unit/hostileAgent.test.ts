/**
 * The hostile-agent suite, through the real channel core (issue 17): a raw JSON-RPC agent (test/fixtures/
 * hostile-agent.mjs, a real subprocess) sends what the SDK never would, and the host stays up, tells the agent no,
 * and every turn settles. LevelDB in a temp folder, a real workspace folder with FIFOs and a socket in it.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import test from "node:test";
import type { AgentConfig } from "../../src/config/roster";
import { MAX_PENDING_PERMISSIONS } from "../../src/agents/policy";
import type { MessageView } from "../../src/shared/protocol";
import { channelSetup, textOf } from "./channelHarness";
import { tempDir, waitFor } from "./helpers";

const HOSTILE_AGENT = path.resolve(__dirname, "../fixtures/hostile-agent.mjs");

function hostile(name: string, logFile: string): AgentConfig {
  return { name, command: process.execPath, args: [HOSTILE_AGENT], env: { HOSTILE_LOG: logFile } };
}

/** The answers the agent got, one per request: `{id, result}` or `{id, error}`. */
function answers(logFile: string): { id: string; result?: { outcome?: { outcome: string } }; error?: { message: string; data?: { code?: string } } }[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

async function setup() {
  const t = tempDir("sidekicks-hostile-");
  const folder = path.join(t.dir, "ws");
  execFileSync("mkdir", ["-p", folder]);
  const logFile = path.join(t.dir, "answers.jsonl");
  const s = await channelSetup([hostile("h", logFile)], { workspaceFolder: folder, workspace: {} });
  let sent = 0;
  /** Sends `text` and resolves with the agent's settled answer to it. */
  const ask = async (text: string, timeoutMs = 15_000): Promise<MessageView> => {
    await s.channels.messages.send(s.general.id, text);
    sent += 1;
    const nth = sent;
    return waitFor(() => s.events.of("message/finished").filter((m) => m.author.kind === "agent")[nth - 1], timeoutMs, `answer ${nth}`);
  };
  return { s, folder, logFile, ask, cleanup: async () => (await s.teardown(), t.cleanup()) };
}

test("a null prompt result and a stop reason outside ACP's list are protocol errors, not completed turns", async () => {
  const { ask, cleanup } = await setup();
  try {
    const nul = await ask("@h hostile:null-result");
    assert.equal(nul.outcome, "failed");
    assert.equal(nul.error?.code, "agent/protocol");
    assert.match(nul.error!.message, /ended its turn with the result null, which ACP does not define/);
    assert.doesNotMatch(nul.error!.message, /Cannot read properties/);
    const odd = await ask("@h hostile:odd-stop");
    assert.equal(odd.outcome, "failed");
    assert.match(odd.error!.message, /the stop reason "paused"/);
    assert.equal(textOf(odd), "partial answer", "the answer streamed before the bad result is kept");
    const next = await ask("@h hostile:hello");
    assert.equal(next.outcome, "completed", "the agent is still usable");
    assert.equal(textOf(next), "ok");
  } finally {
    await cleanup();
  }
});

test("a flood of permission requests is capped per agent, and the ones still waiting when the prompt ends are answered cancelled", async () => {
  const { s, ask, logFile, cleanup } = await setup();
  try {
    const answer = await ask("@h hostile:permission-flood");
    assert.equal(answer.outcome, "completed");
    // Every one of the 40 requests is answered: the agent is told, and can free what it holds.
    const got = await waitFor(() => (answers(logFile).length >= 40 ? answers(logFile) : undefined), 15_000, "40 answers");
    const refused = got.filter((a) => a.error);
    assert.equal(refused.length, 40 - MAX_PENDING_PERMISSIONS, "the requests over the limit are refused");
    for (const r of refused) {
      assert.equal(r.error?.data?.code, "agent/requestLimit");
      assert.match(r.error!.message, /Too many permission requests: 32 are waiting/);
    }
    const cancelled = got.filter((a) => a.result?.outcome?.outcome === "cancelled");
    assert.equal(cancelled.length, MAX_PENDING_PERMISSIONS, "the ones waiting when the prompt ended are answered cancelled");
    const logged = s.events.of("agent/log").filter((l) => l.agent === "h" && /permission request .* refused/.test(l.line));
    assert.equal(logged.length, 40 - MAX_PENDING_PERMISSIONS, "one log line per refusal");
    const shown = answer.parts.filter((p) => p.type === "permission");
    assert.ok(shown.length <= MAX_PENDING_PERMISSIONS);
    assert.ok(shown.every((p) => p.type === "permission" && p.outcome !== undefined), "no card is left with buttons");
  } finally {
    await cleanup();
  }
});

test("reads of FIFOs and sockets in the workspace are refused at once; the host's file calls and the next turn go on", async () => {
  const { folder, ask, cleanup } = await setup();
  const server = net.createServer();
  try {
    const fifos = [1, 2, 3, 4, 5, 6].map((n) => path.join(folder, `pipe${n}`));
    for (const f of fifos) execFileSync("mkfifo", [f]);
    const socket = path.join(folder, "agent.sock");
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const regular = path.join(folder, "notes.md");
    writeFileSync(regular, "# notes\n");
    const answer = await ask(`@h hostile:read:${JSON.stringify([...fifos, socket, regular])}`);
    assert.equal(answer.outcome, "completed", "the turn settles");
    const codes = JSON.parse(textOf(answer).slice("read: ".length));
    assert.deepEqual(codes, [...fifos.map(() => "workspace/notRegular"), "workspace/notRegular", "# notes\n".length]);
    // More FIFO reads than libuv has threads did not take them: the store (LevelDB) and the next turn still work.
    const next = await ask("@h hostile:hello");
    assert.equal(textOf(next), "ok");
  } finally {
    server.close();
    await cleanup();
  }
});
