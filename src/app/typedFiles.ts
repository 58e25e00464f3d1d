/**
 * A path typed after `@` and not accepted from the completion (issue 21): `@src/a.ts:10-20` in the text of a message is
 * the same as the file chosen in the list, when the host finds that file in the workspace. The text comes from the
 * webview, so what it names is checked here as any attached path is (inside the workspace folders, symbolic links
 * followed: `Confinement`), and only a regular file that exists is attached; a word that names none stays text.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseFileMention } from "../shared/fileMentions";
import { findTypedPaths } from "../shared/mentions";
import type { AttachmentRequest } from "../shared/protocol";
import { MAX_ATTACHMENTS } from "../shared/protocol/requestGuards";
import { Confinement } from "../workspace/confinement";

/** Most typed paths of one message looked up (each costs a few file system calls). */
const MAX_TYPED_PATHS = 50;

/** What the typed paths of a message came to: files to attach, and the words that name no file (left as text). */
export interface TypedFiles {
  /** `attached` with the files the typed paths name added (once each, after the chips; at most `MAX_ATTACHMENTS`). */
  attachments: AttachmentRequest[];
  /** The typed paths (as written) that name no file of the workspace. */
  unmatched: string[];
}

/**
 * The files that the `@path` words of `text` name ({@link findTypedPaths}), added to the chips already `attached` as a
 * file attachment each (its line range kept): a relative path is looked up in each workspace folder in turn, an
 * absolute one as it is; the first that is a regular file inside the workspace (`Confinement`) is taken. A file already
 * attached with the same lines is not added again. Without workspace folders nothing is looked up.
 */
export async function withTypedFiles(text: string, attached: readonly AttachmentRequest[], roots: readonly string[]): Promise<TypedFiles> {
  const typed = [...new Set(findTypedPaths(text).map((t) => t.path))].slice(0, MAX_TYPED_PATHS);
  if (typed.length === 0) return { attachments: [...attached], unmatched: [] };
  if (roots.length === 0) return { attachments: [...attached], unmatched: typed };
  const confinement = await Confinement.create(roots);
  const attachments = [...attached];
  const unmatched: string[] = [];
  for (const word of typed) {
    const { query, range } = parseFileMention(word);
    const file = await findFile(confinement, query, roots);
    if (!file) {
      unmatched.push(word);
      continue;
    }
    const request: AttachmentRequest = { kind: "file", path: file, ...(range ? { range } : {}) };
    const same = attachments.some((a) => a.kind === "file" && path.resolve(a.path) === file && a.range?.start === range?.start && a.range?.end === range?.end);
    if (!same && attachments.length < MAX_ATTACHMENTS) attachments.push(request);
  }
  return { attachments, unmatched };
}

/** The absolute path of the regular file `query` names inside the workspace, or undefined. */
async function findFile(confinement: Confinement, query: string, roots: readonly string[]): Promise<string | undefined> {
  const candidates = path.isAbsolute(query) ? [query] : roots.map((root) => path.resolve(root, query));
  for (const candidate of candidates) {
    const decision = await confinement.check(candidate);
    if (!decision.allowed || !decision.exists) continue;
    const stat = await fs.stat(decision.realPath).catch(() => undefined);
    if (stat?.isFile()) return decision.path;
  }
  return undefined;
}
