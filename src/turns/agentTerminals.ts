/**
 * Output of terminals an agent runs itself (codex-acp reports them in a tool call's `_meta`, for a terminal the client
 * never created: field case 26), kept on the tool call's part. Pure; nothing here mutates its input.
 */
import type { AgentTerminalReport } from "../acp/types";
import type { AgentTerminalOutput, ToolCallPart } from "../shared/protocol";

/**
 * How much output one agent terminal keeps, in UTF-16 code units (the end is kept, as a terminal shows it; the start
 * is dropped and counted in `omitted`). 256 Ki: a long build's tail, without megabytes in every checkpoint.
 */
export const AGENT_TERMINAL_OUTPUT_LIMIT = 256 * 1024;

/**
 * The part with `report` applied: its data appended to that terminal's output (a new entry for a new id, in order of
 * arrival), its exit recorded. The part itself when the report changes nothing.
 */
export function withAgentTerminal(part: ToolCallPart, report: AgentTerminalReport, limit = AGENT_TERMINAL_OUTPUT_LIMIT): ToolCallPart {
  const list = part.agentTerminals ?? [];
  const index = list.findIndex((t) => t.terminalId === report.terminalId);
  const before: AgentTerminalOutput = index === -1 ? { terminalId: report.terminalId, output: "" } : list[index]!;
  if (index !== -1 && report.data === undefined && report.exit === undefined) return part;
  const next: AgentTerminalOutput = { ...before };
  if (report.data !== undefined) {
    let output = before.output + report.data;
    let omitted = before.omitted ?? 0;
    if (output.length > limit) {
      let cut = output.length - limit;
      // Never split a surrogate pair.
      if (isLowSurrogate(output.charCodeAt(cut))) cut++;
      omitted += cut;
      output = output.slice(cut);
    }
    next.output = output;
    if (omitted > 0) next.omitted = omitted;
  }
  if (report.exit) next.exit = { ...report.exit };
  const agentTerminals = list.slice();
  if (index === -1) agentTerminals.push(next);
  else agentTerminals[index] = next;
  return { ...part, agentTerminals };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
