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
 *
 * terminal.screenCrMs — what a card shows of 1 MiB of progress frames redrawn with CR (`\r[=====>    ] 42%`, a new
 * line every 100 frames; field case 21): `terminalScreen` (src/shared/terminalScreen.ts), against the terminal
 * emulator VS Code's terminal runs on, @xterm/headless, writing the same text and reading its buffer back
 * (terminal.screenCrXtermMs), same process, alternating; terminal.screenColourMs: 256 KiB of coloured compiler output
 * (SGR sequences on every line), against the plain escape stripping used before (terminal.screenColourStripMs).
 * Medians of BENCH_SCREEN_ROUNDS (default 7) after one warm-up each.
 */
import { Terminal } from "@xterm/headless";
import * as pty from "node-pty";
import { terminalScreen } from "../src/shared/terminalScreen";
import { stripTerminalEscapes } from "../src/shared/terminalText";
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

/** 1 MiB of progress frames: each redraws the line after a CR; every 100th ends with LF (a finished step). */
function progressFrames(): string {
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 1024 * 1024; i++) {
    const done = i % 100;
    const frame = `\r[${"=".repeat(done >> 2)}>${" ".repeat(25 - (done >> 2))}] ${done}% step ${Math.floor(i / 100)}${done === 99 ? "\n" : ""}`;
    parts.push(frame);
    bytes += frame.length;
  }
  return parts.join("");
}

/** 256 KiB of coloured compiler output: a file name in bold, a coloured severity, text, a reset, per line. */
function colouredOutput(): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 256 * 1024; i++) {
    const line = `\u001b[1msrc/module${i % 40}.ts:${i}:7\u001b[0m - \u001b[${i % 3 === 0 ? 31 : 33}m${i % 3 === 0 ? "error" : "warning"}\u001b[0m TS${2300 + (i % 90)}: Property 'value${i}' does not exist on type 'Options'.\n`;
    lines.push(line);
    bytes += line.length;
  }
  return lines.join("");
}

/** What @xterm/headless shows after `text` (500 columns, the whole output in its scrollback), as lines. */
async function xtermScreen(text: string): Promise<string> {
  const term = new Terminal({ cols: 500, rows: 50, scrollback: 100_000, convertEol: true, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(text, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
  term.dispose();
  return lines.join("\n");
}

async function timed(body: () => unknown): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

/** The screen benchmark; see the file comment. All in ms. */
export async function screenBench(rounds = Number(process.env.BENCH_SCREEN_ROUNDS ?? 7)): Promise<{ crMs: number; crXtermMs: number; colourMs: number; colourStripMs: number }> {
  const cr = progressFrames();
  const coloured = colouredOutput();
  const samples = { cr: [] as number[], crXterm: [] as number[], colour: [] as number[], colourStrip: [] as number[] };
  for (let i = 0; i <= rounds; i++) {
    const keep = i > 0; // the first round warms up
    const a = await timed(() => terminalScreen(cr));
    const b = await timed(() => xtermScreen(cr));
    const c = await timed(() => terminalScreen(coloured));
    const d = await timed(() => stripTerminalEscapes(coloured));
    if (!keep) {
      // What is timed must be the same screen: the last lines both show.
      const tail = (text: string) => text.split("\n").map((l) => l.trimEnd()).filter((l) => l !== "").slice(-3).join("\n");
      if (tail(terminalScreen(cr)) !== tail(await xtermScreen(cr))) throw new Error("terminalScreen and @xterm/headless show different screens");
      continue;
    }
    samples.cr.push(a);
    samples.crXterm.push(b);
    samples.colour.push(c);
    samples.colourStrip.push(d);
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { crMs: r2(median(samples.cr)), crXtermMs: r2(median(samples.crXterm)), colourMs: r2(median(samples.colour)), colourStripMs: r2(median(samples.colourStrip)) };
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
  const screen = await screenBench();
  console.log(`| terminal.throughputMBps (${MB} MiB through node-pty, 1 MiB outputByteLimit) | ${r.throughputMBps} | |`);
  console.log(`| terminal.baselineMBps (the same through bare node-pty, bytes counted) | ${r.baselineMBps} | |`);
  console.log(`| terminal.peakRssGrowthMB | ${r.peakRssGrowthMB} | |`);
  console.log(`| terminal.screenCrMs / screenCrXtermMs (1 MiB of CR progress frames: terminalScreen / @xterm/headless) | ${screen.crMs} / ${screen.crXtermMs} | |`);
  console.log(`| terminal.screenColourMs / screenColourStripMs (256 KiB of coloured output: terminalScreen / escape stripping) | ${screen.colourMs} / ${screen.colourStripMs} | |`);
  return {
    "terminal.throughputMBps": r.throughputMBps,
    "terminal.baselineMBps": r.baselineMBps,
    "terminal.peakRssGrowthMB": r.peakRssGrowthMB,
    "terminal.retainedBytes": r.retainedBytes,
    "terminal.samples": r.samples,
    "terminal.screenCrMs": screen.crMs,
    "terminal.screenCrXtermMs": screen.crXtermMs,
    "terminal.screenColourMs": screen.colourMs,
    "terminal.screenColourStripMs": screen.colourStripMs,
  };
}
