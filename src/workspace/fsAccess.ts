/**
 * ACP file access (`fs/read_text_file`, `fs/write_text_file`; https://agentclientprotocol.com/protocol/file-system)
 * through the editor: a read returns the unsaved editor buffer when the file is open, else the file on disk; a write
 * goes through the editor when the file is open (so the editor shows it and undo works), else to disk. Every path is
 * confined to the agent's workspace roots first (confinement.ts), and a file on disk is opened only as a regular file,
 * never through a symbolic link swapped in after that check, and read within a size limit (regularFile.ts). The editor
 * is reached through `DocumentPort`, so nothing here imports `vscode`.
 */
import path from "node:path";
import { SidekicksError } from "../shared/errors";
import type { Confinement } from "./confinement";
import { makeFolders, MAX_READ_CHARS, openRegular, readLines, tooLarge } from "./regularFile";

/** The editor's open documents, as file access needs them. Implemented in src/vscode/ over `workspace.textDocuments`. */
export interface DocumentPort {
  /**
   * The full text of the open document for the absolute file `path`, unsaved changes included; `undefined` when the
   * file is not open in the editor.
   */
  openText(path: string): string | undefined;
  /**
   * Replaces the whole text of the open document for `path` with `content` through a `WorkspaceEdit` (undoable,
   * shown at once). Whether it then saves is the implementation's choice (saving lets programs the agent runs see
   * the change). Only called when `openText(path)` returned a string.
   * @returns `false` when the editor did not apply the edit
   */
  applyEdit(path: string, content: string): Promise<boolean>;
  /** Whether the open document for `path` holds unsaved edits; absent: not known (compare {@link openText} with the disk). */
  isDirty?(path: string): boolean;
}

/** ACP `ReadTextFileRequest`'s range. */
export interface ReadRange {
  /** First line to return, 1-based; default 1. Values below 1 are read as 1. */
  line?: number | null;
  /** Most lines to return; default all. 0 returns "". */
  limit?: number | null;
}

/** What a write did, for the tool intent record and the per-turn changed-files list. */
export interface WriteResult {
  /** `editor`: applied to the open document; `disk`: written to the file. */
  via: "editor" | "disk";
  /** The path as the agent named it, normalized (absolute, on this machine). */
  path: string;
  /** Where the bytes went (symlinks resolved). */
  realPath: string;
  /** True when the file did not exist before. */
  created: boolean;
}

/** Options of {@link WorkspaceFiles}. */
export interface WorkspaceFilesOptions {
  confinement: Confinement;
  /** The editor; without it, reads and writes use the disk only. */
  documents?: DocumentPort;
  /**
   * Maps an agent's path to a host path before anything else (container runtimes: `ContainerPaths.toHost`; it
   * throws `workspace/outside` for a path no mount holds). Default: identity.
   */
  toHost?: (agentPath: string) => string;
  /** Most characters one read returns; default {@link MAX_READ_CHARS}. */
  maxReadChars?: number;
}

/**
 * Lines `line` … `line + limit - 1` (1-based) of `text`, line ends kept (`\n` or `\r\n`).
 * @param line first line, 1-based; below 1 reads as 1; past the end gives ""
 * @param limit most lines; undefined: to the end
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  const first = Math.max(1, Math.floor(line ?? 1));
  if (limit !== undefined && limit !== null && limit <= 0) return "";
  let start = 0;
  for (let n = 1; n < first; n++) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) return "";
    start = nl + 1;
  }
  if (limit === undefined || limit === null) return text.slice(start);
  let end = start;
  for (let n = 0; n < Math.floor(limit); n++) {
    const nl = text.indexOf("\n", end);
    if (nl < 0) return text.slice(start);
    end = nl + 1;
  }
  return text.slice(start, end);
}

/** An agent's confined view of the workspace files. */
export class WorkspaceFiles {
  private readonly maxReadChars: number;
  /** Whether a real path lies inside the agent's roots (what an opened file is checked against). */
  private readonly inside: (realPath: string) => boolean;

  constructor(private readonly options: WorkspaceFilesOptions) {
    this.maxReadChars = options.maxReadChars ?? MAX_READ_CHARS;
    this.inside = (realPath) => options.confinement.contains(realPath);
  }

  private async allowed(agentPath: string) {
    const hostPath = this.options.toHost ? this.options.toHost(agentPath) : agentPath;
    return this.options.confinement.assert(hostPath);
  }

  private openText(p: string, real: string): { key: string; text: string } | undefined {
    const docs = this.options.documents;
    if (!docs) return undefined;
    for (const key of p === real ? [p] : [p, real]) {
      const text = docs.openText(key);
      if (text !== undefined) return { key, text };
    }
    return undefined;
  }

  /**
   * ACP `fs/read_text_file`: the editor's buffer when the file is open (unsaved changes included), else the file on
   * disk (UTF-8), then lines `line` … `line + limit - 1`.
   * @param agentPath absolute path as the agent sent it
   * @returns the text (line ends kept)
   * @throws SidekicksError `workspace/outside` (confinement, or a symbolic link swapped in), `workspace/notFound` (no
   *   such file, or a folder), `workspace/notRegular` (a FIFO, socket or device: regularFile.ts),
   *   `workspace/tooLarge` (more than `maxReadChars` characters asked for)
   */
  async readTextFile(agentPath: string, range: ReadRange = {}): Promise<string> {
    const d = await this.allowed(agentPath);
    const open = this.openText(d.path, d.realPath);
    if (open) {
      const text = sliceLines(open.text, range.line, range.limit);
      if (text.length > this.maxReadChars) throw tooLarge(agentPath, Math.max(1, Math.floor(range.line ?? 1)), range.limit, this.maxReadChars);
      return text;
    }
    const { handle, stat } = await openRegular(d.realPath, agentPath, "read", this.inside);
    try {
      return await readLines(handle, stat.size, agentPath, range.line, range.limit, this.maxReadChars);
    } finally {
      await handle.close();
    }
  }

  /**
   * ACP `fs/write_text_file`: through the editor when the file is open there, else to disk (parent folders created).
   * @param agentPath absolute path as the agent sent it
   * @param content the whole new text
   * @throws SidekicksError `workspace/outside` (confinement, or a symbolic link swapped in before the open),
   *   `workspace/writeFailed` (the editor refused the edit, or the path is a folder), `workspace/notRegular` (a FIFO,
   *   socket or device); file system errors (EACCES…) as they are
   */
  async writeTextFile(agentPath: string, content: string): Promise<WriteResult> {
    const d = await this.allowed(agentPath);
    const open = this.openText(d.path, d.realPath);
    if (open) {
      const applied = await this.options.documents!.applyEdit(open.key, content);
      if (!applied) throw new SidekicksError("workspace/writeFailed", `The editor did not apply the change to "${agentPath}" (is the document read-only?).`);
      return { via: "editor", path: d.path, realPath: d.realPath, created: false };
    }
    await makeFolders(path.dirname(d.realPath), agentPath, this.inside);
    const { handle, created } = await openRegular(d.realPath, agentPath, "write", this.inside);
    try {
      await handle.truncate(0);
      await handle.writeFile(content, "utf8");
    } finally {
      await handle.close();
    }
    return { via: "disk", path: d.path, realPath: d.realPath, created: created || !d.exists };
  }
}
