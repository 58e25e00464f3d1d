// Field cases 18 and 19: images, embedded resources and resource links in answers and tool calls are kept as blocks
// (never "[image]", never a base64 dump, never "[file:///…]"), bounded, saved and reopened, and referred to in one line
// in the channel context another agent gets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { base64Bytes, contentOf, MAX_IMAGE_BYTES, MAX_RESOURCE_TEXT, nameOf } from "../../src/acp/contentBlocks";
import { toAgentUpdate } from "../../src/acp/updates";
import { describeBlock } from "../../src/shared/contentBlocks";
import type { MessageView } from "../../src/shared/protocol";
import type { MessageRecord } from "../../src/store/records";
import { applyUpdate } from "../../src/turns/answer";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";

/** A 1×1 transparent PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const PNG_BYTES = Buffer.from(PNG, "base64").length;

test("contentOf: each ACP content block kind becomes what the view shows, checked where it enters", () => {
  const rows: [string, unknown, unknown][] = [
    ["text", { type: "text", text: "hi" }, { text: "hi" }],
    ["image", { type: "image", mimeType: "image/png", data: PNG }, { block: { kind: "image", mimeType: "image/png", bytes: PNG_BYTES, data: PNG } }],
    ["image, type in capitals", { type: "image", mimeType: "IMAGE/PNG", data: PNG }, { block: { kind: "image", mimeType: "image/png", bytes: PNG_BYTES, data: PNG } }],
    ["image of a type the view does not show", { type: "image", mimeType: "image/tiff", data: PNG }, { block: { kind: "image", mimeType: "image/tiff", bytes: PNG_BYTES, omitted: "type" } }],
    ["image whose data is not base64", { type: "image", mimeType: "image/png", data: "not base64!" }, { block: { kind: "image", mimeType: "image/png", bytes: 0, omitted: "data" } }],
    ["image without data", { type: "image", mimeType: "image/png" }, { block: { kind: "image", mimeType: "image/png", bytes: 0, omitted: "data" } }],
    [
      "text resource",
      { type: "resource", resource: { uri: "file:///w/a.py", mimeType: "text/x-python", text: "def f():\n    return 1\n" } },
      { block: { kind: "file", uri: "file:///w/a.py", name: "a.py", mimeType: "text/x-python", text: "def f():\n    return 1\n" } },
    ],
    [
      "blob resource that is an image",
      { type: "resource", resource: { uri: "file:///w/logo.png", mimeType: "image/png", blob: PNG } },
      { block: { kind: "image", mimeType: "image/png", bytes: PNG_BYTES, data: PNG, uri: "file:///w/logo.png", name: "logo.png" } },
    ],
    [
      "blob resource that is not an image",
      { type: "resource", resource: { uri: "file:///w/a.bin", mimeType: "application/octet-stream", blob: "AAECAw==" } },
      { block: { kind: "binary", uri: "file:///w/a.bin", name: "a.bin", mimeType: "application/octet-stream", bytes: 4 } },
    ],
    [
      "resource link with brackets and a space in its name",
      { type: "resource_link", uri: "file:///w/notes [draft].md", name: "notes [draft].md" },
      { block: { kind: "link", uri: "file:///w/notes [draft].md", name: "notes [draft].md" } },
    ],
    ["resource link without a name", { type: "resource_link", uri: "file:///w/notes%20%5Bdraft%5D.md" }, { block: { kind: "link", uri: "file:///w/notes%20%5Bdraft%5D.md", name: "notes [draft].md" } }],
    ["audio", { type: "audio", mimeType: "audio/wav", data: "AAECAw==" }, { block: { kind: "audio", mimeType: "audio/wav", bytes: 4 } }],
    ["resource without a URI", { type: "resource", resource: { text: "x" } }, { text: "[embedded resource without a URI]" }],
    ["a kind ACP does not define", { type: "video", data: "x" }, { text: "[unsupported content: video]" }],
    ["not an object", "hello", { text: "" }],
  ];
  for (const [what, block, expected] of rows) assert.deepEqual(contentOf(block), expected, what);
});

test("contentOf bounds what it keeps: an image over 1 MiB is named, not kept; a text resource over 256 Ki characters is cut and says so", () => {
  const big = Buffer.alloc(MAX_IMAGE_BYTES + 3).toString("base64");
  assert.deepEqual(contentOf({ type: "image", mimeType: "image/png", data: big }), { block: { kind: "image", mimeType: "image/png", bytes: MAX_IMAGE_BYTES + 3, omitted: "size" } });
  const long = "x".repeat(MAX_RESOURCE_TEXT + 10);
  const read = contentOf({ type: "resource", resource: { uri: "file:///w/big.txt", text: long } });
  assert.ok("block" in read && read.block.kind === "file");
  assert.equal(read.block.text.length, MAX_RESOURCE_TEXT);
  assert.equal(read.block.cutChars, 10);
});

test("base64Bytes and nameOf", () => {
  assert.equal(base64Bytes("AAECAw=="), 4);
  assert.equal(base64Bytes("AAECAw"), 4, "padding is optional");
  assert.equal(base64Bytes("AAEC\nAw=="), 4, "line breaks are ignored");
  assert.equal(base64Bytes("AAECA"), undefined, "a length no base64 has");
  assert.equal(base64Bytes("AA=C"), undefined);
  assert.equal(nameOf("file:///w/dir/"), "dir");
  assert.equal(nameOf("file:///w/a%ZZ.md"), "a%ZZ.md", "an invalid escape stays as written");
  assert.equal(nameOf("https://example.com/a.png?x=1#y"), "a.png");
});

test("a thought's image is named in its text; a tool call's image and file are blocks beside its text", () => {
  const thought = toAgentUpdate({ sessionUpdate: "agent_thought_chunk", content: { type: "image", mimeType: "image/png", data: PNG } });
  assert.deepEqual(thought, { kind: "thought", text: `[image: image/png, ${PNG_BYTES} B]` });
  const tool = toAgentUpdate({
    sessionUpdate: "tool_call_update",
    toolCallId: "t1",
    content: [
      { type: "content", content: { type: "text", text: "Screenshot taken" } },
      { type: "content", content: { type: "image", mimeType: "image/png", data: PNG } },
      { type: "content", content: { type: "resource", resource: { uri: "file:///w/a.py", text: "pass\n" } } },
    ],
  });
  assert.ok(tool.kind === "toolCall");
  assert.equal(tool.content, "Screenshot taken");
  assert.deepEqual(tool.blocks?.map((b) => b.kind), ["image", "file"]);
});

const chunk = (content: object, messageId?: string) => ({ update: { sessionUpdate: "agent_message_chunk", content, ...(messageId ? { messageId } : {}) } });

test("field cases 18 and 19 end to end: blocks in order with the text, in a tool card too, the same after reopening; another agent is told of them in one line each", async () => {
  const s = await channelSetup([
    fakeAgent("shows", {
      prompt: [
        chunk({ type: "text", text: "Here is the chart:" }, "m1"),
        chunk({ type: "image", mimeType: "image/png", data: PNG }, "m1"),
        chunk({ type: "text", text: "and the code:" }, "m1"),
        chunk({ type: "resource", resource: { uri: "file:///w/a.py", mimeType: "text/x-python", text: "def f():\n    return 1\n" } }, "m1"),
        chunk({ type: "resource", resource: { uri: "file:///w/logo.png", mimeType: "image/png", blob: PNG } }, "m1"),
        chunk({ type: "resource_link", uri: "file:///w/notes [draft].md", name: "notes [draft].md" }, "m1"),
        { toolCall: { toolCallId: "t1", title: "Take a screenshot", kind: "other", status: "completed", content: [{ type: "content", content: { type: "image", mimeType: "image/png", data: PNG } }] } },
      ],
    }),
    fakeAgent("reads", { prompt: [{ echo: true }] }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@shows show me");
    const answer = await s.finished((m) => m.author.kind === "agent" && m.author.agentName === "shows");
    const check = (parts: MessageView["parts"]) => {
      assert.deepEqual(
        parts.map((p) => (p.type === "content" ? `${p.type}:${p.block.kind}` : p.type)),
        ["text", "content:image", "text", "content:file", "content:image", "content:link", "toolCall"],
      );
      const file = parts[3]!;
      assert.ok(file.type === "content" && file.block.kind === "file" && file.block.text === "def f():\n    return 1\n", "the file's text verbatim, indentation kept");
      const tool = parts[6]!;
      assert.ok(tool.type === "toolCall" && tool.blocks?.[0]?.kind === "image" && tool.blocks[0].data === PNG, "the tool card keeps its image");
    };
    check(answer.parts);
    assert.equal(JSON.stringify(answer.parts).includes("[image]"), false);
    await s.reopen();
    const { messages } = await s.channels.messages.open("general");
    check(messages.find((m) => m.id === answer.id)!.parts);

    await s.channels.messages.send(s.general.id, "@reads what did it show?");
    const echoed = textOf(await s.finished((m) => m.author.kind === "agent" && m.author.agentName === "reads"));
    for (const line of [`[image: image/png, ${PNG_BYTES} B]`, "[file a.py: file:///w/a.py]", `[image logo.png: image/png, ${PNG_BYTES} B]`, "[notes [draft].md](file:///w/notes [draft].md)"]) {
      assert.ok(echoed.includes(line), `context names ${line}:\n${echoed}`);
    }
    assert.equal(echoed.includes(PNG), false, "no base64 in the context");
  } finally {
    await s.teardown();
  }
});

test("an answer keeps at most 4 MiB of images: the next one, in the text or in a tool card, is named as too large, not kept", () => {
  const data = Buffer.alloc(MAX_IMAGE_BYTES - 1).toString("base64");
  const image = { type: "image", mimeType: "image/png", data };
  let message: MessageRecord = { version: 1, id: "m", channelId: "c", author: { kind: "agent", agentName: "a" }, parts: [], createdAt: 0 };
  for (let i = 0; i < 4; i++) message = applyUpdate(Object.freeze(message), toAgentUpdate({ sessionUpdate: "agent_message_chunk", content: image } as never)).message;
  const fifth = applyUpdate(message, toAgentUpdate({ sessionUpdate: "agent_message_chunk", content: image } as never));
  const tool = applyUpdate(message, toAgentUpdate({ sessionUpdate: "tool_call", toolCallId: "t", title: "shot", content: [{ type: "content", content: image }] } as never));
  const kept = (m: MessageRecord) => m.parts.flatMap((p) => (p.type === "content" ? [p.block] : p.type === "toolCall" ? (p.blocks ?? []) : [])).map((b) => (b.kind === "image" ? (b.omitted ?? "kept") : b.kind));
  assert.deepEqual(kept(fifth.message), ["kept", "kept", "kept", "kept", "size"]);
  assert.deepEqual(kept(tool.message), ["kept", "kept", "kept", "kept", "size"]);
  const last = fifth.message.parts[4]!;
  assert.ok(last.type === "content");
  assert.equal(describeBlock(last.block), "[image: image/png, 1024 KB]");
});
