import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AgentManager } from "../agents/AgentManager";
import type { ChannelRecord } from "../store/records";
import { formatProblem, parseRoster, type ConfigProblem, type Roster } from "../config/roster";
import type { EventBus } from "../events/events";
import type { ConfigStatus } from "../shared/protocol";
import type { PermissionPolicy } from "../turns/permissionPolicy";
import type { EditorPort } from "./EditorPort";
import { skillFindings } from "./skillFindings";

/** What {@link RosterLoader} works with. */
export interface RosterLoaderPorts {
  /** The roster file (absolute). */
  configPath: string;
  editor: EditorPort;
  agents: AgentManager;
  events: EventBus;
  /** The roster in force changed (or was read again): the channels follow it (`#general`, declared channels). */
  rosterChanged(): Promise<void>;
  /** What relative skill folders are relative to, for an agent without `workspace` (the workspace folder). */
  workspaceFolder?: string;
}

/**
 * The roster file (`sidekicks.yaml`) read into the roster in force: its problems shown where the editor shows them,
 * the agent manager given its agents and limits, the file's state (missing, ok, invalid, untrusted) kept for the
 * view. An invalid file keeps the last valid roster in force.
 */
export class RosterLoader {
  private current: Roster | undefined;
  private status: ConfigStatus;

  constructor(private readonly ports: RosterLoaderPorts) {
    this.status = { state: "missing", path: ports.configPath, problems: [] };
  }

  /** The roster in force, if a valid one was ever read (and the file was not removed since). */
  get roster(): Roster | undefined {
    return this.current;
  }

  /** The roster file's state (missing, ok, invalid, untrusted). */
  get config(): ConfigStatus {
    return this.status;
  }

  /**
   * Re-reads the roster file. A valid file replaces the roster (new agents join #general); an invalid one keeps
   * the last valid roster in force and reports its problems with line and column. Emits `config/changed`.
   */
  async reload(): Promise<ConfigStatus> {
    const { editor, agents } = this.ports;
    const file = this.ports.configPath;
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch {
      text = undefined;
    }
    let problems: ConfigProblem[] = [];
    if (text === undefined) {
      // The file is gone (deleted, moved): its agents go too — after their running turns — as the banner says.
      this.current = undefined;
      this.status = { state: "missing", path: file, problems: [] };
    } else {
      const parsed = parseRoster(text, file);
      problems = parsed.problems;
      if (parsed.roster) this.current = parsed.roster;
      const state = problems.length > 0 ? "invalid" : editor.isTrusted() ? "ok" : "untrusted";
      this.status = { state, path: file, problems: problems.map(formatProblem) };
    }
    // Skills that cannot be read are warnings at their entries: the roster stays in force, the skill is left out.
    const skills = this.current && text !== undefined && problems.length === 0 ? await skillFindings(this.current, text, this.ports.workspaceFolder ?? path.dirname(file)) : [];
    editor.showProblems(file, [...problems, ...skills]);
    if (this.current) agents.setLimits(this.current.limits);
    agents.setRoster(this.current?.agents ?? []);
    await this.ports.rosterChanged();
    this.ports.events.emit("config/changed", this.status);
    return this.status;
  }

  /** The moderator the roster names for a channel (`channels[].moderator`), if any. */
  moderatorOf(channel: ChannelRecord): string | undefined {
    return this.current?.channels.find((c) => c.name === channel.name)?.moderator;
  }

  /** The skills the roster attaches to a channel (`channels[].skills`), as written. */
  skillsOf(channel: ChannelRecord): string[] {
    return this.current?.channels.find((c) => c.name === channel.name)?.skills ?? [];
  }

  /** An agent's `permissions` policy in the roster, if it names one. */
  policyOf(agent: string): PermissionPolicy | undefined {
    return this.current?.agents.find((a) => a.name === agent)?.permissions;
  }
}
