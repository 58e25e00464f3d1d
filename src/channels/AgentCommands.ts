import { isCommandName } from "../shared/mentions";
import type { AgentCommand, CommandNotCallable } from "../shared/protocol";
import type { Decision, StoreWriter } from "../store/StoreWriter";

/** Store key of an agent's announced commands, under `value/` (the original design's ADR 0003 `value/<key>`). */
export const commandsKey = (agent: string) => `commands/${agent}`;

/**
 * The commands each agent announced (ACP `available_commands_update`), per agent rather than per session, kept in
 * the store so routing and autocomplete know them after a reload, before the agent runs again.
 */
export class AgentCommands {
  private readonly cache = new Map<string, AgentCommand[] | undefined>();

  /** @param writer the store's one write lane: an announcement is stored there ({@link decideCommands}) */
  constructor(private readonly writer: StoreWriter) {}

  /** What `agent` announced last, or undefined when it never announced commands. Reads the store once per agent. */
  async of(agent: string): Promise<AgentCommand[] | undefined> {
    if (!this.cache.has(agent)) {
      const stored = asCommands(await this.writer.store.getValue(commandsKey(agent)));
      // An announcement stored while this read was under way is newer: it stays.
      if (!this.cache.has(agent)) this.cache.set(agent, stored);
    }
    return this.cache.get(agent);
  }

  /** The commands of several agents; agents that announced none are left out. */
  async ofAll(agents: readonly string[]): Promise<Record<string, AgentCommand[]>> {
    const out: Record<string, AgentCommand[]> = {};
    for (const agent of agents) {
      const commands = await this.of(agent);
      if (commands) out[agent] = commands;
    }
    return out;
  }

  /**
   * Replaces what `agent` announced, once it is stored.
   * @throws SidekicksError `store/writeFailed` (what `of` answers stays as it was)
   */
  async set(agent: string, commands: AgentCommand[]): Promise<void> {
    await this.writer.write(() => undefined, () => decideCommands(agent, commands));
    this.cache.set(agent, commands);
  }
}

/** What storing an agent's announced commands writes (pure). */
export function decideCommands(agent: string, commands: AgentCommand[]): Decision<void> {
  return { changes: { values: [{ key: commandsKey(agent), value: commands }] }, result: undefined };
}

const NOT_CALLABLE: ReadonlySet<unknown> = new Set<CommandNotCallable>(["whitespace", "slash", "long"]);

/**
 * Validates a stored list (a value read back from LevelDB is a trust boundary). A command `/name` could not call must
 * say so with a known `notCallable`: one that does not is left out, so routing never calls it.
 */
function asCommands(value: unknown): AgentCommand[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (c): c is AgentCommand =>
      typeof c === "object" &&
      c !== null &&
      typeof c.name === "string" &&
      typeof c.description === "string" &&
      (c.hint === undefined || typeof c.hint === "string") &&
      (c.notCallable === undefined ? isCommandName(c.name) : NOT_CALLABLE.has(c.notCallable)),
  );
}
