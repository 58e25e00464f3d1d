/**
 * The retained output of one terminal, bounded by ACP's `outputByteLimit` (`terminal/create`): when more arrived,
 * the oldest output is dropped from the start, cut at a character boundary (never half a UTF-8 sequence), and — so
 * the text a person or an agent sees does not open with garbage like `[31m` — never in the middle of an ANSI escape
 * sequence (CSI, OSC, or a short escape) that began before the cut. The retained text may then be a little shorter
 * than the limit, as the spec allows. Input is text already decoded from UTF-8 (see `Utf8Chunks`).
 */

/** How many characters before a cut are searched for the start of an escape sequence that spans it. */
const ESCAPE_LOOKBACK = 256;

/** UTF-8 length in bytes of `text`. */
export const utf8Bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/**
 * The end (exclusive, a char index) of the escape sequence starting at `start` (`s[start]` is ESC), or `undefined`
 * when it does not end within `s`. CSI: `ESC [` params, intermediates, final byte 0x40–0x7E. OSC (and DCS, SOS, PM,
 * APC): up to BEL or `ESC \`. Others: ESC, intermediates 0x20–0x2F, one final byte.
 */
export function escapeEnd(s: string, start: number): number | undefined {
  const kind = s[start + 1];
  if (kind === undefined) return undefined;
  if (kind === "[") {
    for (let i = start + 2; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x40 && c <= 0x7e) return i + 1;
      if (c < 0x20 || c > 0x3f) return i; // malformed: the sequence ends before this character
    }
    return undefined;
  }
  if (kind === "]" || kind === "P" || kind === "X" || kind === "^" || kind === "_") {
    for (let i = start + 2; i < s.length; i++) {
      if (s[i] === "\x07") return i + 1;
      if (s[i] === "\x1b" && s[i + 1] === "\\") return i + 2;
    }
    return undefined;
  }
  let i = start + 1;
  while (i < s.length && s.charCodeAt(i) >= 0x20 && s.charCodeAt(i) <= 0x2f) i++;
  return i < s.length ? i + 1 : undefined;
}

/**
 * The char index in `s` at which to start keeping text so that at least `dropBytes` UTF-8 bytes are dropped: a
 * character boundary, moved forward past an escape sequence the cut would split.
 */
export function cutIndex(s: string, dropBytes: number): number {
  if (dropBytes <= 0) return 0;
  const buf = Buffer.from(s, "utf8");
  if (dropBytes >= buf.length) return s.length;
  let b = dropBytes;
  while (b < buf.length && (buf[b]! & 0xc0) === 0x80) b++; // skip continuation bytes: cut at a character boundary
  let i = buf.subarray(0, b).toString("utf8").length; // char index of byte offset b (a boundary, so exact)
  const esc = s.lastIndexOf("\x1b", i - 1);
  if (esc >= 0 && i - esc <= ESCAPE_LOOKBACK) {
    const end = escapeEnd(s, esc);
    if (end === undefined) i = s.length;
    else if (end > i) i = end;
  }
  return i;
}

/** A byte-bounded, start-truncated text buffer. */
export class OutputBuffer {
  private chunks: { text: string; bytes: number }[] = [];
  private bytes = 0;
  private cached: string | undefined = "";
  private dropped = false;
  private received = 0;
  /** The last characters dropped (at most ESCAPE_LOOKBACK) since the last cut: an escape sequence begun there may end in what is kept. */
  private droppedTail = "";

  /** @param limit most UTF-8 bytes to retain (ACP `outputByteLimit`); `Infinity` keeps everything */
  constructor(readonly limit: number) {
    if (!(limit >= 0)) throw new RangeError(`outputByteLimit must be ≥ 0, got ${limit}`);
  }

  /** Appends decoded text; drops whole chunks from the start while the rest still holds at least `limit` bytes. */
  push(text: string): void {
    if (text.length === 0) return;
    const bytes = utf8Bytes(text);
    this.received += bytes;
    this.chunks.push({ text, bytes });
    this.bytes += bytes;
    this.cached = undefined;
    while (this.chunks.length > 0 && this.bytes - this.chunks[0]!.bytes >= this.limit) {
      const gone = this.chunks.shift()!;
      this.bytes -= gone.bytes;
      this.dropped = true;
      // Keep the end of what was dropped: an escape sequence may begin there and end in what is kept.
      this.droppedTail = gone.text.length >= ESCAPE_LOOKBACK ? gone.text.slice(-ESCAPE_LOOKBACK) : (this.droppedTail + gone.text).slice(-ESCAPE_LOOKBACK);
    }
  }

  /** The retained text: at most `limit` UTF-8 bytes, starting at a character (and escape sequence) boundary. */
  text(): string {
    if (this.cached !== undefined) return this.cached;
    let text = this.chunks.length === 1 ? this.chunks[0]!.text : this.chunks.map((c) => c.text).join("");
    const excess = this.bytes - this.limit;
    if (excess > 0 || this.droppedTail) {
      // Cut with the dropped tail in front, so a sequence that began before the cut is recognized and skipped.
      const context = this.droppedTail + text;
      const start = Math.max(cutIndex(context, utf8Bytes(this.droppedTail) + Math.max(0, excess)), this.droppedTail.length);
      text = context.slice(start);
      if (excess > 0) this.dropped = true;
      // The kept text now starts past any sequence begun before it, so later cuts need no context — unless
      // nothing is kept and an unfinished sequence may go on in the next output.
      this.droppedTail = text.length === 0 ? context.slice(-ESCAPE_LOOKBACK) : "";
    }
    this.bytes = utf8Bytes(text);
    this.chunks = text.length > 0 ? [{ text, bytes: this.bytes }] : [];
    this.cached = text;
    return text;
  }

  /** Whether output was dropped to stay within the limit (ACP `truncated`). */
  get truncated(): boolean {
    if (this.bytes > this.limit) this.text();
    return this.dropped;
  }

  /** Bytes currently retained (after `text()`, at most `limit`). */
  get retainedBytes(): number {
    return this.bytes;
  }

  /** Bytes ever pushed. */
  get receivedBytes(): number {
    return this.received;
  }
}
