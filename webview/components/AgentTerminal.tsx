/**
 * The output of a terminal the agent ran itself (codex-acp's `_meta.terminal_output_delta` / `terminal_exit`, kept on
 * the tool call: `ToolCallPart.agentTerminals`). It lives in the agent, not in VS Code: there is nothing to open.
 */
import * as l10n from "@vscode/l10n";
import type { AgentTerminalOutput } from "../../src/shared/protocol";
import { useMemo } from "preact/hooks";
import { terminalText } from "../ansi";

/** The exit status in words, or undefined while the command runs. */
function exitText(terminal: AgentTerminalOutput): string | undefined {
  if (!terminal.exit) return undefined;
  if (terminal.exit.signal) return l10n.t("killed by {0}", terminal.exit.signal);
  return terminal.exit.exitCode === null ? l10n.t("ended") : l10n.t("exited with code {0}", String(terminal.exit.exitCode));
}

/**
 * Header (running, or how it exited; only when the command is a terminal the agent named) and the output as a
 * terminal shows it (ANSI stripped, progress redrawn shows its last frame), with "…" when its start was dropped. `live`: the command runs (the answer streams and no permission request for it waits: ToolCallCard).
 */
export function AgentTerminal({ terminal, live, named }: { terminal: AgentTerminalOutput; live: boolean; named: boolean }) {
  const exit = exitText(terminal);
  // What the terminal shows: progress redrawn with CR or cursor moves shows its last frame (field case 21).
  const shown = useMemo(() => terminalText(terminal.output), [terminal.output]);
  const state = exit ?? (live ? l10n.t("running") : undefined);
  return (
    <div class="tool-terminal agent-terminal" data-agent-terminal-id={terminal.terminalId} data-exited={exit ? "true" : undefined} data-exit-code={terminal.exit?.exitCode ?? undefined}>
      {named && state && (
        <div class="tool-terminal-header">
          <span class="tool-terminal-state">{state}</span>
        </div>
      )}
      {terminal.output !== "" && (
        <pre class="tool-content tool-terminal-output" aria-live="off" title={terminal.omitted ? l10n.t("The start of the output is not kept ({0} characters).", terminal.omitted) : undefined}>
          {terminal.omitted ? "…\n" : ""}
          {shown}
        </pre>
      )}
    </div>
  );
}
