import type { WebviewRequestHandlers } from "../WebviewBridge";
import { text, type WebviewApiPorts } from "./ports";

type DirectoryMethods = "channels/list" | "channel/create" | "channel/rename" | "channel/delete" | "channel/join" | "channel/leave" | "channel/direct" | "channel/read";

/** The channel switcher's requests: the list, create, rename, delete, members, direct conversations, read marks. */
export function directoryHandlers(ports: WebviewApiPorts): Pick<WebviewRequestHandlers, DirectoryMethods> {
  const directory = () => ports.history.require().directory;
  return {
    "channels/list": async () => ({ channels: await directory().list(), agents: ports.agents.names() }),
    "channel/create": async ({ name, description, members }) =>
      directory().create(text(name, "channel name"), {
        description: typeof description === "string" ? description : undefined,
        members: Array.isArray(members) ? members.filter((m): m is string => typeof m === "string") : [],
      }),
    "channel/rename": async ({ id, name }) => directory().rename({ id: text(id, "channel id") }, text(name, "channel name")),
    "channel/delete": async ({ id }) => {
      await directory().delete({ id: text(id, "channel id") });
      return { deleted: true };
    },
    "channel/join": async ({ id, agent }) => directory().join({ id: text(id, "channel id") }, text(agent, "agent")),
    "channel/leave": async ({ id, agent }) => directory().leave({ id: text(id, "channel id") }, text(agent, "agent")),
    "channel/direct": async ({ agent }) => directory().direct(text(agent, "agent")),
    "channel/read": async ({ channelId, messageId }) => ({
      unread: await directory().markRead(text(channelId, "channel id"), text(messageId, "message id")),
    }),
  };
}
