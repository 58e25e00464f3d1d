/** The app without an editor, for the tests of `SidekicksApp` (its requests and events as a webview sees them). */
import path from "node:path";
import { createSidekicks } from "../../src/app/compose";
import type { EditorPort, SidekicksApp } from "../../src/app/SidekicksApp";

/** An editor that trusts the workspace and ignores commands, logs and problems. */
export const quietEditor: EditorPort = { isTrusted: () => true, runCommand: async () => undefined, log: () => undefined, showProblems: () => undefined };

/**
 * `createSidekicks` over the roster `configPath`, with its store in `<dir>/store` and agents started in
 * `workspaceFolder` (default `dir`; the repository when agents run through `--import tsx`).
 */
export function createTestApp(dir: string, configPath: string, workspaceFolder = dir): Promise<SidekicksApp> {
  return createSidekicks({
    configPath,
    storageDir: path.join(dir, "store"),
    editor: quietEditor,
    launch: { workspaceFolder, nodePath: process.execPath, demoAgentPath: "", env: process.env },
  });
}
