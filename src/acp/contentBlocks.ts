/**
 * ACP content blocks as the channel shows them (field cases 18 and 19), checked and bounded where they enter: what an
 * agent sends is untrusted JSON, whatever the SDK's types say. A text block stays text; every other kind becomes a
 * {@link ContentBlockView}: an image with its base64 data only when the view can show it within the bound, an embedded
 * text resource as a file (its text verbatim), a blob as a named binary (an image when it is one), audio by its type
 * and size, a resource link by its name and URI. Nothing is ever shown as a base64 dump, `[image]` or `[file:///…]`.
 */
import type { ContentBlockView } from "../shared/protocol";

/** Image types the view shows inline (`<img src="data:…">`: the view's CSP admits `data:` images, and an SVG there runs no script). */
export const SHOWN_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/avif", "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon"]);

/** Largest image kept and shown, in decoded bytes (1 MiB): an answer is rewritten at each checkpoint, image included. */
export const MAX_IMAGE_BYTES = 1024 * 1024;

/** Longest embedded text resource kept, in UTF-16 code units (256 Ki): the rest is left out and said so. */
export const MAX_RESOURCE_TEXT = 256 * 1024;

/** Longest URI, name or description kept (longer ones are cut): a name is a label, not a document. */
const MAX_LABEL = 2_000;

/** What one content block is in an answer: text to append, or a block to show apart. */
export type ContentOf = { text: string } | { block: ContentBlockView };

/**
 * Reads one ACP `ContentBlock`. A block whose kind is unknown, or whose required fields are missing or not text, comes
 * back as text naming its kind (`[unsupported content: video]`) so that nothing the agent sent vanishes without a word.
 */
export function contentOf(raw: unknown): ContentOf {
  const block = record(raw);
  if (!block) return { text: "" };
  switch (block.type) {
    case "text":
      return { text: typeof block.text === "string" ? block.text : "" };
    case "image":
      return { block: imageView(block.mimeType, block.data, text(block.uri)) };
    case "audio": {
      const mimeType = text(block.mimeType) ?? "audio";
      return { block: { kind: "audio", mimeType, bytes: base64Bytes(block.data) ?? 0 } };
    }
    case "resource_link": {
      const uri = text(block.uri);
      if (uri === undefined) return { text: "[resource link without a URI]" };
      const view: Extract<ContentBlockView, { kind: "link" }> = { kind: "link", uri, name: text(block.name) ?? nameOf(uri) };
      const title = text(block.title);
      const description = text(block.description);
      const mimeType = text(block.mimeType);
      if (title !== undefined) view.title = title;
      if (description !== undefined) view.description = description;
      if (mimeType !== undefined) view.mimeType = mimeType;
      if (typeof block.size === "number" && Number.isSafeInteger(block.size) && block.size >= 0) view.size = block.size;
      return { block: view };
    }
    case "resource":
      return resourceView(record(block.resource));
    default:
      return { text: `[unsupported content: ${String(text(block.type) ?? "no type").slice(0, 40)}]` };
  }
}

/** An embedded resource (ACP `EmbeddedResource`): text as a file, a blob as a binary or an image. */
function resourceView(resource: Record<string, unknown> | undefined): ContentOf {
  const uri = resource ? text(resource.uri) : undefined;
  if (!resource || uri === undefined) return { text: "[embedded resource without a URI]" };
  const name = nameOf(uri);
  const mimeType = text(resource.mimeType);
  if (typeof resource.text === "string") {
    const cut = resource.text.length > MAX_RESOURCE_TEXT;
    const view: Extract<ContentBlockView, { kind: "file" }> = { kind: "file", uri, name, text: cut ? resource.text.slice(0, MAX_RESOURCE_TEXT) : resource.text };
    if (mimeType !== undefined) view.mimeType = mimeType;
    if (cut) view.cutChars = resource.text.length - MAX_RESOURCE_TEXT;
    return { block: view };
  }
  if (mimeType?.startsWith("image/")) return { block: { ...imageView(mimeType, resource.blob, uri), name } };
  const view: Extract<ContentBlockView, { kind: "binary" }> = { kind: "binary", uri, name, bytes: base64Bytes(resource.blob) ?? 0 };
  if (mimeType !== undefined) view.mimeType = mimeType;
  return { block: view };
}

/** An image block: its data kept only when its type is shown and its base64 is valid and within {@link MAX_IMAGE_BYTES}. */
function imageView(rawType: unknown, rawData: unknown, uri: string | undefined): Extract<ContentBlockView, { kind: "image" }> {
  const mimeType = (text(rawType) ?? "image").toLowerCase();
  const data = typeof rawData === "string" ? rawData.replace(/\s+/g, "") : "";
  const bytes = base64Bytes(data);
  const view: Extract<ContentBlockView, { kind: "image" }> = { kind: "image", mimeType, bytes: bytes ?? 0 };
  if (uri !== undefined) view.uri = uri;
  if (bytes === undefined || bytes === 0) view.omitted = "data";
  else if (!SHOWN_IMAGE_TYPES.has(mimeType)) view.omitted = "type";
  else if (bytes > MAX_IMAGE_BYTES) view.omitted = "size";
  else view.data = data;
  return view;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded size of standard base64 `value` (whitespace ignored, padding optional), or undefined when it is not base64. */
export function base64Bytes(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const data = /\s/.test(value) ? value.replace(/\s+/g, "") : value;
  if (!BASE64.test(data) || data.length % 4 === 1) return undefined;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  if (padding > 0 && data.length % 4 !== 0) return undefined;
  return Math.floor(((data.length - padding) * 3) / 4);
}

/**
 * The name a URI's last path segment gives (`file:///w/notes%20%5Bdraft%5D.md` → `notes [draft].md`), percent escapes
 * decoded where they are valid; the URI itself when it has no path.
 */
export function nameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, "").replace(/\/+$/, "");
  const last = path.slice(path.lastIndexOf("/") + 1) || uri;
  try {
    return decodeURIComponent(last).slice(0, MAX_LABEL);
  } catch {
    return last.slice(0, MAX_LABEL);
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A non-empty string, cut at {@link MAX_LABEL}; undefined otherwise. */
function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.slice(0, MAX_LABEL) : undefined;
}
