// @ts-check
// `npm run screenshots`: copies the README's pictures from test-results/ (made by the real-editor suites) into
// docs/media/, and assembles the step-by-step picture of a turn, docs/media/turn.png, an animated PNG (APNG: every
// browser, GitHub and VS Code's Markdown preview play it; a viewer without APNG shows the first frame).
//
// The pictures come from: `npm run test:integration` (main suite: two-agents, demo-edit) and `npm run test:vsix` (the installed
// .vsix: vsix-terminal, and the four turn-* frames, side bar only). Run those first; a missing picture is an error that
// names the run that makes it. Nothing is downloaded and no image tool is needed: the APNG is assembled from the
// frames' own PNG chunks (same size and format, as Chromium's screenshots of one side bar are).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const results = path.join(root, "test-results");
const media = path.join(root, "docs", "media");

/** Copied as they are: picture in test-results → file in docs/media, and the run that makes it. */
const COPIES = [
  ["two-agents.png", "two-agents.png", "npm run test:integration"],
  ["demo-edit.png", "demo-edit.png", "npm run test:integration"],
  ["vsix-terminal.png", "agent-terminal.png", "npm run test:vsix"],
];

/** The turn, frame by frame, with how long each one shows (ms). Made by `npm run test:vsix`. */
/** @type {[string, number][]} */
const TURN = [
  ["turn-1-mention.png", 1800],
  ["turn-2-tool-call.png", 1800],
  ["turn-3-permission.png", 2200],
  ["turn-4-answer.png", 3500],
];

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The chunks of a PNG file: `{ type, data }` in file order. Throws on a file that is not a PNG.
 * @param {string} file
 * @returns {{ type: string, data: Buffer }[]}
 */
function readChunks(file) {
  const bytes = fs.readFileSync(file);
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error(`${file} is not a PNG`);
  const chunks = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

/** A PNG chunk of `type` (four latin1 letters) holding `data`, with its length and CRC. @param {string} type @param {Buffer} data */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, "latin1"), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An animated PNG of `frames` (`[file, ms]`, same IHDR each: width, height, bit depth, colour type), looping forever
 * (APNG: `acTL`, one `fcTL` per frame, the first frame's `IDAT` as is, the others' image data as `fdAT`).
 * @param {[string, number][]} frames
 */
function apng(frames) {
  const parsed = frames.map(([file, ms]) => ({ file, ms, chunks: readChunks(file) }));
  /** @param {{ type: string, data: Buffer }[]} chunks */
  const ihdrOf = (chunks) => {
    const found = chunks.find((c) => c.type === "IHDR");
    if (!found) throw new Error("a PNG without its IHDR chunk");
    return found.data;
  };
  const ihdr = ihdrOf(parsed[0]?.chunks ?? []);
  for (const frame of parsed) {
    if (!ihdrOf(frame.chunks).equals(ihdr)) {
      throw new Error(`${frame.file} differs in size or format from ${parsed[0].file}: take the frames in one run`);
    }
  }
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  let sequence = 0;
  const frameControl = (/** @type {number} */ ms) => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence++, 0);
    data.writeUInt32BE(width, 4);
    data.writeUInt32BE(height, 8);
    // x and y offsets 0; delay ms/1000 s; dispose none, blend source (each frame replaces the whole picture).
    data.writeUInt16BE(ms, 20);
    data.writeUInt16BE(1000, 22);
    return chunk("fcTL", data);
  };
  const animation = Buffer.alloc(8);
  animation.writeUInt32BE(parsed.length, 0); // frames; plays 0 = forever
  const out = [SIGNATURE, chunk("IHDR", ihdr), chunk("acTL", animation)];
  // The first file's colour information (sRGB, gAMA, ...) applies to every frame.
  const first = parsed[0].chunks;
  for (const c of first.slice(1, first.findIndex((c) => c.type === "IDAT"))) out.push(chunk(c.type, c.data));
  parsed.forEach((frame, index) => {
    out.push(frameControl(frame.ms));
    for (const c of frame.chunks.filter((c) => c.type === "IDAT")) {
      if (index === 0) out.push(chunk("IDAT", c.data));
      else {
        const number = Buffer.alloc(4);
        number.writeUInt32BE(sequence++, 0);
        out.push(chunk("fdAT", Buffer.concat([number, c.data])));
      }
    }
  });
  out.push(chunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(out);
}

const missing = [
  ...COPIES.filter(([from]) => !fs.existsSync(path.join(results, from))).map(([from, , run]) => `${from} (${run})`),
  ...TURN.filter(([from]) => !fs.existsSync(path.join(results, from))).map(([from]) => `${from} (npm run test:vsix)`),
];
if (missing.length > 0) {
  console.error(`screenshots: missing in test-results/: ${missing.join(", ")}; run those first`);
  process.exit(1);
}
fs.mkdirSync(media, { recursive: true });
for (const [from, to] of COPIES) {
  fs.copyFileSync(path.join(results, from), path.join(media, to));
  console.log(`screenshots: docs/media/${to} ${fs.statSync(path.join(media, to)).size} bytes`);
}
const turn = apng(TURN.map(([file, ms]) => [path.join(results, file), ms]));
fs.writeFileSync(path.join(media, "turn.png"), turn);
console.log(`screenshots: docs/media/turn.png (${TURN.length} frames) ${turn.length} bytes`);
