import type { ClientRequest } from "../acp/types";
import type { AgentConfig } from "../config/roster";
import { SidekicksError } from "../shared/errors";
import { Confinement } from "../workspace/confinement";
import { type DocumentPort, WorkspaceFiles } from "../workspace/fsAccess";
import { type Terminal, TerminalManager } from "../workspace/terminals";
import type { ClientEffect, SessionSink } from "./AgentEntry";
import type { AgentPlace } from "./runtimes";

export type { AgentPlace } from "./runtimes";

/** What the agent workspaces need from the editor. */
export interface WorkspaceHost {
  /** The editor's open documents (unsaved buffers, undoable edits); without it, the disk only. */
  documents?: DocumentPort;
  /** A terminal was created for an agent: the editor shows it (a `Pseudoterminal` named after agent and command). */
  onTerminal?(agent: string, terminal: Terminal): void;
}

interface Workspace {
  files: WorkspaceFiles;
  terminals: TerminalManager;
}

/**
 * Each agent's workspace as ACP client methods (issue 7; `src/workspace/`; the original design's `internal/workspace`): `fs/read_text_file` and
 * `fs/write_text_file` confined to the agent's folder (the roster's `workspace`, else the workspace folder), through
 * the editor's buffers when a file is open; `terminal/*` on node-pty in that folder, each shown in the editor.
 * Effects with consequences (a write, a command) go through the session's sink (`onEffect`), which records them as
 * tool intents of the turn running in that session.
 */
export class AgentWorkspaces {
  /** Per agent: the place its workspace was built for (compared by identity) and the workspace. */
  private readonly byAgent = new Map<string, { place: AgentPlace; ready: Promise<Workspace> }>();

  constructor(private readonly host: WorkspaceHost) {}

  /**
   * Serves one request of `agent` in `place` (prepared by its runtime): paths go through the place's path mapping
   * (a container agent's are container paths) and are confined to its roots; commands run where its terminal
   * planner says (locally, or in the container).
   * @returns the ACP response object
   * @throws SidekicksError `workspace/outside`, `workspace/notFound`, `workspace/writeFailed`, `workspace/notRegular`,
   *   `workspace/tooLarge`, `terminal/unknown`, `agent/requestLimit` (too many terminals)
   */
  async handle(agent: AgentConfig, place: AgentPlace, sink: SessionSink | undefined, request: ClientRequest): Promise<unknown> {
    const { files, terminals } = await this.workspace(agent, place);
    const run = (effect: ClientEffect) => (sink?.onEffect ? sink.onEffect(effect) : effect.perform().then((r) => r.response));
    switch (request.method) {
      case "fs/read_text_file":
        return { content: await files.readTextFile(request.path, { line: request.line, limit: request.limit }) };
      case "fs/write_text_file": {
        // The text before (for the intent and the diff); a FIFO, a device or a file too large is refused here.
        const before = await files.readTextFile(request.path).catch((err: unknown) => {
          if (err instanceof SidekicksError && err.code === "workspace/notFound") return undefined;
          throw err; // outside the workspace: refused before anything is recorded
        });
        return run({ request, before, perform: async () => ({ response: {}, written: (await files.writeTextFile(request.path, request.content)).path }) });
      }
      case "terminal/create": {
        // The place is taken before the intent is recorded: a request over the limit is refused with nothing kept.
        const reservation = terminals.reserve();
        try {
          return await run({
            request,
            perform: async () => {
              const terminal = await terminals.create({ command: request.command, args: request.args, env: request.env, cwd: request.cwd, outputByteLimit: request.outputByteLimit }, request.sessionId, reservation);
              this.host.onTerminal?.(agent.name, terminal);
              return { response: { terminalId: terminal.id }, exited: terminal.waitForExit() };
            },
          });
        } finally {
          reservation();
        }
      }
      case "terminal/output":
        return terminals.output(request.terminalId);
      case "terminal/wait_for_exit":
        return terminals.waitForExit(request.terminalId);
      case "terminal/kill":
        await terminals.kill(request.terminalId);
        return {};
      case "terminal/release":
        await terminals.release(request.terminalId);
        return {};
    }
  }

  /** Releases (kills) every terminal of `agent` (its process stopped). */
  async release(agent: string): Promise<void> {
    const workspace = this.byAgent.get(agent);
    if (workspace) await (await workspace.ready.catch(() => undefined))?.terminals.releaseAll();
  }

  /** Releases every terminal of every agent (shutdown). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.byAgent.keys()].map((agent) => this.release(agent)));
  }

  /**
   * The agent's workspace for `place`, built once per place (one per start, compared by identity): requests of the
   * same process reuse it (no per-request work); a new process builds it again and releases the old one's terminals.
   */
  private workspace(agent: AgentConfig, place: AgentPlace): Promise<Workspace> {
    const existing = this.byAgent.get(agent.name);
    if (existing?.place === place) return existing.ready;
    const build = async (): Promise<Workspace> => {
      const confinement = await Confinement.create(place.roots);
      return {
        files: new WorkspaceFiles({ confinement, documents: this.host.documents, toHost: place.toHost?.bind(place) }),
        terminals: new TerminalManager({ cwd: place.folder, env: { ...process.env, ...place.env }, planner: place.terminalPlanner(confinement) }),
      };
    };
    const previous = existing?.ready;
    const ready = (async () => {
      await (await previous?.catch(() => undefined))?.terminals.releaseAll();
      return build();
    })();
    this.byAgent.set(agent.name, { place, ready });
    return ready;
  }
}
