/**
 * `npm run test:crash` (issue #5, "Crash suite"): runs the channel core in a child process (test/crash/child.ts,
 * bundled once with esbuild) with scripted fake agents, SIGKILLs it — its whole process group, then its agents — at
 * planned moments drawn from fixed seeds, and after each kill reopens the store, runs recovery and checks the
 * invariants (test/crash/check.ts). Prints one line per violation, then `kill points: N, violations: V` last; exits
 * non-zero when V > 0.
 *
 * Environment: CRASH_SEEDS (comma-separated; default the fixed list below), CRASH_POINTS_PER_SEED (default 170: 1,020
 * over six seeds, issue 17), CRASH_PHASES (default all), CRASH_JOBS (children at once, default 3), CRASH_VERBOSE=1 (a
 * line per kill point), CRASH_SNAPSHOT=0 (no V8 startup snapshots), CRASH_FAULT=blind-sweeper | stale-index |
 * lost-admission (a self-test: that fault injected test-side; the run must report violations), and for the stages
 * run after the core's kill points unless CRASH_PHASES leaves them out, CRASH_UNDO_POINTS_PER_SEED (default 10: the
 * undo stage, `undoStage.ts`, issue 19, kills during an undo or redo of a settled turn's files, checked for files
 * written whole and a record saying which are undone) and CRASH_DELEGATION_POINTS_PER_SEED (default 3: the delegation
 * stage, `delegationStage.ts`, issue 22, kills across a `delegate` tool call and its child turn).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { checkAfterKill } from "./check";
import { PHASES, SCENARIOS, prng, type JournalLine, type KillPlan, type Phase } from "./scenario";
import { delegationStage } from "./delegationStage";
import { undoStage } from "./undoStage";

const ROOT = path.resolve(__dirname, "../..");
const CACHE = path.join(ROOT, "node_modules/.cache/sidekicks-crash");
/** How to start the child and the agents: `node <args>` (filled by prepareBinaries). */
let childArgs: string[] = [];
/** How to start the undo stage's child (test/fixtures/undo-child.ts, bundled). */
let undoChildArgs: string[] = [];
let agentArgs: string[] = [];
let snapshots = "no";
const SEEDS = (process.env.CRASH_SEEDS ?? "1009,2027,3041,4051,5059,6067").split(",").map(Number);
const POINTS_PER_SEED = Number(process.env.CRASH_POINTS_PER_SEED ?? 170);
/** Kill points per seed of the undo stage (`undoStage.ts`): CRASH_UNDO_POINTS_PER_SEED, default 10. */
const UNDO_POINTS_PER_SEED = Number(process.env.CRASH_UNDO_POINTS_PER_SEED ?? 10);
/** Kill points per seed of the delegation stage (`delegationStage.ts`): CRASH_DELEGATION_POINTS_PER_SEED, default 3. */
const DELEGATION_POINTS_PER_SEED = Number(process.env.CRASH_DELEGATION_POINTS_PER_SEED ?? 3);
const JOBS = Number(process.env.CRASH_JOBS ?? 3);
const VERBOSE = process.env.CRASH_VERBOSE === "1";
/** CRASH_PHASES (comma-separated): draw kill points from these phases only (default all). */
const ONLY: readonly string[] = process.env.CRASH_PHASES ? process.env.CRASH_PHASES.split(",") : PHASES;
/** A child that neither dies nor finishes within this is a harness failure. */
const RUN_TIMEOUT_MS = 20_000;
/** Calibration runs per scenario. */
const CALIBRATION_RUNS = 2;

/** One kill point: a scenario and where to kill it. */
interface KillPoint {
  seed: number;
  index: number;
  scenario: number;
  plan: KillPlan;
  /** For `random time` (and the first life of a `recovery` point): when the parent kills, in ms after the spawn. */
  killAfterMs?: number;
  /** A `recovery` point: the first child dies as `first` says, then a second child recovers its store and dies as `plan` says. */
  first?: { plan: KillPlan; killAfterMs?: number };
}

/** What one child run left behind. */
interface RunResult {
  journal: JournalLine[];
  stderr: string;
  /** How the child ended: killed as planned, or something else (a harness failure). */
  signal: NodeJS.Signals | null;
  code: number | null;
  ms: number;
  /** Neither finished nor died within RUN_TIMEOUT_MS (then killed): a hang. */
  timedOut: boolean;
}

function describe(p: KillPoint): string {
  const where = (plan: KillPlan, killAfterMs: number | undefined) =>
    plan.kind === "commit" ? `${plan.phase} commit #${plan.n} ${plan.when} the batch` : plan.kind === "delta" ? `streaming delta #${plan.n}` : `random time ${killAfterMs} ms`;
  const what = p.first ? `${where(p.first.plan, p.first.killAfterMs)}, then ${where(p.plan, undefined)}` : where(p.plan, p.killAfterMs);
  return `seed ${p.seed} #${p.index} (${SCENARIOS[p.scenario]!.name}: ${what})`;
}

/** Runs the child on the store in `dir`/store (agents working in `dir`/ws); kills it (group + agents) at `killAfterMs`, or once it reports done. */
async function runChild(scenario: number, plan: KillPlan, killAfterMs: number | undefined, dir: string, mode = "run"): Promise<RunResult> {
  mkdirSync(path.join(dir, "ws"), { recursive: true });
  const pidDir = mkdtempSync(path.join(os.tmpdir(), "sidekicks-crash-pids-"));
  const started = Date.now();
  const child = spawn(process.execPath, childArgs, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CRASH_DIR: path.join(dir, "store"), CRASH_WS: path.join(dir, "ws"), CRASH_ROOT: ROOT, CRASH_AGENT_ARGS: JSON.stringify(agentArgs), CRASH_SCENARIO: String(scenario), CRASH_PLAN: JSON.stringify(plan), CRASH_PID_DIR: pidDir, CRASH_MODE: mode },
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const journal: JournalLine[] = [];
  let stderr = "";
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as JournalLine;
      journal.push(entry);
      if (entry.t === "done") killGroup();
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let timedOut = false;
  const timers = [
    setTimeout(() => {
      timedOut = true;
      killGroup();
    }, RUN_TIMEOUT_MS),
  ];
  if (killAfterMs !== undefined) timers.push(setTimeout(killGroup, killAfterMs));
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("exit", (c, s) => resolve([c, s])));
  const ms = Date.now() - started;
  for (const t of timers) clearTimeout(t);
  // The agents run in process groups of their own (spawned detached by the agent manager): killed next. One the
  // child spawned just before it died may write its pid file a moment later (else it exits by itself, orphaned).
  const killAgents = () => {
    for (const pid of readdirSync(pidDir).map(Number)) {
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  };
  killAgents();
  await closed; // every journal line read
  // An agent the child spawned just before it died can write its pid file while the folder is being removed
  // (ENOTEMPTY, seen once under load): kill what is there again, and remove again, until the folder is gone.
  for (let attempt = 1; ; attempt++) {
    killAgents();
    try {
      rmSync(pidDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOTEMPTY" || attempt >= 20) throw err;
    }
  }
  return { journal, stderr, signal, code, ms, timedOut };
}

/**
 * Native packages stay out of the child's bundle and are required on first use of one of their exports (named
 * here), from the repository's node_modules: a native binding can be neither bundled nor part of a V8 snapshot.
 */
const NATIVE_EXPORTS: Record<string, string[]> = { "classic-level": ["ClassicLevel"], "node-pty": ["spawn"] };
const lazyNative: Plugin = {
  name: "lazy-native",
  setup(b) {
    b.onResolve({ filter: /^(classic-level|node-pty)$/ }, (args) => ({ path: args.path, namespace: "lazy-native" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-native" }, (args) => ({
      loader: "js",
      contents: [
        `const { createRequire } = require("node:module");`,
        `let real;`,
        `const load = () => (real ??= createRequire(require("node:path").join(process.env.CRASH_ROOT ?? process.cwd(), "package.json"))(${JSON.stringify(args.path)}));`,
        `module.exports = { ${NATIVE_EXPORTS[args.path]!.map((name) => `get ${name}() { return load().${name}; }`).join(", ")} };`,
      ].join("\n"),
    }));
  },
};

/**
 * Bundles the child (test/crash/child-entry.ts) and the agent (test/crash/agent-entry.js) with esbuild, each into one
 * file, then tries to turn each into a V8 startup snapshot (`node --build-snapshot`): the ACP SDK's and the
 * channel core's module set-up then happens once instead of in each of the ~1000 processes of a run. Without
 * snapshot support (or CRASH_SNAPSHOT=0) the bundles run as they are.
 */
async function prepareBinaries(): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const common = { bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "warning" } as const;
  const childBundle = path.join(CACHE, "child.cjs");
  const agentBundle = path.join(CACHE, "agent.cjs");
  await build({ ...common, entryPoints: [path.join(ROOT, "test/crash/child-entry.ts")], outfile: childBundle, plugins: [lazyNative] });
  await build({ ...common, entryPoints: [path.join(ROOT, "test/crash/agent-entry.js")], outfile: agentBundle });
  const undoBundle = path.join(CACHE, "undo-child.cjs");
  await build({ ...common, entryPoints: [path.join(ROOT, "test/fixtures/undo-child.ts")], outfile: undoBundle, plugins: [lazyNative] });
  undoChildArgs = [undoBundle];
  childArgs = [childBundle];
  agentArgs = [agentBundle];
  if (process.env.CRASH_SNAPSHOT === "0") return;
  const snapshot = (bundle: string): string[] | undefined => {
    const blob = bundle.replace(/\.cjs$/, ".blob");
    const r = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", bundle], { cwd: CACHE, encoding: "utf8" });
    if (r.status === 0) return ["--snapshot-blob", blob];
    console.log(`note: no startup snapshot of ${path.basename(bundle)} (${(r.stderr || "").trim().split("\n")[0]}); running the bundle`);
    return undefined;
  };
  const c = snapshot(childBundle);
  const a = snapshot(agentBundle);
  if (c) childArgs = c;
  if (a) agentArgs = a;
  snapshots = [c ? "child" : "", a ? "agent" : ""].filter(Boolean).join(" and ") || "no";
}

/** Runs `tasks` with at most `jobs` at once, in order of start. */
async function pool<T>(tasks: (() => Promise<T>)[], jobs: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

interface Calibration {
  counts: Record<string, number>;
  deltas: number;
  ms: number;
}

/** The kill points of one seed: phases drawn uniformly, nth commit / delta uniformly within the calibrated range. */
function plan(seed: number, calibrations: Calibration[]): KillPoint[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const points: KillPoint[] = [];
  for (let index = 0; index < POINTS_PER_SEED; index++) {
    const scenario = Math.floor(rand() * SCENARIOS.length);
    const cal = calibrations[scenario]!;
    // `tool intent` joins as soon as a scenario commits intents (see scenario.ts, PHASES).
    const phases = PHASES.filter((p) => ONLY.includes(p) && (p === "random time" || p === "streaming" || p === "recovery" || (cal.counts[p] ?? 0) > 0));
    const phase: Phase = pick(phases);
    const nth = (count: number) => 1 + Math.floor(rand() * count);
    const draw = (phase: Phase, randomFrom = 0): Pick<KillPoint, "plan" | "killAfterMs"> =>
      phase === "random time"
        ? { plan: { kind: "none" }, killAfterMs: Math.round((randomFrom + (1 - randomFrom) * rand()) * cal.ms) }
        : phase === "streaming"
          ? { plan: { kind: "delta", n: nth(cal.deltas) } }
          : { plan: { kind: "commit", phase, n: nth(cal.counts[phase] ?? 1), when: rand() < 0.5 ? "before" : "after" } };
    if (phase === "recovery") {
      // The first life dies at a kill point of any other phase (a random moment after the first 20 % of the run,
      // so that turns are open), then the recovering child dies at its 1st or 2nd batch.
      const first = draw(pick(PHASES.filter((p) => p !== "recovery" && (p === "random time" || p === "streaming" || (cal.counts[p] ?? 0) > 0))), 0.2);
      points.push({ seed, index, scenario, plan: { kind: "commit", phase, n: nth(2), when: rand() < 0.5 ? "before" : "after" }, first });
    } else points.push({ seed, index, scenario, ...draw(phase) });
  }
  return points;
}

/** Where the kill actually landed: the phase the child reported, `random time`, or `after the end`. */
function landed(p: KillPoint, r: RunResult): string {
  const kill = r.journal.find((l) => l.t === "kill");
  if (kill?.t === "kill") return kill.phase;
  if (p.first) return "recovery, after it ended (it wrote fewer batches)";
  if (r.journal.some((l) => l.t === "done")) return "after the end";
  return p.plan.kind === "none" ? "random time" : `${p.plan.kind === "commit" ? p.plan.phase : "streaming"} (not reached)`;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  await prepareBinaries();
  const violations: string[] = [];

  // Calibration: each scenario run to the end CALIBRATION_RUNS times, counting commits per phase and deltas (each
  // run checked like a kill after the end). Checkpoint counts vary with timing: the plan draws within the minimum.
  const runs = await pool(
    SCENARIOS.flatMap((_, scenario) => Array.from({ length: CALIBRATION_RUNS }, () => scenario)).map((scenario) => async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "sidekicks-crash-"));
      try {
        const r = await runChild(scenario, { kind: "none" }, undefined, dir);
        const done = r.journal.find((l) => l.t === "done");
        if (done?.t !== "done") throw new Error(`calibration of ${SCENARIOS[scenario]!.name} did not finish (code ${r.code}, signal ${r.signal}):\n${r.stderr}`);
        const { violations: vs } = await checkAfterKill(path.join(dir, "store"), r.journal, SCENARIOS[scenario]!);
        for (const v of vs) {
          violations.push(`calibration ${SCENARIOS[scenario]!.name}: ${v}`);
          console.log(`VIOLATION calibration ${SCENARIOS[scenario]!.name} (run to the end, then killed): ${v}`);
        }
        return { counts: done.counts, deltas: done.deltas, ms: done.ms };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    JOBS,
  );
  const calibrations = SCENARIOS.map((_, scenario) => {
    const mine = runs.filter((_, i) => Math.floor(i / CALIBRATION_RUNS) === scenario);
    const counts: Record<string, number> = {};
    for (const key of new Set(mine.flatMap((c) => Object.keys(c.counts)))) counts[key] = Math.min(...mine.map((c) => c.counts[key] ?? 0));
    return { counts, deltas: Math.min(...mine.map((c) => c.deltas)), ms: Math.round(mine.reduce((n, c) => n + c.ms, 0) / mine.length) };
  });
  for (const [i, c] of calibrations.entries()) {
    console.log(`calibration ${SCENARIOS[i]!.name}: ${c.ms} ms, ${c.deltas} deltas, commits ${JSON.stringify(c.counts)}`);
  }

  const points = SEEDS.flatMap((seed) => plan(seed, calibrations));
  const byPhase = new Map<string, number>();
  const byWhen = new Map<string, number>();
  const intentResults: Record<string, number> = {};
  const totals = { interruptedByRecovery: 0, dispatchedByRecovery: 0, intentsClassified: 0, committedMessages: 0, runMs: 0 };
  await pool(
    points.map((p) => async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "sidekicks-crash-"));
      try {
        let r: RunResult;
        let journal: JournalLine[];
        const found: string[] = [];
        const endedBadly = (what: string, x: RunResult) => {
          if (x.timedOut) found.push(`${what} hung: neither finished nor died within ${RUN_TIMEOUT_MS} ms`);
          if (x.signal !== "SIGKILL") found.push(`${what} ended by itself (code ${x.code}, signal ${x.signal}): ${x.stderr.trim().split("\n").slice(-5).join(" | ")}`);
        };
        if (p.first) {
          const first = await runChild(p.scenario, p.first.plan, p.first.killAfterMs, dir);
          endedBadly("the first child", first);
          r = await runChild(p.scenario, p.plan, undefined, dir, "recover");
          journal = [...first.journal.filter((l) => l.t !== "done"), ...r.journal.filter((l) => l.t !== "done")];
          r = { ...r, journal: [...r.journal], ms: first.ms + r.ms };
        } else {
          r = await runChild(p.scenario, p.plan, p.killAfterMs, dir);
          journal = r.journal;
        }
        endedBadly(p.first ? "the recovering child" : "the child", r);
        const phase = landed(p, r);
        byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);
        const kill = r.journal.find((l) => l.t === "kill");
        if (kill?.t === "kill" && kill.when !== "at") byWhen.set(`${phase} ${kill.when}`, (byWhen.get(`${phase} ${kill.when}`) ?? 0) + 1);
        totals.runMs += r.ms;
        // Every fourth kill point, someone edits the files of open write intents before recovery (→ uncertain).
        const { violations: vs, stats } = await checkAfterKill(path.join(dir, "store"), journal, SCENARIOS[p.scenario]!, { tamper: p.index % 4 === 3 }).catch((err: unknown) => ({
          violations: [`the check itself failed: ${(err as Error).stack ?? String(err)}`],
          stats: { interruptedByRecovery: 0, dispatchedByRecovery: 0, intentsClassified: 0, intentResults: {}, committedMessages: 0 },
        }));
        found.push(...vs);
        totals.interruptedByRecovery += stats.interruptedByRecovery;
        totals.dispatchedByRecovery += stats.dispatchedByRecovery;
        totals.intentsClassified += stats.intentsClassified;
        for (const [k, n] of Object.entries(stats.intentResults)) intentResults[k] = (intentResults[k] ?? 0) + n;
        totals.committedMessages += stats.committedMessages;
        for (const v of found) {
          violations.push(`${describe(p)}: ${v}`);
          console.log(`VIOLATION ${describe(p)} [landed: ${phase}]: ${v}`);
        }
        if (VERBOSE) console.log(`${describe(p)} → ${phase}, ${r.ms} ms, ${found.length} violation(s)`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    JOBS,
  );

  const order = [...PHASES, "after the end"];
  const rows = [...byPhase.entries()].sort((a, b) => {
    const ia = order.indexOf(a[0]);
    const ib = order.indexOf(b[0]);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  const split = (k: string) => (byWhen.has(`${k} before`) || byWhen.has(`${k} after`) ? ` (${byWhen.get(`${k} before`) ?? 0} before the batch, ${byWhen.get(`${k} after`) ?? 0} after)` : "");
  console.log(`kill points by phase: ${rows.map(([k, n]) => `${k} ${n}${split(k)}`).join(", ")}${byPhase.has("tool intent") ? "" : ", tool intent 0"}`);
  console.log(
    `recovery: ${totals.interruptedByRecovery} turns settled interrupted, ${totals.dispatchedByRecovery} queued turns dispatched, ${totals.intentsClassified} open write intents classified (${Object.entries(intentResults).map(([k, n]) => `${k.replace("_", " ")} ${n}`).join(", ") || "none"}); ${totals.committedMessages} journaled messages checked; ` +
      `seeds ${SEEDS.join(",")}, ${JOBS} at once, startup snapshots: ${snapshots}, ${((Date.now() - t0) / 1000).toFixed(1)} s in all (mean child run ${Math.round(totals.runMs / points.length)} ms; harness CPU ${(process.cpuUsage().user / 1e6).toFixed(0)} s; load average ${loadAtStart} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end)`,
  );
  // The undo stage (issue 19): kills during an undo or redo of a settled turn's files.
  const undo = ONLY.includes("undo") || !process.env.CRASH_PHASES ? await undoStage({ seeds: SEEDS, pointsPerSeed: UNDO_POINTS_PER_SEED, childArgs: undoChildArgs, root: ROOT }) : undefined;
  if (undo) {
    console.log(
      `undo stage: ${undo.points} kill points during an undo or a redo of a 40-file turn (${undo.killed} killed the child mid-restore, the others came after its end), by aim: ${Object.entries(undo.byPlan).map(([k, n]) => `${k} ${n}`).join(", ")}; ${undo.violations.length} violations, ${(undo.ms / 1000).toFixed(1)} s`,
    );
    violations.push(...undo.violations);
  }
  // The delegation stage (issue 22): kills across a `delegate` tool call and its child turn.
  const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "sidekicks-crash-delegate-"));
  const done = (dir: string) => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  const delegation = ONLY.includes("delegation") || !process.env.CRASH_PHASES ? await delegationStage({ seeds: SEEDS, pointsPerSeed: DELEGATION_POINTS_PER_SEED, runChild, tempDir, done }) : undefined;
  if (delegation) {
    const c = delegation.calibration;
    console.log(
      `delegation stage: ${delegation.points} kill points across a delegate call (calibration ${c.ms} ms, ${c.deltas} deltas, commits ${JSON.stringify(c.counts)}), by aim: ${Object.entries(delegation.byAim).map(([k, n]) => `${k} ${n}`).join(", ")}; child when killed: ${Object.entries(delegation.byChildState).map(([k, n]) => `${k} ${n}`).join(", ")}; ${delegation.violations.length} violations, ${(delegation.ms / 1000).toFixed(1)} s`,
    );
    violations.push(...delegation.violations);
  }
  console.log(`kill points: ${points.length + (undo?.points ?? 0) + (delegation?.points ?? 0)}, violations: ${violations.length}`);
  process.exitCode = violations.length > 0 ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  console.log("kill points: 0, violations: 1");
  process.exitCode = 1;
});
