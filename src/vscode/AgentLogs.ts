import * as vscode from "vscode";
import type { SidekicksEvents } from "../events/events";

/**
 * One `LogOutputChannel` per agent, named "Sidekicks: <agent>", created on the agent's first log line or state
 * change (never for an agent that was only listed). It receives the agent's stderr lines (`info`) and Sidekicks'
 * diagnostics about it: dropped stdout lines, starts, stops and why, crashes with their stderr tail. VS Code keeps
 * the text (a log file); nothing here holds lines in memory.
 */
export class AgentLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  /** The channel of `agent`, created if needed. */
  channel(agent: string): vscode.LogOutputChannel {
    let channel = this.channels.get(agent);
    if (!channel) {
      channel = vscode.window.createOutputChannel(`Sidekicks: ${agent}`, { log: true });
      this.channels.set(agent, channel);
    }
    return channel;
  }

  /** Writes an `agent/log` event: a stderr line (`info`) or a diagnostic. */
  log({ agent, level, line }: SidekicksEvents["agent/log"]): void {
    this.channel(agent)[level](line);
  }

  /** Writes an `agent/state` transition; an error comes with its detail (exit code, stderr tail). */
  state({ agent, state, error }: SidekicksEvents["agent/state"]): void {
    if (!this.channels.has(agent) && state === "stopped" && !error) return; // listed, never used: no channel yet
    const channel = this.channel(agent);
    if (error) channel.error(`[sidekicks] state ${state}: ${error.message}${error.detail ? `\n${error.detail}` : ""}`);
    else channel.info(`[sidekicks] state ${state}`);
  }

  /** Reveals the agent's log without taking the focus from the editor. */
  show(agent: string): void {
    this.channel(agent).show(true);
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}
