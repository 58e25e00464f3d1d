/**
 * Attachments (issue 21) in words, for readers that take only text: the channel context given to other agents names
 * an attachment rather than repeating it (a file's text, an image's base64), and an agent without embedded context
 * reads a file's text under its label. Pure; imports only the protocol's types.
 */
import { size } from "./contentBlocks";
import type { Attachment, AttachmentRequest, LineRange } from "./protocol";

/** `a.ts:10-20` (`a.ts:7` for one line, `a.ts` without a range): a file as people cite it. */
export function cite(path: string, range?: LineRange): string {
  if (!range) return path;
  return range.start === range.end ? `${path}:${range.start}` : `${path}:${range.start}-${range.end}`;
}

/** The last segment of a path, `/` or `\` separated. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/** Decoded size in bytes of base64 `data`. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

/**
 * One line naming an attachment, never its contents: `[attached selection: /w/a.ts:10-20]`,
 * `[attached image shot.png: image/png, 12 KB]`, `[attached problems of /w/b.ts: 3]`, `[attached terminal output from bash: 12 lines]`.
 */
export function describeAttachment(a: Attachment): string {
  switch (a.kind) {
    case "file":
      return `[attached file: ${cite(a.path, a.range)}]`;
    case "selection":
      return `[attached selection: ${cite(a.path, a.range)}]`;
    case "image":
      return `[attached image ${a.name}: ${a.mimeType}, ${size(base64Bytes(a.data))}]`;
    case "problems":
      return `[attached problems of ${cite(a.path, a.range)}: ${a.problems.length}]`;
    case "terminal":
      return `[attached terminal output from ${a.name}: ${a.text.split("\n").length} lines]`;
  }
}

/** The problems of a `problems` attachment as text, one per line: `a.ts:12 error ts(2304): Cannot find name 'x'.` */
export function problemsText(a: Extract<Attachment, { kind: "problems" }>): string {
  return a.problems
    .map((p) => `${cite(a.path, p.range)} ${p.severity}${p.source ? ` ${p.source}${p.code ? `(${p.code})` : ""}` : ""}: ${p.message}`)
    .join("\n");
}

/** A chip's short label: a file's last segment with its lines (problems: the file they are in), an image's name. */
export function chipLabel(a: Attachment | AttachmentRequest): string {
  switch (a.kind) {
    case "file":
    case "selection":
    case "problems":
      return cite(baseName(a.path), a.range);
    case "image":
      return a.name;
    case "terminal":
      return a.name;
  }
}
