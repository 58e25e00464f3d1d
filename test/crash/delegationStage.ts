/**
 * The crash suite's delegation stage (issue 22, "Crash suite phases for delegated children"). The child
 * (test/crash/child.ts, scenario `delegation` of scenario.ts) runs the real channel core with two scripted fake
 * agents: the user asks @b something, then @a, whose turn calls `delegate(b, "count the tests")` on Sidekicks' MCP
 * server (the fake agent's `mcpCall`, over HTTP with the MCP SDK) while b is still busy — the child turn is admitted
 * queued, dispatched when b frees, streams, settles, and its answer is a's tool result. Each kill point SIGKILLs it:
 * before or after a batch of the delegation (1: the intent alone, before the child exists; 2: the child's admission
 * with the intent `running`; 3: the child's settlement with the intent settled — "after it settled and before the
 * parent saw the result"), at a checkpoint, at a streamed delta, or at a random moment. After each kill the main
 * checker runs (recovery with agents that never answer, every invariant of check.ts), then the seed's rules:
 * - no intent is left open, and a's answer (unless it completed) says its delegation's fate on a card;
 * - a child not yet admitted: the intent says `not_started`, no answer of b's for it, the card says failed;
 * - a child admitted but still queued: settled `cancelled` ("Not started"), never dispatched, the intent `not_started`;
 * - a child running: settled `interrupted`, attempt 1 only (never re-run by itself), the intent `outcome_uncertain`,
 *   the card "outcome unknown";
 * - a child settled: the intent `done` holding the child's exact answer (what a Retry of a redelivers instead of
 *   running b again: test/unit/delegateRecovery.test.ts), the child's answer unchanged.
 */
import { Store } from "../../src/store/Store";
import type { IntentRecord, MessageRecord, TurnRecord } from "../../src/store/records";
import { checkAfterKill } from "./check";
import { ALL_SCENARIOS, DELEGATION, prng, type JournalLine, type KillPlan } from "./scenario";

/** One child run, as run.ts's `runChild` reports it. */
export interface StageRun {
  journal: JournalLine[];
  signal: NodeJS.Signals | null;
  code: number | null;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

/** What the stage is given by the harness. */
export interface DelegationStageOptions {
  seeds: readonly number[];
  pointsPerSeed: number;
  /** Runs the child on `dir` (its store in `dir`/store) with scenario index `scenario`, killed as planned. */
  runChild: (scenario: number, plan: KillPlan, killAfterMs: number | undefined, dir: string) => Promise<StageRun>;
  /** A fresh temp folder, removed by `done`. */
  tempDir: () => string;
  done: (dir: string) => void;
}

/** What the stage found. */
export interface DelegationStageResult {
  points: number;
  violations: string[];
  /** Kill points by the state the child was in when the host died (`not admitted`, `queued`, `running`, `settled`…). */
  byChildState: Record<string, number>;
  byAim: Record<string, number>;
  calibration: { ms: number; counts: Record<string, number>; deltas: number };
  ms: number;
}

const SCENARIO = ALL_SCENARIOS.indexOf(DELEGATION);

/** The store's delegation as it stands: a's turn, its delegate intents, b's child turn and answer. */
async function readDelegation(storeDir: string) {
  const store = await Store.open(storeDir);
  try {
    const general = await store.channelByName("general");
    const messages = general ? await store.latestMessages(general.id, 50) : [];
    const turns: TurnRecord[] = [];
    for (const m of messages) if (m.turnId) turns.push((await store.turn(m.turnId))!);
    const parent = turns.find((t) => t.agent === "a");
    const intents: IntentRecord[] = parent ? (await store.intentsOf(parent.id)).filter((i) => i.kind === "delegate") : [];
    const child = turns.find((t) => t.parentIntentId !== undefined);
    const byId = new Map(messages.map((m) => [m.id, m] as const));
    return { parent, parentMessage: parent ? byId.get(parent.messageId) : undefined, intents, child, childMessage: child ? byId.get(child.messageId) : undefined, openIntents: await store.openIntents() };
  } finally {
    await store.close();
  }
}
type Delegation = Awaited<ReturnType<typeof readDelegation>>;

const textOf = (m: MessageRecord | undefined) => (m?.parts ?? []).map((p) => (p.type === "text" ? p.text : "")).join("");

/** The child's state when the host died. */
function childState(d: Delegation): string {
  if (!d.child) return d.intents.length > 0 ? "not admitted (intent written)" : "no delegation yet";
  if (d.child.state === "settled") return d.parentMessage?.outcome === "completed" ? "settled, parent completed" : "settled, parent waiting";
  return d.child.state === "pending" ? "queued" : "running";
}

/** The seed's rules on the store before (`b`) and after (`a`) recovery. */
function rules(b: Delegation, a: Delegation): string[] {
  const v: string[] = [];
  if (a.openIntents.length > 0) v.push(`${a.openIntents.length} intent(s) left open after recovery`);
  const intent = a.intents[0];
  if (a.intents.length > 1) v.push(`a has ${a.intents.length} delegate intents (one delegate call was made)`);
  const cards = (a.parentMessage?.parts ?? []).filter((p) => p.type === "toolCall" && intent && (p.toolCallId === `intent-${intent.id}` || p.toolCallId === `delegate-${intent.id}` || (!!intent.childMessageId && p.delegation?.childMessageId === intent.childMessageId)));
  const card = cards[0];
  if (a.parentMessage && a.parentMessage.outcome !== "completed" && intent && !card) v.push(`a's ${a.parentMessage.outcome} answer shows no card for its delegation`);
  if (cards.length > 1) v.push(`a's answer shows ${cards.length} cards for its one delegation: ${JSON.stringify(cards)}`);
  const state = childState(b);
  if (state === "not admitted (intent written)") {
    if (a.child) v.push(`a child turn of b exists after recovery though none was admitted before the kill`);
    if (intent?.result !== "not_started") v.push(`intent of a child never admitted says ${intent?.result} (expected not_started)`);
    if (card?.type === "toolCall" && (card.status !== "failed" || card.outcomeUnknown || card.delegation)) v.push(`the card of a delegation never admitted says ${card.status}${card.outcomeUnknown ? ", outcome unknown" : ""}${card.delegation ? ", with a link to an answer that does not exist" : ""} (expected failed, no link)`);
  } else if (state === "queued") {
    if (a.child?.outcome !== "cancelled" || a.child.attempt !== b.child!.attempt) v.push(`a queued child ends ${a.child?.state} ${a.child?.outcome ?? ""}, attempt ${a.child?.attempt} (expected cancelled, never dispatched)`);
    if (intent?.result !== "not_started") v.push(`intent of a queued child says ${intent?.result} (expected not_started)`);
  } else if (state === "running") {
    if (a.child?.outcome !== "interrupted") v.push(`a running child ends ${a.child?.state} ${a.child?.outcome ?? ""} (expected interrupted)`);
    if (a.child?.attempt !== b.child!.attempt) v.push(`the running child was run again by recovery (attempt ${b.child!.attempt} → ${a.child?.attempt})`);
    if (intent?.result !== "outcome_uncertain") v.push(`intent of a running child says ${intent?.result} (expected outcome_uncertain)`);
    if (card?.type === "toolCall" && !card.outcomeUnknown) v.push(`the card of a running child's delegation does not say "outcome unknown"`);
  } else if (state.startsWith("settled")) {
    if (a.child?.outcome !== b.child!.outcome || a.child?.settledAt !== b.child!.settledAt) v.push(`the settled child changed during recovery`);
    if (textOf(a.childMessage) !== textOf(b.childMessage)) v.push(`the settled child's answer changed during recovery`);
    if (b.child!.outcome === "completed" && (intent?.result !== "done" || intent.answer !== textOf(b.childMessage))) {
      v.push(`intent of a completed child says ${intent?.result} with answer ${JSON.stringify(intent?.answer)} (expected done with ${JSON.stringify(textOf(b.childMessage))}: what a Retry redelivers)`);
    }
  }
  return v;
}

/** Runs the stage: calibration, then `pointsPerSeed` kill points per seed, one at a time. */
export async function delegationStage(options: DelegationStageOptions): Promise<DelegationStageResult> {
  const started = Date.now();
  const result: DelegationStageResult = { points: 0, violations: [], byChildState: {}, byAim: {}, calibration: { ms: 0, counts: {}, deltas: 0 }, ms: 0 };
  const violation = (where: string, what: string) => {
    result.violations.push(`delegation ${where}: ${what}`);
    console.log(`VIOLATION delegation ${where}: ${what}`);
  };
  /** One run, checked: the main invariants, then the seed's rules. */
  const point = async (where: string, plan: KillPlan, killAfterMs?: number): Promise<StageRun | undefined> => {
    const dir = options.tempDir();
    try {
      const r = await options.runChild(SCENARIO, plan, killAfterMs, dir);
      if (r.timedOut) violation(where, `the child hung`);
      if (r.signal !== "SIGKILL") violation(where, `the child ended by itself (code ${r.code}): ${r.stderr.trim().split("\n").slice(-5).join(" | ")}`);
      for (const l of r.journal) if (l.t === "violation") violation(where, l.what);
      const storeDir = `${dir}/store`;
      const before = await readDelegation(storeDir);
      const state = childState(before);
      result.byChildState[state] = (result.byChildState[state] ?? 0) + 1;
      const { violations } = await checkAfterKill(storeDir, r.journal, DELEGATION);
      for (const v of violations) violation(`${where} [child ${state}]`, v);
      for (const v of rules(before, await readDelegation(storeDir))) violation(`${where} [child ${state}]`, v);
      return r;
    } finally {
      options.done(dir);
    }
  };
  // Calibration: the scenario run to its end twice (then killed, and checked like any point).
  const runs: StageRun[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await point(`calibration ${i + 1}`, { kind: "none" });
    const done = r?.journal.find((l) => l.t === "done");
    if (done?.t !== "done") return { ...result, ms: Date.now() - started };
    runs.push(r!);
  }
  const dones = runs.map((r) => r.journal.find((l) => l.t === "done") as Extract<JournalLine, { t: "done" }>);
  const count = (k: string) => Math.min(...dones.map((d) => d.counts[k] ?? 0));
  result.calibration = { ms: Math.round(dones.reduce((n, d) => n + d.ms, 0) / dones.length), deltas: Math.min(...dones.map((d) => d.deltas)), counts: Object.fromEntries(Object.keys(dones[0]!.counts).map((k) => [k, count(k)])) };
  for (const seed of options.seeds) {
    const rand = prng(seed);
    for (let k = 0; k < options.pointsPerSeed; k++) {
      const r = rand();
      const nth = (n: number) => 1 + Math.floor(rand() * Math.max(1, n));
      const when = () => (rand() < 0.5 ? ("before" as const) : ("after" as const));
      // Half the points aim at the delegation's own batches; the rest at the child's checkpoints, deltas, or any moment.
      const plan: KillPlan =
        r < 0.5 ? { kind: "commit", phase: "delegation", n: nth(count("delegation")), when: when() }
        : r < 0.65 ? { kind: "commit", phase: "checkpoint", n: nth(count("checkpoint")), when: when() }
        : r < 0.8 ? { kind: "delta", n: nth(result.calibration.deltas) }
        : { kind: "none" };
      const killAfterMs = plan.kind === "none" ? Math.round(rand() * result.calibration.ms) : undefined;
      const aim = plan.kind === "commit" ? `${plan.phase} #${plan.n} ${plan.when}` : plan.kind === "delta" ? "streaming" : "random time";
      const key = plan.kind === "commit" ? `${plan.phase} ${plan.when}` : aim;
      result.byAim[key] = (result.byAim[key] ?? 0) + 1;
      result.points += 1;
      await point(`seed ${seed} #${k} (${aim}${killAfterMs !== undefined ? ` ${killAfterMs} ms` : ""})`, plan, killAfterMs);
    }
  }
  result.ms = Date.now() - started;
  return result;
}
