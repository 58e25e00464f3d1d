import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resolveAttachments } from "../../src/app/attachments";
import { SidekicksError } from "../../src/shared/errors";
import type { AttachmentRequest } from "../../src/shared/protocol";
import { ATTACHMENT_TEXT_MAX, checkParams, IMAGE_MAX_BYTES, InvalidParams } from "../../src/shared/protocol/requestGuards";

const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const CHANNEL = "01J00000000000000000000000";

function workspace() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sk-attach-")));
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sk-outside-")));
  fs.writeFileSync(path.join(root, "a.ts"), "one\ntwo\nthree\nfour\n");
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
  return { root, outside, cleanup: () => [root, outside].forEach((d) => fs.rmSync(d, { recursive: true, force: true })) };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof SidekicksError, `refused with a SidekicksError, got ${String(err)}`);
  assert.equal(err.code, "channel/attachment");
  return err.message;
}

test("a file is read as the user sees it: the open document's unsaved text, only the lines asked for", async () => {
  const w = workspace();
  try {
    const file = path.join(w.root, "a.ts");
    const documents = { openText: (p: string) => (p === file ? "ONE\nTWO (unsaved)\nTHREE\n" : undefined), applyEdit: async () => false };
    const [whole, lines] = await resolveAttachments(
      [
        { kind: "file", path: file },
        { kind: "file", path: file, range: { start: 2, end: 3 } },
      ],
      { roots: [w.root], documents },
    );
    assert.deepEqual(whole, { kind: "file", path: file, text: "ONE\nTWO (unsaved)\nTHREE\n" });
    assert.deepEqual(lines, { kind: "file", path: file, range: { start: 2, end: 3 }, text: "TWO (unsaved)\nTHREE\n" });
    const [disk] = await resolveAttachments([{ kind: "file", path: file, range: { start: 4, end: 4 } }], { roots: [w.root] });
    assert.deepEqual(disk, { kind: "file", path: file, range: { start: 4, end: 4 }, text: "four\n" });
    // A range past the file's end (4 lines): the lines there are, the range ending at the last; none at all is refused.
    const [tail] = await resolveAttachments([{ kind: "file", path: file, range: { start: 3, end: 200 } }], { roots: [w.root] });
    assert.deepEqual(tail, { kind: "file", path: file, range: { start: 3, end: 4 }, text: "three\nfour\n" });
    assert.match(await refusal(resolveAttachments([{ kind: "file", path: file, range: { start: 99, end: 200 } }], { roots: [w.root] })), /a\.ts:99-200": the file ends before line 99/);
  } finally {
    w.cleanup();
  }
});

test("a path outside the workspace, through .. or a symbolic link, is refused with a sentence naming it; nothing is read", async () => {
  const w = workspace();
  try {
    const secret = path.join(w.outside, "secret.txt");
    fs.symlinkSync(secret, path.join(w.root, "link.txt"));
    for (const req of [
      { kind: "file", path: secret },
      { kind: "file", path: path.join(w.root, "..", path.basename(w.outside), "secret.txt") },
      { kind: "file", path: path.join(w.root, "link.txt") },
      { kind: "selection", path: secret, range: { start: 1, end: 1 }, text: "x" },
      { kind: "problems", path: secret, problems: [] },
    ] as AttachmentRequest[]) {
      const message = await refusal(resolveAttachments([req], { roots: [w.root] }));
      assert.match(message, /^Cannot attach ".+": it is outside the workspace folders \(.+\)\. Only files inside the workspace can be attached\.$/, JSON.stringify(req));
    }
    assert.match(await refusal(resolveAttachments([{ kind: "file", path: path.join(w.root, "gone.ts") }], { roots: [w.root] })), /no such file/);
    assert.match(await refusal(resolveAttachments([{ kind: "file", path: path.join(w.root, "a.ts") }], { roots: [] })), /open a folder first/);
  } finally {
    w.cleanup();
  }
});

test("an image too large, of a type agents do not take, or whose bytes are not of its type is refused; a good one kept", async () => {
  const png = (bytes: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(Math.max(0, bytes - PNG_HEAD.length))]).toString("base64");
  const image = (mimeType: string, data: string): AttachmentRequest => ({ kind: "image", name: "shot.png", mimeType, data });
  assert.match(await refusal(resolveAttachments([image("image/png", png(IMAGE_MAX_BYTES + 1))], { roots: [] })), /the image is 5\.0 MB; at most 5 MB can be sent/);
  assert.match(await refusal(resolveAttachments([image("image/svg+xml", png(100))], { roots: [] })), /images of type image\/svg\+xml are not taken; attach a PNG, JPEG, GIF or WebP image/);
  assert.match(await refusal(resolveAttachments([image("image/jpeg", png(100))], { roots: [] })), /its data is not a image\/jpeg image/);
  assert.match(await refusal(resolveAttachments([image("image/png", "")], { roots: [] })), /its data is not a image\/png image/);
  const [kept] = await resolveAttachments([image("image/png", png(IMAGE_MAX_BYTES))], { roots: [] });
  assert.equal(kept?.kind, "image");
});

test("a file too large to embed, or binary, is kept as a link alone, saying why", async () => {
  const w = workspace();
  try {
    fs.writeFileSync(path.join(w.root, "big.log"), "x".repeat(ATTACHMENT_TEXT_MAX + 1));
    fs.writeFileSync(path.join(w.root, "bin.dat"), Buffer.from([1, 0, 2]));
    const [big, bin] = await resolveAttachments(
      [
        { kind: "file", path: path.join(w.root, "big.log") },
        { kind: "file", path: path.join(w.root, "bin.dat") },
      ],
      { roots: [w.root] },
    );
    assert.deepEqual(big, { kind: "file", path: path.join(w.root, "big.log"), omitted: "size" });
    assert.deepEqual(bin, { kind: "file", path: path.join(w.root, "bin.dat"), omitted: "binary" });
  } finally {
    w.cleanup();
  }
});

test("the request guard refuses attachments of no known shape before any handler runs", () => {
  const send = (attachments: unknown) => checkParams("channel/send", { channelId: CHANNEL, text: "@a hi", attachments });
  const refused = (attachments: unknown, problem: RegExp) =>
    assert.throws(
      () => send(attachments),
      (e: unknown) => e instanceof InvalidParams && problem.test(e.problem),
    );
  refused([{ kind: "file", path: "/w/a.ts", text: "smuggled" }], /attachments\[0\]\.text: not a field/);
  refused([{ kind: "exe", path: "/w/a" }], /attachments\[0\]\.kind: expected one of file, selection, image, problems/);
  refused([{ kind: "file", path: "/w/a.ts", range: { start: 5, end: 2 } }], /range\.end: before start/);
  refused([{ kind: "image", name: "x.png", mimeType: "image/png", data: "<script>" }], /data: not of the expected shape/);
  refused([{ kind: "image", name: "x.png", mimeType: "image/png", data: "A".repeat(8 * 1024 * 1024) }], /data: longer than/);
  refused([{ kind: "selection", path: "/w/a.ts", range: { start: 1, end: 1 }, text: "x".repeat(ATTACHMENT_TEXT_MAX + 1) }], /text: longer than/);
  refused(Array.from({ length: 21 }, () => ({ kind: "file", path: "/w/a.ts" })), /more than 20 items/);
  refused([{ kind: "file", path: "/w/a\nb.ts" }], /path: contains control characters/);
  assert.deepEqual(send([{ kind: "file", path: "/w/a.ts", range: { start: 1, end: 2 } }]).attachments, [{ kind: "file", path: "/w/a.ts", range: { start: 1, end: 2 } }]);
});
