import { nearest, type Finding } from "./schemaFindings";

/** The longest `limits.idleTimeout`, in ms (24 h: timers stay far below Node's 2^31 ms limit). */
export const MAX_IDLE_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** The channel every agent belongs to; it cannot be declared in `channels`. */
export const GENERAL_CHANNEL = "general";

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration as `limits.idleTimeout` writes it (`30s`, `10m`, `1h`) in ms.
 *
 * @returns the duration in ms, or undefined when the text is not such a duration
 */
export function parseDuration(text: string): number | undefined {
  const m = /^([1-9][0-9]{0,5})([smh])$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : undefined;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The rules a JSON Schema cannot say, checked on the merged data (after `<<:`): agent names unique ignoring case,
 * MCP server names unique per agent, channel names unique and not `general`, members that exist and appear once,
 * a moderator that is a member, `ui.defaultChannel` naming a channel, `limits.idleTimeout` at most 24 h.
 * Entries of the wrong shape are skipped: the schema reports those.
 */
export function crossFindings(data: unknown): Finding[] {
  if (!isRec(data)) return [];
  const out: Finding[] = [];
  const agents = new Map<string, number>();
  list(data.agents).forEach((agent, i) => {
    if (!isRec(agent) || typeof agent.name !== "string") return;
    const key = agent.name.toLowerCase();
    const first = agents.get(key);
    if (first !== undefined) {
      out.push({ path: ["agents", i, "name"], message: `agents[${i}].name: "${agent.name}" is already the name of agents[${first}]; names must be unique (ignoring case)` });
    } else {
      agents.set(key, i);
    }
    const servers = new Map<string, number>();
    list(agent.mcpServers).forEach((server, j) => {
      if (!isRec(server) || typeof server.name !== "string") return;
      const firstServer = servers.get(server.name);
      if (firstServer !== undefined) {
        out.push({ path: ["agents", i, "mcpServers", j, "name"], message: `agents[${i}].mcpServers[${j}].name: "${server.name}" is already the name of mcpServers[${firstServer}]` });
      } else {
        servers.set(server.name, j);
      }
    });
  });
  const agentNames = list(data.agents).flatMap((a) => (isRec(a) && typeof a.name === "string" ? [a.name] : []));
  const channels = new Map<string, number>();
  list(data.channels).forEach((channel, i) => {
    if (!isRec(channel)) return;
    if (typeof channel.name === "string") {
      const first = channels.get(channel.name);
      if (channel.name === GENERAL_CHANNEL) {
        out.push({ path: ["channels", i, "name"], message: `channels[${i}].name: "general" is built in (every agent is a member); choose another name` });
      } else if (first !== undefined) {
        out.push({ path: ["channels", i, "name"], message: `channels[${i}].name: "${channel.name}" is already the name of channels[${first}]` });
      } else {
        channels.set(channel.name, i);
      }
    }
    const members = new Map<string, number>();
    list(channel.members).forEach((member, j) => {
      if (typeof member !== "string") return;
      const where = `channels[${i}].members[${j}]`;
      if (!agents.has(member.toLowerCase())) {
        out.push({ path: ["channels", i, "members", j], message: `${where}: no agent named "${member}"${didYouMean(member, agentNames)}` });
        return;
      }
      const first = members.get(member.toLowerCase());
      if (first !== undefined) out.push({ path: ["channels", i, "members", j], message: `${where}: "${member}" is already listed (members[${first}])` });
      else members.set(member.toLowerCase(), j);
    });
    if (typeof channel.moderator === "string") {
      const moderator = channel.moderator;
      const where = `channels[${i}].moderator`;
      if (!agents.has(moderator.toLowerCase())) {
        out.push({ path: ["channels", i, "moderator"], message: `${where}: no agent named "${moderator}"${didYouMean(moderator, agentNames)}` });
      } else if (Array.isArray(channel.members) && !members.has(moderator.toLowerCase())) {
        out.push({ path: ["channels", i, "moderator"], message: `${where}: "${moderator}" is not a member of this channel; add it to members` });
      }
    }
  });
  if (isRec(data.ui) && typeof data.ui.defaultChannel === "string") {
    const name = data.ui.defaultChannel;
    if (name !== GENERAL_CHANNEL && !channels.has(name)) {
      out.push({ path: ["ui", "defaultChannel"], message: `ui.defaultChannel: no channel named "${name}"${didYouMean(name, [GENERAL_CHANNEL, ...channels.keys()])}` });
    }
  }
  if (isRec(data.limits) && typeof data.limits.idleTimeout === "string") {
    const ms = parseDuration(data.limits.idleTimeout);
    if (ms !== undefined && ms > MAX_IDLE_TIMEOUT_MS) {
      out.push({ path: ["limits", "idleTimeout"], message: `limits.idleTimeout: "${data.limits.idleTimeout}" is longer than 24h` });
    }
  }
  return out;
}

function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearest(word, candidates);
  return near ? ` (did you mean "${near}"?)` : "";
}
