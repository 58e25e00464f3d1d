/**
 * Where a link in agent text may lead (issue 6, "links open through the host after `vscode.env.openExternal`
 * rules"). Pure: no `vscode` import, so the rule is unit-tested; `EditorActions` acts on the result.
 *
 * - `http:`, `https:` and `mailto:` open outside the editor (`openExternal` still applies VS Code's link protection);
 * - `file:` URLs, absolute paths and relative paths open in the editor; a relative path is resolved against the
 *   workspace folder and must stay inside it; `#L12` (or `#12`) after a path names a 1-based line;
 * - everything else is refused: `javascript:`, `data:`, `command:`, `vscode:`, other schemes, protocol-relative
 *   `//host` links and in-page `#anchors`.
 */
import path from "node:path";

/** What to do with a link. */
export type LinkTarget =
  | { kind: "external"; uri: string }
  | { kind: "file"; path: string; relative: boolean; line?: number }
  /** `reason` names what the link is, to be put in a sentence: "a javascript: link", "an in-page anchor". */
  | { kind: "refused"; reason: string };

const EXTERNAL = new Set(["http", "https", "mailto"]);

/** Classifies `href` as the webview got it from Markdown (percent-encoded by marked). Never throws. */
export function linkTarget(href: string): LinkTarget {
  const raw = href.trim();
  if (raw === "") return refused("an empty link");
  // Control characters and whitespace inside a scheme are how `java\tscript:` slips past naive checks: refuse.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return refused("a link with control characters");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  const windowsPath = scheme !== undefined && scheme.length === 1 && /^[a-z]:[\\/]/i.test(raw);
  if (scheme !== undefined && !windowsPath) {
    if (EXTERNAL.has(scheme)) {
      try {
        const url = new URL(raw);
        if (scheme !== "mailto" && url.hostname === "") return refused(`a ${scheme} link without a host`);
        return { kind: "external", uri: url.href };
      } catch {
        return refused(`a malformed ${scheme} link`);
      }
    }
    if (scheme === "file") return fileUrl(raw);
    return refused(`a ${scheme}: link`);
  }
  if (raw.startsWith("#")) return refused("an in-page anchor");
  if (raw.startsWith("//") || raw.startsWith("\\\\")) return refused("a link to another host");
  const { rest, line } = splitLine(raw);
  const decoded = decode(rest.replace(/\?.*$/, ""));
  if (decoded === undefined || decoded === "") return refused("a malformed path");
  const absolute = windowsPath || path.isAbsolute(decoded);
  return withLine({ kind: "file", path: decoded, relative: !absolute }, line);
}

/**
 * The absolute path a file target opens: itself when absolute, else joined to `folder`. `undefined` when it is
 * relative and there is no folder, or when it escapes the folder (`../..`).
 */
export function resolveLinkPath(target: Extract<LinkTarget, { kind: "file" }>, folder: string | undefined): string | undefined {
  if (!target.relative) return target.path;
  if (!folder) return undefined;
  const resolved = path.resolve(folder, target.path);
  const inside = path.relative(folder, resolved);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return undefined;
  return resolved;
}

function fileUrl(raw: string): LinkTarget {
  try {
    const url = new URL(raw);
    if (url.hostname !== "" && url.hostname !== "localhost") return refused("a file link to another host");
    const decoded = decode(url.pathname);
    if (!decoded) return refused("a malformed file link");
    // `file:///C:/x` has the pathname `/C:/x`.
    const file = /^\/[a-z]:\//i.test(decoded) ? decoded.slice(1) : decoded;
    return withLine({ kind: "file", path: file, relative: false }, lineOf(url.hash));
  } catch {
    return refused("a malformed file link");
  }
}

function splitLine(raw: string): { rest: string; line?: number } {
  const hash = raw.indexOf("#");
  if (hash === -1) return { rest: raw };
  return { rest: raw.slice(0, hash), line: lineOf(raw.slice(hash)) };
}

/** `#L12`, `#l12`, `#12`, `#L12-L20` (the first line) → 12. */
function lineOf(hash: string): number | undefined {
  const match = /^#L?(\d{1,9})(?:\D.*)?$/i.exec(hash);
  const line = match ? Number(match[1]) : NaN;
  return Number.isInteger(line) && line >= 1 ? line : undefined;
}

function withLine(target: Extract<LinkTarget, { kind: "file" }>, line: number | undefined): LinkTarget {
  return line === undefined ? target : { ...target, line };
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function refused(reason: string): LinkTarget {
  return { kind: "refused", reason };
}
