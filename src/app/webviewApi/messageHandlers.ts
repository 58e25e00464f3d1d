import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../../shared/errors";
import type { WebviewRequestHandlers } from "../WebviewBridge";
import { text, type WebviewApiPorts } from "./ports";

type MessageMethods = "message/markdown" | "message/openInEditor" | "message/answerFiles" | "turn/regenerate";

/**
 * The actions on one message (issue 19): its Markdown (the view copies it or quotes it in the composer), the same
 * Markdown in an untitled editor tab, and Regenerate of an agent's answer (`ChannelMessages.regenerate`).
 */
export function messageHandlers(ports: WebviewApiPorts): Pick<WebviewRequestHandlers, MessageMethods> {
  const { history, editor } = ports;
  const markdownOf = async (messageId: string): Promise<{ markdown: string; body: string }> => {
    const found = await history.require().messages.markdown(text(messageId, "message id"));
    if (!found) throw new SidekicksError("channel/notFound", l10n.t("That message is no longer in the history."));
    return found;
  };
  return {
    "message/markdown": async ({ messageId }) => markdownOf(messageId),
    "message/openInEditor": async ({ messageId }) => {
      const { markdown } = await markdownOf(messageId);
      if (!editor.openMarkdown) throw new SidekicksError("editor/cannotOpen", l10n.t("This editor cannot open an editor tab for the message."));
      return { opened: await editor.openMarkdown(markdown) };
    },
    "message/answerFiles": async ({ messageId }) => {
      const answers = await history.require().restore.answersTo(text(messageId, "message id"));
      return { answers: answers.length, undoable: answers.reduce((n, a) => n + a.undoable, 0) };
    },
    "turn/regenerate": async ({ messageId }) => history.require().messages.regenerate(text(messageId, "message id")),
  };
}
