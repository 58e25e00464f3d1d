/**
 * `npm run bench`: performance figures as ratios against a baseline measured in the same process and run, written
 * to bench/results.json and printed as a table. See docs/performance.md for the figures and the machine.
 *
 * stream.overheadRatio — the fake agent (a real subprocess) streams 20,000 chunks of 100 bytes. CPU time of this
 * process for Sidekicks' host pipeline (ACP client → agent manager → channel → LevelDB store → webview bridge with a
 * post sink that serializes like postMessage) divided by the CPU time of a bare SDK client that only concatenates
 * the text. Runs alternate; the median of each side is used. Target ≤ 1.5.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { AgentManager } from "../src/agents/AgentManager";
import { ChannelService } from "../src/channels/ChannelService";
import { WebviewBridge } from "../src/app/WebviewBridge";
import { EventBus } from "../src/events/events";
import { Store } from "../src/store/Store";
import { FAKE_AGENT, tempDir } from "../test/unit/helpers";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20_000);
const CHUNK_BYTES = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const script = JSON.stringify({ prompt: [{ chunks: { count: CHUNKS, size: CHUNK_BYTES } }] });

const cpuMs = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

/** Bare SDK client: spawn, initialize, session/new, then CPU time of one prompt that only concatenates text. */
async function baseline(): Promise<number> {
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

/** Sidekicks' pipeline, from `channel/send` to the committed `message:finished`. */
async function pipeline(): Promise<number> {
  const { dir, cleanup } = tempDir("sidekicks-bench-");
  const events = new EventBus();
  const agents = new AgentManager(events, { launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  agents.setRoster([{ name: "fake", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: script } }]);
  const store = await Store.open(dir);
  const channels = new ChannelService(store, agents, events);
  const general = await channels.syncGeneral(["fake"]);
  let posted = 0;
  const bridge = new WebviewBridge((m) => (posted += JSON.stringify(m).length), {
    "channel/open": async () => { throw new Error("unused"); },
    "channel/send": async () => { throw new Error("unused"); },
    "permission/answer": async () => ({ accepted: false }),
    "command/run": async () => ({ done: false }),
  });
  bridge.receive({ kind: "ready", protocolVersion: 1 });
  events.on("message:delta", (p) => bridge.event("message/delta", p));
  // Warm the agent up (start + session) outside the measurement, as the baseline does.
  await agents.session("fake", general.id, { onUpdate: () => undefined, onPermissionRequest: async () => ({ outcome: "cancelled" }) });
  const done = new Promise<number>((resolve) => {
    events.on("message:finished", (m) => {
      if (m.author.kind === "agent") resolve(m.parts.reduce((n, p) => n + (p.type === "text" ? p.text.length : 0), 0));
    });
  });
  const start = process.cpuUsage();
  await channels.send(general.id, "@fake go");
  const bytes = await done;
  const ms = cpuMs(start);
  if (bytes !== CHUNKS * CHUNK_BYTES) throw new Error(`pipeline got ${bytes} bytes`);
  if (posted < bytes) throw new Error("the post sink saw less than the answer");
  await channels.close();
  await store.close();
  await agents.stopAll();
  bridge.dispose();
  cleanup();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  await baseline();
  await pipeline(); // warm-up: JIT, module loading
  const base: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await baseline());
    ours.push(await pipeline());
  }
  const results = {
    machine: `${os.cpus()[0]?.model ?? "cpu"} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`,
    date: new Date().toISOString(),
    "stream.baselineCpuMs": Math.round(median(base)),
    "stream.pipelineCpuMs": Math.round(median(ours)),
    "stream.overheadRatio": Number((median(ours) / median(base)).toFixed(2)),
    "stream.target": "≤ 1.5",
    samples: { baselineCpuMs: base.map(Math.round), pipelineCpuMs: ours.map(Math.round) },
  };
  mkdirSync(path.join(__dirname), { recursive: true });
  writeFileSync(path.join(__dirname, "results.json"), JSON.stringify(results, null, 2) + "\n");
  console.log(`machine: ${results.machine}`);
  console.log("| figure | value | target |\n|---|---|---|");
  console.log(`| stream.baselineCpuMs (bare SDK client, ${CHUNKS} × ${CHUNK_BYTES} B) | ${results["stream.baselineCpuMs"]} | |`);
  console.log(`| stream.pipelineCpuMs (Sidekicks host pipeline) | ${results["stream.pipelineCpuMs"]} | |`);
  console.log(`| stream.overheadRatio | ${results["stream.overheadRatio"]} | ≤ 1.5 |`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
