import * as l10n from "@vscode/l10n";
import { problemAt, type ConfigProblem, type Roster } from "../config/roster";
import { isSkill, loadSkill, skillFolder } from "../mcp/skills";

/**
 * The skills the roster names (`agents[].skills`, `channels[].skills`) that cannot be read — no folder, no `SKILL.md`,
 * bad front matter —, each a warning at its entry in the roster `text` (issue 22: a broken skill is a Problems entry,
 * not a failed turn). An agent's relative paths are relative to its `workspace`, else to `workspaceFolder`; a
 * channel's to `workspaceFolder`. Never throws.
 */
export async function skillFindings(roster: Roster, text: string, workspaceFolder: string): Promise<ConfigProblem[]> {
  const out: ConfigProblem[] = [];
  const check = async (entries: string[] | undefined, base: string, at: (j: number) => (string | number)[]) => {
    for (const [j, entry] of (entries ?? []).entries()) {
      const loaded = await loadSkill(skillFolder(entry, base), entry);
      if (!isSkill(loaded)) out.push(problemAt(text, roster.file, at(j), l10n.t("{0} It is left out; the agent works without it.", loaded.message), "warning"));
    }
  };
  for (const [i, agent] of roster.agents.entries()) await check(agent.skills, agent.workspace ?? workspaceFolder, (j) => ["agents", i, "skills", j]);
  for (const [i, channel] of roster.channels.entries()) await check(channel.skills, workspaceFolder, (j) => ["channels", i, "skills", j]);
  return out;
}
