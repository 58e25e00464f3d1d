/** Default bound of the kept stderr, in characters (about 64 KB; field case 8). */
export const STDERR_TAIL_CHARS = 64 * 1024;

/**
 * Splits an agent's stderr into lines and keeps a bounded tail of them, so a flood of output (field case 8)
 * costs bounded memory while the last words before a crash stay available for error messages.
 */
export class StderrTail {
  private lines: string[] = [];
  private chars = 0;
  private partial = "";

  /** @param maxChars bound of the kept tail, in characters */
  constructor(private readonly maxChars = STDERR_TAIL_CHARS) {}

  /** Adds decoded text; returns the complete lines it finished (without newline). */
  push(text: string): string[] {
    const pieces = (this.partial + text).split("\n");
    this.partial = pieces.pop() ?? "";
    if (this.partial.length > this.maxChars) {
      pieces.push(this.partial);
      this.partial = "";
    }
    for (const raw of pieces) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      this.lines.push(line);
      this.chars += line.length + 1;
    }
    let drop = 0;
    while (this.chars > this.maxChars && drop < this.lines.length) {
      this.chars -= this.lines[drop]!.length + 1;
      drop += 1;
    }
    if (drop > 0) this.lines = this.lines.slice(drop);
    return pieces;
  }

  /** The last `maxChars` characters of stderr (whole lines, plus the unfinished one). */
  tail(maxChars = this.maxChars): string {
    const out: string[] = this.partial ? [this.partial] : [];
    let size = this.partial.length;
    for (let i = this.lines.length - 1; i >= 0 && size < maxChars; i -= 1) {
      const line = this.lines[i]!;
      size += line.length + 1;
      out.unshift(line);
    }
    return out.join("\n").slice(-maxChars).trim();
  }
}
