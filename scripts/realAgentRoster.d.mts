/** See realAgentRoster.mjs: roster entries for the real agents pointed at the scripted model server. */
export type RealAgentName = "claude" | "codex" | "gemini";
export const REAL_AGENTS: readonly RealAgentName[];
/** One entry of `agents[]` in sidekicks.yaml, as realAgentEntry builds it. */
export interface RealAgentEntry {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}
export function realAgentEntry(agent: RealAgentName, options: { dir: string; modelUrl: string; node: string; entry: string; name?: string }): RealAgentEntry;
export function codexConfig(modelUrl: string): string;
export function rosterYaml(entries: readonly RealAgentEntry[], header?: readonly string[]): string;
export const NOTES: string;
export function realAgentsHeader(options: { modelUrl: string; stateDir: string }): string[];
/** Writes the real-agents workspace (sidekicks.yaml, notes.txt); see realAgentRoster.mjs. */
export function writeRealAgentsWorkspace(options: {
  folder: string;
  stateDir: string;
  modelUrl: string;
  node: string;
  entries: Record<RealAgentName, string>;
  agents?: readonly RealAgentName[];
}): { written: string[]; kept: string[]; keptUrl?: string };
export function modelUrlOf(yaml: string): string | undefined;
