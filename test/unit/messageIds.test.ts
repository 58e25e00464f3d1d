/**
 * ACP `messageId` on message and thought chunks (field case 26; issue 15, item 5): "A change in `messageId` indicates
 * a new message has started." Claude Code sends an informational notice as a chunk without `messageId` right after
 * an answer with one; joined, a link's address ran into the notice ("…billingHere"). The stored answer, the deltas,
 * the webview bridge and the webview's own draft logic (`webview/messageDrafts.ts`) must keep such messages apart.
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { AgentUpdate } from "../../src/acp/types";
import { DELTA_FLUSH_MS, WebviewBridge } from "../../src/app/WebviewBridge";
import { PROTOCOL_VERSION, type HostEvents, type HostToWebview, type MessageView } from "../../src/shared/protocol";
import type { MessageRecord } from "../../src/store/records";
import { applyUpdate } from "../../src/turns/answer";
import { TextCoalescer } from "../../src/turns/TextCoalescer";
import { applyDelta, materialize, type Draft } from "../../webview/messageDrafts";
import { stubHandlers } from "./helpers";

const empty = (): MessageRecord => ({ version: 1, id: "M1", channelId: "C1", author: { kind: "agent", agentName: "claude" }, parts: [], createdAt: 1 });
const text = (t: string, messageId?: string): AgentUpdate => ({ kind: "text", text: t, ...(messageId ? { messageId } : {}) });
const thought = (t: string, messageId?: string): AgentUpdate => ({ kind: "thought", text: t, ...(messageId ? { messageId } : {}) });

function apply(...updates: AgentUpdate[]) {
  let message = empty();
  const deltas: NonNullable<ReturnType<typeof applyUpdate>["delta"]>[] = [];
  for (const update of updates) {
    const applied = applyUpdate(Object.freeze(message), update);
    message = applied.message;
    if (applied.delta) deltas.push(applied.delta);
  }
  return { message, deltas };
}

const LINK = "See [the billing page](https://example.com/billing)";
const NOTICE = "Here is a notice from the agent.";

test("a notice without messageId after a message with one is a new text part, not glued to the link", () => {
  const { message } = apply(text("See [the billing ", "m1"), text("page](https://example.com/billing)", "m1"), text(NOTICE));
  assert.deepEqual(message.parts, [
    { type: "text", text: LINK, messageId: "m1" },
    { type: "text", text: NOTICE },
  ]);
});

test("a change of messageId starts a new part; the same id (or none twice) coalesces", () => {
  const { message } = apply(text("a", "m1"), text("b", "m1"), text("c", "m2"), text("d"), text("e"), text("f", "m2"));
  assert.deepEqual(
    message.parts.map((p) => (p.type === "text" ? p.text : p.type)),
    ["ab", "c", "de", "f"],
  );
});

test("thoughts of different ACP messages stay apart too", () => {
  const { message } = apply(thought("first ", "t1"), thought("idea", "t1"), thought("second", "t2"));
  assert.deepEqual(message.parts, [
    { type: "thought", text: "first idea", messageId: "t1" },
    { type: "thought", text: "second", messageId: "t2" },
  ]);
});

test("the webview, fed the deltas through the bridge, shows the same separate parts as the stored answer", async () => {
  const updates = [text("See [the billing ", "m1"), text("page](https://example.com/billing)", "m1"), text(NOTICE), thought("a", "t1"), thought("b", "t2"), text("x", "m3"), text("y", "m4")];
  const { message, deltas } = apply(...updates);
  const posted: HostToWebview[] = [];
  const bridge = new WebviewBridge((m) => posted.push(m), stubHandlers());
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  for (const delta of deltas) bridge.event("message/delta", { channelId: "C1", messageId: "M1", ...delta });
  await new Promise((resolve) => setTimeout(resolve, DELTA_FLUSH_MS * 3));
  const received = posted.flatMap((m) => (m.kind === "event" && m.name === "message/delta" ? [m.payload as HostEvents["message/delta"]] : []));

  const view: MessageView = { id: "M1", channelId: "C1", author: { kind: "agent", agentName: "claude" }, parts: [], createdAt: 1, status: "streaming" };
  const messages = [view];
  const drafts = new Map<string, Draft>();
  for (const delta of received) applyDelta(messages, drafts, delta);
  for (const draft of drafts.values()) materialize(messages, draft);
  const shown = messages[0]!.parts.map((p) => (p.type === "text" || p.type === "thought" ? `${p.type}:${p.text}` : p.type));
  assert.deepEqual(shown, message.parts.map((p) => (p.type === "text" || p.type === "thought" ? `${p.type}:${p.text}` : p.type)));
  assert.deepEqual(shown, [`text:${LINK}`, `text:${NOTICE}`, "thought:a", "thought:b", "text:x", "text:y"]);
  bridge.dispose();
});

test("the executor's text coalescer never joins chunks of two ACP messages, even in one read", async () => {
  const emitted: AgentUpdate[] = [];
  const coalescer = new TextCoalescer((u) => emitted.push(u));
  coalescer.add({ kind: "text", text: "a", messageId: "m1" });
  coalescer.add({ kind: "text", text: "b", messageId: "m1" });
  coalescer.add({ kind: "text", text: "c" });
  coalescer.add({ kind: "text", text: "d" });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(emitted, [
    { kind: "text", text: "ab", messageId: "m1" },
    { kind: "text", text: "cd" },
  ]);
});

test("an agent's notice is one part, replaced by the next, in the stored answer and in the webview alike", async () => {
  const notice = (text: string, retrying: boolean): AgentUpdate => ({ kind: "notice", text, retrying });
  const { message, deltas } = apply(notice("Reconnecting... 1/5", true), notice("Reconnecting... 2/5", true), text("Back."));
  assert.deepEqual(message.parts, [{ type: "notice", text: "Reconnecting... 2/5", retrying: true }, { type: "text", text: "Back." }]);
  const view: MessageView = { id: "M1", channelId: "C1", author: { kind: "agent", agentName: "codex" }, parts: [], createdAt: 1, status: "streaming" };
  const messages = [view];
  const drafts = new Map<string, Draft>();
  for (const delta of deltas) applyDelta(messages, drafts, { channelId: "C1", messageId: "M1", ...delta });
  for (const draft of drafts.values()) materialize(messages, draft);
  assert.deepEqual(messages[0]!.parts, message.parts);
});
