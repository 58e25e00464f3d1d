/**
 * terminal.throughputMBps — 50 MB (BENCH_TERMINAL_MB) of output from a real process through `node-pty` into a
 * Sidekicks terminal (`TerminalManager` from src/workspace/terminals.ts: streaming UTF-8 decode, `onData`, the
 * `OutputBuffer` bounded at `outputByteLimit` = 1 MiB), from `terminal/create` until `terminal/wait_for_exit`
 * resolves, then one `terminal/output`. MB/s = MiB of output / seconds. Median of BENCH_TERMINAL_ROUNDS (default 3).
 * For context, terminal.baselineMBps: the same process through bare node-pty whose listener only counts bytes.
 *
 * Memory: RSS sampled every 5 ms during the run (and at each exit); terminal.peakRssGrowthMB is the largest
 * growth over the RSS measured just before `terminal/create` (after a GC when `--expose-gc` is on), the maximum over
 * the rounds. It stays bounded (the output is 50× the limit) when the buffer drops old output as it should.
 */
import * as pty from "node-pty";
import { TerminalManager } from "../src/workspace/terminals";
import { utf8Bytes } from "../src/workspace/outputBuffer";
import { median } from "./stats";

const MB = Number(process.env.BENCH_TERMINAL_MB ?? 50);
const ROUNDS = Number(process.env.BENCH_TERMINAL_ROUNDS ?? 3);
const LIMIT = 1024 * 1024;

/** A child that writes `MB` MiB of text lines (ASCII with a 3-byte character) to stdout, honouring backpressure. */
const PRODUCER = `
const total = ${MB} * 1024 * 1024;
const line = "0123456789 €€ abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ\\n";
const chunk = Buffer.from(line.repeat(Math.floor(65536 / Buffer.byteLength(line))));
let sent = 0;
function pump() {
  while (sent < total) {
    const piece = sent + chunk.length <= total ? chunk : chunk.subarray(0, total - sent);
    sent += piece.length;
    if (!process.stdout.write(piece)) return process.stdout.once("drain", pump);
  }
}
pump();`;

/** Figures of the terminal benchmark. */
export interface TerminalBenchResult {
  throughputMBps: number;
  baselineMBps: number;
  peakRssGrowthMB: number;
  retainedBytes: number;
  receivedBytes: number;
  samples: { throughputMBps: number[]; baselineMBps: number[]; peakRssGrowthMB: number[] };
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** Runs `body` while sampling RSS; returns its result and the peak RSS growth in bytes over the RSS at the start. */
async function withRss<T>(body: () => Promise<T>): Promise<{ value: T; peakGrowth: number }> {
  gc();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await body();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakGrowth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

async function ours(): Promise<{ seconds: number; peakGrowth: number; retained: number; received: number }> {
  const manager = new TerminalManager({ cwd: process.cwd() });
  const { value, peakGrowth } = await withRss(async () => {
    const start = performance.now();
    const term = await manager.create({ command: process.execPath, args: ["-e", PRODUCER], outputByteLimit: LIMIT });
    const status = await manager.waitForExit(term.id);
    const out = manager.output(term.id);
    const seconds = (performance.now() - start) / 1000;
    if (status.exitCode !== 0) throw new Error(`producer exited with ${JSON.stringify(status)}`);
    const retained = utf8Bytes(out.output);
    if (!out.truncated || retained > LIMIT) throw new Error(`retained ${retained} bytes, truncated ${out.truncated}`);
    const received = term.receivedBytes;
    await manager.release(term.id);
    return { seconds, retained, received };
  });
  // The pty turns "\n" into "\r\n": more bytes arrive than were written.
  if (value.received < MB * 1024 * 1024) throw new Error(`only ${value.received} bytes arrived`);
  return { ...value, peakGrowth };
}

async function bare(): Promise<number> {
  const start = performance.now();
  let bytes = 0;
  const p = pty.spawn(process.execPath, ["-e", PRODUCER], { cols: 120, rows: 30, cwd: process.cwd(), env: process.env as Record<string, string>, encoding: null });
  p.onData((d: string | Buffer) => (bytes += d.length));
  await new Promise<void>((resolve) => p.onExit(() => resolve()));
  if (bytes < MB * 1024 * 1024) throw new Error(`bare node-pty got only ${bytes} bytes`);
  return (performance.now() - start) / 1000;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** Runs the benchmark; see the file comment. */
export async function terminalBench(): Promise<TerminalBenchResult> {
  await ours(); // warm-up: module loading, JIT
  const mbps: number[] = [];
  const base: number[] = [];
  const growth: number[] = [];
  let last = { retained: 0, received: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    base.push(MB / (await bare()));
    const o = await ours();
    mbps.push(MB / o.seconds);
    growth.push(o.peakGrowth / 2 ** 20);
    last = o;
  }
  return {
    throughputMBps: r1(median(mbps)),
    baselineMBps: r1(median(base)),
    peakRssGrowthMB: r1(Math.max(...growth)),
    retainedBytes: last.retained,
    receivedBytes: last.received,
    samples: { throughputMBps: mbps.map(r1), baselineMBps: base.map(r1), peakRssGrowthMB: growth.map(r1) },
  };
}

if (require.main === module) {
  void terminalBench().then((r) => console.log(JSON.stringify(r, null, 2)));
}

/**
 * For bench/run.ts: runs {@link terminalBench}, prints its figures as table rows, and returns them under
 * `terminal.*` keys for bench/results.json.
 */
export async function terminalFigures(): Promise<Record<string, unknown>> {
  const r = await terminalBench();
  console.log(`| terminal.throughputMBps (${MB} MiB through node-pty, 1 MiB outputByteLimit) | ${r.throughputMBps} | |`);
  console.log(`| terminal.baselineMBps (the same through bare node-pty, bytes counted) | ${r.baselineMBps} | |`);
  console.log(`| terminal.peakRssGrowthMB | ${r.peakRssGrowthMB} | |`);
  return {
    "terminal.throughputMBps": r.throughputMBps,
    "terminal.baselineMBps": r.baselineMBps,
    "terminal.peakRssGrowthMB": r.peakRssGrowthMB,
    "terminal.retainedBytes": r.retainedBytes,
    "terminal.samples": r.samples,
  };
}
