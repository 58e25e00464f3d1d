/**
 * The crash suite's undo stage (issue 19, "Checkpoints across a crash: a kill during undo leaves every file either
 * before or after, never half, and the turn's record says which"). Per seed: a real turn of the scripted fake agent
 * changes 40 files; then, kill point after kill point, a child process (test/fixtures/undo-child.ts, bundled) undoes
 * the turn's files — or redoes them, alternately — and is SIGKILLed: before or after the batch of restore intents,
 * before or after the settling batch, or at a random moment (uniform over a calibrated undo's length). After each
 * kill the harness reopens the store and runs recovery, then checks:
 * - every file holds its text from before the turn or from after it, never part of one (each is written whole);
 * - the answer's files card says `undone` exactly for the files that hold their earlier text;
 * - no restore intent is left open;
 * - the restore, run again, finishes what the killed one began: every file in the target state, the card agreeing.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels, type Channels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { FAKE_AGENT, waitFor } from "../unit/helpers";
import { prng } from "./scenario";

const FILES = 40;
const before = (i: number) => `before ${i}\n`.repeat(200);
const after = (i: number) => before(i) + `after ${i}\n`.repeat(200);
/** A child that neither dies nor finishes within this is a harness failure. */
const CHILD_TIMEOUT_MS = 20_000;

/** Where a kill point kills the restoring child. */
type UndoPlan = { kind: "commit"; n: 1 | 2; when: "before" | "after" } | { kind: "time"; afterGoMs: number };

/** What the stage found. */
export interface UndoStageResult {
  points: number;
  violations: string[];
  /** Kill points by where they were aimed (`intents before`, `settle after`, `random time`…), and how many killed. */
  byPlan: Record<string, number>;
  killed: number;
  ms: number;
}

/** What the stage is given by the crash suite's harness. */
export interface UndoStageOptions {
  seeds: readonly number[];
  pointsPerSeed: number;
  /** `node <childArgs> <store> <messageId> <undo|redo>` runs the bundled undo child. */
  childArgs: readonly string[];
  root: string;
}

/** Runs the child; resolves with `SIGKILL` or how it ended otherwise (an error text when it failed). */
function runChild(options: UndoStageOptions, storeDir: string, messageId: string, action: "undo" | "redo", plan: UndoPlan | undefined): Promise<{ end: string; goToEndMs: number }> {
  return new Promise((resolve) => {
    const env = { ...process.env, CRASH_ROOT: options.root, ...(plan?.kind === "commit" ? { UNDO_PLAN: JSON.stringify({ n: plan.n, when: plan.when }) } : {}) };
    const child = spawn(process.execPath, [...options.childArgs, storeDir, messageId, action], { cwd: options.root, stdio: ["ignore", "pipe", "pipe"], env });
    let out = "";
    let err = "";
    let go = 0;
    const timeout = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (go === 0 && out.includes("go\n")) {
        go = Date.now();
        if (plan?.kind === "time") setTimeout(() => child.kill("SIGKILL"), plan.afterGoMs);
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code, signal) => {
      clearTimeout(timeout);
      const goToEndMs = go === 0 ? 0 : Date.now() - go;
      resolve({ end: signal ?? (code === 0 ? "done" : `exit ${code}: ${err.trim().split("\n").slice(-3).join(" | ")}`), goToEndMs });
    });
  });
}

/** One seed's folder, store and turn. */
async function seedRun(options: UndoStageOptions, seed: number, result: UndoStageResult): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "sidekicks-crash-undo-"));
  const folder = path.join(dir, "ws");
  const storeDir = path.join(dir, "store");
  mkdirSync(folder);
  const files = Array.from({ length: FILES }, (_, i) => path.join(folder, `f${i}.txt`));
  files.forEach((f, i) => writeFileSync(f, before(i)));
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: folder, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  const steps = [...files.map((f, i) => ({ appendFile: { path: f, text: `after ${i}\n`.repeat(200) } })), { chunk: "done" }];
  agents.setRoster([{ name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) } } as never]);
  const violation = (point: string, what: string) => {
    result.violations.push(`undo seed ${seed} ${point}: ${what}`);
    console.log(`VIOLATION undo seed ${seed} ${point}: ${what}`);
  };
  let store = await Store.open(storeDir);
  let channels: Channels = composeChannels({ store, agents, emitter: events });
  try {
    const general = await channels.directory.syncGeneral(["a"]);
    await channels.messages.send(general.id, "@a change them");
    const answer = await waitFor(() => events.of("message/finished").find((m: MessageView) => m.author.kind === "agent" && m.parts.some((p) => p.type === "files")), 30_000, "the setup turn");
    await agents.stopAll();
    const texts = () => files.map((f) => readFileSync(f, "utf8"));
    const undoneOnCard = async () => {
      const part = (await store.message(general.id, answer.id))?.parts.find((p) => p.type === "files");
      return new Set(part?.type === "files" ? part.files.filter((f) => f.state === "undone").map((f) => f.path) : []);
    };
    /** The files hold `want` (per file: its text from before, or from after), and the card says which. */
    const agree = async (point: string, label: string, want?: "before" | "after") => {
      const now = texts();
      const undone = await undoneOnCard();
      for (const [i, t] of now.entries()) {
        const isBefore = t === before(i);
        if (!isBefore && t !== after(i)) violation(point, `${label}: f${i}.txt holds neither its text from before nor from after the turn (${t.length} chars)`);
        else if (want && (want === "before") !== isBefore) violation(point, `${label}: f${i}.txt is not ${want} the turn`);
        if (undone.has(files[i]!) !== isBefore) violation(point, `${label}: the card says f${i}.txt is ${undone.has(files[i]!) ? "" : "not "}undone, the file says otherwise`);
      }
      const open = await store.openIntents();
      if (open.length > 0) violation(point, `${label}: ${open.length} restore intent(s) left open`);
    };
    // Calibration: an undo run to its end, for the random moments' range; then back with a redo.
    await channels.close();
    await store.close();
    const calibration = await runChild(options, storeDir, answer.id, "undo", undefined);
    if (calibration.end !== "done") violation("calibration", `the undo child ended ${calibration.end}`);
    store = await Store.open(storeDir);
    channels = composeChannels({ store, agents, emitter: events });
    await channels.ready;
    await agree("calibration", "after the undo", "before");
    await channels.restore.restore(answer.id, "redo", undefined);
    const random = prng(seed);
    let action: "undo" | "redo" = "undo";
    for (let k = 0; k < options.pointsPerSeed; k++) {
      const r = random();
      const plan: UndoPlan = r < 0.5 ? { kind: "time", afterGoMs: Math.floor(random() * Math.max(20, calibration.goToEndMs) * 1.2) } : { kind: "commit", n: random() < 0.5 ? 1 : 2, when: random() < 0.5 ? "before" : "after" };
      const aim = plan.kind === "time" ? "random time" : `${plan.n === 1 ? "intents" : "settle"} ${plan.when}`;
      const point = `#${k} (${action}, ${plan.kind === "time" ? `${plan.afterGoMs} ms after go` : aim})`;
      result.byPlan[`${action} ${aim}`] = (result.byPlan[`${action} ${aim}`] ?? 0) + 1;
      result.points += 1;
      await channels.close();
      await store.close();
      const ran = await runChild(options, storeDir, answer.id, action, plan);
      if (ran.end === "SIGKILL") result.killed += 1;
      else if (ran.end !== "done") violation(point, `the child ended ${ran.end}`);
      store = await Store.open(storeDir);
      channels = composeChannels({ store, agents, emitter: events });
      await channels.ready;
      await agree(point, "after the kill and recovery");
      // The restore run again finishes what the killed one began.
      await channels.restore.restore(answer.id, action, undefined);
      await agree(point, `after the ${action} ran again`, action === "undo" ? "before" : "after");
      action = action === "undo" ? "redo" : "undo";
    }
  } finally {
    await channels.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await agents.stopAll();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

/** Runs the stage, the seeds one after the other; prints one line per violation and a summary line. */
export async function undoStage(options: UndoStageOptions): Promise<UndoStageResult> {
  const started = Date.now();
  const result: UndoStageResult = { points: 0, violations: [], byPlan: {}, killed: 0, ms: 0 };
  for (const seed of options.seeds) {
    await seedRun(options, seed, result).catch((err: unknown) => {
      result.violations.push(`undo seed ${seed}: the stage itself failed: ${(err as Error).stack ?? String(err)}`);
      console.log(`VIOLATION undo seed ${seed}: the stage itself failed: ${(err as Error).stack ?? String(err)}`);
    });
  }
  result.ms = Date.now() - started;
  return result;
}
