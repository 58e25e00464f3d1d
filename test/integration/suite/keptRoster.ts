/**
 * The test workspace's roster, replaced by a `describe` block and put back after it: registers a `before` hook that
 * activates the extension (its test API) and reads `sidekicks.yaml`, and an `after` hook that writes it back. Call it
 * first in the block, so its `before` runs before the block's own.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";

/** What {@link keptRoster} gives: valid once its `before` hook ran. */
export interface KeptRoster<Api> {
  /** The extension's test API. */
  readonly api: Api;
  /** The extension's own folder (the fake agent fixture is inside it). */
  readonly extensionPath: string;
  /** `sidekicks.yaml` of the first workspace folder. */
  readonly uri: vscode.Uri;
  /** Replaces the roster with `lines`, joined with newlines. */
  write(lines: readonly string[]): Promise<void>;
}

/** Keeps the roster for the enclosing `describe` (see the module comment). */
export function keptRoster<Api>(): KeptRoster<Api> {
  let api: Api | undefined;
  let extensionPath = "";
  let uri: vscode.Uri | undefined;
  let original: string | undefined;
  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: Api }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing;
    assert.ok(api, "the extension exports no test API");
    extensionPath = extension.extensionPath;
    uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    original = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  });
  after(async () => {
    if (original !== undefined && uri) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(original));
  });
  return {
    get api() {
      return api!;
    },
    get extensionPath() {
      return extensionPath;
    },
    get uri() {
      return uri!;
    },
    write: async (lines) => vscode.workspace.fs.writeFile(uri!, new TextEncoder().encode(lines.join("\n"))),
  };
}
