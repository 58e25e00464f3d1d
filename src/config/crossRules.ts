import * as l10n from "@vscode/l10n";
import { didYouMeanHint, nearest, type Finding } from "./schemaFindings";

/** The channel every agent belongs to; declared in `channels`, it takes a description and a moderator, never members. */
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
 * MCP server names unique per agent, channel names unique (`general` may be declared, without members), members that exist and appear once,
 * a moderator that is a member, `ui.defaultChannel` naming a channel (`limits.idleTimeout`'s bound of 24 h is in the
 * schema's pattern: `PATTERNS.dayDuration`).
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
      out.push({ path: ["agents", i, "name"], message: l10n.t('{0}: "{1}" is already the name of {2}; names must be unique (ignoring case)', `agents[${i}].name`, agent.name, `agents[${first}]`) });
    } else {
      agents.set(key, i);
    }
    const servers = new Map<string, number>();
    list(agent.mcpServers).forEach((server, j) => {
      if (!isRec(server) || typeof server.name !== "string") return;
      const firstServer = servers.get(server.name);
      if (firstServer !== undefined) {
        out.push({ path: ["agents", i, "mcpServers", j, "name"], message: l10n.t('{0}: "{1}" is already the name of {2}', `agents[${i}].mcpServers[${j}].name`, server.name, `mcpServers[${firstServer}]`) });
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
      if (first !== undefined) {
        out.push({ path: ["channels", i, "name"], message: l10n.t('{0}: "{1}" is already the name of {2}', `channels[${i}].name`, channel.name, `channels[${first}]`) });
      } else {
        channels.set(channel.name, i);
      }
    }
    const members = new Map<string, number>();
    list(channel.members).forEach((member, j) => {
      if (typeof member !== "string") return;
      const where = `channels[${i}].members[${j}]`;
      if (!agents.has(member.toLowerCase())) {
        out.push({ path: ["channels", i, "members", j], message: l10n.t('{0}: no agent named "{1}"{2}', where, member, didYouMean(member, agentNames)) });
        return;
      }
      const first = members.get(member.toLowerCase());
      if (first !== undefined) out.push({ path: ["channels", i, "members", j], message: l10n.t('{0}: "{1}" is already listed ({2})', where, member, `members[${first}]`) });
      else members.set(member.toLowerCase(), j);
    });
    if (typeof channel.moderator === "string") {
      const moderator = channel.moderator;
      const where = `channels[${i}].moderator`;
      if (!agents.has(moderator.toLowerCase())) {
        out.push({ path: ["channels", i, "moderator"], message: l10n.t('{0}: no agent named "{1}"{2}', where, moderator, didYouMean(moderator, agentNames)) });
      } else if (Array.isArray(channel.members) && !members.has(moderator.toLowerCase())) {
        out.push({ path: ["channels", i, "moderator"], message: l10n.t('{0}: "{1}" is not a member of this channel; add it to members', where, moderator) });
      }
    }
  });
  out.push(...worktreeFindings(data));
  if (isRec(data.ui) && typeof data.ui.defaultChannel === "string") {
    const name = data.ui.defaultChannel;
    if (name !== GENERAL_CHANNEL && !channels.has(name)) {
      out.push({ path: ["ui", "defaultChannel"], message: l10n.t('{0}: no channel named "{1}"{2}', "ui.defaultChannel", name, didYouMean(name, [GENERAL_CHANNEL, ...channels.keys()])) });
    }
  }
  return out;
}

/** An agent without a `workspace` of its own gets a worktree from one channel at most (`channels[].worktree`). */
function worktreeFindings(data: Rec): Finding[] {
  const out: Finding[] = [];
  const ownWorkspace = new Set(list(data.agents).flatMap((a) => (isRec(a) && typeof a.name === "string" && a.workspace !== undefined ? [a.name.toLowerCase()] : [])));
  const given = new Map<string, number>();
  list(data.channels).forEach((channel, i) => {
    if (!isRec(channel) || channel.worktree === undefined) return;
    const members = channel.name === GENERAL_CHANNEL ? list(data.agents).map((a) => (isRec(a) ? a.name : undefined)) : list(channel.members);
    for (const member of members) {
      if (typeof member !== "string" || ownWorkspace.has(member.toLowerCase())) continue;
      const first = given.get(member.toLowerCase());
      if (first === undefined) given.set(member.toLowerCase(), i);
      else if (first !== i) {
        out.push({ path: ["channels", i, "worktree"], message: l10n.t('{0}: "{1}" already gets a worktree from {2}; give it a workspace of its own, or keep one channel\'s worktree', `channels[${i}].worktree`, member, `channels[${first}]`) });
      }
    }
  });
  return out;
}

function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearest(word, candidates);
  return near ? didYouMeanHint(near) : "";
}
