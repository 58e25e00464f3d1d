/**
 * What the `.vsix` suite (test/integration/suite/vsixIndex.ts) uses instead of the test API the development build
 * exports: the INSTALLED extension runs in production mode and exports nothing, so the suite reaches it the way a user
 * does. Every suite also sends the harness's own requests (screenshots, workbench checks: suite/harness.ts)
 * through `webview`.
 * - `webview(method, params)`: the same requests as the development test API (`test/text`, `test/attribute`,
 *   `test/click`, `test/compose` of `HostRequests`), answered by the harness (runCodeServer.mjs `--suite vsix`), which
 *   reads and drives the webview's DOM in the browser with Playwright: typing in the composer and pressing Enter, real
 *   clicks. The request goes out as a `SIDEKICKS_WEBVIEW <json>` console line; the harness writes its answer to the
 *   file the request names, which this side polls.
 * - `runInfo()`: where the harness installed the package (`.sidekicks-vsix-run.json` in the workspace).
 * - `mappedFrom(file)`: the paths of the native binaries of that name this extension host process has loaded.
 */
import * as vscode from "vscode";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";

/** Written by the harness before the workbench opens. */
export interface VsixRunInfo {
  /** The fresh `--extensions-dir` the `.vsix` was installed into. */
  extensionsDir: string;
  /** code-server's `--user-data-dir` (global storage lives under `User/globalStorage/<publisher.name>`). */
  userDataDir: string;
  /** The repository (for the scripted fake agent in test/fixtures; never the extension's code). */
  repoRoot: string;
  /** The installed package file. */
  vsix: string;
}

function workspaceFile(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error("the .vsix suite needs a workspace folder");
  return path.join(folder, name);
}

export function runInfo(): VsixRunInfo {
  return JSON.parse(readFileSync(workspaceFile(".sidekicks-vsix-run.json"), "utf8")) as VsixRunInfo;
}

const replies = mkdtempSync(path.join(os.tmpdir(), "sidekicks-vsix-bridge-"));
let nextReply = 0;

/**
 * The development test API's requests, plus `vsix/type` (types into the composer without sending, for a picture) and
 * `vsix/screenshot` (test-results/<name>.png, the whole page or the side bar; answered once taken), and
 * `workbench/visible` (answered once an element of the workbench page, outside the webview, is visible).
 */
type BridgeRequests = HostRequests & {
  "vsix/type": [{ text: string }, { typed: boolean }];
  "vsix/screenshot": [{ name: string; part?: "sidebar" }, { taken: boolean }];
  "workbench/visible": [{ selector: string }, { visible: boolean }];
  "workbench/clipboard": [Record<string, never>, { text: string }];
  "workbench/keys": [{ text: string }, { typed: boolean }];
  "workbench/type": [{ text: string }, { typed: boolean }];
  "workbench/value": [Record<string, never>, { value: string | null }];
  "vsix/press": [{ selector: string; key: string }, { pressed: boolean }];
  "workbench/squiggles": [Record<string, never>, { lines: number[] }];
};

/** Sends one webview request through the harness and waits (60 s at most) for its answer; rejects with its error. */
export async function webview<M extends keyof BridgeRequests>(method: M, params: BridgeRequests[M][0]): Promise<BridgeRequests[M][1]> {
  const reply = path.join(replies, `${++nextReply}.json`);
  console.log(`SIDEKICKS_WEBVIEW ${JSON.stringify({ method, params, reply })}`);
  const answer = await poll(
    `the harness to answer ${method} ${JSON.stringify(params)}`,
    () => (existsSync(reply) ? (JSON.parse(readFileSync(reply, "utf8")) as { result?: BridgeRequests[M][1]; error?: string }) : undefined),
    60_000,
  );
  if (answer.error !== undefined) throw new Error(`webview ${method}: ${answer.error}`);
  return answer.result!;
}

/**
 * Absolute paths of the shared objects named `file` (`pty.node`, `classic-level.node`) mapped into this process
 * (Linux `/proc/self/maps`): the extension host loads each native module once, from wherever `require` found it.
 */
export function mappedFrom(file: string): string[] {
  const paths = readFileSync("/proc/self/maps", "utf8")
    .split("\n")
    .map((line) => line.split(/\s+/).slice(5).join(" "))
    .filter((p) => path.basename(p) === file);
  return [...new Set(paths)];
}

/** Files under `dir` (recursively) whose bytes contain `text` (UTF-8), as paths relative to `dir`. */
export function filesContaining(dir: string, text: string): string[] {
  const needle = Buffer.from(text, "utf8");
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && readFileSync(full).includes(needle)) found.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return found;
}

/** What phase 1 leaves for phase 2 (after the window reload). */
export interface VsixMarker {
  /** Phase 1's tests that passed (the reloading one included) and failed: its host never reports them. */
  passedBefore: number;
  failedBefore: number;
  /** A word only the request sent in phase 1 contains. */
  token: string;
  /** The history folder that held it. */
  historyDir: string;
}

export function readVsixMarker(): VsixMarker | undefined {
  const file = workspaceFile(".sidekicks-vsix-phase.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as VsixMarker) : undefined;
}

export function writeVsixMarker(marker: VsixMarker): void {
  writeFileSync(workspaceFile(".sidekicks-vsix-phase.json"), JSON.stringify(marker, null, 2));
}
