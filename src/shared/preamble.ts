/**
 * The openings (and the closing lines) of what Sidekicks itself writes into an agent's prompt, around the user's request: the channel
 * messages the agent has not seen (`src/channels/context.ts`), a retry's note (`src/turns/answer.ts`) and the skill
 * catalog (`src/mcp/skills.ts`). Pure and
 * imports nothing, so every layer can tell Sidekicks' words from the user's: delegation ignores mentions inside them,
 * and a session title derived from them is not shown as the session's title.
 */

/** Opens the block of channel messages an agent has not seen since it last answered. */
export const CONTEXT_HEADER = "[Messages in this channel since you last answered, oldest first]";
/** Opens the same block for an agent whose session is new (the history is repeated, its own answers included). */
export const CONTEXT_HEADER_NEW_SESSION = "[Your session was restarted. The messages of this channel so far, oldest first, yours included]";
/**
 * The line that ends the re-injected block. The user's own text is outside the block: after it when the block is
 * written before the prompt's text, or the prompt's text itself when the block goes as an embedded resource (ACP
 * `promptCapabilities.embeddedContext`). The demo agent splits on it.
 */
export const CONTEXT_FOOTER = "[End of channel messages. The message for you is outside this block.]";
/** The line that ends a retry note; what follows is the request itself (the demo agent splits on it). */
export const RETRY_NOTE_END = "Check before repeating anything with side effects.]";
/** Opens a retry's note ("[Sidekicks: this is attempt 2 of this request. …"). */
export const RETRY_NOTE_START = "[Sidekicks: this is attempt";

/**
 * Opens the catalog of the skills attached to an agent, put before a new session's first prompt (issue 22,
 * `src/mcp/skills.ts`).
 */
export const SKILLS_HEADER = "[Sidekicks skills you can use. Read a skill's instructions with the sidekicks MCP tool skill_read(name) before following it, and its reference files with skill_reference(name, file)]";
/** Closes the skill catalog. */
export const SKILLS_FOOTER = "[End of skills]";
/** Opens the note on skills changed while a session runs, before the next prompt. */
export const SKILLS_CHANGED_START = "[Sidekicks: your skills changed since you last read them.";

/**
 * True when `text` begins (after white space) with one of Sidekicks' preambles, or with enough of one to tell: an
 * agent that titles its session from the first prompt's start (then cuts and collapses it) made the title from
 * Sidekicks' words, not the user's.
 */
export function startsWithPreamble(text: string): boolean {
  const head = text.trimStart().replace(/\s+/g, " ");
  if (head.length < 12) return false;
  return [CONTEXT_HEADER, CONTEXT_HEADER_NEW_SESSION, RETRY_NOTE_START, SKILLS_HEADER, SKILLS_CHANGED_START].some((p) => p.startsWith(head.replace(/…$/, "")) || head.startsWith(p));
}
