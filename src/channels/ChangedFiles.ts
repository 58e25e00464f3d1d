import { readFile } from "node:fs/promises";
import type { Store } from "../store/Store";
import { asChangedFiles, turnFilesKey } from "../turns/changedFiles";
import type { TurnFiles } from "../workspace/turnFiles";
import { findMessage } from "./admission";

/** What {@link ChangedFiles} works with. */
export interface ChangedFilesPorts {
  store: Store;
  /** The files changed under each running turn's workspace. */
  files: TurnFiles;
}

/**
 * A turn's "files changed" (issue 7, "File watching"): the editor's watcher and saves feed the running turns' lists
 * (a settled turn's list is kept through the reducer's `filesChanged` input), and the two sides of a file's diff are
 * read back.
 */
export class ChangedFiles {
  constructor(private readonly ports: ChangedFilesPorts) {}

  /**
   * The editor's file watcher saw files change (throttled): each joins the list of every turn running in a workspace
   * that holds it (issue 7, "File watching").
   */
  async filesChanged(events: readonly { path: string; kind: "created" | "changed" | "deleted" }[]): Promise<void> {
    await this.ports.files.changed(events);
  }

  /**
   * The user saved `file` (absolute) in the editor, holding `text`: while it still holds that, it is not listed as the
   * agent's change of the turns running now.
   */
  documentSaved(file: string, text: string): void {
    this.ports.files.saved(file, text);
  }

  /** Resolves once the start-of-turn snapshot of every turn running now is taken (tests: `SidekicksTestApi`). */
  snapshotted(): Promise<void> {
    return this.ports.files.allSnapshotted();
  }

  /**
   * The two sides of a changed file's diff: its text from before the turn of `messageId`, and its text now (`""` once
   * deleted). Undefined when the file is not in that turn's list or its earlier text is not known.
   */
  async fileDiff(messageId: string, file: string): Promise<{ path: string; oldText: string | null; newText: string } | undefined> {
    const message = await findMessage(this.ports.store, messageId);
    if (!message?.turnId) return undefined;
    const kept = asChangedFiles(await this.ports.store.getValue(turnFilesKey(message.turnId))).find((f) => f.path === file);
    if (!kept || kept.before === undefined) return undefined;
    const now = kept.kind === "deleted" ? "" : await readFile(file, "utf8").catch(() => "");
    return { path: file, oldText: kept.before, newText: now };
  }
}
