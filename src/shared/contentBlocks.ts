/**
 * Content blocks that are not text (`ContentBlockView`, field cases 18 and 19) in words, for readers that take only
 * text: the channel context given to other agents refers to a block rather than repeating it (an image's base64, a
 * file's whole text), and the view names what it cannot show. Pure; imports only the protocol's types.
 */
import type { ContentBlockView } from "./protocol";

/** A block's one-line description for text-only readers (channel context, logs): `[image: image/png, 12 KB]`. */
export function describeBlock(block: ContentBlockView): string {
  switch (block.kind) {
    case "image":
      return `[image${block.name ? ` ${block.name}` : ""}: ${block.mimeType}, ${size(block.bytes)}]`;
    case "audio":
      return `[audio: ${block.mimeType}, ${size(block.bytes)}]`;
    case "file":
      return `[file ${block.name}: ${block.uri}]`;
    case "binary":
      return `[file ${block.name}: ${block.uri}, ${block.mimeType ?? "binary"}, ${size(block.bytes)}]`;
    case "link":
      return `[${block.name}](${block.uri})`;
  }
}

/** A size in bytes for people: `512 B`, `12 KB`, `1.5 MB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
