/** A terminal an agent's tool call embeds (ACP content of type `terminal`): its live output and "Open in terminal". */
import * as l10n from "@vscode/l10n";
import { useContext, useEffect, useMemo, useState } from "preact/hooks";
import { terminalText } from "../ansi";
import { TerminalContext } from "../terminalOutputs";

/**
 * The output so far as a terminal shows it (ANSI stripped, progress redrawn shows its last frame; the start dropped
 * beyond the kept size, and said so), then live; the exit status once the command exited; a button that brings its
 * VS Code terminal to the front.
 */
export function EmbeddedTerminal({ terminalId }: { terminalId: string }) {
  const terminals = useContext(TerminalContext);
  const [, setVersion] = useState(0);
  useEffect(() => {
    const off = terminals.subscribe(terminalId, () => setVersion((v) => v + 1));
    setVersion((v) => v + 1); // the snapshot may have arrived between the render and this subscription
    return off;
  }, [terminals, terminalId]);
  const view = terminals.get(terminalId);
  // What the terminal shows: progress redrawn with CR or cursor moves shows its last frame (field case 21).
  const shown = useMemo(() => terminalText(view.output), [view.output]);
  const [gone, setGone] = useState(false);
  const exit = view.exitStatus
    ? view.exitStatus.signal
      ? l10n.t("killed by {0}", view.exitStatus.signal)
      : l10n.t("exited with code {0}", String(view.exitStatus.exitCode))
    : undefined;
  return (
    <div class="tool-terminal" data-terminal-id={terminalId} data-exited={exit ? "true" : undefined}>
      <div class="tool-terminal-header">
        <span class="tool-terminal-state">{!view.known ? l10n.t("terminal output not available in this window") : exit ?? (view.loading ? "…" : l10n.t("running"))}</span>
        {view.known && (
          <button type="button" class="terminal-open" title={l10n.t("Show this command in VS Code's terminal panel")} onClick={() => void terminals.show(terminalId).then((shown) => setGone(!shown))}>
            {l10n.t("Open in terminal")}
          </button>
        )}
      </div>
      {gone && <div class="tool-terminal-note">{l10n.t("That terminal was closed.")}</div>}
      {view.output !== "" && (
        <pre class="tool-content tool-terminal-output" aria-live="off">
          {view.truncated ? "…\n" : ""}
          {shown}
        </pre>
      )}
    </div>
  );
}
