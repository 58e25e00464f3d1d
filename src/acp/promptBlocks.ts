import * as l10n from "@vscode/l10n";
import type * as acp from "@agentclientprotocol/sdk";
import { baseName, cite, problemsText } from "../shared/attachments";
import type { Attachment } from "../shared/protocol";
import { PROMPT_CONTEXT_URI, type PromptInput } from "./types";

/** What an agent's prompts may hold beyond text and resource links (ACP `PromptCapabilities`). */
export interface PromptCapabilities {
  /** ACP `promptCapabilities.embeddedContext`: embedded `resource` blocks. */
  embeddedContext: boolean;
  /** ACP `promptCapabilities.image`: `image` blocks. */
  image: boolean;
}

/** The blocks of a prompt, and the attachments left out because the agent cannot take them (images). */
export interface PromptPlan {
  blocks: acp.ContentBlock[];
  withheld: Attachment[];
}

/**
 * The ACP content blocks of a prompt (ACP `session/prompt`): the request as a text block; then each attachment as the
 * agent's capabilities allow (every agent takes text and `resource_link`, ACP "Content"):
 * - a file or a selection: a `resource_link` to it always; its text as an embedded `resource` when
 *   `embeddedContext`, else as a text block under its label (a file too large to embed: the link only);
 * - an image: an `image` block when `image`, else left out (`withheld`: the caller tells the user);
 * - problems: a `resource_link` to the file and the problems as text;
 * - a terminal's selected output: a text block under its label (no file to link to);
 * then the context (see {@link PromptInput}) as an embedded resource after it all when the agent accepts those, else as
 * text before the request, in its text block.
 */
export function promptBlocks(input: string | PromptInput, caps: PromptCapabilities): PromptPlan {
  const { text, context, attachments = [] } = typeof input === "string" ? { text: input, context: undefined, attachments: [] } : input;
  const withheld: Attachment[] = [];
  const blocks: acp.ContentBlock[] = [{ type: "text", text: context && !caps.embeddedContext ? context + text : text }];
  for (const a of attachments) {
    if (a.kind === "image") {
      if (caps.image) blocks.push({ type: "image", mimeType: a.mimeType, data: a.data });
      else withheld.push(a);
      continue;
    }
    if (a.kind === "terminal") {
      blocks.push({ type: "text", text: `Terminal output from ${a.name}:\n${fence(a.text)}` });
      continue;
    }
    blocks.push(link(a.path, a.range));
    if (a.kind === "problems") {
      blocks.push({ type: "text", text: `Problems in ${cite(a.path, a.range)}:\n${problemsText(a)}` });
      continue;
    }
    if (a.kind === "file" && a.text === undefined) continue;
    const body = a.text ?? "";
    if (caps.embeddedContext) blocks.push({ type: "resource", resource: { uri: fileUri(a.path, a.range), mimeType: "text/plain", text: body } });
    else blocks.push({ type: "text", text: `${a.kind === "selection" ? "Selection from" : "File"} ${cite(a.path, a.range)}:\n${fence(body)}` });
  }
  if (context && caps.embeddedContext) blocks.push({ type: "resource", resource: { uri: PROMPT_CONTEXT_URI, mimeType: "text/markdown", text: context } });
  return { blocks, withheld };
}

/** ACP `resource_link` to a file (lines in its name: ACP links carry no range). */
function link(path: string, range: { start: number; end: number } | undefined): acp.ContentBlock {
  return { type: "resource_link", uri: fileUri(path), name: cite(baseName(path), range) };
}

/** `file:///w/a.ts`, with `#L10-L20` for a range (the fragment VS Code and GitHub read as lines). */
export function fileUri(path: string, range?: { start: number; end: number }): string {
  const slashed = path.replace(/\\/g, "/");
  const uri = `file://${slashed.startsWith("/") ? "" : "/"}${encodeURI(slashed).replace(/[?#]/g, encodeURIComponent)}`;
  return range ? `${uri}#L${range.start}-L${range.end}` : uri;
}

/** `text` in a Markdown code fence longer than any backtick run inside it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  return `${f}\n${text}${text.endsWith("\n") ? "" : "\n"}${f}`;
}

/** The note on an answer whose prompt left out images the agent does not take (ACP `promptCapabilities.image`). */
export function withheldNote(agent: string, withheld: readonly Attachment[]): string {
  const names = withheld.map((a) => (a.kind === "image" ? a.name : a.kind)).join(", ");
  return l10n.t('Not sent to "{0}": {1}. This agent does not take images in prompts (ACP promptCapabilities.image); describe the image in words, or ask an agent that takes images.', agent, names);
}
