/** A mention found in a message: the name as written and where it starts (UTF-16 offset). */
export interface Mention {
  name: string;
  index: number;
}

/**
 * Finds `@name` mentions in a user message (brief, "Mentions route the message to those agents").
 *
 * A mention starts with `@` at the start of the text or after a character that cannot be part of a name or an
 * e-mail address (so `me@demo.dev` is no mention), and the name follows the roster rule (a letter, then letters,
 * digits, `-`, `_`). Inline code spans and fenced code blocks are not searched. Trailing punctuation ends the
 * name (`@demo,` and `@demo.` mention `demo`).
 *
 * @returns mentions in order of appearance, duplicates included
 */
export function findMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const masked = maskCode(text);
  const re = /@([A-Za-z][A-Za-z0-9_-]*)/g;
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const before = m.index === 0 ? "" : masked[m.index - 1]!;
    if (before && /[\p{L}\p{N}_.+-]/u.test(before)) continue;
    const name = m[1]!.replace(/[-_]+$/, "");
    out.push({ name, index: m.index });
  }
  return out;
}

/** The result of routing a user message within a channel. */
export type Route =
  | { kind: "agents"; agents: string[]; prompt: string }
  | { kind: "unknown"; names: string[] }
  | { kind: "none" };

/**
 * Decides who receives a message: the members it mentions (in order, once each), else the channel's default
 * member (its only member, or the agent addressed last). Names are matched case-insensitively and returned as
 * the roster spells them. The prompt is the text with the leading mentions removed, so `@demo hello` sends
 * `hello` (mentions later in the text stay, they are part of what the user says).
 *
 * @param members the channel's member names
 * @param lastAddressed the member addressed most recently, if any
 */
export function routeMessage(text: string, members: readonly string[], lastAddressed?: string): Route {
  const byLower = new Map(members.map((m) => [m.toLowerCase(), m]));
  const mentions = findMentions(text);
  const unknown = [...new Set(mentions.filter((m) => !byLower.has(m.name.toLowerCase())).map((m) => m.name))];
  const agents = [...new Set(mentions.map((m) => byLower.get(m.name.toLowerCase())).filter((m): m is string => !!m))];
  if (agents.length === 0 && unknown.length > 0) return { kind: "unknown", names: unknown };
  const prompt = stripLeadingMentions(text);
  if (agents.length > 0) return { kind: "agents", agents, prompt };
  const fallback = members.length === 1 ? members[0] : lastAddressed && byLower.has(lastAddressed.toLowerCase()) ? lastAddressed : undefined;
  return fallback ? { kind: "agents", agents: [fallback], prompt } : { kind: "none" };
}

function stripLeadingMentions(text: string): string {
  return text.replace(/^(\s*@[A-Za-z][A-Za-z0-9_-]*[,:]?)+\s*/, "").trim() || text.trim();
}

/** Replaces code spans and fenced blocks with spaces of the same length, so offsets stay valid. */
function maskCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return text
    .replace(/(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)/g, (m) => blank(m))
    .replace(/(`+)[^`\n]*?\1/g, (m) => blank(m));
}
