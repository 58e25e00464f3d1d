import { isCommandName, MAX_COMMAND_NAME } from "../shared/mentions";
import type { CommandNotCallable } from "../shared/protocol";
import type { AgentCommandInfo } from "./types";

/** The most commands kept of one `available_commands_update` (the rest are dropped, and counted in the problems). */
export const MAX_COMMANDS = 500;
/** The longest command name routing calls, in characters, and the longest description and hint (cut with `…`). */
export const MAX_COMMAND_NAME_CHARS = MAX_COMMAND_NAME;
/** The most characters of a name too long to call that are kept to show (cut with `…`). */
const MAX_SHOWN_NAME_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 1_000;

/** An announcement made clean: the commands a user can call, and what was left out or changed, one sentence each. */
export interface CleanCommands {
  commands: AgentCommandInfo[];
  /** For the agent's log: empty when the announcement was clean already. */
  problems: string[];
}

/**
 * Cleans the list of an ACP `available_commands_update` (field case 22): a name's leading `/`s are dropped (`/help`
 * is `help`, never `//help`); a name that is not text or is empty is left out; a name announced again (compared
 * case-insensitively, as routing matches them) is merged into the first; a description or hint that is not text is
 * read as none. A name that holds whitespace or a `/`, or is longer than {@link MAX_COMMAND_NAME_CHARS}, cannot be
 * typed as `/name` (routing's rule, `isCommandName`: `/agent:has space` would call `has` with `space` as input): it
 * is kept with `notCallable` saying why, so the menu shows it greyed instead of hiding it, and routing never calls
 * it; the log says so once per announcement. Names stay text: whatever they hold is shown as characters, never as
 * markup.
 * @param raw the `availableCommands` as the agent sent them (a trust boundary: any JSON)
 */
export function cleanCommands(raw: unknown): CleanCommands {
  const problems: string[] = [];
  if (!Array.isArray(raw)) return { commands: [], problems: ["availableCommands is not a list: no commands"] };
  const seen = new Set<string>();
  const commands: AgentCommandInfo[] = [];
  let empty = 0;
  let duplicates = 0;
  const uncallable: string[] = [];
  for (const entry of raw) {
    const c = (typeof entry === "object" && entry !== null ? entry : {}) as { name?: unknown; description?: unknown; input?: unknown };
    if (typeof c.name !== "string") {
      problems.push(`a command whose name is ${c.name === undefined ? "missing" : `not text (${JSON.stringify(c.name)?.slice(0, 40)})`} left out`);
      continue;
    }
    const name = c.name.trim().replace(/^\/+/, "");
    if (name === "") {
      empty++;
      continue;
    }
    const notCallable = isCommandName(name) ? undefined : whyNotCallable(name);
    const key = name.toLowerCase();
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    if (commands.length === MAX_COMMANDS) {
      problems.push(`commands past the first ${MAX_COMMANDS} left out`);
      break;
    }
    seen.add(key);
    const description = typeof c.description === "string" ? cut(c.description, MAX_DESCRIPTION_CHARS) : "";
    const input = (typeof c.input === "object" && c.input !== null ? c.input : {}) as { hint?: unknown };
    const hint = typeof input.hint === "string" && input.hint.trim() !== "" ? cut(input.hint, MAX_DESCRIPTION_CHARS) : undefined;
    if (notCallable) {
      uncallable.push(JSON.stringify(name.slice(0, 60)));
      commands.push({ name: cut(name, MAX_SHOWN_NAME_CHARS), description, ...(hint ? { hint } : {}), notCallable });
    } else commands.push(hint ? { name, description, hint } : { name, description });
  }
  if (uncallable.length > 0) {
    const named = uncallable.length > 5 ? `${uncallable.slice(0, 5).join(", ")} and ${uncallable.length - 5} more` : uncallable.join(", ");
    problems.push(`the command${uncallable.length === 1 ? "" : "s"} ${named} cannot be called: a name with spaces, a "/" or over ${MAX_COMMAND_NAME_CHARS} characters cannot be typed as /name (shown greyed in the command menu)`);
  }
  if (empty > 0) problems.push(`${empty} command${empty === 1 ? "" : "s"} with an empty name left out`);
  if (duplicates > 0) problems.push(`${duplicates} command${duplicates === 1 ? "" : "s"} announced again merged into the first of the same name`);
  return { commands, problems };
}

/** Why `/name` cannot call a command of this name (it fails `isCommandName`). */
function whyNotCallable(name: string): CommandNotCallable {
  return /\s/.test(name) ? "whitespace" : name.includes("/") ? "slash" : "long";
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
