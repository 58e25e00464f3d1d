/**
 * The crash suite's child: the channel core (Store + AgentManager + Channels, as in test/unit/channelHarness.ts)
 * over the store in CRASH_DIR, with two scripted fake agents working in CRASH_WS (they write files there: tool
 * intents), sending the messages of scenario CRASH_SCENARIO.
 *
 * It writes a journal to stdout (one JSON line each, written synchronously, so a line the parent reads is a fact
 * that held before the kill): a user message once `send()` resolved (its batch is committed), an agent message when
 * `message/finished` is emitted (only after its settling batch committed), with a hash of its text and its outcome.
 *
 * CRASH_PLAN says where to die: at the nth commit of a phase (before or after the batch is written: `Store.commit`
 * is wrapped here, test-side) or at the nth streamed delta; the child then SIGKILLs its own process group. The
 * agents run in groups of their own (the agent manager spawns them detached): the harness kills them through the
 * pid files test/crash/agent-entry.js writes. Bundled (child-entry.ts) and, when Node can, snapshotted by run.ts.
 */
import { writeSync } from "node:fs";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels, type Channels } from "../../src/app/compose";
import type { AgentConfig } from "../../src/config/roster";
import type { Emitter, SidekicksEventName, SidekicksEvents } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store, type StoreChanges } from "../../src/store/Store";
import { ALL_SCENARIOS, CLOCK_SPEEDUP, classifyCommit, hashText, type CommitLike, type JournalLine, type KillPlan } from "./scenario";

const journal = (line: JournalLine) => writeSync(1, JSON.stringify(line) + "\n");

/** SIGKILL: the whole process group (this child is its leader when spawned detached), else just this process. */
function die(line: JournalLine): never {
  journal(line);
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    process.kill(process.pid, "SIGKILL");
  }
  throw new Error("unreachable");
}

const textOf = (m: MessageView) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

/** Runs the scenario (configured by the environment: read here, not at load time, for the startup snapshot). */
export async function main(): Promise<void> {
  const started = Date.now();
  const dir = process.env.CRASH_DIR!;
  const scenario = ALL_SCENARIOS[Number(process.env.CRASH_SCENARIO ?? 0)]!;
  const plan = JSON.parse(process.env.CRASH_PLAN ?? '{"kind":"none"}') as KillPlan;
  /** How the agents are started: `node <args>` (the bundled fake agent, or its snapshot). */
  const agentArgs = JSON.parse(process.env.CRASH_AGENT_ARGS!) as string[];

  const counts: Record<string, number> = {};
  let deltas = 0;
  const finished = new Set<string>();
  let sent = 0;
  const expectedAnswers = scenario.sends.reduce((n, s) => n + s.to.length, 0) + (scenario.delegations ?? 0);
  const ref: { channels?: Channels } = {};
  const checkDone = () => {
    if (sent === scenario.sends.length && finished.size === expectedAnswers) journal({ t: "done", counts, deltas, ms: Date.now() - started });
  };

  const emitter: Emitter = {
    emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
      if (name === "message/delta") {
        deltas++;
        if (plan.kind === "delta" && deltas === plan.n) die({ t: "kill", phase: "streaming", n: deltas, when: "at" });
        const { part } = payload as SidekicksEvents["message/delta"];
        if (part?.type === "permission" && part.outcome === undefined) {
          setTimeout(() => void ref.channels?.turns.answerPermission(part.requestId, "ok"), 15);
        }
      } else if (name === "message/finished") {
        const m = payload as MessageView;
        if (m.author.kind !== "agent") return;
        journal({ t: "agent", id: m.id, hash: hashText(textOf(m)), outcome: m.outcome });
        finished.add(m.id);
        checkDone();
      }
    },
  };

  /** `recover`: a second life on a killed child's store: only the sweeper runs (every commit is a `recovery` one). */
  const recovering = process.env.CRASH_MODE === "recover";
  const store = await Store.open(dir, (key, reason) => journal({ t: "violation", what: `corrupt record ${key} while running: ${reason}` }));
  // Test-side instrumentation of the one write path: count commits per phase, die at the planned one, and catch a
  // turn settled twice while running.
  const commit = store.commit.bind(store);
  store.commit = async (changes: StoreChanges) => {
    const phase = recovering ? "recovery" : classifyCommit(changes as unknown as CommitLike);
    const n = (counts[phase] = (counts[phase] ?? 0) + 1);
    const hit = plan.kind === "commit" && plan.phase === phase && plan.n === n;
    if (hit && plan.when === "before") die({ t: "kill", phase, n, when: "before" });
    for (const t of changes.turns ?? []) {
      if (t.state !== "settled") continue;
      const stored = await store.turn(t.id);
      if (stored?.state === "settled") journal({ t: "violation", what: `turn ${t.id} settled twice while running (${stored.outcome}, then ${t.outcome})` });
    }
    // Self-test of the checker (CRASH_FAULT=lost-admission): admissions lose their user message.
    if (process.env.CRASH_FAULT === "lost-admission" && phase === "admission") changes = { ...changes, messages: changes.messages?.filter((m) => m.author.kind === "agent") };
    await commit(changes);
    if (hit) die({ t: "kill", phase, n, when: "after" });
  };

  // The agents' files are served from the run's folder, on disk (no editor): their writes run as tool intents.
  const agents = new AgentManager(emitter, {
    launch: { workspaceFolder: process.env.CRASH_WS!, nodePath: process.execPath, demoAgentPath: "", env: process.env },
    workspace: {},
  });
  const roster: AgentConfig[] = Object.entries(scenario.agents).map(([name, prompt]) => ({
    name,
    command: process.execPath,
    args: agentArgs,
    env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt, ...(scenario.mcpHttp?.includes(name) ? { mcpHttp: true } : {}) }) },
    ...(scenario.mcpHttp?.includes(name) ? { mcpServers: [] } : {}),
  }));
  agents.setRoster(roster);
  // A virtual clock CLOCK_SPEEDUP times faster than real time: the reducer's 1 s checkpoint spacing and 5 s heartbeat
  // come every 100 ms and 0.5 s of real time (the tick runs every 20 ms).
  const now = () => started + (Date.now() - started) * CLOCK_SPEEDUP;
  const channels = composeChannels({ store, agents, emitter, log: () => undefined, now, cancelGraceMs: 5_000, tickMs: 20 });
  ref.channels = channels;
  await channels.ready;
  // Stays alive once done, until the harness kills it (a finished run is killed too: a kill "after the end").
  setInterval(() => undefined, 60_000);
  if (recovering) {
    journal({ t: "done", counts, deltas, ms: Date.now() - started });
    return;
  }
  const general = await channels.directory.syncGeneral(agents.names());
  for (const s of scenario.sends) {
    setTimeout(() => {
      channels.messages.send(general.id, s.text).then(
        ({ messageId }) => {
          journal({ t: "user", id: messageId, hash: hashText(s.text), to: s.to });
          sent++;
          checkDone();
        },
        (err) => {
          process.stderr.write(`send failed: ${String(err)}\n`);
          process.exit(3);
        },
      );
    }, s.atMs);
  }
}
