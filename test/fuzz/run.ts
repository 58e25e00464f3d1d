/**
 * `npm run test:fuzz` (issue 17): randomised and malformed agent streams (test/fuzz/streams.mjs) from a real fuzz agent
 * subprocess (test/fuzz/agent.mjs) through the real channel core — AgentManager, the composed channels, LevelDB in a
 * temp folder — in FUZZ_LANES channels at once, one agent each. For every stream it checks what a user would notice:
 * - **crashes**: an uncaught exception or unhandled rejection in this process (the extension host);
 * - **hangs**: an answer that does not settle — within {@link SETTLE_MS} of the stream's end, or of Stop for a
 *   stream whose agent goes silent (Stop is pressed after {@link STOP_AFTER_MS});
 * - **lost**: the user's message or the answer missing from the store once settled, or a well-formed text chunk of
 *   the stream (a unique token) missing from the stored answer, or out of order;
 * - **misread endings**: a prompt result ACP does not define (`null`, not an object, a stop reason outside its list)
 *   that did not end the answer as a protocol error.
 * Prints one line per finding, then `streams: N, crashes: C, hangs: H, lost: L, heap growth: X MB, misread endings: M`
 * last (heap used after a forced GC, at the end minus after the first {@link WARMUP} streams, once the JIT has
 * compiled the paths most streams take); exits 1 when C + H + L + M > 0.
 *
 * Environment: FUZZ_STREAMS (default 400), FUZZ_SEED (first seed, default 1), FUZZ_LANES (default 4),
 * FUZZ_HUGE_LINE_BYTES (default 256 KiB), FUZZ_HEAP_KINDS (set: also print the growth by V8 node kind, from two heap
 * snapshots — `code` is compiled code, `object`/`string`/`array`/`closure` kept data; test/fuzz/heapKinds.ts). Run with `node --expose-gc --import tsx test/fuzz/run.ts`.
 */
import path from "node:path";
import { STOP_REASONS } from "../../src/acp/AcpClient";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels } from "../../src/app/compose";
import type { AgentConfig } from "../../src/config/roster";
import type { Emitter, SidekicksEventName, SidekicksEvents } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { tempDir, waitFor } from "../unit/helpers";
import { describeGrowth, heapKinds, type HeapKinds } from "./heapKinds";
import { streamOf } from "./streams.mjs";

const STREAMS = Number(process.env.FUZZ_STREAMS ?? 400);
const FIRST_SEED = Number(process.env.FUZZ_SEED ?? 1);
const LANES = Number(process.env.FUZZ_LANES ?? 4);
/** How long a silent agent is left before the harness presses Stop, in ms. */
const STOP_AFTER_MS = 1_000;
/** How long an answer may take to settle after its stream ended (or after Stop), in ms; past it, a hang. */
const SETTLE_MS = 15_000;
/** How long Stop waits for the agent's `cancelled` before settling anyway (the product's grace, shortened), in ms. */
const CANCEL_GRACE_MS = 500;
/**
 * Streams before the first heap measurement: a tenth of the run, at most 1,000. Rare stream shapes reach code paths
 * late, and their compiled code is heap too (at 2,000 streams measured after 50, 1.76 MB of the 1.87 MB grown was
 * `code`; kept objects, strings, arrays and closures had shrunk): a later start measures kept data, not the JIT.
 */
const WARMUP = Math.min(1_000, Math.floor(STREAMS / 10));

const findings: string[] = [];
/** How the answers ended (`outcome`, else `status`), by count: shows the streams reached every ending. */
const endings = new Map<string, number>();
/** The ACP SDK's own console lines (updates it refused, stray responses): counted, not printed. */
let sdkLines = 0;
console.error = () => void sdkLines++;
const counts = { crashes: 0, hangs: 0, lost: 0, misread: 0 };
const finding = (kind: keyof typeof counts, line: string) => {
  counts[kind]++;
  findings.push(line);
  console.log(`${kind}: ${line}`);
};
process.on("uncaughtException", (err) => finding("crashes", `uncaught exception: ${err.stack ?? String(err)}`));
process.on("unhandledRejection", (err) => finding("crashes", `unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));

/** Resolvers of the next agent message started in a channel, and of a message's settlement. */
const started = new Map<string, (m: MessageView) => void>();
const finished = new Map<string, (m: MessageView) => void>();
const emitter: Emitter = {
  emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
    if (name === "message/started") {
      const m = payload as MessageView;
      if (m.author.kind === "agent") started.get(m.channelId)?.(m);
    } else if (name === "message/finished") {
      const m = payload as MessageView;
      finished.get(m.id)?.(m);
    }
  },
};

const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** `promise`, or `undefined` once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const textOf = (m: { parts: readonly { type: string; text?: string }[] }) => m.parts.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");

async function main(): Promise<void> {
  const began = Date.now();
  const { dir, cleanup } = tempDir("sidekicks-fuzz-");
  const agentPath = path.resolve(__dirname, "agent.mjs");
  const roster: AgentConfig[] = Array.from({ length: LANES }, (_, i) => ({ name: `fuzz${i}`, command: process.execPath, args: [agentPath], env: {} }));
  const agents = new AgentManager(emitter, { launch: { workspaceFolder: dir, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  agents.setLimits({ maxRunningAgents: LANES, idleTimeoutMs: 0 });
  agents.setRoster(roster);
  const store = await Store.open(path.join(dir, "store"));
  const channels = composeChannels({ store, agents, emitter, cancelGraceMs: CANCEL_GRACE_MS });
  await channels.directory.syncGeneral(agents.names());
  const lanes = await Promise.all(roster.map((a, i) => channels.directory.create(`lane-${i}`, { members: [a.name] })));

  let next = FIRST_SEED;
  let done = 0;
  let heapStart: number | undefined;
  let kindsStart: HeapKinds | undefined;
  const oneStream = async (lane: number, seed: number) => {
    const channelId = lanes[lane]!.id;
    const agent = roster[lane]!.name;
    const stream = streamOf(seed, { hugeLineBytes: Number(process.env.FUZZ_HUGE_LINE_BYTES) || undefined });
    const answerStarted = new Promise<MessageView>((resolve) => started.set(channelId, resolve));
    let userId: string;
    try {
      ({ messageId: userId } = await channels.messages.send(channelId, `@${agent} fuzz:${seed}`));
    } catch (err) {
      finding("lost", `seed ${seed}: the message was not admitted: ${String(err)}`);
      return;
    }
    const answer = await within(answerStarted, SETTLE_MS);
    started.delete(channelId);
    if (!answer) return finding("hangs", `seed ${seed}: no answer started within ${SETTLE_MS} ms`);
    const settled = new Promise<MessageView>((resolve) => finished.set(answer.id, resolve));
    let result = await within(settled, stream.end.kind === "silent" ? STOP_AFTER_MS : SETTLE_MS);
    if (!result && stream.end.kind === "silent") {
      await channels.turns.cancel(answer.id);
      result = await within(settled, SETTLE_MS);
    }
    finished.delete(answer.id);
    if (!result) return finding("hangs", `seed ${seed} (ends ${stream.end.kind}): the answer did not settle`);
    const ending = `${stream.end.kind} → ${result.outcome ?? result.status}`;
    endings.set(ending, (endings.get(ending) ?? 0) + 1);
    // A result ACP does not define (no object, no stop reason of its list) is the agent's protocol error, never a
    // completed turn (issue 17).
    if (stream.end.kind === "result") {
      const stop = (stream.end.value as { stopReason?: unknown } | null)?.stopReason;
      const valid = typeof stop === "string" && (STOP_REASONS as readonly string[]).includes(stop);
      if (!valid && !(result.outcome === "failed" && result.error?.code === "agent/protocol")) {
        finding("misread", `seed ${seed}: the prompt result ${JSON.stringify(stream.end.value)} ended the answer ${result.outcome}${result.error ? ` (${result.error.code})` : ""}, not as a protocol error`);
      }
    }
    const savedUser = await store.message(channelId, userId);
    const savedAnswer = await store.message(channelId, answer.id);
    if (!savedUser) finding("lost", `seed ${seed}: the user's message is not in the store`);
    if (!savedAnswer) return finding("lost", `seed ${seed}: the answer is not in the store`);
    const text = textOf(savedAnswer);
    let at = 0;
    for (const step of stream.steps) {
      if (step.kind !== "text") continue;
      const found = text.indexOf(step.token, at);
      if (found < 0) {
        await restartIfDied(agent, true);
        const shown = textOf(result).includes(step.token) ? "shown when it settled" : "not shown either";
        const why = `${result.outcome ?? result.status}${result.error ? `, ${result.error.code}: ${result.error.message.slice(0, 160)}` : ""}`;
        return finding("lost", `seed ${seed} (ends ${stream.end.kind}; ${why}): the chunk ${step.token} is not in the stored answer (in order), ${shown}`);
      }
      at = found + step.token.length;
    }
    await restartIfDied(agent, stream.end.kind === "exit" || stream.end.kind === "kill" || stream.steps.some((s) => s.kind === "exit"));
  };
  /**
   * An agent that died is started again for the next stream (as the user's Start would), skipping the crash backoff.
   * After a stream that ends the process, its exit is awaited first (it may be reported after the answer settled).
   */
  const restartIfDied = async (agent: string, died: boolean) => {
    const down = () => agents.state(agent) === "error" || agents.state(agent) === "stopped";
    if (died) await waitFor(() => (down() ? true : undefined), 5_000).catch(() => undefined);
    if (down()) await agents.start(agent).catch(() => undefined);
  };
  const lane = async (i: number) => {
    while (next < FIRST_SEED + STREAMS) {
      const seed = next++;
      await oneStream(i, seed);
      done++;
      if (done === WARMUP) {
        heapStart = heapMb();
        if (process.env.FUZZ_HEAP_KINDS) kindsStart = heapKinds();
      }
    }
  };
  await Promise.all(lanes.map((_, i) => lane(i)));
  const growth = heapMb() - (heapStart ?? 0);
  if (kindsStart) console.log(`fuzz: heap growth by kind after stream ${WARMUP} (MB): ${describeGrowth(kindsStart, heapKinds())}`);
  console.log(`endings (the stream's end → the answer's outcome): ${[...endings].sort().map(([k, n]) => `${k} ${n}`).join(", ")}`);
  console.log(`fuzz: ${sdkLines} lines of the ACP SDK's console output (refused updates, stray responses) not shown`);
  console.log(`fuzz: ${STREAMS} streams from seed ${FIRST_SEED} in ${LANES} lanes, ${((Date.now() - began) / 1000).toFixed(1)} s; heap ${heapMb().toFixed(1)} MB at the end`);
  await channels.close();
  await store.close();
  await agents.stopAll();
  cleanup();
  console.log(`streams: ${done}, crashes: ${counts.crashes}, hangs: ${counts.hangs}, lost: ${counts.lost}, heap growth: ${growth.toFixed(1)} MB, misread endings: ${counts.misread}`);
  process.exit(counts.crashes + counts.hangs + counts.lost + counts.misread > 0 ? 1 : 0);
}

void main().catch((err) => {
  console.error(err);
  console.log(`streams: 0, crashes: 1, hangs: 0, lost: 0, heap growth: 0.0 MB, misread endings: 0`);
  process.exit(1);
});
