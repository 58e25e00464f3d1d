/**
 * `npm run bench`: performance figures as ratios against a baseline measured in the same process and run, written
 * to bench/results.json and printed as a table. See docs/performance.md for the figures and the machine.
 *
 * stream.overheadRatio — the fake agent (a real subprocess) streams 20,000 chunks of 100 bytes. CPU time of this
 * process for Sidekicks' host pipeline (ACP client → agent manager → channel → LevelDB store → webview bridge with a
 * post sink that serializes like postMessage) divided by the CPU time of a bare SDK client that only concatenates
 * the text. Runs alternate; the median of each side is used. Target ≤ 1.5.
 *
 * agent.startOverheadMs — a first mention of a stopped agent: wall time from `Channels.send` to the agent's
 * session being ready (process spawned, ACP `initialize` and `session/new` answered), minus the fake agent's own
 * startup as it reports it (`_meta.startupMs` of its initialize result: its process uptime when it answered).
 * Median of BENCH_START_ROUNDS (default 15) cold starts after one warm-up. Target ≤ 30 ms. For context, the same
 * figure for a bare SDK client (spawn, `initialize`, `session/new`, nothing else) runs alternately:
 * agent.startBaselineMs, most of which is the OS spawning a process and the pipes' round trips.
 *
 * render.longMessageRatio, render.chunksPerSecond — see bench/render.ts: the webview in headless Chromium, main-thread
 * time per 100-byte chunk at 1 MB over 10 KB (target ≤ 3), and chunks per second with at most one render per frame
 * (target ≥ 2,000). Needs the built bundle (`npm run build`) and Chromium.
 *
 * render.e2e2MBLagMs — only with `npm run bench -- --e2e` (and then only it): see bench/renderE2e.ts, the real editor.
 *
 * turn.snapshotCpuVsGitStatus, turn.promptDelayMs, turn.diffsKept* — only with `npm run bench -- --snapshots` (and then
 * only they, added to results.json): see bench/snapshots.ts, generated git workspaces of 50,000 and 200,000 files.
 *
 * realAgent.turnOverheadRatio — see bench/realAgent.ts: the same scripted Claude Code tools turn (claude-agent-acp
 * against the scripted model server) through Sidekicks' host pipeline over a bare SDK client, wall time, medians of
 * alternating rounds. Target ≤ 1.05. Needs the real agents (`node scripts/tools.mjs ensure`).
 *
 * channel.open100kRatio — see bench/channelOpen.ts: `channel/open` of a 100,000-message channel over the same for a
 * 100-message channel (latest page of 50, loaded and posted). Target ≤ 2. Run last: filling the store allocates.
 *
 * channel.list500Ratio — see bench/channelList.ts: the list update a turn's end announces with 500 channels over the
 * same with 5 (and the whole `channels/list` request beside it). Target ≤ 1.5. context.catchUpRatio — see bench/contextCatchUp.ts: a new session's
 * first context after 200 turns over the same after 1. Target ≤ 1.5.
 * turn.undoMs — see bench/turnUndo.ts: undo of a settled 100-file turn, beside plain writeFile of the same texts.
 * mcp.toolCallOverheadMs — see bench/mcp.ts: a Sidekicks MCP tool's round trip (`channel_recent_messages`) minus an empty
 * tool's on the same loopback server, through the MCP SDK's client.
 * worktree.createRatio — only with `npm run bench -- --worktree`: see bench/worktree.ts, an agent's worktree set-up
 * over a plain `git worktree add` on the same generated repository, same run. Target ≤ 1.2.
 *
 * search.100kMs — see bench/search.ts: a one-word history search over 100,000 messages through the word index, with
 * the full scan (search.100kScanMs) as the baseline in the same run. Target ≤ 100 ms.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { AgentManager } from "../src/agents/AgentManager";
import { composeChannels } from "../src/app/compose";
import type { AgentSource } from "../src/channels/AgentSource";
import { WebviewBridge } from "../src/app/WebviewBridge";
import { PROTOCOL_VERSION } from "../src/shared/protocol";
import { EventBus } from "../src/events/events";
import { Store } from "../src/store/Store";
import { FAKE_AGENT, tempDir, stubHandlers } from "../test/unit/helpers";
import { channelOpenBench } from "./channelOpen";
import { channelListBench } from "./channelList";
import { contextCatchUpBench } from "./contextCatchUp";
import { median } from "./stats";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20_000);
const CHUNK_BYTES = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const START_ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 15);
const script = JSON.stringify({ prompt: [{ chunks: { count: CHUNKS, size: CHUNK_BYTES } }] });

const cpuMs = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

/** Bare SDK client: spawn, initialize, session/new, then CPU time of one prompt that only concatenates text. */
export async function baseline(): Promise<number> {
  const child = spawn(process.execPath, [FAKE_AGENT], { env: { ...process.env, FAKE_AGENT_SCRIPT: script }, stdio: ["pipe", "pipe", "inherit"] });
  let text = "";
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const connection = acp
    .client({ name: "bench-baseline" })
    .onNotification("session/update", ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") text += u.content.text;
    })
    .connect(stream);
  await connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request("session/new", { cwd: process.cwd(), mcpServers: [] });
  const start = process.cpuUsage();
  await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  const ms = cpuMs(start);
  if (text.length !== CHUNKS * CHUNK_BYTES) throw new Error(`baseline got ${text.length} bytes`);
  connection.close();
  child.kill();
  return ms;
}

/** Sidekicks' pipeline, from `channel/send` to the committed `message/finished`. */
export async function pipeline(): Promise<number> {
  const { dir, cleanup } = tempDir("sidekicks-bench-");
  const events = new EventBus();
  const agents = new AgentManager(events, { launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  agents.setRoster([{ name: "fake", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: script } }]);
  const store = await Store.open(dir);
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(["fake"]);
  let posted = 0;
  const bridge = new WebviewBridge((m) => (posted += JSON.stringify(m).length), stubHandlers());
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  events.on("message/delta", (p) => bridge.event("message/delta", p));
  // Warm the agent up (start + session) outside the measurement, as the baseline does.
  await agents.session("fake", general.id, { onUpdate: () => undefined, onPermissionRequest: async () => ({ outcome: "cancelled" }) });
  const done = new Promise<number>((resolve) => {
    events.on("message/finished", (m) => {
      if (m.author.kind === "agent") resolve(m.parts.reduce((n, p) => n + (p.type === "text" ? p.text.length : 0), 0));
    });
  });
  const start = process.cpuUsage();
  await channels.messages.send(general.id, "@fake go");
  const bytes = await done;
  const ms = cpuMs(start);
  // The bridge posts a frame's deltas together (16 ms): let the last frame go out before checking what was posted.
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (bytes !== CHUNKS * CHUNK_BYTES) throw new Error(`pipeline got ${bytes} bytes`);
  if (posted < bytes) throw new Error(`the post sink saw less than the answer: ${posted} < ${bytes}`);
  await channels.close();
  await store.close();
  await agents.stopAll();
  bridge.dispose();
  cleanup();
  return ms;
}

/**
 * One cold start through a channel: ms from `Channels.send("@fake hi")` on a stopped agent until
 * `AgentManager.session` resolves, and the agent's own startup in ms (its `_meta.startupMs`).
 */
async function coldStart(): Promise<{ totalMs: number; agentMs: number }> {
  const { dir, cleanup } = tempDir("sidekicks-bench-");
  const events = new EventBus();
  const agents = new AgentManager(events, { launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  agents.setRoster([{ name: "fake", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: [{ chunk: "ok" }] }) } }]);
  let sessionReady!: (at: number) => void;
  const readyAt = new Promise<number>((resolve) => (sessionReady = resolve));
  const source: AgentSource = {
    names: () => agents.names(),
    state: (name) => agents.state(name),
    session: async (agent, owner, sink) => {
      const session = await agents.session(agent, owner, sink);
      sessionReady(performance.now());
      return session;
    },
  };
  const store = await Store.open(dir);
  const channels = composeChannels({ store, agents: source, emitter: events });
  const general = await channels.directory.syncGeneral(["fake"]);
  const finished = new Promise<void>((resolve) => events.on("message/finished", (m) => m.author.kind === "agent" && resolve()));
  if (agents.state("fake") !== "stopped") throw new Error("the agent must be stopped before the mention");
  const start = performance.now();
  await channels.messages.send(general.id, "@fake hi");
  const totalMs = (await readyAt) - start;
  const agentMs = agents.agentInfo("fake")?.meta?.startupMs;
  if (typeof agentMs !== "number") throw new Error("the fake agent reported no _meta.startupMs");
  await finished;
  await channels.close();
  await store.close();
  await agents.stopAll();
  cleanup();
  return { totalMs, agentMs };
}

/** The same cold start with a bare SDK client: spawn, `initialize`, `session/new`; ms, and the agent's own startup. */
async function bareStart(): Promise<{ totalMs: number; agentMs: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, [FAKE_AGENT], {
    env: { ...process.env, FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: [{ chunk: "ok" }] }) },
    stdio: ["pipe", "pipe", "ignore"],
    detached: true,
  });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const connection = acp.client({ name: "bench-baseline" }).connect(stream);
  const init = await connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  await connection.agent.request("session/new", { cwd: process.cwd(), mcpServers: [] });
  const totalMs = performance.now() - start;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  connection.close();
  child.kill();
  await exited;
  const agentMs = init._meta?.startupMs;
  if (typeof agentMs !== "number") throw new Error("the fake agent reported no _meta.startupMs");
  return { totalMs, agentMs };
}

async function main(): Promise<void> {
  // Cold starts first, alternating with the bare client, while the process is still small (a fork copies its page
  // tables) and before the streaming rounds leave garbage behind.
  await coldStart(); // warm-up
  await bareStart();
  const starts: { totalMs: number; agentMs: number }[] = [];
  const bare: number[] = [];
  for (let i = 0; i < START_ROUNDS; i++) {
    starts.push(await coldStart());
    const b = await bareStart();
    bare.push(b.totalMs - b.agentMs);
  }
  const overheads = starts.map((s) => s.totalMs - s.agentMs);
  await baseline();
  await pipeline(); // warm-up: JIT, module loading
  const base: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await baseline());
    ours.push(await pipeline());
  }
  const opening = await channelOpenBench();
  const listing = await channelListBench();
  const catchUp = await contextCatchUpBench();
  const round1 = (x: number) => Math.round(x * 10) / 10;
  const results = {
    machine: `${os.cpus()[0]?.model ?? "cpu"} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`,
    date: new Date().toISOString(),
    "stream.baselineCpuMs": Math.round(median(base)),
    "stream.pipelineCpuMs": Math.round(median(ours)),
    "stream.overheadRatio": Number((median(ours) / median(base)).toFixed(2)),
    "stream.target": "≤ 1.5",
    "agent.startTotalMs": round1(median(starts.map((s) => s.totalMs))),
    "agent.fakeStartupMs": round1(median(starts.map((s) => s.agentMs))),
    "agent.startOverheadMs": round1(median(overheads)),
    "agent.startBaselineMs": round1(median(bare)),
    "agent.startTarget": "≤ 30",
    "channel.open100kMs": opening.bigMs,
    "channel.open100Ms": opening.smallMs,
    "channel.open100kRatio": opening.ratio,
    "channel.open100kHeapDeltaKB": opening.heapDeltaKB,
    "channel.open100kRssDeltaKB": opening.rssDeltaKB,
    "channel.fill100kMs": opening.fillMs,
    "channel.openTarget": "≤ 2",
    "channel.list500Ms": listing.list500Ms,
    "channel.list5Ms": listing.list5Ms,
    "channel.list500Ratio": listing.ratio,
    "channel.listRequest500Ms": listing.request500Ms,
    "channel.listRequest5Ms": listing.request5Ms,
    "channel.listRequest500Ratio": listing.requestRatio,
    "context.catchUp200Ms": catchUp.after200Ms,
    "context.catchUp1Ms": catchUp.after1Ms,
    "context.catchUpRatio": catchUp.ratio,
    samples: {
      baselineCpuMs: base.map(Math.round),
      pipelineCpuMs: ours.map(Math.round),
      startOverheadMs: overheads.map(round1),
      startTotalMs: starts.map((s) => round1(s.totalMs)),
      startBaselineMs: bare.map(round1),
      open100kMs: opening.samples.bigMs,
      open100Ms: opening.samples.smallMs,
    },
  };
  const searching = await (await import("./search")).searchFigures(); // search.*: bench/search.ts
  Object.assign(results, searching);
  const turnFigures = await (await import("./turnWrites")).turnWriteFigures(); // turn.storeWritesPerTurn: bench/turnWrites.ts
  Object.assign(results, turnFigures);
  const undoFigures = await (await import("./turnUndo")).turnUndoFigures(); // turn.undoMs: bench/turnUndo.ts
  Object.assign(results, undoFigures);
  Object.assign(results, await (await import("./terminal")).terminalFigures()); // terminal.throughputMBps: bench/terminal.ts
  const mcp = await (await import("./mcp")).mcpFigures(); // mcp.toolCallOverheadMs: bench/mcp.ts
  Object.assign(results, mcp);
  const activation = await (await import("./activation")).activationFigures(); // activation.ms, vsix.bytes: bench/activation.ts
  Object.assign(results, activation);
  const render = await (await import("./render")).renderFigures(); // render.*: bench/render.ts
  Object.assign(results, render);
  const real = await (await import("./realAgent")).realAgentFigures(); // realAgent.*: bench/realAgent.ts
  Object.assign(results, real);
  mkdirSync(path.join(__dirname), { recursive: true });
  writeFileSync(path.join(__dirname, "results.json"), JSON.stringify(results, null, 2) + "\n");
  console.log(`machine: ${results.machine}`);
  console.log("| figure | value | target |\n|---|---|---|");
  console.log(`| stream.baselineCpuMs (bare SDK client, ${CHUNKS} × ${CHUNK_BYTES} B) | ${results["stream.baselineCpuMs"]} | |`);
  console.log(`| stream.pipelineCpuMs (Sidekicks host pipeline) | ${results["stream.pipelineCpuMs"]} | |`);
  console.log(`| stream.overheadRatio | ${results["stream.overheadRatio"]} | ≤ 1.5 |`);
  console.log(`| agent.startTotalMs (first mention → session ready, cold) | ${results["agent.startTotalMs"]} | |`);
  console.log(`| agent.fakeStartupMs (the fake agent's own startup, as it reports it) | ${results["agent.fakeStartupMs"]} | |`);
  console.log(`| agent.startOverheadMs | ${results["agent.startOverheadMs"]} | ≤ 30 |`);
  console.log(`| agent.startBaselineMs (the same for a bare SDK client) | ${results["agent.startBaselineMs"]} | |`);
  console.log(`| channel.open100kMs / open100Ms (channel/open, latest 50, loaded and posted) | ${opening.bigMs} / ${opening.smallMs} | |`);
  console.log(`| channel.open100kRatio | ${opening.ratio} | ≤ 2 |`);
  console.log(`| channel.open100k heap / RSS growth (KB) | ${opening.heapDeltaKB} / ${opening.rssDeltaKB} | |`);
  console.log(`| channel.list500Ms / list5Ms (channels/list, one channel changed before each) | ${listing.list500Ms} / ${listing.list5Ms} | |`);
  console.log(`| channel.list500Ratio | ${listing.ratio} | ≤ 1.5 |`);
  console.log(`| context.catchUp200Ms / catchUp1Ms (a new session's first context) | ${catchUp.after200Ms} / ${catchUp.after1Ms} | |`);
  console.log(`| context.catchUpRatio | ${catchUp.ratio} | ≤ 1.5 |`);
  console.log(`| search.100kMs (one word, 50 newest hits, word index) / search.100kScanMs (full scan, baseline) | ${searching["search.100kMs"]} / ${searching["search.100kScanMs"]} | ≤ 100 / |`);
  console.log(`| mcp.toolCallOverheadMs (channel_recent_messages ${mcp["mcp.recentMessagesCallMs"]} ms − empty tool ${mcp["mcp.emptyToolCallMs"]} ms; skill_read ${mcp["mcp.skillReadMs"]} ms) | ${mcp["mcp.toolCallOverheadMs"]} | |`);
  console.log(`| activation.ms (activate() on the production bundle, demo roster; load ${activation["activation.loadMs"]} ms, app ready after ${activation["activation.readyMs"]} ms) | ${activation["activation.ms"]} | ≤ 20 |`);
  console.log(`| vsix.bytes (linux-x64) / webview.bundleBytes | ${activation["vsix.bytes"]} / ${activation["webview.bundleBytes"]} | ≤ 3 MB / |`);
  console.log(`| render.chunk1MBMs / chunk10KBMs (main-thread ms per 100 B chunk, webview) | ${render["render.chunk1MBMs"]} / ${render["render.chunk10KBMs"]} | |`);
  console.log(`| render.longMessageRatio | ${render["render.longMessageRatio"]} | ≤ 3 |`);
  console.log(`| render.chunksPerSecond (per s of main-thread time; wall ${render["render.wallChunksPerSecond"]}) / renders per frame | ${render["render.chunksPerSecond"]} / ${render["render.rendersPerFrame"]} | ≥ 2000 / ≤ 1 |`);
  console.log(`| realAgent.turnOverheadRatio (Claude Code tools turn: pipeline ${String(real["realAgent.pipelineTurnMs"])} ms / bare SDK client ${String(real["realAgent.bareTurnMs"])} ms) | ${String(real["realAgent.turnOverheadRatio"])} | ≤ 1.05 |`);
  console.log(`| turn.undoMs (undo of a 100-file turn) / turn.undoWriteFileMs (plain writeFile of the same texts, baseline) | ${undoFigures["turn.undoMs"]} / ${undoFigures["turn.undoWriteFileMs"]} (ratio ${undoFigures["turn.undoVsWriteFile"]}) | |`);
  console.log(`| turn.storeWritesPerTurn (3 tool calls, 150 chunks over ~${Math.round(Number(turnFigures["turn.durationMs"]) / 1000)} s) | ${turnFigures["turn.storeWritesPerTurn"]} | ≤ 10 |`);
}

/** `--e2e`: only render.e2e2MBLagMs (bench/renderE2e.ts), written to bench/results-e2e.json. */
async function e2eMain(): Promise<void> {
  const figures = (await import("./renderE2e")).e2eFigures();
  writeFileSync(path.join(__dirname, "results-e2e.json"), JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2) + "\n");
  console.log(`| render.e2e2MBLagMs (median; runs ${JSON.stringify((figures.samples as { e2e2MBLagMs: number[] }).e2e2MBLagMs)}) | ${String(figures["render.e2e2MBLagMs"])} | ≤ 1000 |`);
}

/**
 * `--snapshots` (`--before` too: the code before issue 19): only the turn snapshot figures (bench/snapshots.ts), added
 * to bench/results.json with the machine's load.
 */
async function snapshotsMain(): Promise<void> {
  await sideFigures(["turn.snapshotMachine", "turn.snapshotDate"], async () => (await import("./snapshots")).snapshotFigures(process.argv.includes("--before")));
}

/** `--worktree`: only the worktree set-up figures (bench/worktree.ts), added to bench/results.json with the machine's load. */
async function worktreeMain(): Promise<void> {
  await sideFigures(["worktree.machine", "worktree.date"], async () => (await import("./worktree")).worktreeFigures());
}

/**
 * A bench run on its own (`--snapshots`, `--worktree`): its figures are added to bench/results.json with the machine
 * and its load before and after, and the date, under the two keys given.
 */
async function sideFigures([machineKey, dateKey]: [string, string], measure: () => Promise<Record<string, unknown>>): Promise<void> {
  const load = os.loadavg().map((x) => x.toFixed(2)).join(" ");
  const figures = await measure();
  const file = path.join(__dirname, "results.json");
  let results: Record<string, unknown> = {};
  try {
    results = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // no earlier results: these alone
  }
  const machine = `${os.cpus()[0]?.model ?? "cpu"} × ${os.cpus().length}, load ${load} → ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`;
  Object.assign(results, figures, { [machineKey]: machine, [dateKey]: new Date().toISOString() });
  writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  console.log(`machine: ${machine}`);
  for (const [name, value] of Object.entries(figures)) console.log(`| ${name} | ${String(value)} |`);
}

const mode = process.argv.includes("--e2e") ? e2eMain : process.argv.includes("--snapshots") ? snapshotsMain : process.argv.includes("--worktree") ? worktreeMain : main;
if (require.main === module) void mode().catch((err) => {
  console.error(err);
  process.exit(1);
});
