/**
 * Confinement: an agent reads and writes only inside its workspace roots (issue #7). Decides, for a path an agent
 * sent in `fs/read_text_file` or `fs/write_text_file`, whether it may be touched, and if not, says why in words a
 * person understands. No `vscode` import; the editor layer logs refusals and shows them in the tool call.
 *
 * Rules (in this order):
 * 1. The path must be a non-empty string without NUL characters.
 * 2. It must be **absolute**. ACP requires absolute paths in `fs/*` and `terminal/create`'s `cwd`; a relative path
 *    is refused rather than resolved against a guessed base (the first root), because guessing could silently read
 *    or overwrite a file the agent did not mean.
 * 3. Lexically (after collapsing `.`, `..` and repeated or trailing separators) it must name a place inside a root.
 *    A path that leaves through `..` is refused saying so.
 * 4. What it really resolves to must be inside a root as well: the real path of the path itself, or — for a file
 *    that does not exist yet — of its nearest existing ancestor with the missing part appended. Symlinks are
 *    followed the way the kernel follows them (`link/..` is the parent of the link's *target*), dangling symlinks
 *    are followed to where they point, so a write through them cannot create a file elsewhere. A symlink that stays
 *    inside is allowed; one that leads out is refused saying where it leads.
 *
 * Roots are compared both as given and as real paths, so a root that is itself a symlink works under either name.
 * Comparison is case-sensitive except on Windows and macOS (the default file systems there ignore case), which
 * `caseInsensitive` overrides. Unicode names are compared as they are (no normalization): on Linux two spellings are
 * two files.
 *
 * 5. (Checked before 3 and 4.) It may be at most {@link MAX_PATH_DEPTH} folders deep and {@link MAX_PATH_CHARS}
 *    characters long.
 *
 * What is checked is the path at the moment of the check; a file or folder swapped for a symlink afterwards (a race
 * with the agent's own processes) is caught where the file is opened (regularFile.ts: `O_NOFOLLOW`, and where the
 * opened file really is, checked again with {@link Confinement.contains}).
 */
import { promises as fs, realpathSync } from "node:fs";
import path from "node:path";
import { SidekicksError } from "../shared/errors";

/** Why a path was refused; stable, for tests and logs. The words for people are in `reason`. */
export type RefusalKind = "invalid" | "relative" | "dotdot" | "outside" | "symlink" | "tooDeep";

/** The outcome of a confinement check. */
export type ConfinementDecision =
  | {
      allowed: true;
      /** The requested path, normalized (absolute, no `.`/`..`, no trailing separator). What the editor knows it by. */
      path: string;
      /** Where it really is (symlinks resolved); for a file that does not exist yet, where it would be created. */
      realPath: string;
      /** The root (as given, normalized) it lies in. */
      root: string;
      /** Whether the path exists now. */
      exists: boolean;
    }
  | {
      allowed: false;
      kind: RefusalKind;
      /** The path as requested. */
      requested: string;
      /** One sentence for people: what was refused and why, naming the roots. */
      reason: string;
    };

/** Options of {@link Confinement}. */
export interface ConfinementOptions {
  /** Compare paths ignoring case. Default: `true` on win32 and darwin, `false` elsewhere. */
  caseInsensitive?: boolean;
}

const MAX_SYMLINKS = 40; // as Linux's ELOOP limit

/**
 * Most folders deep a path may go, and most characters it may have (Linux's PATH_MAX): a path past them is refused
 * before any file system call, so one agent cannot make a 2,000-level tree that every later check and turn snapshot
 * walks (issue 17). Real trees (node_modules included) stay far below 128 levels.
 */
export const MAX_PATH_DEPTH = 128;
export const MAX_PATH_CHARS = 4096;

/** True when `child` is `parent` or lies under it; both absolute and normalized. */
function isWithin(parent: string, child: string, caseInsensitive: boolean): boolean {
  const a = caseInsensitive ? parent.toLowerCase() : parent;
  const b = caseInsensitive ? child.toLowerCase() : child;
  const rel = path.relative(a, b);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + path.sep) && !path.isAbsolute(rel));
}

/** Normalizes an absolute path: collapses `.`/`..`, repeated separators, and removes a trailing separator. */
function normalizeAbsolute(p: string): string {
  const n = path.resolve(p);
  return n.length > path.parse(n).root.length && n.endsWith(path.sep) ? n.slice(0, -1) : n;
}

const errCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/**
 * `folder` with its symbolic links resolved (`realpathSync`), or `folder` as given when it cannot be (it does not exist
 * here, or cannot be read): for comparing folders that may be spelled through a link, never for confinement.
 */
export function realPathOrSame(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * Where `p` (absolute, possibly with `..` and symlinks) really leads: the native `realpath` of its longest existing
 * prefix, with the missing rest appended. A missing component that is a dangling symlink is followed to its target.
 * @returns the real path and whether `p` exists
 */
export async function resolveReal(p: string, depth = 0): Promise<{ realPath: string; exists: boolean }> {
  if (depth > MAX_SYMLINKS) throw new SidekicksError("workspace/outside", `Too many levels of symbolic links in "${p}".`);
  const tail: string[] = [];
  let head = p;
  for (;;) {
    try {
      const real = await fs.realpath(head); // native realpath(3): follows links as the kernel does
      return { realPath: tail.length ? path.resolve(real, ...tail) : real, exists: tail.length === 0 };
    } catch (err) {
      const code = errCode(err);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
      // A dangling symlink: follow it, so a write through it is judged where it would land.
      const st = await fs.lstat(head).catch(() => undefined);
      if (st?.isSymbolicLink()) {
        // Swapped for something else since the lstat (a racing process): resolve the whole path again.
        const link = await fs.readlink(head).catch(() => undefined);
        if (link === undefined) return resolveReal(p, depth + 1);
        const target = path.resolve(path.dirname(head), link);
        return resolveReal(tail.length ? path.join(target, ...tail) : target, depth + 1).then((r) => ({ ...r, exists: false }));
      }
      const parent = path.dirname(head);
      if (parent === head) return { realPath: path.resolve(head, ...tail), exists: false };
      tail.unshift(path.basename(head));
      head = parent;
    }
  }
}

/**
 * The workspace roots of one agent and the checks against them. Build with {@link Confinement.create}, which
 * resolves the roots' real paths once; roots that do not exist are kept by their given name only.
 */
export class Confinement {
  private constructor(
    /** The roots as given, normalized. */
    readonly roots: readonly string[],
    private readonly realRoots: readonly string[],
    private readonly caseInsensitive: boolean,
  ) {}

  /**
   * @param roots absolute folders (the roster's `workspace`, else the workspace folders); at least one
   * @throws Error when `roots` is empty or a root is relative (a programming error, not an agent's)
   */
  static async create(roots: readonly string[], options: ConfinementOptions = {}): Promise<Confinement> {
    if (roots.length === 0) throw new Error("Confinement needs at least one workspace root");
    for (const r of roots) if (!path.isAbsolute(r)) throw new Error(`Workspace root "${r}" is not absolute`);
    const given = roots.map(normalizeAbsolute);
    const real = await Promise.all(given.map(async (r) => (await resolveReal(r)).realPath));
    const caseInsensitive = options.caseInsensitive ?? (process.platform === "win32" || process.platform === "darwin");
    return new Confinement(given, real, caseInsensitive);
  }

  private rootsText(): string {
    return this.roots.length === 1 ? `the agent's workspace ${this.roots[0]}` : `the agent's workspace folders (${this.roots.join(", ")})`;
  }

  private refuse(kind: RefusalKind, requested: string, why: string): ConfinementDecision {
    return { allowed: false, kind, requested, reason: `Refused "${requested}": ${why}` };
  }

  /**
   * Decides whether `requested` may be read or written. Never throws for a bad path (it is refused instead); file
   * system errors other than "does not exist" (such as EACCES on an ancestor) are thrown.
   * @param requested the path as the agent sent it (ACP: absolute)
   */
  async check(requested: string): Promise<ConfinementDecision> {
    if (typeof requested !== "string" || requested.length === 0) return this.refuse("invalid", String(requested), `the path is empty; ACP file paths are absolute, inside ${this.rootsText()}.`);
    if (requested.includes("\0")) return this.refuse("invalid", requested, `the path contains a NUL character; ACP file paths are absolute, inside ${this.rootsText()}.`);
    if (!path.isAbsolute(requested)) {
      return this.refuse("relative", requested, `it is a relative path; ACP file paths must be absolute, inside ${this.rootsText()}.`);
    }
    if (requested.length > MAX_PATH_CHARS) return this.refuse("tooDeep", requested.slice(0, 200) + "…", `the path has ${requested.length} characters; at most ${MAX_PATH_CHARS} are accepted.`);
    const normalized = normalizeAbsolute(requested);
    const depth = normalized.split(path.sep).length - 1;
    if (depth > MAX_PATH_DEPTH) return this.refuse("tooDeep", requested.slice(0, 200) + "…", `the path is ${depth} folders deep; at most ${MAX_PATH_DEPTH} are accepted.`);
    const lexicalRoot = this.rootOf(normalized);
    if (lexicalRoot === undefined) {
      const dotdot = requested.split(/[\\/]/).includes("..");
      return dotdot
        ? this.refuse("dotdot", requested, `its ".." leads to ${normalized}, outside ${this.rootsText()}.`)
        : this.refuse("outside", requested, `it is outside ${this.rootsText()}.`);
    }
    let resolved: { realPath: string; exists: boolean };
    try {
      resolved = await resolveReal(requested);
    } catch (err) {
      if (errCode(err) !== "ELOOP" && !(err instanceof SidekicksError)) throw err;
      return this.refuse("symlink", requested, "its symbolic links form a loop (or nest too deeply) and lead nowhere.");
    }
    const { realPath, exists } = resolved;
    if (this.rootOf(realPath) === undefined) {
      const what = exists ? "it resolves through a symbolic link to" : "it would be created, through a symbolic link, at";
      return this.refuse("symlink", requested, `${what} ${realPath}, outside ${this.rootsText()}.`);
    }
    return { allowed: true, path: normalized, realPath, root: lexicalRoot, exists };
  }

  /**
   * Like {@link check}, but throws the refusal.
   * @returns the allowed decision
   * @throws SidekicksError `workspace/outside` with the refusal's reason as message (`workspace/tooLarge` for a path
   *   too deep or too long)
   */
  async assert(requested: string): Promise<Extract<ConfinementDecision, { allowed: true }>> {
    const d = await this.check(requested);
    if (!d.allowed) throw new SidekicksError(d.kind === "tooDeep" ? "workspace/tooLarge" : "workspace/outside", d.reason, `refusal: ${d.kind}`);
    return d;
  }

  /** Whether `realPath` (absolute, symbolic links already resolved: what was opened) lies inside one of the roots. */
  contains(realPath: string): boolean {
    return path.isAbsolute(realPath) && this.rootOf(normalizeAbsolute(realPath)) !== undefined;
  }

  /** The (given) root whose given or real form contains `p`, if any. */
  private rootOf(p: string): string | undefined {
    for (let i = 0; i < this.roots.length; i++) {
      if (isWithin(this.roots[i]!, p, this.caseInsensitive) || isWithin(this.realRoots[i]!, p, this.caseInsensitive)) return this.roots[i];
    }
    return undefined;
  }
}
