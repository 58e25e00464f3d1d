/**
 * channel.list500Ratio — what the channel list costs when a turn ends, in a store of 500 channels divided by the same
 * in a store of 5: one channel gets a new agent answer (committed as a turn's settlement commits it, not timed), then,
 * timed, the directory hears the answer finished (`ChannelDirectory.observe`, as the turn service tells it) and the
 * list update it announces goes through `connectWebview` and the real `WebviewBridge` until it is serialized like
 * `postMessage` does. Before each round the answer was announced started, so the channel is busy, as in a turn.
 * channel.listRequest500Ratio — the webview's whole `channels/list` request (the view asks for it when it opens or
 * reloads) after such a change, 500 over 5. Every channel holds 110 messages (user and agent alternating, a system
 * note every 20th), read up to its 100th, so each shows unread messages. Alternating rounds, median of each.
 * Target of list500Ratio ≤ 1.5.
 */
import { monotonicFactory } from "ulid";
import { composeChannels } from "../src/app/compose";
import { connectWebview } from "../src/app/webviewApi/webviewEvents";
import type { AgentSource } from "../src/channels/AgentSource";
import { WebviewBridge } from "../src/app/WebviewBridge";
import { EventBus } from "../src/events/events";
import { PROTOCOL_VERSION, type ChannelSummary, type HostToWebview, type MessageView } from "../src/shared/protocol";
import { Store } from "../src/store/Store";
import type { ChannelRecord, MessageRecord } from "../src/store/records";
import { tempDir, stubHandlers } from "../test/unit/helpers";
import { median } from "./stats";

const MESSAGES = 110;
const READ_UP_TO = 100;
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 30);

/** Figures of the channel-list benchmark. */
export interface ChannelListResult {
  /** A turn's list update (see the file comment), ms. */
  list500Ms: number;
  list5Ms: number;
  ratio: number;
  /** The whole `channels/list` request, ms. */
  request500Ms: number;
  request5Ms: number;
  requestRatio: number;
  samples: { list500Ms: number[]; list5Ms: number[]; request500Ms: number[]; request5Ms: number[] };
}

const noAgents: AgentSource = { names: () => ["demo"], state: () => "stopped", session: () => Promise.reject(new Error("no agents in this bench")) };
const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(5);

/** One store with `count` channels of {@link MESSAGES} messages each, and a bridge that answers `channels/list`. */
async function listing(count: number) {
  const { dir, cleanup } = tempDir("sidekicks-bench-list-");
  const store = await Store.open(dir);
  const events = new EventBus();
  const channels = composeChannels({ store, agents: noAgents, emitter: events });
  const ulid = monotonicFactory();
  let at = 1_700_000_000_000;
  const message = (channelId: string, i: number): MessageRecord => {
    at += 1000;
    const author: MessageRecord["author"] = i % 20 === 19 ? { kind: "system" } : i % 2 === 0 ? { kind: "user" } : { kind: "agent", agentName: "demo" };
    return { version: 1, id: ulid(at), channelId, author, parts: [{ type: "text", text: `${i} ${text}` }], createdAt: at };
  };
  const ids: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch: { channel: ChannelRecord }[] = [];
    const messages: MessageRecord[] = [];
    const values: { key: string; value: unknown }[] = [];
    for (let c = start; c < Math.min(count, start + 10); c++) {
      const channel: ChannelRecord = { version: 1, id: ulid(at), name: `channel-${String(c).padStart(3, "0")}`, kind: "channel", createdAt: at, updatedAt: at };
      batch.push({ channel });
      ids.push(channel.id);
      for (let i = 0; i < MESSAGES; i++) {
        const m = message(channel.id, i);
        messages.push(m);
        if (i === READ_UP_TO - 1) values.push({ key: `lastRead/${channel.id}`, value: m.id });
      }
    }
    await store.commit({ channels: batch, messages, values });
  }
  let waiting: ((reply: string) => void) | undefined;
  const bridge = new WebviewBridge(
    (m: HostToWebview) => waiting?.(JSON.stringify(m)),
    stubHandlers({ "channels/list": async () => ({ channels: await channels.directory.list(), agents: noAgents.names() }) }),
  );
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  const disconnect = connectWebview(events, () => undefined, (name, payload) => bridge.event(name, payload));
  let requestId = 0;
  let turn = 0;
  return {
    /** An answer started in one channel and committed (not timed), then, timed, its end until the list update is posted; ms. */
    async update(): Promise<number> {
      const channelId = ids[turn++ % ids.length]!;
      const answer = message(channelId, 1);
      const view: MessageView = { id: answer.id, channelId, author: answer.author, parts: answer.parts, createdAt: answer.createdAt, status: "streaming" };
      let posted = new Promise<string>((resolve) => (waiting = resolve));
      channels.directory.observe("started", view);
      await posted;
      await store.commit({ messages: [answer] });
      posted = new Promise<string>((resolve) => (waiting = resolve));
      const start = performance.now();
      channels.directory.observe("finished", { ...view, status: "done" });
      const serialized = await posted;
      const ms = performance.now() - start;
      const event = JSON.parse(serialized) as { name?: string; payload?: { channels: ChannelSummary[] } };
      const line = event.payload?.channels.find((c) => c.id === channelId);
      if (event.name !== "channels/updated" || !line || line.busy || line.unread < MESSAGES - READ_UP_TO) throw new Error(`the answer's end announced ${serialized.slice(0, 200)}`);
      return ms;
    },
    /** A new answer in one channel (not timed), then the timed `channels/list` request; ms. */
    async round(): Promise<number> {
      const channelId = ids[turn++ % ids.length]!;
      await store.commit({ messages: [message(channelId, 1)] });
      const start = performance.now();
      const posted = new Promise<string>((resolve) => (waiting = resolve));
      bridge.receive({ kind: "request", id: ++requestId, method: "channels/list", params: {} });
      const serialized = await posted;
      const ms = performance.now() - start;
      const reply = JSON.parse(serialized) as { result?: { channels: ChannelSummary[] } };
      const listed = reply.result?.channels ?? [];
      if (listed.length !== count) throw new Error(`channels/list returned ${listed.length} channels, not ${count}`);
      const changed = listed.find((c) => c.id === channelId);
      if (!changed || changed.unread < MESSAGES - READ_UP_TO) throw new Error(`the changed channel shows ${changed?.unread} unread`);
      return ms;
    },
    async close(): Promise<void> {
      disconnect();
      bridge.dispose();
      await channels.close();
      await store.close();
      cleanup();
    },
  };
}

/** Runs the benchmark in two temp stores; see the file comment. */
export async function channelListBench(): Promise<ChannelListResult> {
  const big = await listing(500);
  const small = await listing(5);
  try {
    for (let i = 0; i < 3; i++) {
      await big.update();
      await small.update();
      await big.round();
      await small.round();
    }
    const list500Ms: number[] = [];
    const list5Ms: number[] = [];
    const request500Ms: number[] = [];
    const request5Ms: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      list500Ms.push(await big.update());
      list5Ms.push(await small.update());
      request500Ms.push(await big.round());
      request5Ms.push(await small.round());
    }
    const r2 = (x: number) => Math.round(x * 100) / 100;
    return {
      list500Ms: r2(median(list500Ms)),
      list5Ms: r2(median(list5Ms)),
      ratio: r2(median(list500Ms) / median(list5Ms)),
      request500Ms: r2(median(request500Ms)),
      request5Ms: r2(median(request5Ms)),
      requestRatio: r2(median(request500Ms) / median(request5Ms)),
      samples: { list500Ms: list500Ms.map(r2), list5Ms: list5Ms.map(r2), request500Ms: request500Ms.map(r2), request5Ms: request5Ms.map(r2) },
    };
  } finally {
    await big.close();
    await small.close();
  }
}

if (require.main === module) {
  void channelListBench().then((r) => console.log(JSON.stringify(r, null, 2)));
}
