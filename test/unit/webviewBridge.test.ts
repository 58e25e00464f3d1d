import { test } from "node:test";
import assert from "node:assert/strict";
import { DELTA_FLUSH_MS, WebviewBridge, type WebviewRequestHandlers } from "../../src/app/WebviewBridge";
import { SidekicksError } from "../../src/shared/errors";
import { PROTOCOL_VERSION, type HostToWebview, type MessageView, type Part } from "../../src/shared/protocol";
import { stubHandlers } from "./helpers";

const handlers = (overrides: Partial<WebviewRequestHandlers> = {}): WebviewRequestHandlers =>
  stubHandlers({
    "channel/send": async ({ text }) => {
      if (text.startsWith("@nobody")) throw new SidekicksError("channel/unknownMember", "No member named @nobody.");
      return { messageId: "m1" };
    },
    "permission/answer": async () => ({ accepted: true }),
    "turn/cancel": async () => ({ cancelled: true }),
    "command/run": async () => ({ done: true }),
    ...overrides,
  });

const setup = () => {
  const posted: HostToWebview[] = [];
  const bridge = new WebviewBridge((m) => posted.push(m), handlers());
  return { posted, bridge };
};
const tick = (ms = DELTA_FLUSH_MS * 2) => new Promise((r) => setTimeout(r, ms));

test("nothing is posted before the webview says ready; a wrong protocol version makes it reload", () => {
  const { posted, bridge } = setup();
  bridge.event("config/changed", { state: "ok", path: "/x", problems: [] });
  assert.deepEqual(posted, []);
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION + 1 });
  assert.deepEqual(posted, [{ kind: "reload" }]);
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  bridge.event("config/changed", { state: "ok", path: "/x", problems: [] });
  assert.equal(posted.length, 2);
});

test("every request gets exactly one response, with the domain error's code and message when it fails", async () => {
  const { posted, bridge } = setup();
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  bridge.receive({ kind: "request", id: 1, method: "channel/send", params: { channelId: "c", text: "@demo hi" } });
  bridge.receive({ kind: "request", id: 2, method: "channel/send", params: { channelId: "c", text: "@nobody hi" } });
  await tick(5);
  assert.deepEqual(posted, [
    { kind: "response", id: 1, result: { messageId: "m1" } },
    { kind: "response", id: 2, error: { code: "channel/unknownMember", message: "No member named @nobody.", detail: undefined } },
  ]);
});

test("malformed or unknown messages from the webview are dropped and logged, never answered twice", () => {
  const logs: string[] = [];
  const posted: HostToWebview[] = [];
  const bridge = new WebviewBridge((m) => posted.push(m), handlers(), undefined, (l) => logs.push(l));
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  bridge.receive("hello");
  bridge.receive({ kind: "request", id: 3, method: "fs/delete", params: {} });
  assert.equal(posted.length, 0);
  assert.equal(logs.length, 2);
});

test("a burst of text deltas becomes one post per frame, in order with other events", async () => {
  const { posted, bridge } = setup();
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  for (let i = 0; i < 500; i++) bridge.event("message/delta", { channelId: "c", messageId: "m", appendText: `${i},` });
  bridge.event("message/delta", { channelId: "c", messageId: "m", part: { type: "toolCall", toolCallId: "t", title: "x", status: "pending" } });
  bridge.event("message/delta", { channelId: "c", messageId: "m", part: { type: "toolCall", toolCallId: "t", title: "x", status: "completed" } });
  bridge.event("message/finished", { id: "m", channelId: "c", author: { kind: "agent", agentName: "a" }, parts: [], createdAt: 0, status: "done" });
  await tick();
  assert.equal(posted.length, 3);
  const [text, tool, finished] = posted as Extract<HostToWebview, { kind: "event" }>[];
  assert.equal(text!.name, "message/delta");
  assert.equal((text!.payload as { appendText: string }).appendText, Array.from({ length: 500 }, (_, i) => `${i},`).join(""));
  assert.equal((tool!.payload as { part: { status: string } }).part.status, "completed");
  assert.equal(finished!.name, "message/finished");
});

test("host requests to the webview resolve with its answer and fail when the view goes away", async () => {
  const { posted, bridge } = setup();
  await assert.rejects(bridge.request("test/text", { selector: "body" }), /not loaded yet/);
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  const answer = bridge.request("test/text", { selector: "body" });
  const sent = posted[0] as { id: number };
  bridge.receive({ kind: "response", id: sent.id, result: { text: "hello" } });
  assert.deepEqual(await answer, { text: "hello" });
  const orphan = bridge.request("test/text", { selector: "body" });
  bridge.dispose();
  await assert.rejects(orphan, /view was closed/);
});

test("a committed answer does not carry again the text the webview saw stream; it does when the webview missed some", async () => {
  const { posted, bridge } = setup();
  const message = (text: string, status: "streaming" | "done"): MessageView => ({ id: "m", channelId: "c", author: { kind: "agent", agentName: "a" }, parts: [{ type: "text", text }], createdAt: 0, status });
  const tool: Part = { type: "toolCall", toolCallId: "t", title: "read", status: "completed" };
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  bridge.event("message/started", message("Sta", "streaming"));
  bridge.event("message/delta", { channelId: "c", messageId: "m", appendText: "rting. " });
  bridge.event("message/delta", { channelId: "c", messageId: "m", part: tool });
  bridge.event("message/delta", { channelId: "c", messageId: "m", appendText: "Done." });
  bridge.event("message/finished", { ...message("Starting. ", "done"), parts: [{ type: "text", text: "Starting. " }, tool, { type: "text", text: "Done." }] });
  await tick();
  const finished = posted.at(-1) as Extract<HostToWebview, { kind: "event"; name: "message/finished" }>;
  assert.equal(finished.name, "message/finished");
  assert.deepEqual(finished.payload.parts, [{ type: "text", text: "" }, tool, { type: "text", text: "" }], "the text parts are left out");
  assert.deepEqual(finished.payload.streamedText, [10, 5], "with their lengths, for the webview to check");

  // The webview reloads in the middle of the next answer: it gets that answer's text from channel/open, so the
  // committed message carries its whole text.
  bridge.event("message/started", message("", "streaming"));
  bridge.event("message/delta", { channelId: "c", messageId: "m", appendText: "half " });
  bridge.reset();
  bridge.receive({ kind: "ready", protocolVersion: PROTOCOL_VERSION });
  bridge.event("message/delta", { channelId: "c", messageId: "m", appendText: "and half" });
  bridge.event("message/finished", message("half and half", "done"));
  await tick();
  const whole = posted.at(-1) as typeof finished;
  assert.deepEqual(whole.payload.parts, [{ type: "text", text: "half and half" }]);
  assert.equal(whole.payload.streamedText, undefined);

  // A committed text that differs from what streamed (the host changed it) is sent whole too.
  bridge.event("message/started", message("", "streaming"));
  bridge.event("message/delta", { channelId: "c", messageId: "m", appendText: "draft" });
  bridge.event("message/finished", message("final", "done"));
  await tick();
  assert.deepEqual((posted.at(-1) as typeof finished).payload.parts, [{ type: "text", text: "final" }]);
});
