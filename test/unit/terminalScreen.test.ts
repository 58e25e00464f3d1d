// What a terminal shows of an output (src/shared/terminalScreen.ts, pure; issue 18, field case 21), held to a real
// terminal emulator: @xterm/headless (what VS Code's terminal runs on) as the oracle, 500 columns so nothing wraps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Terminal } from "@xterm/headless";
import { columns, MAX_CURSOR_COLUMN, SCREEN_ROWS, terminalScreen } from "../../src/shared/terminalScreen";
import { prng } from "../prng";
import { terminalText } from "../../webview/ansi";

const ESC = "\u001b";

/** The visible text a terminal shows after `text`: lines with trailing blanks trimmed, no trailing empty lines. */
async function xterm(text: string, rows = 300): Promise<string> {
  // convertEol: LF goes to column 0 as well, as a pty's onlcr makes it; rows: the whole output fits the screen.
  const term = new Terminal({ cols: 500, rows, scrollback: 10_000, convertEol: true, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(text, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
  term.dispose();
  return visible(lines.join("\n"));
}

function visible(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "");
}

/** A text without other controls keeps its TABs (a <pre> shows them at the same stops): expanded to compare. */
function expandTabs(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      let out = "";
      let col = 0;
      for (const char of line) {
        if (char === "\t") {
          const next = (Math.floor(col / 8) + 1) * 8;
          out += " ".repeat(next - col);
          col = next;
        } else {
          out += char;
          col += columns(char.codePointAt(0)!);
        }
      }
      return out;
    })
    .join("\n");
}

async function assertLikeXterm(text: string): Promise<void> {
  assert.equal(visible(expandTabs(terminalScreen(text))), await xterm(text), `input ${JSON.stringify(text)}`);
}

test("field case 21: CR progress frames show the last frame only", () => {
  const frames = ["  0%", " 25%", " 50%", " 75%", "100%"].map((p) => `Downloading ${p}`);
  assert.equal(terminalScreen(`${frames.join("\r")}\n`), "Downloading 100%\n");
  assert.equal(terminalScreen(`Fetching…\n${frames.join("\r")}\r\nDone\n`), "Fetching…\nDownloading 100%\nDone\n");
});

test("a partial overwrite keeps the rest of the line; BS moves left without erasing; CRLF is one newline", () => {
  assert.equal(terminalScreen("abcdef\rXY"), "XYcdef");
  assert.equal(terminalScreen("abc\b\bX"), "aXc");
  assert.equal(terminalScreen("one\r\ntwo\r\n"), "one\ntwo\n");
  assert.equal(terminalScreen("50%\r\u001b[K100%"), "100%");
  assert.equal(terminalScreen("old line\u001b[2K\rnew"), "new");
  assert.equal(terminalScreen("bell\u0007 del\u007f\r\n"), "bell del\n");
});

test("streaming: a chunk that ends in CR or inside a sequence shows the line until later text overwrites it", () => {
  assert.equal(terminalScreen("Downloading  25%\r"), "Downloading  25%");
  assert.equal(terminalScreen("Downloading  25%\r\u001b["), "Downloading  25%");
  assert.equal(terminalScreen("Downloading  25%\r\u001b[2"), "Downloading  25%");
  assert.equal(terminalScreen("Downloading  25%\r\u001b[2K"), "");
  assert.equal(terminalScreen("Downloading  25%\rDownloading  50%"), "Downloading  50%");
  assert.equal(terminalScreen("Downloading  25%\r\n"), "Downloading  25%\n");
});

test("the webview's terminalText shows bidi controls as markers, in the frame a terminal would show", () => {
  assert.equal(terminalText("evil \u202eRTL 10%\r\u001b[Kok \u202e 100%\r\n"), "ok [U+202E] 100%\n");
  assert.equal(terminalText("plain \u2067x"), "plain [U+2067]x");
});

test("wide characters take two columns, as in VS Code's terminal (Unicode 11): CJK, and emoji such as ✅ and 🚀", () => {
  assert.equal(terminalScreen("中文 ok\r\u001b[2Cx"), "中x  ok", "the half of 文 left over is blank");
  assert.equal(terminalScreen("✅ done\r\u001b[3CX"), "✅ Xone");
  assert.equal(terminalScreen("🚀 go\r\u001b[3CX"), "🚀 Xo");
  assert.equal(terminalScreen("✓ ok\r\u001b[2CX"), "✓ Xk", "✓ is narrow");
  assert.equal(terminalScreen("e\u0301x\u001b[De\u0301"), "e\u0301e\u0301", "a combining mark joins its character's cell");
  assert.equal(terminalScreen("e\u0301x\rE"), "Ex", "and goes with it when the cell is overwritten");
});

test("text without control characters is returned as it is", () => {
  const plain = "  indented\n\ttabbed\n{\"ok\": true}\n";
  assert.equal(terminalScreen(plain), plain);
  assert.equal(terminalScreen(""), "");
});

test("a multi-line progress bar redrawn with cursor up shows its last state (npm, pip, cargo, docker)", async () => {
  const bar = (a: number, b: number) => `${ESC}[2A${ESC}[2Kpkg-a ${a}%\n${ESC}[2Kpkg-b ${b}%\n`;
  const text = `Installing\n\n\n${bar(10, 0)}${bar(60, 20)}${bar(100, 100)}done\n`;
  assert.equal(terminalScreen(text), "Installing\npkg-a 100%\npkg-b 100%\ndone\n");
  await assertLikeXterm(text);
});

const TABLE = [
  "Downloading   0%\rDownloading  25%\rDownloading 100%\n",
  "abcdef\rXY",
  "abc\b\bX",
  "\b\bX",
  "a\tb\tc\rX",
  "abcdef\r\u001b[3CZ",
  "abcdef\u001b[2DZ",
  "abcdef\u001b[4GZ",
  "abcdef\u001b[0GZ",
  "abcdef\u001b[3D\u001b[K!",
  "abcdef\u001b[3D\u001b[1K",
  "abcdef\u001b[3D\u001b[2X",
  "one\ntwo\nthree\u001b[2A\rONE\u001b[1BTWO",
  "one\ntwo\nthree\u001b[9Aup",
  "one\ntwo\nthree\u001b[1F>\u001b[1E<",
  "one\ntwo\nthree\u001b[2A\u001b[J",
  "one\ntwo\u001b7\nthree\u001b8!",
  "one\ntwo\u001b[s\nthree\u001b[u!",
  "\u001b[1;31mred\u001b[0m \u001b]0;title\u0007plain \u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\",
  "\u001b[?25lhidden cursor\u001b[?25h\u001b[>c",
  "bell\u0007 nul\u0000 end",
  "a\u001bPdcs string\u001b\\b",
  "\u001b(Bcharset\u001b=keypad",
  "中文字符\rab",
  "中文字符\r\u001b[1Cx",
  "ab中文\r\u001b[2CXY",
  "中文 ok\r\u001b[2Cx",
  "e\u0301x\u001b[De\u0301",
  "e\u0301x\rE",
  "✓ ok\r\u001b[2CX",
  "progress [=====>    ] 50%\rprogress [==========] 100%\r\n",
  `${"x".repeat(200)}\rab\u001b[5Ccd\u001b[K`,
  `${"x".repeat(200)}\r中\b\bab`,
  `${"y".repeat(100)}\r${"z".repeat(90)}\u001b[1K!`,
];

test("cursor movement, erasing and dropped sequences show what xterm shows", async () => {
  for (const text of TABLE) await assertLikeXterm(text);
});

test("cursor up stops at the top of a screen of SCREEN_ROWS rows, as xterm's stops at its viewport's top", async () => {
  const text = `${Array.from({ length: SCREEN_ROWS + 200 }, (_, i) => `line ${i}`).join("\n")}${ESC}[${SCREEN_ROWS * 2}A\rtop${ESC}[J`;
  const shown = terminalScreen(text);
  assert.equal(shown.split("\n").at(-1), "top");
  assert.equal(shown.split("\n").length, 201);
  assert.equal(visible(shown), await xterm(text, SCREEN_ROWS));
});

/** A random output made of progress-like text and the controls terminalScreen follows or drops. */
function randomOutput(random: () => number): string {
  const pieces = [
    () => "Downloading",
    () => ` ${Math.floor(random() * 101)}%`,
    () => "[====>   ]",
    () => "-".repeat(30),
    () => "x",
    () => " ",
    () => "\r",
    () => "\n",
    () => "\r\n",
    () => "\b",
    () => "\t",
    () => "中",
    () => `${ESC}[${Math.floor(random() * 4)}A`,
    () => `${ESC}[${Math.floor(random() * 8)}C`,
    () => `${ESC}[${Math.floor(random() * 8)}D`,
    () => `${ESC}[${Math.floor(random() * 40)}G`,
    () => `${ESC}[${["", "0", "1", "2"][Math.floor(random() * 4)]}K`,
    () => `${ESC}[${Math.floor(random() * 5)}X`,
    () => `${ESC}[J`,
    () => `${ESC}[1;3${Math.floor(random() * 8)}m`,
    () => `${ESC}[0m`,
    () => `${ESC}]0;title${"\u0007"}`,
    () => `${ESC}[?25l`,
    () => `${ESC}7`,
    () => `${ESC}8`,
  ];
  let text = "";
  const count = 1 + Math.floor(random() * 40);
  for (let k = 0; k < count; k++) text += pieces[Math.floor(random() * pieces.length)]!();
  return text;
}

test("random mixes of progress frames and controls (seeded) show what xterm shows, and so does every prefix", async () => {
  const random = prng(21);
  for (let round = 0; round < 400; round++) {
    const text = randomOutput(random);
    await assertLikeXterm(text);
    // A streamed chunk may end anywhere: the text so far shows what the terminal shows at that point.
    await assertLikeXterm(text.slice(0, Math.floor(random() * (text.length + 1))));
  }
});

test("stays linear on a megabyte of progress frames, and cursor moves cannot blow the output up", () => {
  const frames = Array.from({ length: 60_000 }, (_, i) => `Downloading ${String(i % 101).padStart(3)}%\r`).join("");
  const started = performance.now();
  assert.equal(terminalScreen(`${frames}Downloading 100%\n`), "Downloading 100%\n");
  const moves = `${ESC}[999999Cx\n`.repeat(100_000);
  const shown = terminalScreen(moves);
  assert.ok(shown.length <= moves.length * 2 + MAX_CURSOR_COLUMN * 2, `output ${shown.length} characters for ${moves.length}`);
  // A cursor far right moving up line after line writes past each line's end: the blanks come from the same budget.
  const wideUp = `${"\n".repeat(SCREEN_ROWS - 1)}${"x".repeat(100_000)}${`${ESC}[Ay`.repeat(SCREEN_ROWS - 1)}`;
  assert.ok(terminalScreen(wideUp).length <= wideUp.length * 2 + MAX_CURSOR_COLUMN * 2, "bounded blanks");
  const ups = `line\n${ESC}[999999A`.repeat(50_000);
  assert.equal(terminalScreen(ups), "line\n", "every cursor up stops at the first line, which each frame rewrites");
  // Erasing the screen below, then moving down to its bottom again and writing there: empty rows cost nothing each.
  const cycles = `${"a\n".repeat(SCREEN_ROWS)}${`${ESC}[${SCREEN_ROWS}A${ESC}[J${ESC}[${SCREEN_ROWS}B\rx`.repeat(20_000)}`;
  assert.equal(terminalScreen(cycles), `a${"\n".repeat(SCREEN_ROWS)}x`, "the first line is above the screen: kept");
  assert.ok(performance.now() - started < 3_000, `took ${Math.round(performance.now() - started)} ms`);
});
