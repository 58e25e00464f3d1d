/**
 * Live output of agents' terminals for the tool call cards that embed them (issue 7, ACP tool call content of type
 * `terminal`): a snapshot asked of the host when a card first shows a terminal, then `terminal/output` events
 * appended. Kept per terminal id, bounded; cards subscribe to the ids they show.
 */
import { createContext } from "preact";
import type { HostConnection } from "./host";

/** What a card shows of one terminal. */
export interface TerminalView {
  /** Output so far (ANSI kept: the card strips it). */
  output: string;
  truncated: boolean;
  exitStatus?: { exitCode: number | null; signal: string | null };
  /** False when this window has no such terminal (it ran before a reload). */
  known: boolean;
  loading: boolean;
}

/** Most characters a card keeps of one terminal (the start is dropped first). */
export const TERMINAL_VIEW_CHARS = 64 * 1024;

/** Terminal outputs by id, with subscriptions. */
export class TerminalOutputs {
  private readonly views = new Map<string, TerminalView>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly host: HostConnection | undefined) {
    host?.on("terminal/output", ({ terminalId, text, exitStatus }) => {
      const view = this.views.get(terminalId);
      if (!view) return; // no card shows it: its snapshot will hold this text when one does
      let output = view.output + text;
      let truncated = view.truncated;
      if (output.length > TERMINAL_VIEW_CHARS) {
        output = output.slice(output.length - TERMINAL_VIEW_CHARS);
        truncated = true;
      }
      this.set(terminalId, { ...view, output, truncated, ...(exitStatus ? { exitStatus } : {}) });
    });
  }

  /** The terminal as a card shows it now; the first call asks the host for its snapshot. */
  get(terminalId: string): TerminalView {
    let view = this.views.get(terminalId);
    if (!view) {
      view = { output: "", truncated: false, known: true, loading: true };
      this.views.set(terminalId, view);
      void this.load(terminalId);
    }
    return view;
  }

  /** Calls `listener` when the terminal's view changes. @returns unsubscribe */
  subscribe(terminalId: string, listener: () => void): () => void {
    let set = this.listeners.get(terminalId);
    if (!set) this.listeners.set(terminalId, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Brings the VS Code terminal to the front. @returns whether it is still there */
  async show(terminalId: string): Promise<boolean> {
    try {
      return (await this.host?.request("terminal/show", { terminalId }))?.shown ?? false;
    } catch {
      return false;
    }
  }

  private async load(terminalId: string): Promise<void> {
    try {
      const snapshot = await this.host?.request("terminal/snapshot", { terminalId });
      const current = this.views.get(terminalId)!;
      if (!snapshot) return this.set(terminalId, { ...current, loading: false, known: false });
      // Output that arrived while the snapshot was on its way is already in it.
      this.set(terminalId, { output: snapshot.output, truncated: snapshot.truncated, known: snapshot.known, loading: false, ...(snapshot.exitStatus ? { exitStatus: snapshot.exitStatus } : current.exitStatus ? { exitStatus: current.exitStatus } : {}) });
    } catch {
      this.set(terminalId, { ...this.views.get(terminalId)!, loading: false, known: false });
    }
  }

  private set(terminalId: string, view: TerminalView): void {
    this.views.set(terminalId, view);
    for (const listener of this.listeners.get(terminalId) ?? []) listener();
  }
}

/** The view's terminal outputs (`main.tsx` provides the host's; none in tests of single components). */
export const TerminalContext = createContext<TerminalOutputs>(new TerminalOutputs(undefined));
