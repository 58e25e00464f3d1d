/**
 * The names agents give the tools of Sidekicks' own MCP server (issue 22) said in words on cards: Claude Code announces
 * a call, and asks permission for it, as `mcp__sidekicks__delegate`; a fresh-user trial met "Allow
 * mcp__sidekicks__delegate?" and could not tell what it would allow. Display only: the title the agent sent stays what
 * a Sidekicks permission rule matches, and the card's tooltip.
 */
import * as l10n from "@vscode/l10n";

/** MCP tool names as agents prefix them: `mcp__<server>__<tool>` (Claude Code). */
const SIDEKICKS_TOOL = /^mcp__sidekicks__([a-z_]+)$/;

/** What each tool of src/mcp/tools.ts does, in a few words. */
const WHAT: Record<string, () => string> = {
  delegate: () => l10n.t("hand work to another member of the channel"),
  skill_read: () => l10n.t("read an attached skill"),
  skill_reference: () => l10n.t("read a reference file of a skill"),
  channel_recent_messages: () => l10n.t("read the channel's recent messages"),
  channel_members: () => l10n.t("list the channel's members"),
  post_progress: () => l10n.t("post a progress note in the channel"),
};

/**
 * "Sidekicks' delegate tool (hand work to another member of the channel)" for `mcp__sidekicks__delegate`; a Sidekicks
 * tool this view does not know is "Sidekicks' x tool"; any other title is returned as it is.
 */
export function toolTitle(title: string): string {
  const name = SIDEKICKS_TOOL.exec(title.trim())?.[1];
  if (!name) return title;
  const what = Object.hasOwn(WHAT, name) ? WHAT[name]!() : undefined;
  return what ? l10n.t("Sidekicks' {0} tool ({1})", name, what) : l10n.t("Sidekicks' {0} tool", name);
}
