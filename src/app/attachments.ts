import * as l10n from "@vscode/l10n";
import { base64Bytes, cite } from "../shared/attachments";
import { SidekicksError } from "../shared/errors";
import type { Attachment, AttachmentRequest } from "../shared/protocol";
import { ATTACHMENT_TEXT_MAX, IMAGE_MAX_BYTES, IMAGE_TYPES } from "../shared/protocol/requestGuards";
import { Confinement } from "../workspace/confinement";
import { WorkspaceFiles, type DocumentPort } from "../workspace/fsAccess";

/** Where attachments are read: the workspace folders and the editor's open documents. */
export interface AttachmentSources {
  /** The workspace folders (absolute); a path outside them is refused. */
  roots: readonly string[];
  /** The editor's open documents (a file's text as the user sees it, unsaved edits included); absent: the disk. */
  documents?: DocumentPort;
}

/** The first bytes of each image type the view shows (an image whose bytes say otherwise is refused). */
const SIGNATURES: Record<(typeof IMAGE_TYPES)[number], (head: Buffer) => boolean> = {
  "image/png": (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  "image/gif": (h) => h.subarray(0, 4).toString("latin1") === "GIF8",
  "image/webp": (h) => h.subarray(0, 4).toString("latin1") === "RIFF" && h.subarray(8, 12).toString("latin1") === "WEBP",
};

const refuse = (message: string): never => {
  throw new SidekicksError("channel/attachment", message);
};

/**
 * The attachments of a message the webview sends (shapes already checked by `requestGuards.ts`), made what the message
 * keeps (issue 21): every path inside the workspace folders (symbolic links followed), a file's text read as the user
 * sees it (the open document, unsaved edits included, else the disk; lines `range` only, the range ending at the
 * file's last line, refused when it starts after it; a file over
 * {@link ATTACHMENT_TEXT_MAX} characters or with NUL bytes is kept as a link alone, `omitted` saying why), an image of a
 * type agents take whose bytes are of that type, at most {@link IMAGE_MAX_BYTES} decoded.
 * @throws SidekicksError `channel/attachment` naming the attachment and what to do (nothing is sent)
 */
export async function resolveAttachments(requests: readonly AttachmentRequest[], sources: AttachmentSources): Promise<Attachment[]> {
  if (requests.length === 0) return [];
  const needsFolder = requests.some((r) => r.kind !== "image" && r.kind !== "terminal");
  if (needsFolder && sources.roots.length === 0) refuse(l10n.t("Files can be attached only from a workspace folder: open a folder first."));
  const confinement = needsFolder ? await Confinement.create(sources.roots) : undefined;
  const files = confinement ? new WorkspaceFiles({ confinement, documents: sources.documents, maxReadChars: ATTACHMENT_TEXT_MAX }) : undefined;
  const out: Attachment[] = [];
  for (const r of requests) {
    if (r.kind === "image") {
      out.push(checkImage(r));
      continue;
    }
    if (r.kind === "terminal") {
      out.push(r);
      continue;
    }
    const decision = await confinement!.check(r.path);
    if (!decision.allowed) {
      refuse(l10n.t('Cannot attach "{0}": it is outside the workspace folders ({1}). Only files inside the workspace can be attached.', r.path, sources.roots.join(", ")));
      continue;
    }
    const path = decision.path;
    if (r.kind !== "file") {
      out.push({ ...r, path });
      continue;
    }
    if (!decision.exists) refuse(l10n.t('Cannot attach "{0}": no such file.', r.path));
    out.push(await readFile(files!, path, r.range));
  }
  return out;
}

async function readFile(files: WorkspaceFiles, path: string, range: Extract<AttachmentRequest, { kind: "file" }>["range"]): Promise<Attachment> {
  const base = { kind: "file" as const, path, ...(range ? { range } : {}) };
  try {
    const text = await files.readTextFile(path, range ? { line: range.start, limit: range.end - range.start + 1 } : {});
    if (text.includes("\u0000")) return { ...base, omitted: "binary" };
    if (!range) return { ...base, text };
    // Lines past the file's end are not attached as if they were there: none at all is refused, fewer end the range.
    if (text === "") return refuse(l10n.t('Cannot attach "{0}": the file ends before line {1}.', cite(path, range), range.start));
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const end = Math.min(range.end, range.start + lines - 1);
    return { ...base, range: { start: range.start, end }, text };
  } catch (err) {
    if (err instanceof SidekicksError && err.code === "workspace/tooLarge") return { ...base, omitted: "size" };
    if (err instanceof SidekicksError && (err.code === "workspace/notFound" || err.code === "workspace/notRegular")) {
      return refuse(l10n.t('Cannot attach "{0}": {1}', cite(path, range), err.message));
    }
    throw err;
  }
}

function checkImage(r: Extract<AttachmentRequest, { kind: "image" }>): Attachment {
  const type = (IMAGE_TYPES as readonly string[]).includes(r.mimeType) ? (r.mimeType as (typeof IMAGE_TYPES)[number]) : undefined;
  if (!type) return refuse(l10n.t('Cannot attach "{0}": images of type {1} are not taken; attach a PNG, JPEG, GIF or WebP image.', r.name, r.mimeType));
  const bytes = base64Bytes(r.data);
  if (bytes > IMAGE_MAX_BYTES) return refuse(l10n.t('Cannot attach "{0}": the image is {1} MB; at most {2} MB can be sent.', r.name, (bytes / 2 ** 20).toFixed(1), String(IMAGE_MAX_BYTES / 2 ** 20)));
  if (bytes === 0 || !SIGNATURES[type](Buffer.from(r.data.slice(0, 24), "base64"))) {
    return refuse(l10n.t('Cannot attach "{0}": its data is not a {1} image.', r.name, type));
  }
  return { kind: "image", name: r.name, mimeType: type, data: r.data };
}

/**
 * A terminal's selected output as an attachment: line endings made `\n`, trailing blanks of each line (a terminal pads
 * its rows) and blank lines at either end dropped, the name made one line, the text cut to its last
 * {@link ATTACHMENT_TEXT_MAX} characters (the end of an output is where its error is).
 */
export function terminalAttachment(name: string, text: string): Extract<Attachment, { kind: "terminal" }> {
  const lines = text.replace(/\r\n?/g, "\n").split("\n").map((l) => l.replace(/\s+$/, ""));
  const body = lines.join("\n").replace(/^\n+|\n+$/g, "");
  const label = name.replace(/[\u0000-\u001f]/g, " ").trim().slice(0, 256) || "terminal";
  return { kind: "terminal", name: label, text: body.length > ATTACHMENT_TEXT_MAX ? body.slice(-ATTACHMENT_TEXT_MAX) : body };
}
