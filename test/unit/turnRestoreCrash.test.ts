/**
 * A kill during an undo (issue 19, "Checkpoints across a crash"): a child process undoing a 60-file turn is killed with
 * SIGKILL at a random moment; after it, every file holds either its text from before the turn or from after it, never
 * part of one, and once recovery ran, the answer's files card says `undone` exactly for the files that hold their
 * earlier text. Real processes, LevelDB in a temp folder, real files; the moments are drawn from a seeded PRNG.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import { Store } from "../../src/store/Store";
import { prng } from "../prng";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

const FILES = 60;
const KILLS = Number(process.env.UNDO_CRASH_KILLS ?? 6);
const CHILD = path.resolve(__dirname, "../fixtures/undo-child.ts");

/** Runs the undo child and kills it `delayMs` after it says `go` (or lets it finish first); resolves when it is gone. */
function killDuringUndo(storeDir: string, messageId: string, delayMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, storeDir, messageId], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("go\n") && !out.includes("armed")) {
        out += "armed";
        setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => (code === 2 ? reject(new Error(err)) : resolve(signal ?? `exit ${code}`)));
  });
}

test("a kill during an undo leaves each file before or after, and after recovery the card says which", async () => {
  const { dir, cleanup } = tempDir();
  const folder = path.join(dir, "project");
  const storeDir = path.join(dir, "store");
  mkdirSync(folder);
  const files = Array.from({ length: FILES }, (_, i) => path.join(folder, `f${i}.txt`));
  const before = (i: number) => `before ${i}\n`.repeat(200);
  const after = (i: number) => before(i) + `after ${i}\n`.repeat(200);
  files.forEach((f, i) => writeFileSync(f, before(i)));
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: folder, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  const steps = [...files.map((f, i) => ({ appendFile: { path: f, text: `after ${i}\n`.repeat(200) } })), { chunk: "done" }];
  agents.setRoster([{ name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) } } as never]);
  let store = await Store.open(storeDir);
  let channels = composeChannels({ store, agents, emitter: events });
  const random = prng(19);
  const outcomes: string[] = [];
  try {
    const general = await channels.directory.syncGeneral(["a"]);
    await channels.messages.send(general.id, "@a change them");
    const answer = await waitFor(() => events.of("message/finished").find((m) => m.author.kind === "agent" && m.parts.some((p) => p.type === "files")), 20_000);
    for (let kill = 0; kill < KILLS; kill++) {
      await channels.close();
      await store.close();
      outcomes.push(await killDuringUndo(storeDir, answer.id, Math.floor(random() * 300)));
      store = await Store.open(storeDir);
      channels = composeChannels({ store, agents, emitter: events });
      await channels.ready;
      const texts = files.map((f) => readFileSync(f, "utf8"));
      texts.forEach((t, i) => assert.ok(t === before(i) || t === after(i), `f${i}.txt holds neither its text from before nor from after the turn`));
      const stored = await store.message(general.id, answer.id);
      const part = stored?.parts.find((p) => p.type === "files");
      assert.ok(part?.type === "files");
      const undone = new Set(part.files.filter((f) => f.state === "undone").map((f) => f.path));
      files.forEach((f, i) => assert.equal(undone.has(f), texts[i] === before(i), `the card says f${i}.txt is ${undone.has(f) ? "" : "not "}undone`));
      assert.deepEqual(await store.openIntents(), [], "recovery settled every restore intent");
      if (process.env.UNDO_CRASH_DEBUG) console.log(`kill ${kill}: ${outcomes.at(-1)}, ${undone.size} of ${FILES} undone`);
      // Back to the turn's texts for the next kill.
      await channels.restore.restore(answer.id, "redo", undefined);
      files.forEach((f, i) => assert.equal(readFileSync(f, "utf8"), after(i)));
    }
    assert.ok(outcomes.some((o) => o === "SIGKILL"), `at least one kill landed during the undo (${outcomes.join(", ")})`);
  } finally {
    await channels.close();
    await store.close();
    await agents.stopAll();
    cleanup();
  }
});
