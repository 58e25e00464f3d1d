import * as l10n from "@vscode/l10n";
import { GENERAL } from "../../channels/ChannelDirectory";
import { SidekicksError } from "../../shared/errors";
import { resolveAttachments } from "../attachments";
import { withTypedFiles } from "../typedFiles";
import type { WebviewRequestHandlers } from "../WebviewBridge";
import { withLooks } from "./looks";
import { restoreCounts, restoreEditor } from "./turnHandlers";
import { text, type WebviewApiPorts } from "./ports";

/**
 * A channel's messages as the view asks for them: `channel/open` (the latest page, the members' commands and session
 * states, the roster's state), `channel/older` (paging back) and `channel/send`.
 */
export function historyHandlers(ports: WebviewApiPorts): Pick<WebviewRequestHandlers, "channel/open" | "channel/older" | "channel/send"> {
  const { history } = ports;
  return {
    "channel/open": async ({ name, id }) => {
      const channels = history.require();
      // A channel deleted meanwhile (the view remembered it, or a command deleted it) opens #general instead.
      const target = await channels.directory.resolve(typeof id === "string" ? { id } : { name: name ?? GENERAL }).catch(() => undefined);
      const { channel, messages, more } = await channels.messages.open(target?.name ?? GENERAL);
      ports.shown.id = channel.id;
      const commands = await channels.commands.ofAll(channel.members.map((m) => m.name));
      const sessions = await channels.sessions.sessionStates(channel.id, channel.members.map((m) => m.name));
      return { channel: withLooks(channel, ports.roster.roster, ports.iconUri), messages, config: ports.roster.config, commands, sessions, more };
    },
    "channel/older": async ({ channelId, beforeId, limit }) =>
      history.require().messages.older(text(channelId, "channel id"), text(beforeId, "message id"), typeof limit === "number" ? limit : undefined),
    "channel/send": async ({ channelId, text, editOf, undoAnswers, attachments }) => {
      if (typeof channelId !== "string" || typeof text !== "string" || text.trim() === "") {
        throw new SidekicksError("channel/noRecipient", l10n.t("Nothing to send."));
      }
      // Attachments are read here, as the user sees them now (unsaved edits included), and kept on the message.
      // A path typed after `@` and not accepted from the completion attaches the file it names, as the completion would.
      const roots = ports.workspaceRoots?.() ?? [];
      const typed = await withTypedFiles(text, attachments ?? [], roots);
      if (typed.unmatched.length > 0) ports.editor.log("debug", `@ words that name no workspace file, sent as text: ${typed.unmatched.join(", ")}`);
      const unmatched = typed.unmatched.length > 0 ? { unmatchedPaths: typed.unmatched } : {};
      const kept = await resolveAttachments(typed.attachments, { roots, documents: ports.editor.documents });
      const edited = typeof editOf === "string" ? editOf : undefined;
      // Edit and resend, "undoing the files its answer changed first" (issue 19): the undo asks about conflicts and ends
      // before the new message is admitted, so the new turn starts from the files as they were before the first answer.
      const undone = edited !== undefined && undoAnswers === true ? restoreCounts(await history.require().restore.undoAnswers(edited, restoreEditor(ports.editor))) : undefined;
      const sent = await history.require().messages.send(channelId, text, edited, kept);
      return { ...sent, ...(undone ? { undone } : {}), ...unmatched }; // (the view says which words stayed text)
    },
  };
}
