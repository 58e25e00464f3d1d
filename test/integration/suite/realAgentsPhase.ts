/** What phase 1 of the real-agents suite leaves for phase 2 (after the window reload): realAgentsIndex.ts. */
import * as vscode from "vscode";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface RealAgentsMarker {
  /** Phase 1's tests that passed and failed (its host never reports them: it goes away with the reload). */
  passedBefore: number;
  failedBefore: number;
  /** The ids of the two answers (Claude's, Codex's) that were streaming at the reload. */
  claudeAnswer: string;
  codexAnswer: string;
  /** The modes the user chose before the reload, by the names the header shows. */
  claudeMode: string;
  codexMode: string;
  /** `Date.now()` just before the reload. */
  reloadedAt: number;
}

function markerFile(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error("the real-agents suite needs a workspace folder");
  return path.join(folder, ".sidekicks-realagents-phase.json");
}

/** Phase 1's marker, or undefined in phase 1. */
export function readRealAgentsMarker(): RealAgentsMarker | undefined {
  const file = markerFile();
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as RealAgentsMarker) : undefined;
}

export function writeRealAgentsMarker(marker: RealAgentsMarker): void {
  writeFileSync(markerFile(), JSON.stringify(marker, null, 2));
}
