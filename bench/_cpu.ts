/**
 * context.catchUpRatio — wall time of the first turn's context build (the turn executor's `context` port,
 * `unseenContext`, over a LevelDB store in a temp dir) when the agent's session is new after 200 turns in its
 * channel, divided by the same after 1 turn. A turn is a user message and the agent's answer (about 1 KB of text and
 * a tool call printing about 2 KB); the agent answered before, so its new session gets the channel's history again,
 * bounded to 32 KB. Alternating rounds, median of each. Target ≤ 1.5.
 */
import { monotonicFactory } from "ulid";
import { unseenContext } from "../src/channels/unseenContext";
import { Store } from "../src/store/Store";
import type { MessageRecord } from "../src/store/records";
import { tempDir } from "../test/unit/helpers";
import { median } from "./stats";

const ROUNDS = Number(process.env.BENCH_CONTEXT_ROUNDS ?? 40);
const AGENT = "demo";

/** Figures of the catch-up benchmark. */
export interface ContextCatchUpResult {
  after200Ms: number;
  after1Ms: number;
  ratio: number;
  after200Bytes: number;
  samples: { after200Ms: number[]; after1Ms: number[] };
}

const answer = "The function reads the file, splits it into lines and counts the words of each. ".repeat(12);
const output = "src/a.ts:12: const total = lines.reduce((n, line) => n + line.split(/\\s+/).length, 0);\n".repeat(24);

/** A channel of `turns` turns in its own store, its agent a member that saw them all; `build` is the timed call. */
async function history(turns: number) {
  const { dir, cleanup } = tempDir("sidekicks-bench-context-");
  const store = await Store.open(dir);
  const ulid = monotonicFactory();
  const channelId = ulid();
  let at = 1_700_000_000_000;
  const messages: MessageRecord[] = [];
  for (let t = 0; t < turns; t++) {
    at += 1000;
    messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: `@${AGENT} turn ${t}: what does count() do?` }], createdAt: at });
    at += 1000;
    messages.push({
      version: 1,
      id: ulid(at),
      channelId,
      author: { kind: "agent", agentName: AGENT },
      parts: [
        { type: "text", text: "Let me look." },
        { type: "toolCall", toolCallId: `t${t}`, title: "grep count src", kind: "search", status: "completed", content: output },
        { type: "text", text: `${t}: ${answer}` },
      ],
      createdAt: at,
    });
  }
  at += 1000;
  const request: MessageRecord = { version: 1, id: ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: `@${AGENT} and now?` }], createdAt: at };
  messages.push(request);
  const lastSeenMessageId = messages.at(-2)!.id;
  await store.commit({ channels: [{ channel: { version: 1, id: channelId, name: "general", kind: "channel", createdAt: at, updatedAt: at } }], messages, members: [{ version: 1, channelId, agentName: AGENT, joinedAt: at, lastSeenMessageId }] });
  return {
    /** The context a new session of the agent gets before `request`; ms and the text. */
    async build(): Promise<{ ms: number; text: string }> {
      const start = cpuNow();
      const text = await unseenContext(store, channelId, AGENT, request.id, true);
      return { ms: cpuNow() - start, text };
    },
    async close(): Promise<void> {
      await store.close();
      cleanup();
    },
  };
}

/** Runs the benchmark in two temp stores; see the file comment. */
export async function contextCatchUpBench(): Promise<ContextCatchUpResult> {
  const long = await history(200);
  const short = await history(1);
  try {
    for (let i = 0; i < 5; i++) {
      await long.build();
      await short.build();
    }
    const after200Ms: number[] = [];
    const after1Ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const built = await long.build();
      if (!built.text.includes(`199: ${answer.slice(0, 20)}`)) throw new Error("the newest answer is not in the context");
      bytes = Buffer.byteLength(built.text);
      after200Ms.push(built.ms);
      const one = await short.build();
      if (!one.text.includes("0: The function")) throw new Error("the one answer is not in the context");
      after1Ms.push(one.ms);
    }
    const r2 = (x: number) => Math.round(x * 100) / 100;
    return {
      after200Ms: r2(median(after200Ms)),
      after1Ms: r2(median(after1Ms)),
      ratio: r2(median(after200Ms) / median(after1Ms)),
      after200Bytes: bytes,
      samples: { after200Ms: after200Ms.map(r2), after1Ms: after1Ms.map(r2) },
    };
  } finally {
    await long.close();
    await short.close();
  }
}

if (require.main === module) {
  void contextCatchUpBench().then((r) => console.log(JSON.stringify(r, null, 2)));
}
function cpuNow(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
