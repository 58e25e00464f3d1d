/**
 * Composer autocomplete: which `@members` and `/commands` (with `/agent:cmd`) to offer for the text before the
 * caret. Pure, so it is tested without a browser; the Composer renders the list.
 */
import { findMentions } from "../src/shared/mentions";
import type { AgentCommand, AttachmentRequest, CommandNotCallable } from "../src/shared/protocol";

/** One suggestion: what the list shows and what accepting it writes over `text.slice(from, caret)`. */
export interface Suggestion {
  /** `@garfield`, `/idioms`, `/garfield:idioms`. */
  label: string;
  /** The command's description, or the member's state. */
  detail: string;
  /** What to type after a command (ACP `input.hint`). */
  hint?: string;
  insert: string;
  from: number;
  /** A workspace file (`@file`): accepting it adds this chip, `insert` writing its name as code over the typed word. */
  attach?: AttachmentRequest;
  /**
   * A command whose name `/name` cannot call (field case 22: a space, a `/`, too long): shown greyed with why, and
   * never accepted (`insert` is empty).
   */
  notCallable?: CommandNotCallable;
}

/** The most suggestions shown at once. */
export const MAX_SUGGESTIONS = 8;

const MENTION_BEFORE_CARET = /(^|[\s([{"'«“,;])@([\p{L}\p{N}_-]*)$/u;
const LEADING_MENTIONS = /^\s*((?:@[A-Za-z][A-Za-z0-9_-]*[,:]?\s+)*)/;

/**
 * Suggestions for `text` with the caret at `caret` (UTF-16 offset):
 * - after `@` (at a word start): members whose name starts with what follows, then those containing it, except
 *   members the draft already mentions elsewhere (found as the host finds mentions: `findMentions`);
 * - `/` at the start of the message, after its leading mentions: the commands of the mentioned members (or of the
 *   only member); with no mention in a channel of several members, `/agent:cmd` for every member's commands;
 * - `/agent:` narrows to that agent's commands;
 * - a command `/name` cannot call (`notCallable`) is offered too, to be shown greyed and never accepted.
 * Nothing inside a code span or fence is considered (the caller passes plain text; a backtick before the caret on
 * the same line with no closing one turns suggestions off).
 *
 * @param members the channel's member names (roster order) with a short detail each (their state)
 * @param commands the commands each member announced
 */
export function suggest(text: string, caret: number, members: readonly { name: string; detail: string }[], commands: Readonly<Record<string, readonly AgentCommand[]>>): Suggestion[] {
  const before = text.slice(0, caret);
  const line = before.slice(before.lastIndexOf("\n") + 1);
  if ((line.match(/`/g) ?? []).length % 2 === 1 || (before.match(/^```/gm) ?? []).length % 2 === 1) return [];
  const mention = MENTION_BEFORE_CARET.exec(before);
  if (mention) {
    const partial = mention[2]!.toLowerCase();
    const from = caret - partial.length - 1;
    const mentioned = new Set(findMentions(text).filter((m) => m.index !== from).map((m) => m.name.toLowerCase()));
    const offered = members.filter((m) => !mentioned.has(m.name.toLowerCase()));
    const starts = offered.filter((m) => m.name.toLowerCase().startsWith(partial));
    const contains = offered.filter((m) => !m.name.toLowerCase().startsWith(partial) && m.name.toLowerCase().includes(partial));
    return [...starts, ...contains].slice(0, MAX_SUGGESTIONS).map((m) => ({ label: `@${m.name}`, detail: m.detail, insert: `@${m.name} `, from }));
  }
  const lead = LEADING_MENTIONS.exec(before)![1]!;
  const rest = before.slice(before.length - before.trimStart().length + lead.length);
  // The command rule of routing (`src/shared/mentions.ts`): no whitespace, no "/"; a ":" after an agent's name, or
  // inside a namespaced command's name (`/frontend:component`).
  const command = /^\/([^\s/:]*)(?::([^\s/]*))?$/.exec(rest);
  if (!command) return [];
  const from = caret - rest.length;
  const byLower = new Map(members.map((m) => [m.name.toLowerCase(), m.name]));
  const list = (agent: string, partial: string, prefixed: boolean): Suggestion[] =>
    (commands[agent] ?? [])
      .filter((c) => c.name.toLowerCase().startsWith(partial.toLowerCase()))
      .map((c) => {
        const label = prefixed ? `/${agent}:${c.name}` : `/${c.name}`;
        if (c.notCallable) return { label, detail: c.description, insert: "", from, notCallable: c.notCallable };
        return { label, detail: c.description, ...(c.hint ? { hint: c.hint } : {}), insert: `${label} `, from };
      });
  if (command[2] !== undefined) {
    const agent = byLower.get(command[1]!.toLowerCase());
    if (agent) return list(agent, command[2], true).slice(0, MAX_SUGGESTIONS);
  }
  // Not an agent's name before the ":": the name so far of a namespaced command.
  const partial = command[2] !== undefined ? `${command[1]!}:${command[2]}` : command[1]!;
  const addressed = [...lead.matchAll(/@([A-Za-z][A-Za-z0-9_-]*)/g)].map((m) => byLower.get(m[1]!.toLowerCase())).filter((m): m is string => !!m);
  const out: Suggestion[] = [];
  if (addressed.length > 0 || members.length === 1) {
    const seen = new Set<string>();
    for (const agent of addressed.length > 0 ? addressed : [members[0]!.name]) {
      for (const s of list(agent, partial, false)) {
        if (seen.has(s.label)) continue;
        seen.add(s.label);
        out.push(s);
      }
    }
  } else {
    for (const m of members) out.push(...list(m.name, partial, true));
    // `/garf` also offers `/garfield:` commands by the agent's name
    for (const m of members) if (partial && m.name.toLowerCase().startsWith(partial.toLowerCase()) && !out.some((s) => s.label.startsWith(`/${m.name}:`))) out.push(...list(m.name, "", true));
  }
  return out.slice(0, MAX_SUGGESTIONS);
}

/** The text after accepting `s`, and where the caret goes. */
export function accept(text: string, caret: number, s: Suggestion): { text: string; caret: number } {
  const after = text.slice(caret).replace(/^\S*/, "").replace(/^ /, "");
  const next = text.slice(0, s.from) + s.insert + after;
  return { text: next, caret: s.from + s.insert.length };
}
