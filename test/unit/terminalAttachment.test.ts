import { test } from "node:test";
import assert from "node:assert/strict";
import { promptBlocks } from "../../src/acp/promptBlocks";
import { resolveAttachments, terminalAttachment } from "../../src/app/attachments";
import { chipLabel, describeAttachment } from "../../src/shared/attachments";
import { ATTACHMENT_TEXT_MAX, attachmentRequests, storedAttachments } from "../../src/shared/protocol/requestGuards";

test("a terminal's selected output is kept as the user saw it, without the padding a terminal adds to its rows", () => {
  const a = terminalAttachment("bash\u0007", "\r\n$ npm test   \r\nError: boom      \r\n    at a.ts:3\r\n\r\n");
  assert.deepEqual(a, { kind: "terminal", name: "bash", text: "$ npm test\nError: boom\n    at a.ts:3" });
  assert.equal(chipLabel(a), "bash");
  assert.equal(describeAttachment(a), "[attached terminal output from bash: 3 lines]", "other agents see a reference, not the output");
  const long = terminalAttachment("zsh", "x".repeat(ATTACHMENT_TEXT_MAX) + "\nthe error at the end");
  assert.equal(long.text.length, ATTACHMENT_TEXT_MAX);
  assert.ok(long.text.endsWith("the error at the end"), "a long output keeps its end, where the error is");
});

test("terminal output reaches every agent as a fenced text block under its label, with no file link", () => {
  const a = terminalAttachment("bash", "a ``` b");
  for (const caps of [{ embeddedContext: false, image: false }, { embeddedContext: true, image: true }]) {
    const { blocks, withheld } = promptBlocks({ text: "why?", attachments: [a] }, caps);
    assert.deepEqual(blocks, [{ type: "text", text: "why?" }, { type: "text", text: "Terminal output from bash:\n````\na ``` b\n````" }]);
    assert.equal(withheld.length, 0);
  }
});

test("a terminal attachment from the webview is checked where it enters, and needs no workspace folder", async () => {
  const ok = attachmentRequests([{ kind: "terminal", name: "bash", text: "out" }], "attachments");
  assert.deepEqual(await resolveAttachments(ok, { roots: [] }), [{ kind: "terminal", name: "bash", text: "out" }]);
  assert.throws(() => attachmentRequests([{ kind: "terminal", name: "bash", text: "out", path: "/etc/passwd" }], "attachments"), /path/);
  assert.throws(() => attachmentRequests([{ kind: "terminal", name: "a\nb", text: "out" }], "attachments"));
  assert.throws(() => attachmentRequests([{ kind: "terminal", name: "bash", text: "x".repeat(ATTACHMENT_TEXT_MAX + 1) }], "attachments"));
  assert.deepEqual(storedAttachments([{ kind: "terminal", name: "bash", text: "out" }, { kind: "terminal", name: "bash" }]), [{ kind: "terminal", name: "bash", text: "out" }], "a damaged stored one is left out");
});
