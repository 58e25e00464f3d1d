import { test } from "node:test";
import assert from "node:assert/strict";
import { fileUri, promptBlocks, type PromptCapabilities } from "../../src/acp/promptBlocks";
import type { Attachment } from "../../src/shared/protocol";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082", "hex").toString("base64");

const selection: Attachment = { kind: "selection", path: "/w/src/a.ts", range: { start: 10, end: 12 }, text: "const x = 1;\n" };
const file: Attachment = { kind: "file", path: "/w/README.md", text: "# Hi\n" };
const big: Attachment = { kind: "file", path: "/w/big.log", omitted: "size" };
const image: Attachment = { kind: "image", name: "shot.png", mimeType: "image/png", data: PNG };
const problems: Attachment = { kind: "problems", path: "/w/src/a.ts", range: { start: 3, end: 3 }, problems: [{ severity: "error", message: "Cannot find name 'y'.", range: { start: 3, end: 3 }, source: "ts", code: "2304" }] };

const NONE: PromptCapabilities = { embeddedContext: false, image: false };
const EMBED: PromptCapabilities = { embeddedContext: true, image: false };
const IMAGE: PromptCapabilities = { embeddedContext: false, image: true };
const BOTH: PromptCapabilities = { embeddedContext: true, image: true };

/** The block types sent for each attachment, per capability set (ACP: every agent takes text and resource_link). */
const TABLE: { caps: PromptCapabilities; attachment: Attachment; types: string[]; withheld: number }[] = [
  { caps: NONE, attachment: selection, types: ["text", "resource_link", "text"], withheld: 0 },
  { caps: EMBED, attachment: selection, types: ["text", "resource_link", "resource"], withheld: 0 },
  { caps: IMAGE, attachment: selection, types: ["text", "resource_link", "text"], withheld: 0 },
  { caps: BOTH, attachment: selection, types: ["text", "resource_link", "resource"], withheld: 0 },
  { caps: NONE, attachment: file, types: ["text", "resource_link", "text"], withheld: 0 },
  { caps: EMBED, attachment: file, types: ["text", "resource_link", "resource"], withheld: 0 },
  { caps: BOTH, attachment: big, types: ["text", "resource_link"], withheld: 0 },
  { caps: NONE, attachment: image, types: ["text"], withheld: 1 },
  { caps: EMBED, attachment: image, types: ["text"], withheld: 1 },
  { caps: IMAGE, attachment: image, types: ["text", "image"], withheld: 0 },
  { caps: BOTH, attachment: image, types: ["text", "image"], withheld: 0 },
  { caps: NONE, attachment: problems, types: ["text", "resource_link", "text"], withheld: 0 },
  { caps: BOTH, attachment: problems, types: ["text", "resource_link", "text"], withheld: 0 },
];

test("each attachment becomes the blocks the agent's promptCapabilities allow: a link always, embedded text or an image only when taken", () => {
  for (const row of TABLE) {
    const plan = promptBlocks({ text: "fix this", attachments: [row.attachment] }, row.caps);
    const label = `${row.attachment.kind} with ${JSON.stringify(row.caps)}`;
    assert.deepEqual(plan.blocks.map((b) => b.type), row.types, label);
    assert.equal(plan.withheld.length, row.withheld, label);
    assert.deepEqual(plan.blocks[0], { type: "text", text: "fix this" }, `${label}: the request first, alone`);
  }
});

test("a selection's text goes embedded with its range, or fenced under its label; problems name file, line and code", () => {
  const embedded = promptBlocks({ text: "t", attachments: [selection] }, EMBED).blocks;
  assert.deepEqual(embedded[1], { type: "resource_link", uri: "file:///w/src/a.ts", name: "a.ts:10-12" });
  assert.deepEqual(embedded[2], { type: "resource", resource: { uri: "file:///w/src/a.ts#L10-L12", mimeType: "text/plain", text: "const x = 1;\n" } });
  const plain = promptBlocks({ text: "t", attachments: [{ ...selection, text: "a ``` b" }] }, NONE).blocks;
  assert.deepEqual(plain[2], { type: "text", text: "Selection from /w/src/a.ts:10-12:\n````\na ``` b\n````" }, "a fence longer than any backtick run inside");
  const listed = promptBlocks({ text: "t", attachments: [problems] }, NONE).blocks;
  assert.deepEqual(listed[2], { type: "text", text: "Problems in /w/src/a.ts:3:\n/w/src/a.ts:3 error ts(2304): Cannot find name 'y'." });
  assert.equal(fileUri("/w/a b#c.ts"), "file:///w/a%20b%23c.ts");
});

test("the channel context stays last (embedded) or before the request (text) with attachments between", () => {
  const withEmbed = promptBlocks({ text: "t", context: "[ctx]", attachments: [file] }, EMBED).blocks;
  assert.deepEqual(withEmbed.map((b) => b.type), ["text", "resource_link", "resource", "resource"]);
  assert.equal(withEmbed[3]?.type === "resource" && withEmbed[3].resource.uri, "sidekicks://channel/context");
  const plain = promptBlocks({ text: "t", context: "[ctx]", attachments: [file] }, NONE).blocks;
  assert.deepEqual(plain[0], { type: "text", text: "[ctx]t" });
});

test("a real agent subprocess receives the attachments as its capabilities allow; one without images gets none and the answer says so; others see only a reference", async () => {
  const s = await channelSetup([
    fakeAgent("rich", { embeddedContext: true, image: true, prompt: [{ blocks: true }] }),
    fakeAgent("plain", { prompt: [{ blocks: true }] }),
    fakeAgent("later", { prompt: [{ blocks: true }] }),
  ]);
  try {
    const ask = async (text: string, agent: string, attachments: Attachment[] = []) => {
      const sent = await s.channels.messages.send(s.general.id, text, undefined, attachments);
      return s.finished((m) => m.author.agentName === agent && m.id > sent.messageId);
    };
    const rich = JSON.parse(textOf(await ask("@rich look", "rich", [selection, image]))) as { type: string; data?: string; resource?: { text: string } }[];
    assert.deepEqual(rich.map((b) => b.type), ["text", "resource_link", "resource", "image"]);
    assert.equal(rich[2]!.resource!.text, "const x = 1;\n");
    assert.equal(rich[3]!.data, PNG, "the image reaches the agent byte for byte");

    const plainAnswer = await ask("@plain look", "plain", [selection, image]);
    const plain = JSON.parse(textOf(plainAnswer)) as { type: string; text?: string }[];
    assert.deepEqual(plain.map((b) => b.type), ["text", "resource_link", "text"], "no image block, the selection as text");
    assert.match(plain[0]!.text!, /user:\n@rich look\n\n\[attached selection: \/w\/src\/a\.ts:10-12\]\n\[attached image shot\.png: image\/png, \d+ B\]/, "the earlier message's attachments referred to in the context");
    const notice = plainAnswer.parts.find((p) => p.type === "notice");
    assert.ok(notice && notice.type === "notice" && /Not sent to "plain": shot\.png\. This agent does not take images/.test(notice.text), "the user is told the image was not sent");

    const later = JSON.parse(textOf(await ask("@later what happened", "later"))) as { type: string; text?: string }[];
    assert.equal(later.length, 1);
    // The user's messages as the context gives them (the agents' echoes of their own prompts aside).
    const userBlocks = later[0]!.text!.split(/\n\n(?=@\w+:\n|user:\n)/).filter((b) => b.includes("user:\n@rich look") || b.includes("user:\n@plain look"));
    assert.equal(userBlocks.length, 2);
    for (const b of userBlocks) {
      assert.ok(!b.includes(PNG) && !b.includes("const x = 1;"), "contents are never repeated to other agents");
      assert.match(b, /\[attached selection: \/w\/src\/a\.ts:10-12\]\n\[attached image shot\.png: image\/png, 67 B\]/);
    }

    const stored = (await s.store.latestMessages(s.general.id, 50)).filter((m) => m.author.kind === "user");
    assert.deepEqual(stored[0]!.attachments, [selection, image], "kept on the user message");
    await s.reopen();
    const view = (await s.channels.messages.open("general")).messages.find((m) => m.id === stored[0]!.id);
    assert.deepEqual(view?.attachments, [selection, image], "shown again after a reload");
  } finally {
    await s.teardown();
  }
});

test("a stored message's attachments are checked when read: a damaged one is left out, the rest kept", async () => {
  const { asMessageRecord } = await import("../../src/store/records");
  const record = asMessageRecord({
    version: 1,
    id: "01J0000000000000000000000A",
    channelId: "c",
    author: { kind: "user" },
    parts: [],
    createdAt: 1,
    attachments: [selection, { kind: "image", name: "x", mimeType: "image/png", data: "not base64!" }, { kind: "bogus" }, file],
  });
  assert.deepEqual(record?.attachments, [selection, file]);
  const none = asMessageRecord({ version: 1, id: "x", channelId: "c", author: { kind: "user" }, parts: [], createdAt: 1, attachments: "junk" });
  assert.equal(none?.attachments, undefined);
});
