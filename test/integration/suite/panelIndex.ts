/**
 * Mocha entry of the panel suite (`runCodeServer.mjs --suite panel`, issue 6): channels in editor tabs, restored after
 * a real window reload. Two phases in two extension hosts, like the reload suite (reloadIndex.ts): code-server reloads
 * the page with the same URL and the new extension host runs this entry again.
 * - Phase 1 (no marker file): opens #general and #tabs in editor tabs, talks to the demo agent in #tabs, writes the
 *   marker and reloads the window (panelBefore.test.ts).
 * - Phase 2 (marker found): the tabs are back, each showing its channel and its history (panelAfter.test.ts).
 * Only phase 2 reports `SIDEKICKS_RESULT`, counting phase 1's tests (recorded in the marker) as passed.
 */
import * as vscode from "vscode";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runMocha } from "./runMocha";

/** What phase 1 leaves for phase 2. */
export interface PanelMarker {
  /** Tests of phase 1 that passed (they never finish in mocha: the host goes away). */
  passedBefore: number;
  /** The text sent to the demo agent in #tabs. */
  request: string;
}

function markerFile(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error("the panel suite needs a workspace folder");
  return path.join(folder, ".sidekicks-panel-phase.json");
}

/** Phase 1's marker, or undefined in phase 1. */
export function readPanelMarker(): PanelMarker | undefined {
  const file = markerFile();
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as PanelMarker) : undefined;
}

export function writePanelMarker(marker: PanelMarker): void {
  writeFileSync(markerFile(), JSON.stringify(marker, null, 2));
}

export function run(): Promise<void> {
  const marker = readPanelMarker();
  if (!marker) {
    console.log("panel suite: phase 1 (before the reload)");
    return runMocha(async () => {
      await import("./panelBefore.test.js");
    });
  }
  console.log("panel suite: phase 2, in a new extension host after the reload");
  return runMocha(
    async () => {
      await import("./panelAfter.test.js");
    },
    { passed: marker.passedBefore, failed: 0 },
  );
}
