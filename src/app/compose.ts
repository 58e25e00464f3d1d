import * as l10n from "@vscode/l10n";
import { AgentManager } from "../agents/AgentManager";
import type { LaunchContext } from "../agents/launch";
import { cancelTimeoutOf } from "../agents/policy";
import { CANCEL_GRACE_MS } from "../turns/reducerState";
import { SidekicksError } from "../shared/errors";
import { EventBus } from "../events/events";
import { AgentTerminalOutputs } from "./AgentTerminalOutputs";
import { composeChannels } from "./composeChannels";
import type { EditorPort } from "./EditorPort";
import { RosterLoader } from "./RosterLoader";
import { SidekicksApp } from "./SidekicksApp";
import { StoreLifecycle } from "./StoreLifecycle";

export { composeChannels, type Channels, type ChannelsOptions } from "./composeChannels";

/** Where the app lives. Paths are absolute. */
export interface AppOptions {
  configPath: string;
  storageDir: string;
  launch: LaunchContext;
  editor: EditorPort;
  /** How long an agent may take to answer `initialize`, in ms (default 60 000). */
  initializeTimeoutMs?: number;
  /** While another window holds the history, how often to try opening it again, in ms (default 3 000). */
  lockedRetryMs?: number;
}

/**
 * The composition root: builds the app's object graph (events, agent manager, roster, store lifecycle with the
 * channels it opens, webview API) from `options`, wires the domain events to the units that keep or log them, and
 * starts reading the roster and opening the store without waiting for them (what `activate` needs: it returns at
 * once). The webview's requests wait for `SidekicksApp.ready`; so must commands that use the store. Problems of the
 * roster or the store become state; anything else rejects `ready`.
 */
export function startSidekicks(options: AppOptions): SidekicksApp {
  const { editor } = options;
  const events = new EventBus();
  // Agents' terminal output, for the tool call cards that embed it.
  const terminalOutputs = new AgentTerminalOutputs(events);
  const agents = new AgentManager(events, {
    launch: options.launch,
    workspace: {
      documents: editor.documents,
      onTerminal: (agent, terminal) => {
        terminalOutputs.follow(terminal);
        editor.showTerminal?.(agent, terminal);
      },
    },
    initializeTimeoutMs: options.initializeTimeoutMs,
    canStart: () =>
      editor.isTrusted()
        ? undefined
        : new SidekicksError("agent/untrusted", l10n.t("This workspace is not trusted, so Sidekicks does not start its agents. Trust the workspace (Manage Workspace Trust) to use them.")),
  });
  const roster: RosterLoader = new RosterLoader({ configPath: options.configPath, editor, agents, events, rosterChanged: () => history.rosterChanged(), workspaceFolder: options.launch.workspaceFolder });
  const history = new StoreLifecycle({
    storageDir: options.storageDir,
    editor,
    agents,
    events,
    roster,
    lockedRetryMs: options.lockedRetryMs,
    channelsFor: (store) =>
      composeChannels({
        store,
        agents,
        emitter: events,
        log: (line) => editor.log("warn", line),
        moderatorOf: (channel) => roster.moderatorOf(channel),
        channelSkillsOf: (channel) => roster.skillsOf(channel),
        policyOf: (agent) => roster.policyOf(agent),
        // The agent's own cancel deadline (limits.cancelTimeout) ends the prompt first; this grace is the net behind it.
        cancelGraceMs: () => cancelTimeoutOf(agents.currentLimits) + CANCEL_GRACE_MS,
        // The editor's watcher proves its events have arrived at a turn's end (called later: `app` exists by then).
        settleFileEvents: (folder): Promise<boolean> => app.settleFiles(folder),
      }),
  });
  // An agent's stderr (level info) goes to its own log (src/vscode/AgentLogs.ts); diagnostics go here too.
  events.on("agent/log", ({ agent, level, line }) => {
    if (level !== "info") editor.log(level, `[${agent}] ${line}`);
  });
  events.on("agent/state", ({ agent, state, error }) => {
    editor.log(error ? "warn" : "debug", `[${agent}] ${state}${error ? `: ${error.message}` : ""}`);
    void history.refresh();
  });
  // Commands an agent announces are kept per agent in the store, for routing and autocomplete after a reload.
  events.on("commands/changed", ({ agent, commands }) => {
    void history.current?.commands.set(agent, commands).catch((err) => editor.log("warn", `[${agent}] commands not stored: ${String(err)}`));
  });
  // Session states are stored per (channel, agent), so the header shows them after a reload.
  events.on("session/state", (state) => {
    void history.current?.sessions.keepSessionState(state).catch((err) => editor.log("warn", `[${state.agent}] session state not stored: ${String(err)}`));
  });
  events.on("message/started", (m) => history.current?.directory.observe("started", m));
  events.on("message/finished", (m) => history.current?.directory.observe("finished", m));
  const workspaceRoots = (): string[] => editor.workspaceRoots?.() ?? [options.launch.workspaceFolder];
  const app = new SidekicksApp({ storageDir: options.storageDir, editor, events, agents, roster, history, terminalOutputs, workspaceRoots });
  app.start();
  return app;
}

/** Builds and starts the app ({@link startSidekicks}) and waits until it is ready. Never throws: problems become state. */
export async function createSidekicks(options: AppOptions): Promise<SidekicksApp> {
  const app = startSidekicks(options);
  await app.ready;
  return app;
}
