import type { Emitter } from "../events/events";
import type { Terminal, TerminalExitStatus } from "../workspace/terminals";

/** How long terminal output is gathered before it goes to the view, in ms. */
export const TERMINAL_FLUSH_MS = 50;
/** Most characters kept per terminal for the view (the start is dropped first). */
export const TERMINAL_KEEP_CHARS = 256 * 1024;
/** How many terminals' output is kept (the oldest is forgotten first). */
export const TERMINALS_KEPT = 50;

interface Kept {
  output: string;
  truncated: boolean;
  exitStatus?: TerminalExitStatus;
  pending: string;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The output of agents' terminals for the view (issue 7: "the tool call card embeds its live output"): each terminal
 * created for an agent is followed, its output gathered for {@link TERMINAL_FLUSH_MS} and emitted as
 * `terminal/output`, and the last {@link TERMINAL_KEEP_CHARS} kept so a card rendered later starts from a snapshot
 * (even after the agent released the terminal).
 */
export class AgentTerminalOutputs {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly emitter: Emitter) {}

  /** Follows a terminal from its creation. */
  follow(terminal: Terminal): void {
    const entry: Kept = { output: "", truncated: false, pending: "" };
    this.kept.set(terminal.id, entry);
    while (this.kept.size > TERMINALS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    const flush = (exitStatus?: TerminalExitStatus) => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = undefined;
      if (entry.pending === "" && !exitStatus) return;
      const text = entry.pending;
      entry.pending = "";
      this.emitter.emit("terminal/output", { terminalId: terminal.id, text, ...(exitStatus ? { exitStatus } : {}) });
    };
    terminal.onData((text) => {
      entry.output += text;
      if (entry.output.length > TERMINAL_KEEP_CHARS) {
        entry.output = entry.output.slice(entry.output.length - TERMINAL_KEEP_CHARS);
        entry.truncated = true;
      }
      entry.pending += text;
      entry.timer ??= setTimeout(() => flush(), TERMINAL_FLUSH_MS);
    });
    terminal.onExit((status) => {
      entry.exitStatus = status;
      flush(status);
    });
  }

  /** What a terminal printed so far (within the kept size) and its exit status; undefined for an unknown terminal. */
  snapshot(terminalId: string): { output: string; truncated: boolean; exitStatus?: TerminalExitStatus } | undefined {
    const entry = this.kept.get(terminalId);
    return entry ? { output: entry.output, truncated: entry.truncated, ...(entry.exitStatus ? { exitStatus: entry.exitStatus } : {}) } : undefined;
  }
}
