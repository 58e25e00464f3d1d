/**
 * A content block of an answer or a tool call that is not text (field cases 18 and 19): an image shown within bounds
 * (a click shows it whole), an embedded file as a named, highlighted code block, a binary or an audio clip by name,
 * type and size, a resource link that opens through the host's link rule. Never `[image]`, never a base64 dump.
 */
import * as l10n from "@vscode/l10n";
import { useContext, useState } from "preact/hooks";
import type { ContentBlockView } from "../../src/shared/protocol";
import { size } from "../../src/shared/contentBlocks";
import { showBidiControls } from "../ansi";
import { EditorContext } from "../editorActions";
import { LANGUAGE_ALIASES } from "../highlight";
import { Markdown } from "./Markdown";

/** One block; `streaming` as for a text part (a file block's code is highlighted once it is final). */
export function ContentBlock({ block, streaming }: { block: ContentBlockView; streaming: boolean }) {
  switch (block.kind) {
    case "image":
      return <ImageBlock block={block} />;
    case "file":
      return <FileBlock block={block} streaming={streaming} />;
    case "binary":
      return (
        <div class="content-block content-binary" data-kind="binary">
          <FileName uri={block.uri} name={block.name} />
          <span class="content-meta">{`${block.mimeType ?? l10n.t("binary")}, ${size(block.bytes)}`}</span>
        </div>
      );
    case "audio":
      return (
        <div class="content-block content-audio" data-kind="audio">
          <span class="codicon codicon-unmute" aria-hidden="true" />
          <span class="content-meta">{l10n.t("Audio ({0}, {1}), not played here", block.mimeType, size(block.bytes))}</span>
        </div>
      );
    case "link":
      return (
        <div class="content-block content-link" data-kind="link" data-uri={block.uri}>
          <FileName uri={block.uri} name={block.title ?? block.name} />
          {block.description && <span class="content-meta">{showBidiControls(block.description)}</span>}
        </div>
      );
  }
}

/** An image: bounded in the flow, whole on click (and Escape or a second click to bound it again). */
function ImageBlock({ block }: { block: Extract<ContentBlockView, { kind: "image" }> }) {
  const [whole, setWhole] = useState(false);
  const label = block.name ? `${block.name} (${block.mimeType}, ${size(block.bytes)})` : l10n.t("Image ({0}, {1})", block.mimeType, size(block.bytes));
  if (block.data === undefined) {
    const why =
      block.omitted === "type"
        ? l10n.t("Image of type {0} ({1}): this view does not show that type.", block.mimeType, size(block.bytes))
        : block.omitted === "size"
          ? l10n.t("Image ({0}, {1}): too large to keep in the channel.", block.mimeType, size(block.bytes))
          : l10n.t("Image ({0}): the agent sent no readable image data.", block.mimeType);
    return (
      <div class="content-block content-image-missing" data-kind="image" data-omitted={block.omitted}>
        <span class="codicon codicon-file-media" aria-hidden="true" />
        {block.uri ? <FileName uri={block.uri} name={block.name ?? block.uri} /> : null}
        <span class="content-meta">{why}</span>
      </div>
    );
  }
  return (
    <figure class="content-block content-image" data-kind="image" data-whole={whole ? "true" : undefined}>
      <button
        type="button"
        class="content-image-toggle"
        aria-expanded={whole}
        title={whole ? l10n.t("Show smaller") : l10n.t("Show whole image")}
        onClick={() => setWhole(!whole)}
        onKeyDown={(e) => e.key === "Escape" && whole && setWhole(false)}
      >
        <img src={`data:${block.mimeType};base64,${block.data}`} alt={label} />
      </button>
      <figcaption class="content-meta">{block.uri ? <FileName uri={block.uri} name={block.name ?? label} /> : label}</figcaption>
    </figure>
  );
}

/** An embedded text resource: its name (which opens the file), then its text verbatim in a fenced, highlighted block. */
function FileBlock({ block, streaming }: { block: Extract<ContentBlockView, { kind: "file" }>; streaming: boolean }) {
  return (
    <div class="content-block content-file" data-kind="file" data-uri={block.uri}>
      <div class="content-file-header">
        <FileName uri={block.uri} name={block.name} />
        {block.mimeType && <span class="content-meta">{block.mimeType}</span>}
      </div>
      <Markdown text={fenced(block.text, languageOf(block.name, block.mimeType))} streaming={streaming} />
      {block.cutChars !== undefined && <div class="content-meta">{l10n.t("… {0} more characters not kept", block.cutChars.toLocaleString())}</div>}
    </div>
  );
}

/** A name that opens `uri` through the host (its link rule decides; a refusal says why: `ActionNote`). */
function FileName({ uri, name }: { uri: string; name: string }) {
  const editor = useContext(EditorContext);
  return (
    <button type="button" class="content-name" title={l10n.t("Open {0}", uri)} onClick={() => void editor.openLink(uri)}>
      {showBidiControls(name)}
    </button>
  );
}

/** `text` as a fenced Markdown code block: the fence is longer than any run of backticks in it, so nothing escapes. */
export function fenced(text: string, language: string): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}${text.endsWith("\n") ? "" : "\n"}${fence}\n`;
}

/** Common text types that do not end in a fence name (`text/x-python` → `python`). */
const MIME_LANGUAGES: Readonly<Record<string, string>> = {
  "text/x-python": "python", "text/javascript": "javascript", "application/javascript": "javascript", "application/json": "json",
  "text/x-typescript": "typescript", "application/typescript": "typescript", "text/x-rust": "rust", "text/x-go": "go",
  "text/x-java": "java", "text/x-c": "c", "text/x-c++": "cpp", "text/x-sh": "bash", "application/x-sh": "bash",
  "text/markdown": "markdown", "text/html": "html", "application/xml": "xml", "text/xml": "xml", "text/yaml": "yaml",
  "application/yaml": "yaml", "text/css": "css", "text/x-ruby": "ruby", "text/x-sql": "sql",
};

/** The fence name a file's extension (or else its type) gives, or "" for plain text. */
export function languageOf(name: string, mimeType: string | undefined): string {
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : name.toLowerCase();
  if (ext in LANGUAGE_ALIASES) return ext;
  const fromType = mimeType ? MIME_LANGUAGES[mimeType.toLowerCase()] : undefined;
  return fromType ?? "";
}
