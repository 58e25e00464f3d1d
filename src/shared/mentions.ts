import * as l10n from "@vscode/l10n";
import { typedPath } from "./fileMentions";

/** A mention found in a message: the name as written and where it starts (UTF-16 offset). */
export interface Mention {
  name: string;
  index: number;
}

/** The roster rule for agent names, without anchors (commands follow it too). */
const NAME = "[A-Za-z][A-Za-z0-9_-]*";

/** What is read as a mentioned name: wider than the roster rule, so `@Gärfield` is reported, not cut short. */
const MENTIONED = "\\p{L}[\\p{L}\\p{N}\\p{M}_-]*";

/**
 * Finds `@name` mentions in a user message (brief, "Mentions route the message to those agents").
 *
 * A mention starts with `@` at the start of the text or after a character that cannot be part of a name or an
 * e-mail address (so `me@demo.dev` is no mention), and the name is a letter, then letters, digits, `-`, `_` (any
 * script: `@Gärfield` is read whole, so routing can say it is no member rather than mention `@G`). Inline code spans, fenced code blocks and quoted lines (`> …`) are not searched. Trailing punctuation ends the
 * name (`@demo,` and `@demo.` mention `demo`). A word that reads as a path (`@src/a.ts`, `@a.ts:7`: see
 * {@link typedPath}) mentions nobody: the host attaches the file it names, if any ({@link findTypedPaths}).
 *
 * @returns mentions in order of appearance, duplicates included
 */
export function findMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const masked = maskCode(text);
  const re = new RegExp(`@(${MENTIONED})`, "gu");
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const before = m.index === 0 ? "" : masked[m.index - 1]!;
    if (before && /[\p{L}\p{N}\p{M}_.+-]/u.test(before)) continue;
    if (typedPath(WORD_AT.exec(masked.slice(m.index))![1]!)) continue;
    const name = m[1]!.replace(/[-_]+$/, "");
    out.push({ name, index: m.index });
  }
  return out;
}

/** The whole `@` word at the start of a string: all up to a blank, another `@` or a backtick. */
const WORD_AT = /^@([^\s@`]*)/u;

/** A path typed after `@` in a message: as written (line range included) and where its `@` is (UTF-16 offset). */
export interface TypedPath {
  path: string;
  index: number;
}

/**
 * The `@` words of a user message that read as paths (`@src/a.ts`, `@src/a.ts:10-20`, `@./b.md`: {@link typedPath}),
 * in order, where a mention could start (not after a letter, digit or `.`, so `me@demo.dev` is none) and outside code
 * spans, fenced blocks and quoted lines, as {@link findMentions} reads mentions. Whether a file is there is the host's
 * to check.
 */
export function findTypedPaths(text: string): TypedPath[] {
  const out: TypedPath[] = [];
  const masked = maskCode(text);
  const re = /@[^\s@`]+/gu;
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const before = m.index === 0 ? "" : masked[m.index - 1]!;
    if (before && /[\p{L}\p{N}\p{M}_.+-]/u.test(before)) continue;
    const path = typedPath(m[0].slice(1));
    if (path) out.push({ path, index: m.index });
  }
  return out;
}

/**
 * What a command name may hold to be typed as `/name`: no whitespace and no `/` (so `/usr/bin` is no command), at most
 * {@link MAX_COMMAND_NAME} characters. A `:` is allowed: Claude Code's namespaced commands (`frontend:component`).
 * The one rule for what an agent may announce (`src/acp/commands.ts`) and what routing calls.
 */
const COMMAND = "[^\\s/]+";
/** The longest command name, in characters. */
export const MAX_COMMAND_NAME = 100;
const COMMAND_CALL = new RegExp(`^\\s*/(?:(${NAME}):)?(${COMMAND})(?=\\s|$)([\\s\\S]*)$`);

/** Whether `name` (without its `/`) can be typed and called as a command (see `COMMAND`). */
export function isCommandName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_COMMAND_NAME && new RegExp(`^${COMMAND}$`).test(name);
}

/** A slash command at the start of a message (after its leading mentions): `/cmd args` or `/agent:cmd args`. */
export interface CommandCall {
  /** The agent prefix of `/agent:cmd`, as written. */
  agent?: string;
  name: string;
  /** The text after the command name, trimmed (may be empty). */
  args: string;
}

/**
 * Reads `/cmd args` or `/agent:cmd args` at the start of `text` (leading whitespace allowed). A path such as
 * `/usr/bin` is no command: the name must end at whitespace or the end of the text.
 */
export function parseCommand(text: string): CommandCall | undefined {
  const m = COMMAND_CALL.exec(text);
  if (!m) return undefined;
  return { ...(m[1] ? { agent: m[1] } : {}), name: m[2]!, args: m[3]!.trim() };
}

/** The result of routing a user message within a channel. */
export type Route =
  | {
      kind: "agents";
      agents: string[];
      /** What the agents receive: the text without its leading mentions; `/cmd args` for a command. */
      prompt: string;
      /** The command the message calls (the agent's spelling), when it starts with `/cmd` or `/agent:cmd`. */
      command?: string;
    }
  | { kind: "error"; code: "channel/unknownMember" | "channel/unknownCommand"; message: string }
  | { kind: "none" };

/** Who can be addressed and what they announced. */
export interface RoutingContext {
  /** The channel's member names (roster spelling). */
  members: readonly string[];
  /** The member addressed most recently, if any. */
  lastAddressed?: string;
  /**
   * The command names an agent announced (ACP `available_commands_update`), or undefined when it announced none
   * yet (then any `/cmd` is passed through to it as text).
   */
  commandsOf?: (agent: string) => readonly string[] | undefined;
}

/**
 * Decides who receives a message (the routing rule of `docs/reference/channels.md`):
 * - `/agent:cmd args` at the start goes to that member only and calls its command `cmd`;
 * - else the members it mentions (in order, once each), else the channel's default member: its only member, or
 *   the member addressed last;
 * - `/cmd args` after the leading mentions (or alone) calls the command of every recipient; then only the leading
 *   mentions address (a mention in the arguments is part of the arguments).
 *
 * Names and commands match case-insensitively and come back as the roster (or agent) spells them. A name in the
 * leading mentions that is no member, an unknown `/agent:` prefix, or a mention of nobody known, is an error
 * with the closest member ("did you mean @garfield?"); so is a command the recipient did not announce. The
 * prompt is the text with the leading mentions removed (`@demo hello` sends `hello`); mentions later in the text
 * stay, they are part of what the user says.
 */
export function routeMessage(text: string, members: readonly string[], lastAddressed?: string, commandsOf?: RoutingContext["commandsOf"]): Route {
  const byLower = new Map(members.map((m) => [m.toLowerCase(), m]));
  const resolve = (name: string) => byLower.get(name.toLowerCase());
  const lead = leadingMentions(text);
  const body = text.slice(lead.end);
  let call = parseCommand(body);
  /** The `agent` of `/agent:cmd` when no member has that name: then `agent:cmd` may be a namespaced command. */
  let prefix: string | undefined;
  if (call?.agent !== undefined) {
    const agent = resolve(call.agent);
    if (agent) return withCommand([agent], call, commandsOf);
    // `/frontend:component` where no member is "frontend": Claude Code's namespaced command, when a recipient announced it.
    prefix = call.agent;
    call = { name: `${call.agent}:${call.name}`, args: call.args };
  }
  // With a command, only the leading mentions address: a mention in its arguments is part of the arguments.
  const mentions = call ? findMentions(text.slice(0, lead.end)) : findMentions(text);
  const unknownLead = lead.names.filter((n) => !resolve(n));
  if (unknownLead.length > 0) return unknownMember(unknownLead, members);
  const agents = [...new Set(mentions.map((m) => resolve(m.name)).filter((m): m is string => !!m))];
  if (agents.length === 0 && mentions.length > 0) return unknownMember([...new Set(mentions.map((m) => m.name))], members);
  const prompt = body.trim() || text.trim();
  let recipients = agents;
  if (recipients.length === 0) {
    const fallback = members.length === 1 ? members[0] : lastAddressed ? resolve(lastAddressed) : undefined;
    if (!fallback) return prefix !== undefined ? unknownMember([prefix], members) : { kind: "none" };
    recipients = [fallback];
  }
  if (prefix !== undefined && !recipients.some((a) => commandsOf?.(a)?.some((c) => c.toLowerCase() === call!.name.toLowerCase()))) {
    return unknownMember([prefix], members);
  }
  return call ? withCommand(recipients, call, commandsOf) : { kind: "agents", agents: recipients, prompt };
}

function withCommand(agents: string[], call: CommandCall, commandsOf: RoutingContext["commandsOf"]): Route {
  let name = call.name;
  for (const agent of agents) {
    const known = commandsOf?.(agent);
    if (!known) continue;
    const hit = known.find((c) => c.toLowerCase() === call.name.toLowerCase());
    if (!hit) {
      const near = closestMatch(call.name, known);
      return {
        kind: "error",
        code: "channel/unknownCommand",
        message: near
          ? l10n.t("{0} has no command /{1} — did you mean /{2}?", agent, call.name, near)
          : known.length === 0
            ? l10n.t("{0} has no command /{1} (it announced none).", agent, call.name)
            : l10n.t("{0} has no command /{1} (it has {2}).", agent, call.name, known.map((c) => `/${c}`).join(", ")),
      };
    }
    name = hit;
  }
  return { kind: "agents", agents, prompt: call.args ? `/${name} ${call.args}` : `/${name}`, command: name };
}

function unknownMember(names: string[], members: readonly string[]): Route {
  const list = members.map((m) => `@${m}`).join(", ") || l10n.t("none yet");
  const first = names[0]!;
  const near = closestMatch(first, members);
  const named = names.map((n) => `@${n}`).join(", ");
  return {
    kind: "error",
    code: "channel/unknownMember",
    message: near ? l10n.t("No member named @{0} — did you mean @{1}?", first, near) : l10n.t("No member named {0} in this channel. Members: {1}.", named, list),
  };
}

/** The mentions that open the text (`@a, @b: …`), and where the rest starts. */
function leadingMentions(text: string): { names: string[]; end: number } {
  const re = new RegExp(`^\\s*@(${MENTIONED})[,:]?(?=\\s|$)`, "u");
  const names: string[] = [];
  let end = 0;
  for (let m = re.exec(text); m; m = re.exec(text.slice(end))) {
    names.push(m[1]!.replace(/[-_]+$/, ""));
    end += m[0].length;
  }
  return { names, end };
}

/**
 * The candidate closest to `name` (case-insensitive): one it starts, or one within a small edit distance
 * (1 for names up to 4 letters, 2 up to 8, else 3). Undefined when nothing is close.
 */
export function closestMatch(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const limit = lower.length <= 4 ? 1 : lower.length <= 8 ? 2 : 3;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const distance = c.startsWith(lower) && lower.length >= 2 ? 0.5 : editDistance(lower, c);
    if (distance <= limit && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/**
 * Edit distance between two strings (UTF-16 units) where swapping two neighbours counts as one edit (optimal string
 * alignment), so `@dmeo` is one typo away from `@demo`.
 */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Replaces code spans, fenced blocks and quoted lines (`> …`, as Quote in composer writes another message) with
 * spaces of the same length, so offsets stay valid: quoting an answer that says `@codex` does not send to codex.
 */
function maskCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return text
    .replace(/(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)/g, (m) => blank(m))
    .replace(/(`+)[^`\n]*?\1/g, (m) => blank(m))
    .replace(/(^|\n)( {0,3}>[^\n]*)/g, (_m, start: string, quoted: string) => start + blank(quoted));
}
