/**
 * realAgent.turnOverheadRatio — the same scripted Claude Code tools turn (Read, Edit, Write, Bash and a closing
 * text: `script:tools` of test/fixtures/model-scripts.mjs, served by the scripted model server in this process)
 * through Sidekicks' host pipeline — `Channels.send` → the turn executor and its reducer (admission batch,
 * checkpoints at tool-call boundaries, the settling batch in LevelDB) → `AgentManager` → `AcpClient` — until the
 * committed `message/finished`, divided by the same turn through a bare SDK client (`acp.client().connect()` over
 * the agent's stdio, the SDK 2.x counterpart of `ClientSideConnection`) from `session/prompt` to its result.
 * Wall time: the turn is the agent's own work (its CLI, four tool runs, five model calls) plus what the client adds.
 * Each side starts its own claude-agent-acp (Node 24) with a fresh HOME and workspace, advertising the same client
 * capabilities, and opens its session before the clock starts (once the agent has announced its commands).
 * BENCH_REAL_ROUNDS (default 15) rounds after one warm-up each, the side that goes first alternating; medians.
 * Target ≤ 1.05. The agent's own time varies by ±30 % between identical rounds, hence the many rounds. Needs the real agents (`node scripts/tools.mjs ensure`).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { AgentManager } from "../src/agents/AgentManager";
import { composeChannels } from "../src/app/compose";
import { EventBus } from "../src/events/events";
import { Store } from "../src/store/Store";
import { tempDir } from "../test/unit/helpers";
import { realAgentConfig, startModelServer, type ModelServer } from "../test/realagents/harness";
import { median } from "./stats";

const ROUNDS = Number(process.env.BENCH_REAL_ROUNDS ?? 15);
const PROMPT = "work on the notes script:tools";
const EXPECTED = "All tools ran.";

/** A fresh folder with a workspace holding notes.txt, and Claude's roster entry pointed at `server`. */
function freshClaude(server: ModelServer) {
  const { dir, cleanup } = tempDir("sidekicks-bench-real-");
  const workspace = path.join(dir, "workspace");
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, "notes.txt"), "alpha\n");
  return { dir, workspace, cleanup, config: realAgentConfig("claude", { dir, workspace, modelUrl: server.url }) };
}

/** Checks that the turn really ran its tools. */
function checkRan(workspace: string, text: string, side: string): void {
  if (readFileSync(path.join(workspace, "notes.txt"), "utf8") !== "beta\n") throw new Error(`${side}: the Edit did not happen`);
  if (!text.includes(EXPECTED)) throw new Error(`${side}: the answer was ${JSON.stringify(text.slice(0, 200))}`);
}

/** The bare SDK client: spawn, initialize, session/new (untimed), then the timed session/prompt. */
async function bare(server: ModelServer): Promise<number> {
  const { workspace, cleanup, config } = freshClaude(server);
  const child = spawn(config.command, config.args, { cwd: workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...config.env }, stdio: ["pipe", "pipe", "ignore"], detached: true });
  let text = "";
  let announced!: () => void;
  const commands = new Promise<void>((resolve) => (announced = resolve));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const connection = acp
    .client({ name: "bench-bare" })
    .onNotification("session/update", ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") text += u.content.text;
      if (u.sessionUpdate === "available_commands_update") announced();
    })
    .connect(stream);
  try {
    // The capabilities Sidekicks' AcpClient advertises (no fs/terminal served here, as in the pipeline without an
    // editor), so the agent takes the same paths on both sides (with `terminal_output_delta` Claude Code streams a
    // command's output as tool call `_meta`).
    const clientCapabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false, auth: { terminal: true }, _meta: { terminal_output_delta: true } };
    await connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities });
    const { sessionId } = await connection.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    await settled(commands);
    const start = performance.now();
    await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: PROMPT }] });
    const ms = performance.now() - start;
    checkRan(workspace, text, "bare client");
    return ms;
  } finally {
    connection.close();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone already
    }
    await exited;
    cleanup();
  }
}

/** Sidekicks' pipeline: the agent started and its session opened (untimed), then `send` → committed answer. */
async function pipeline(server: ModelServer): Promise<number> {
  const { dir, workspace, cleanup, config } = freshClaude(server);
  const events = new EventBus();
  const agents = new AgentManager(events, { launch: { workspaceFolder: workspace, nodePath: process.execPath, demoAgentPath: "", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } } });
  agents.setRoster([config]);
  const store = await Store.open(path.join(dir, "store"));
  const channels = composeChannels({ store, agents, emitter: events });
  const commands = new Promise<void>((resolve) => events.on("commands/changed", () => resolve()));
  try {
    const general = await channels.directory.syncGeneral(["claude"]);
    // The same session the turn will use (owner = the channel), opened outside the measurement as the bare side does.
    await agents.session("claude", general.id, { onUpdate: () => undefined, onPermissionRequest: async () => ({ outcome: "cancelled" }) });
    await settled(commands);
    const done = new Promise<string>((resolve) => {
      events.on("message/finished", (m) => {
        if (m.author.kind === "agent" && m.status !== "streaming" && m.status !== "queued") resolve(m.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
      });
    });
    const start = performance.now();
    await channels.messages.send(general.id, `@claude ${PROMPT}`);
    const text = await done;
    const ms = performance.now() - start;
    checkRan(workspace, text, "pipeline");
    return ms;
  } finally {
    await channels.close();
    await store.close();
    await agents.stopAll();
    cleanup();
  }
}

/**
 * Waits until the agent has announced its commands (ACP `available_commands_update`, sent once its session is set up
 * after the `session/new` answer), at most 10 s: both sides start the clock on a session that is done settling.
 */
const settled = (announced: Promise<void>) => Promise.race([announced, new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref())]);

/** The real-agent figures: medians of {@link ROUNDS} alternating rounds, in ms, and their ratio. */
export async function realAgentFigures(): Promise<Record<string, unknown>> {
  const server = await startModelServer();
  try {
    await bare(server); // warm-up: the agent's files in the page cache, the JIT
    await pipeline(server);
    const bareMs: number[] = [];
    const oursMs: number[] = [];
    // Which side goes first alternates too: the second of a pair otherwise finds the machine warmer.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        bareMs.push(await bare(server));
        oursMs.push(await pipeline(server));
      } else {
        oursMs.push(await pipeline(server));
        bareMs.push(await bare(server));
      }
    }
    const round1 = (x: number) => Math.round(x * 10) / 10;
    return {
      "realAgent.bareTurnMs": round1(median(bareMs)),
      "realAgent.pipelineTurnMs": round1(median(oursMs)),
      "realAgent.turnOverheadRatio": Number((median(oursMs) / median(bareMs)).toFixed(3)),
      "realAgent.target": "≤ 1.05",
      realAgentSamples: { bareTurnMs: bareMs.map(round1), pipelineTurnMs: oursMs.map(round1) },
    };
  } finally {
    await server.close();
  }
}

if (require.main === module) {
  void realAgentFigures().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
