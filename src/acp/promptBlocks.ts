import type * as acp from "@agentclientprotocol/sdk";
import { PROMPT_CONTEXT_URI, type PromptInput } from "./types";

/**
 * The ACP content blocks of a prompt (ACP `session/prompt`): the request as a text block; its context (see
 * {@link PromptInput}) as an embedded resource after it when the agent accepts those, else as text before the request.
 * @param embeddedContext the agent's `promptCapabilities.embeddedContext`
 */
export function promptBlocks(input: string | PromptInput, embeddedContext: boolean): acp.ContentBlock[] {
  const { text, context } = typeof input === "string" ? { text: input, context: undefined } : input;
  if (!context) return [{ type: "text", text }];
  if (!embeddedContext) return [{ type: "text", text: context + text }];
  return [
    { type: "text", text },
    { type: "resource", resource: { uri: PROMPT_CONTEXT_URI, mimeType: "text/markdown", text: context } },
  ];
}
