/**
 * channel.open100kRatio — wall time to load and post the latest page (50 messages) of a channel holding 100,000
 * messages, divided by the same for a channel of 100 messages, in one LevelDB store. "Load and post" is the
 * webview's `channel/open` request through the real `WebviewBridge` and `Channels.open` (a reverse range scan
 * with a limit, `Store.latestMessages`), until the response is serialized like `postMessage` does. Alternating
 * rounds, median of each. Target ≤ 2. Memory: heap and RSS growth across one open of the big channel (after a GC
 * when `--expose-gc` is on).
 */
import { monotonicFactory } from "ulid";
import { composeChannels } from "../src/app/compose";
import type { AgentSource } from "../src/channels/AgentSource";
import { WebviewBridge } from "../src/app/WebviewBridge";
import { EventBus } from "../src/events/events";
import { PROTOCOL_VERSION, type HostToWebview } from "../src/shared/protocol";
import { Store } from "../src/store/Store";
import type { MessageRecord } from "../src/store/records";
import { tempDir, stubHandlers } from "../test/unit/helpers";
import { median } from "./stats";

const BIG = Number(process.env.BENCH_OPEN_MESSAGES ?? 100_000);
const SMALL = 100;
const BATCH = 10_000;
const OPEN_ROUNDS = Number(process.env.BENCH_OPEN_ROUNDS ?? 40);

/** Figures of the channel-open benchmark. */
export interface ChannelOpenResult {
  bigMs: number;
  smallMs: number;
  ratio: number;
  heapDeltaKB: number;
  rssDeltaKB: number;
  fillMs: number;
  samples: { bigMs: number[]; smallMs: number[] };
}

const noAgents: AgentSource = { names: () => [], state: () => "stopped", session: () => Promise.reject(new Error("no agents in this bench")) };

/** Writes `count` messages (user and agent, about 300 bytes of text each) into `channelId` in big batches. */
async function fill(store: Store, channelId: string, count: number): Promise<void> {
  const ulid = monotonicFactory();
  const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(5);
  for (let start = 0; start < count; start += BATCH) {
    const messages: MessageRecord[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const at = 1_700_000_000_000 + i * 1000;
      const author: MessageRecord["author"] = i % 2 === 0 ? { kind: "user" } : { kind: "agent", agentName: "demo" };
      messages.push({ version: 1, id: ulid(at), channelId, author, parts: [{ type: "text", text: `${i} ${text}` }], createdAt: at });
    }
    await store.commit({ messages });
  }
}

/** Runs the benchmark in a temp store; see the file comment. */
export async function channelOpenBench(): Promise<ChannelOpenResult> {
  const { dir, cleanup } = tempDir("sidekicks-bench-open-");
  const store = await Store.open(dir);
  try {
    const events = new EventBus();
    const channels = composeChannels({ store, agents: noAgents, emitter: events });
    const general = await channels.directory.syncGeneral([]);
    const ulid = monotonicFactory();
    for (const name of ["big", "small"]) {
      const at = Date.now();
      await store.commit({ channels: [{ channel: { version: 1, id: ulid(at), name, kind: "channel", createdAt: at, updatedAt: at } }] });
    }
    const big = (await store.channelByName("big"))!;
    const small = (await store.channelByName("small"))!;
    const fillStart = performance.now();
    await fill(store, big.id, BIG);
    await fill(store, small.id, SMALL);
    const fillMs = performance.now() - fillStart;
    void general;

    let waiting: ((bytes: number) => void) | undefined;
    const bridge = new WebviewBridge(
      (m: HostToWebview) => waiting?.(JSON.stringify(m).length),
      stubHandlers({ "channel/open": async ({ name }) => ({ ...(await channels.messages.open(name ?? "general")), config: { state: "ok", path: "/bench", problems: [] } }) }),
    );
    bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
    let id = 0;
    const open = async (name: string): Promise<number> => {
      const start = performance.now();
      const posted = new Promise<number>((resolve) => (waiting = resolve));
      bridge.receive({ kind: "request", id: ++id, method: "channel/open", params: { name } });
      const bytes = await posted;
      if (bytes < 50 * 300) throw new Error(`channel/open of #${name} posted only ${bytes} bytes`);
      return performance.now() - start;
    };

    for (let i = 0; i < 5; i++) await open(i % 2 ? "big" : "small"); // warm-up
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage();
    await open("big");
    const after = process.memoryUsage();
    const bigMs: number[] = [];
    const smallMs: number[] = [];
    for (let i = 0; i < OPEN_ROUNDS; i++) {
      bigMs.push(await open("big"));
      smallMs.push(await open("small"));
    }
    bridge.dispose();
    await channels.close();
    const r2 = (x: number) => Math.round(x * 100) / 100;
    return {
      bigMs: r2(median(bigMs)),
      smallMs: r2(median(smallMs)),
      ratio: r2(median(bigMs) / median(smallMs)),
      heapDeltaKB: Math.round((after.heapUsed - before.heapUsed) / 1024),
      rssDeltaKB: Math.round((after.rss - before.rss) / 1024),
      fillMs: Math.round(fillMs),
      samples: { bigMs: bigMs.map(r2), smallMs: smallMs.map(r2) },
    };
  } finally {
    await store.close();
    cleanup();
  }
}

if (require.main === module) {
  void channelOpenBench().then((r) => console.log(JSON.stringify(r, null, 2)));
}
