/**
 * What a terminal shows of an output (issue 18, field case 21): progress that redraws itself ("Downloading   0%\r…
 * Downloading 100%\n", npm/pip/cargo bars that move the cursor up and redraw their lines) shows its last frame only,
 * as in a terminal, not every frame one after the other. Pure; the webview applies it where outputs are shown
 * (`webview/ansi.ts` `terminalText`). The behaviours follow ECMA-48 (5th edition, 1991) and xterm's control
 * sequences (ctlseqs), as xterm.js implements them; the tests hold it to `@xterm/headless`.
 */

/** Most columns a cursor movement (CUF, CHA, TAB) reaches; characters printed go on beyond it. */
export const MAX_CURSOR_COLUMN = 4096;

/**
 * Rows of the screen: cursor moves reach no line above the screen's top (the last `SCREEN_ROWS` rows of the output),
 * as in a terminal whose earlier lines have scrolled out of its screen.
 */
export const SCREEN_ROWS = 1000;

/** Characters that make a text more than plain lines: CR, BS and other C0 controls but LF/TAB, DEL, ESC, CSI. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f\u009b]/;

/**
 * The visible text of `text` written to a terminal of unbounded width whose cursor starts at the top left, one line
 * per terminal line, joined with "\n" (the input itself when it holds no control characters but LF and TAB).
 *
 * Followed, as a terminal does:
 * - LF (and VT, FF) goes to the next line and its column 0 (a pty's `onlcr`); CR to column 0; "\r\n" is one newline.
 *   Later characters overwrite the line from the cursor on and keep the rest: "abcdef\rXY" shows "XYcdef". A text
 *   that ends in a lone CR still shows its line (a streamed chunk cut there): only characters written after it
 *   replace it.
 * - BS moves one column left (it does not erase: "abc\b\bX" shows "aXc"); TAB moves to the next multiple of 8.
 * - CSI (ECMA-48 8.3): CUU `ESC[nA`, CUD `B` (not below the last row the output reached, as at a screen's bottom), CUF `C`,
 *   CUB `D`, CNL `E`, CPL `F`, CHA `G`, HPA `` ` ``, HPR `a`, VPR `e`; EL `ESC[K`/`1K`/`2K`; ED `ESC[J` (the screen
 *   below the cursor); ECH `X`; SCP/RCP `ESC[s`/`ESC[u` and DECSC/DECRC `ESC 7`/`ESC 8`. Cursor up stops at the
 *   screen's top, `SCREEN_ROWS` rows above the last (xterm's stops at its viewport's top).
 * - Everything else is dropped: SGR colours and every other CSI (a private one such as `ESC[?25l` too), OSC, DCS, SOS,
 *   PM and APC strings, other escapes, other C0 controls and DEL; a sequence cut off at the end of the text.
 *   Cursor positioning relative to the screen's top (CUP, VPA) and screen clears (`ESC[2J`) are dropped too: the
 *   real screen's height is unknown in an output, and what a clear removed stays readable.
 * - Wide characters (CJK, emoji) take two columns (Unicode 11 widths, as VS Code's terminal); combining marks join
 *   the character before them. Overwriting half of a wide character leaves a blank in the other half.
 * A streamed output is given whole each time (an overwrite can reach back into lines already shown).
 * Lines never wrap. Linear in the text's length: the blank cells cursor moves create are bounded by the text's length,
 * a line is rebuilt as a string only when it is short against what overwrites it, and otherwise kept as cells.
 */
export function terminalScreen(text: string): string {
  if (!CONTROLS.test(text)) return text;
  return new Screen(text.length + MAX_CURSOR_COLUMN).write(text).text();
}

/** A line's cells: one character (with its combining marks) per column; "" continues the wide character before it. */
type Cells = string[];

/**
 * A line: a string while it holds only characters one column and one code unit wide (column = index), written by
 * appends and short overwrites (the common case, at the cost of the text written); cells once anything else happens
 * to it (wide characters, combining marks, blanks, an overwrite short against a long line).
 */
type Line = string | Cells;

/** The screen being written: its lines, the cursor, and the budget of blank cells left for cursor moves. */
class Screen {
  private readonly lines: (Line | undefined)[] = [""];
  private row = 0;
  /** Rows the output has reached (LF adds them; lines past an ED 0 are empty rows). */
  private rows = 1;
  private col = 0;
  private saved = { row: 0, col: 0 };

  constructor(private padding: number) {}

  /** Interprets `text` (ECMA-48 parsing: C0 controls, ESC sequences, CSI, control strings, printable characters). */
  write(text: string): this {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x1b || c === 0x9b) {
        i = c === 0x9b ? this.csi(text, i + 1) : this.escape(text, i + 1);
      } else if (c < 0x20 || c === 0x7f) {
        this.control(c);
        i++;
      } else if (isSimple(c)) {
        let j = i + 1;
        while (j < n && isSimple(text.charCodeAt(j))) j++;
        this.printRun(text.slice(i, j));
        i = j;
      } else {
        const wide = c >= 0xd800 && c <= 0xdbff && i + 1 < n && isLowSurrogate(text.charCodeAt(i + 1));
        const point = wide ? ((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000 : c;
        const size = wide ? 2 : 1;
        this.print(text.slice(i, i + size), columns(point));
        i += size;
      }
    }
    return this;
  }

  /** The visible text: each line's cells joined, lines joined with "\n". */
  text(): string {
    const shown: string[] = [];
    for (const line of this.lines) shown.push(line === undefined ? "" : typeof line === "string" ? line : line.join(""));
    return shown.join("\n");
  }

  private control(c: number): void {
    if (c === 0x0a || c === 0x0b || c === 0x0c) {
      this.moveTo(this.row + 1);
      this.rows = Math.max(this.rows, this.row + 1);
      this.col = 0;
    } else if (c === 0x0d) this.col = 0;
    else if (c === 0x08) this.col = Math.max(0, this.col - 1);
    else if (c === 0x09) this.col = Math.max(this.col, Math.min((Math.floor(this.col / 8) + 1) * 8, MAX_CURSOR_COLUMN));
    // Other C0 controls (BEL, NUL, SO/SI, …) and DEL move nothing and show nothing.
  }

  /** An escape sequence after ESC at `i` (ECMA-35: intermediates 0x20–0x2F, then a final 0x30–0x7E). @returns the index after it */
  private escape(text: string, i: number): number {
    const c = text.charCodeAt(i);
    if (c === 0x5b) return this.csi(text, i + 1); // ESC [
    if (c === 0x5d || c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) return controlStringEnd(text, i + 1); // OSC, DCS, SOS, PM, APC
    let j = i;
    while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
    if (j >= text.length) return text.length; // cut off
    const final = text.charCodeAt(j);
    if (final < 0x30 || final > 0x7e) return j; // not a sequence: ESC is dropped, what follows is read on its own
    if (j === i && final === 0x37) this.saved = { row: this.row, col: this.col }; // DECSC
    if (j === i && final === 0x38) this.restore(); // DECRC
    return j + 1;
  }

  /** A control sequence whose parameters start at `i` (ECMA-48 5.4). @returns the index after it */
  private csi(text: string, i: number): number {
    let j = i;
    while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x3f) j++;
    const paramsEnd = j;
    while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
    if (j >= text.length) return text.length; // cut off
    const final = text.charCodeAt(j);
    if (final < 0x40 || final > 0x7e) return j; // malformed: dropped up to there, as xterm does
    // SGR (colours), the most common by far, and every sequence with intermediates (`ESC[ q`) move nothing.
    if (final === 0x6d || j !== paramsEnd) return j + 1;
    const params = text.slice(i, paramsEnd);
    // A private parameter string (`?25l`, `>c`) is a mode or a query: nothing moves.
    if (!/[<=>?]/.test(params)) this.perform(String.fromCharCode(final), params);
    return j + 1;
  }

  private perform(final: string, params: string): void {
    const first = params.split(";", 1)[0]!;
    const raw = first === "" ? 0 : Math.min(Number.parseInt(first, 10) || 0, 1e6);
    const n = Math.max(1, raw); // a movement's count: 0 or missing is 1
    const last = this.rows - 1;
    const top = Math.max(0, this.rows - SCREEN_ROWS);
    switch (final) {
      case "A": return this.moveTo(Math.max(top, this.row - n));
      case "B": case "e": return this.moveTo(Math.min(last, this.row + n));
      case "C": case "a": return void (this.col = Math.max(this.col, Math.min(this.col + n, MAX_CURSOR_COLUMN)));
      case "D": return void (this.col = Math.max(0, this.col - n));
      case "E": this.moveTo(Math.min(last, this.row + n)); return void (this.col = 0);
      case "F": this.moveTo(Math.max(top, this.row - n)); return void (this.col = 0);
      case "G": case "`": return void (this.col = Math.min(n - 1, MAX_CURSOR_COLUMN));
      case "K": return this.eraseInLine(raw);
      case "J": return raw === 0 ? this.eraseBelow() : undefined;
      case "X": return this.blank(this.col, Math.min(this.col + n, this.line().length));
      case "s": if (params === "") this.saved = { row: this.row, col: this.col }; return;
      case "u": return this.restore();
    }
  }

  /** EL (ECMA-48 8.3.41): 0 from the cursor to the end, 1 from the start to the cursor, 2 the whole line. */
  private eraseInLine(mode: number): void {
    const line = this.line();
    if (typeof line === "string") {
      if (mode === 0 && this.col < line.length) this.lines[this.row] = line.slice(0, this.col);
      if (mode === 0) return;
    }
    const cells = this.cells();
    if (mode === 0) {
      if (this.col < cells.length) {
        if (cells[this.col] === "") cells[this.col - 1] = " "; // half a wide character is no character
        cells.length = this.col;
      }
    } else if (mode === 1) this.blank(0, Math.min(this.col + 1, cells.length));
    else if (mode === 2) this.lines[this.row] = "";
  }

  /** ED 0 (ECMA-48 8.3.39): the cursor's line from the cursor on, and the lines below (the rows stay, empty). */
  private eraseBelow(): void {
    this.eraseInLine(0);
    this.lines.length = this.row + 1;
  }

  /** Blanks cells `from` (inclusive) to `to` (exclusive) of the cursor's line, and any wide character they cut in half. */
  private blank(from: number, to: number): void {
    if (from >= to) return;
    const cells = this.cells();
    if (cells[from] === "") cells[from - 1] = " ";
    if (to < cells.length && cells[to] === "") cells[to] = " ";
    for (let k = from; k < to; k++) cells[k] = " ";
  }

  private restore(): void {
    this.moveTo(Math.min(Math.max(this.saved.row, this.rows - SCREEN_ROWS), this.rows - 1));
    this.col = this.saved.col;
  }


  /** Moves the cursor to `row` (a row of the screen), with lines up to it (the rows an ED 0 left empty come back). */
  private moveTo(row: number): void {
    this.row = row;
    if (this.lines.length <= row) this.lines.length = row + 1; // holes: empty lines, at no cost per line
  }

  private line(): Line {
    return this.lines[this.row] ?? "";
  }

  /** The cursor's line as cells (a string line becomes cells, once). */
  private cells(): Cells {
    const line = this.line();
    if (typeof line !== "string") return line;
    const cells = line.split("");
    this.lines[this.row] = cells;
    return cells;
  }

  /**
   * Before a character is written past the end of a line of `length` cells: the blank cells up to the cursor, taken
   * from the budget (once it is spent, the cursor comes back to the line's end). @returns how many to add
   */
  private spend(length: number): number {
    const gap = Math.min(this.col - length, this.padding);
    if (gap <= 0) {
      this.col = Math.min(this.col, length);
      return 0;
    }
    this.padding -= gap;
    this.col = length + gap;
    return gap;
  }

  /** Writes `run` (characters one column and one code unit wide) at the cursor and moves past it. */
  private printRun(run: string): void {
    let line = this.line();
    if (typeof line === "string") {
      line += " ".repeat(this.spend(line.length));
      // Appending, or overwriting a line not much longer than the run (a progress frame): as strings.
      if (this.col === line.length || line.length <= 4 * run.length + 32) {
        this.lines[this.row] = line.slice(0, this.col) + run + line.slice(this.col + run.length);
        this.col += run.length;
        return;
      }
      this.lines[this.row] = line;
    }
    for (const char of run) this.print(char, 1);
  }

  /** Writes one character of `width` columns at the cursor and moves past it (a combining mark joins the one before). */
  private print(char: string, width: number): void {
    const cells = this.cells();
    if (width === 0) {
      const at = cells[this.col - 1] === "" ? this.col - 2 : this.col - 1;
      if (at >= 0 && at < cells.length) cells[at] += char;
      return;
    }
    for (let k = this.spend(cells.length); k > 0; k--) cells.push(" ");
    const col = this.col;
    if (cells[col] === "") cells[col - 1] = " "; // overwriting the right half of a wide character
    const end = col + width;
    if (end < cells.length && cells[end] === "") cells[end] = " "; // … or the left half of one
    cells[col] = char;
    if (width === 2) cells[col + 1] = "";
    this.col = end;
  }
}

/** The index after a control string's terminator (ST `ESC \`, or BEL as xterm accepts for OSC); the text's end if none. */
function controlStringEnd(text: string, i: number): number {
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x07 || c === 0x9c) return j + 1;
    if (c === 0x1b) return text.charCodeAt(j + 1) === 0x5c ? j + 2 : j; // ESC \ ends it; another ESC starts anew
  }
  return text.length;
}

/** A printable character one column and one code unit wide (not a control, a surrogate, a wide or a combining one). */
function isSimple(c: number): boolean {
  if (c < 0x300) return c >= 0x20 && c !== 0x7f && c !== 0x9b;
  return (c < 0xd800 || c > 0xdfff) && columns(c) === 1;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Code points that take no column: combining marks, zero-width spaces and joiners, variation selectors. Sorted. */
const ZERO_WIDTH = [0x0300, 0x036f, 0x1ab0, 0x1aff, 0x1dc0, 0x1dff, 0x200b, 0x200f, 0x20d0, 0x20ff, 0xfe00, 0xfe0f, 0xfe20, 0xfe2f];

/**
 * Code points that take two columns: East Asian Wide and Fullwidth (Hangul Jamo, CJK, Kana, Hangul, fullwidth forms),
 * and the emoji shown as emoji (Unicode 11 widths, as VS Code's terminal uses by default: ✅ ❌ ✨ ⚡ ⏳ 🚀 📦). Sorted
 * pairs of first and last.
 */
const WIDE = [
  0x1100, 0x115f, 0x231a, 0x231b, 0x23e9, 0x23ec, 0x23f0, 0x23f0, 0x23f3, 0x23f3, 0x25fd, 0x25fe, 0x2614, 0x2615,
  0x26a1, 0x26a1, 0x26aa, 0x26ab, 0x26bd, 0x26be, 0x26c4, 0x26c5, 0x26d4, 0x26d4, 0x26ea, 0x26ea, 0x26f2, 0x26f3,
  0x26f5, 0x26f5, 0x26fa, 0x26fa, 0x26fd, 0x26fd, 0x2705, 0x2705, 0x270a, 0x270b, 0x2728, 0x2728, 0x274c, 0x274c,
  0x274e, 0x274e, 0x2753, 0x2755, 0x2757, 0x2757, 0x2795, 0x2797, 0x27b0, 0x27b0, 0x27bf, 0x27bf, 0x2b1b, 0x2b1c,
  0x2b50, 0x2b50, 0x2b55, 0x2b55, 0x2e80, 0x303e, 0x3041, 0x33ff, 0x3400, 0x4dbf, 0x4e00, 0x9fff, 0xa000, 0xa4cf,
  0xac00, 0xd7a3, 0xf900, 0xfaff, 0xfe30, 0xfe4f, 0xff00, 0xff60, 0xffe0, 0xffe6, 0x1f300, 0x1f64f, 0x1f680, 0x1f6ff,
  0x1f900, 0x1f9ff, 0x1fa70, 0x1faff, 0x20000, 0x3fffd,
];

function inRanges(point: number, ranges: readonly number[]): boolean {
  for (let k = 0; k < ranges.length && point >= ranges[k]!; k += 2) if (point <= ranges[k + 1]!) return true;
  return false;
}

/** Columns a code point takes (after wcwidth and Unicode's East Asian Width: W and F take 2; combining marks 0). */
export function columns(point: number): 0 | 1 | 2 {
  if (point < 0x0300) return 1;
  if (inRanges(point, ZERO_WIDTH)) return 0;
  return inRanges(point, WIDE) ? 2 : 1;
}
