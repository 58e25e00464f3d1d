import * as l10n from "@vscode/l10n";

/**
 * Splits a command line the user typed into arguments, the way a POSIX shell would without expanding anything:
 * whitespace separates, `'…'` keeps everything literally, `"…"` keeps spaces and takes `\"` and `\\` escapes, and
 * `\` outside quotes escapes the next character. Used by the quick inputs of `Sidekicks: Add agent…`.
 *
 * @throws Error with a message for people when a quote is not closed
 */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  let current = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = findClose(line, i + 1, c);
      if (close < 0) throw new Error(c === "'" ? l10n.t("The single quote at position {0} is not closed.", i + 1) : l10n.t("The double quote at position {0} is not closed.", i + 1));
      const body = line.slice(i + 1, close);
      current += c === '"' ? body.replace(/\\(["\\])/g, "$1") : body;
      inWord = true;
      i = close;
    } else if (c === "\\" && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) out.push(current);
  return out;
}

function findClose(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (quote === '"' && line[i] === "\\") i++;
    else if (line[i] === quote) return i;
  }
  return -1;
}

/** The inverse of `splitArgs`: arguments as one line, quoting those that need it (`splitArgs(joinArgs(a))` is `a`). */
export function joinArgs(args: readonly string[]): string {
  return args.map((a) => (a !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(" ");
}
