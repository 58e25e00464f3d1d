/**
 * turn.storeWritesPerTurn — LevelDB write batches (`Store.batches`) for one turn whose answer streams 3 tool calls
 * and 150 text chunks over about 5 s, from admission to settlement, through the real `Channels` and a fake
 * agent subprocess. Target ≤ 10 (brief: checkpoints at tool-call boundaries and at most about once a second, never
 * per chunk). The median of a few runs is reported.
 */
import { AgentManager } from "../src/agents/AgentManager";
import { composeChannels } from "../src/app/compose";
import { Recorder } from "../src/events/events";
import { Store } from "../src/store/Store";
import { FAKE_AGENT, tempDir } from "../test/unit/helpers";

const RUNS = Number(process.env.BENCH_TURN_RUNS ?? 3);

async function oneTurn(): Promise<{ writes: number; ms: number }> {
  const steps: object[] = [];
  for (let i = 1; i <= 3; i++) {
    steps.push({ toolCall: { toolCallId: `t${i}`, title: `step ${i}`, kind: "read", status: "in_progress" } });
    for (let c = 0; c < 50; c++) steps.push({ chunk: "word " }, { sleep: 33 });
    steps.push({ toolCallUpdate: { toolCallId: `t${i}`, status: "completed" } });
  }
  const { dir, cleanup } = tempDir();
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  agents.setRoster([{ name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) } } as never]);
  const store = await Store.open(dir);
  const channels = composeChannels({ store, agents, emitter: events });
  try {
    const general = await channels.directory.syncGeneral(["a"]);
    await agents.start("a");
    const before = store.batches;
    const start = performance.now();
    await channels.messages.send(general.id, "@a go");
    for (;;) {
      if (events.of("message/finished").some((m) => m.author.kind === "agent")) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return { writes: store.batches - before, ms: performance.now() - start };
  } finally {
    await channels.close();
    await store.close();
    await agents.stopAll();
    cleanup();
  }
}

/** Runs the turn {@link RUNS} times; the median batch count and turn duration. */
export async function turnWriteFigures(): Promise<Record<string, number | string>> {
  const runs: { writes: number; ms: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await oneTurn());
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    "turn.storeWritesPerTurn": mid(runs.map((r) => r.writes)),
    "turn.durationMs": Math.round(mid(runs.map((r) => r.ms))),
    "turn.writesTarget": "≤ 10",
  };
}
