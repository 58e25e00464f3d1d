import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import { WalkthroughProgress, type WalkthroughObservation } from "../app/walkthroughProgress";

/**
 * Sets the walkthrough's context keys (`WALKTHROUGH_KEYS`, `setContext`) from the app's roster and messages, so its
 * steps are checked once done (`completionEvents: onContext:…` in package.json).
 */
export class WalkthroughContext implements vscode.Disposable {
  private readonly progress = new WalkthroughProgress();
  private offs: (() => void)[] = [];

  /** Follows `app` (a reloaded app replaces the last one); keys already set stay set. */
  attach(app: SidekicksApp): void {
    this.dispose();
    const see = (observation: WalkthroughObservation) => {
      for (const [key, value] of this.progress.observe(observation)) void vscode.commands.executeCommand("setContext", key, value);
    };
    const roster = () => see({ config: app.configStatus, agents: app.agents.names() });
    roster();
    this.offs = [
      app.events.on("config/changed", roster),
      app.events.on("message/started", (message) => see({ message })),
      app.events.on("message/finished", (message) => see({ message })),
    ];
  }

  dispose(): void {
    this.offs.forEach((off) => off());
    this.offs = [];
  }
}
