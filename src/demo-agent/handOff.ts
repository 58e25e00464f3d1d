/**
 * The demo agent's "delegate" prompt, both sides of it, so a new user sees Sidekicks' delegation without an account
 * (brief, "An agent's final message that @mentions another member delegates to it"; src/channels/delegation.ts):
 * - asked `delegate to odie` (or `delegate to odie: edit a file`), the demo's final answer ends with a line that
 *   @mentions that member, `@odie, over to you: edit a file`, and Sidekicks starts odie's turn, linked to it;
 * - the member handed the work gets the prompt Sidekicks writes for it (`@demo delegated this to you:` and the
 *   delegating answer) and does the task named after "over to you:" as if asked, without handing it on again.
 * Pure text rules; imports nothing.
 */

/** A member name as Sidekicks' mentions read it: a letter, then letters, digits, `-`, `_`. */
const NAME = "[A-Za-z][A-Za-z0-9_-]*";

/** What a prompt asking to delegate says: the member to hand to (when named) and the task for it (may be ""). */
export interface DelegationAsk {
  to?: string;
  task: string;
}

/**
 * Whether `text` (the user's own words) asks the demo to delegate: the word "delegate", optionally "this"/"it",
 * then `to <name>` (an `@` before the name is allowed), then the task after `:`, `,`, `-` or "and" (punctuation
 * alone is no task). Undefined when
 * the word is not there.
 */
export function delegationAsked(text: string): DelegationAsk | undefined {
  const m = new RegExp(`\\bdelegate\\b(?:\\s+(?:this|it))?(?:\\s+to\\s+@?(${NAME}))?([\\s\\S]*)$`, "i").exec(text);
  if (!m) return undefined;
  const task = (m[2] ?? "").replace(/^\s*(?:[:,.;!?\-–—]+|\band\b)\s*/i, "").trim();
  return { ...(m[1] ? { to: m[1].replace(/[-_]+$/, "") } : {}), task };
}

/** A prompt Sidekicks wrote for a delegated turn: who delegated, and the task the demo should do. */
export interface Delegated {
  from: string;
  task: string;
}

/** The line a delegating demo answer ends with; the member named in it is the one Sidekicks hands the work to. */
export function handOffLine(to: string, task: string): string {
  return `@${to}, over to you: ${task.trim() || "say hello."}`;
}

/**
 * Whether `prompt` (the user's part of the prompt, after any channel context) is a delegated turn's prompt, as
 * Sidekicks writes it (`@<from> delegated this to you:` then the delegating answer; src/channels/FollowUps.ts).
 * The task is what follows the last "over to you:" of a demo's hand-off line, else the delegating answer without
 * its quoted lines.
 */
export function delegatedPrompt(prompt: string): Delegated | undefined {
  const m = new RegExp(`^@(${NAME}) delegated this to you:\\s*([\\s\\S]*)$`).exec(prompt.trim());
  if (!m) return undefined;
  const answer = m[2]!;
  const lines = [...answer.matchAll(/over to you:[ \t]*(.*)$/gm)];
  const task = lines.length > 0 ? lines[lines.length - 1]![1]! : answer.split("\n").filter((l) => !/^\s{0,3}>/.test(l)).join("\n");
  return { from: m[1]!, task: task.trim() };
}
