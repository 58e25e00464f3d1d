import path from "node:path";
import * as esbuild from "esbuild";
import { AgentManager } from "../../src/agents/AgentManager";
import type { WorkspaceHost } from "../../src/agents/AgentWorkspaces";
import type { AgentConfig } from "../../src/config/roster";
import { composeChannels, type Channels, type ChannelsOptions } from "../../src/app/compose";
import { Recorder, type SidekicksEventName, type SidekicksEvents } from "../../src/events/events";
import type { MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

/** A recorder that also stores announced commands, as `SidekicksApp` does. */
class AppLikeRecorder extends Recorder {
  channels: Channels | undefined;

  override emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
    super.emit(name, payload);
    if (name === "commands/changed") {
      const { agent, commands } = payload as SidekicksEvents["commands/changed"];
      void this.channels?.commands.set(agent, commands);
    }
  }
}

/** The fake agent (a real subprocess) running `script`, as a roster entry named `name`. */
export const fakeAgent = (name: string, script: object): AgentConfig =>
  ({ name, command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify(script) } });

/** The demo agent run from source (`tsx`), as a roster entry named `name`. */
export const demoAgent = (name: string): AgentConfig =>
  ({ name, command: process.execPath, args: ["--import", "tsx", "src/demo-agent/main.ts"], env: { SIDEKICKS_DEMO_DELAY_MS: "0" } });

/**
 * The demo agent bundled as `npm run build` bundles it into `dist/demo-agent.js` (esbuild, CommonJS for Node 20),
 * written into `dir` from the current source; resolves to the bundle's absolute path. Run it with
 * `command: sidekicks:demo` and `demoAgentPath` set to it, as the extension does.
 */
export async function demoAgentBundle(dir: string): Promise<string> {
  const outfile = path.join(dir, "demo-agent.js");
  await esbuild.build({
    entryPoints: [path.resolve(__dirname, "../../src/demo-agent/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    define: { navigator: "undefined" },
    logLevel: "warning",
  });
  return outfile;
}

/** Options of {@link channelSetup}. */
export interface ChannelSetupOptions {
  /** The agents' workspace folder (default: the current directory). */
  workspaceFolder?: string;
  /** The bundled demo agent run for `command: sidekicks:demo` (see {@link demoAgentBundle}). */
  demoAgentPath?: string;
  /** Serve the agents' `fs/*` and `terminal/*` (on the disk, no editor) when given. */
  workspace?: WorkspaceHost;
  /** More options of the channels (the roster's channel skills, where skill problems go…). */
  channels?: Partial<ChannelsOptions>;
}

/** A channel service over a temp LevelDB and real agent subprocesses; #general holds every agent. */
export async function channelSetup(roster: AgentConfig[], options: ChannelSetupOptions = {}) {
  const { dir, cleanup } = tempDir();
  const events = new AppLikeRecorder();
  const agents = new AgentManager(events, {
    launch: { workspaceFolder: options.workspaceFolder ?? process.cwd(), nodePath: process.execPath, demoAgentPath: options.demoAgentPath ?? "", env: process.env },
    ...(options.workspace ? { workspace: options.workspace } : {}),
  });
  agents.setRoster(roster);
  let store = await Store.open(dir);
  let channels = composeChannels({ store, agents, emitter: events, ...options.channels });
  events.channels = channels;
  const general = await channels.directory.syncGeneral(agents.names());
  /** Resolves with the first finished message matching `predicate` (polls the recorded events). */
  const finished = (predicate: (m: MessageView) => boolean, timeoutMs = 10_000) =>
    waitFor(() => events.of("message/finished").find(predicate), timeoutMs, "a finished message");
  return {
    events,
    agents,
    general,
    finished,
    get store() {
      return store;
    },
    get channels() {
      return channels;
    },
    /** Closes the channels and the store and opens them again (a window reload, agents kept). */
    async reopen() {
      await channels.close();
      await store.close();
      store = await Store.open(dir);
      channels = composeChannels({ store, agents, emitter: events, ...options.channels });
      events.channels = channels;
    },
    async teardown() {
      await channels.close();
      await store.close();
      await agents.stopAll();
      cleanup();
    },
  };
}

/** The text of a message's text parts. */
export const textOf = (m: MessageView) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
