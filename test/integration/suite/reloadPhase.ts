/**
 * What the reload suite's first phase leaves for its second (test/integration/suite/reloadIndex.ts): a file in the
 * workspace, written just before the window reloads. The extension host that starts after the reload runs the same
 * suite entry, finds this file and runs the second phase.
 */
import * as vscode from "vscode";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface ReloadMarker {
  /** Tests of the first phase that passed before the reload (they never finish in mocha: the host goes away). */
  passedBefore: number;
  /** The answer's text as shown before the reload, once the store's last checkpoint was seen to cover it (`savedText`). */
  shownEarly: string;
  /** The answer's text as shown just before the reload (more may have streamed in the last instant). */
  shownAtReload: string;
  /** The request's text (what the demo agent quotes). */
  request: string;
  /** The id of the answer that was streaming at the reload. */
  answerId: string;
  /** A second message to the same agent, sent while it answered: queued at the reload (issue 15, item 4). */
  queuedRequest: string;
  /** The id of that queued message's answer. */
  queuedId: string;
  /** `Date.now()` just before the reload. */
  reloadedAt: number;
}

function markerFile(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error("the reload suite needs a workspace folder");
  return path.join(folder, ".sidekicks-reload-phase.json");
}

/** The first phase's marker, or undefined in the first phase. */
export function readMarker(): ReloadMarker | undefined {
  const file = markerFile();
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ReloadMarker) : undefined;
}

export function writeMarker(marker: ReloadMarker): void {
  writeFileSync(markerFile(), JSON.stringify(marker, null, 2));
}

/**
 * The words the demo agent quoted of the request, in `body`: the text after "You said:" up to the interrupted notice,
 * whitespace collapsed.
 */
export const quoted = (body: string) => (body.split("You said:")[1] ?? "").split("Interrupted:")[0]!.replace(/\s+/g, " ").trim();
