import { GENERAL } from "../../channels/ChannelDirectory";
import type { Roster } from "../../config/roster";
import type { EventBus } from "../../events/events";
import type { HostEventName, HostEvents } from "../../shared/protocol";
import type { IconUri } from "../EditorPort";
import { withLooks } from "./looks";

/** Where a webview's events go (the bridge's `event`). */
export type WebviewSink = <E extends HostEventName>(name: E, payload: HostEvents[E]) => void;

/**
 * Subscribes a webview sink to the domain events the webview receives, each under its own name (the domain's names are
 * the protocol's): a channel's view gains its members' roster looks, `channels/changed` and `channels/updated` wrap their lists, `agent/state`
 * drops the error, and `store/opened` becomes `channel/reload` of the general channel. Returns an unsubscribe.
 */
export function connectWebview(events: EventBus, roster: () => Roster | undefined, sink: WebviewSink, iconUri?: IconUri): () => void {
  const offs = [
    events.on("config/changed", (p) => sink("config/changed", p)),
    events.on("channel/changed", (p) => sink("channel/changed", withLooks(p, roster(), iconUri))),
    events.on("agent/state", (p) => sink("agent/state", { agent: p.agent, state: p.state, ...(p.waiting ? { waiting: p.waiting } : {}) })),
    events.on("agent/waiting", (p) => sink("agent/state", { agent: p.agent, state: p.state, ...(p.waiting ? { waiting: p.waiting } : {}) })),
    events.on("channels/changed", (channels) => sink("channels/changed", { channels })),
    events.on("channels/updated", (channels) => sink("channels/updated", { channels })),
    events.on("message/started", (p) => sink("message/started", p)),
    events.on("message/delta", (p) => sink("message/delta", p)),
    events.on("message/finished", (p) => sink("message/finished", p)),
    events.on("commands/changed", (p) => sink("commands/changed", p)),
    events.on("session/state", (p) => sink("session/state", p)),
    events.on("store/opened", () => sink("channel/reload", { name: GENERAL })),
    events.on("terminal/output", (p) => sink("terminal/output", p)),
  ];
  return () => offs.forEach((off) => off());
}
