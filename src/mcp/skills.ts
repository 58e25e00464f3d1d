/**
 * Skills (issue 22, after the design review's second seed): a skill is a folder holding a `SKILL.md` whose YAML front
 * matter gives its `name`, `version` and `description`, followed by the instructions in Markdown, and any reference
 * files beside it. The roster attaches skill folders to agents (`agents[].skills`) and channels (`channels[].skills`);
 * an agent reads them through the Sidekicks MCP server's `skill_read` and `skill_reference` tools (`tools.ts`).
 *
 * What a tool answers goes to the agent's model, in English (as the tools' descriptions); what the user reads (a
 * {@link SkillProblem}) is localized. Everything read here comes from the file system, a trust boundary: the front matter is checked where it is parsed, a
 * reference file must stay inside its skill's folder (no `..`, no absolute path, no symlink leading out), and a
 * broken skill is a {@link SkillProblem} for the Problems panel, never an exception that fails a turn.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as l10n from "@vscode/l10n";
import { parse as parseYaml } from "yaml";
import { SKILLS_CHANGED_START, SKILLS_FOOTER, SKILLS_HEADER } from "../shared/preamble";

/** A skill read from its folder. */
export interface Skill {
  /** From the front matter: how tools and the catalog name it. */
  name: string;
  /** From the front matter, as written (`1.2.0`, `2026-12-01`…): recorded with each turn that could use it. */
  version: string;
  /** From the front matter: one line for the catalog. */
  description: string;
  /** The instructions: `SKILL.md` after its front matter. */
  instructions: string;
  /** The skill's folder, absolute and real (symlinks resolved). */
  folder: string;
}

/** Why a skill could not be used: shown as a Problems entry on the roster, never as a failed turn. */
export interface SkillProblem {
  /** The path as the roster wrote it. */
  path: string;
  message: string;
}

/** At most this many bytes of `SKILL.md` or of a reference file are read (a skill is text for a model). */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/**
 * The absolute folder a roster entry names: `~` and `~/…` are in the user's home folder, an absolute path is kept, and
 * anything else is relative to `workspaceFolder`.
 */
export function skillFolder(entry: string, workspaceFolder: string, home = os.homedir()): string {
  if (entry === "~") return home;
  if (entry.startsWith("~/")) return path.join(home, entry.slice(2));
  return path.resolve(workspaceFolder, entry);
}

/**
 * Reads the skill in `folder` (absolute). @returns the skill, or the problem that makes it unusable (no `SKILL.md`, no
 * front matter, a missing or non-string `name`, `version` or `description`, a name that is not a tool-friendly word).
 * Never throws.
 */
export async function loadSkill(folder: string, shownAs = folder): Promise<Skill | SkillProblem> {
  const problem = (message: string): SkillProblem => ({ path: shownAs, message });
  let real: string;
  let text: string;
  try {
    real = await fs.realpath(folder);
    text = await readCapped(path.join(real, "SKILL.md"));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return problem(l10n.t('Skill "{0}": no SKILL.md in {1}. A skill is a folder with a SKILL.md that starts with front matter (name, version, description).', shownAs, folder));
    return problem(l10n.t('Skill "{0}": could not be read ({1}).', shownAs, (err as Error).message));
  }
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return problem(l10n.t('Skill "{0}": SKILL.md does not start with front matter (a "---" line, name, version and description, then "---").', shownAs));
  let front: unknown;
  try {
    front = parseYaml(match[1]!);
  } catch (err) {
    return problem(l10n.t('Skill "{0}": the front matter of SKILL.md is not valid YAML ({1}).', shownAs, (err as Error).message.split("\n")[0]!));
  }
  const fields = typeof front === "object" && front !== null && !Array.isArray(front) ? (front as Record<string, unknown>) : {};
  for (const key of ["name", "version", "description"]) {
    const value = fields[key];
    const ok = typeof value === "string" ? value.trim() !== "" : key === "version" && typeof value === "number";
    if (!ok) return problem(l10n.t('Skill "{0}": the front matter of SKILL.md needs "{1}" (a non-empty string).', shownAs, key));
  }
  const name = String(fields.name).trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) return problem(l10n.t('Skill "{0}": its name "{1}" must be a letter or digit, then letters, digits, ".", "-" or "_" (at most 64).', shownAs, name));
  return { name, version: String(fields.version).trim(), description: String(fields.description).trim(), instructions: text.slice(match[0].length), folder: real };
}

/** True for what {@link loadSkill} returns for a usable skill. */
export function isSkill(s: Skill | SkillProblem): s is Skill {
  return "folder" in s;
}

/**
 * The text of the reference file `file` of `skill`, a path relative to the skill's folder (`forms/checklist.md`).
 * @throws Error saying why when `file` is absolute, climbs with `..`, leads out of the folder through a symlink, is
 *   not a regular file, or is larger than {@link MAX_SKILL_FILE_BYTES}
 */
export async function readReference(skill: Skill, file: string): Promise<string> {
  if (file === "" || file.includes("\0")) throw new Error("Name a file of the skill, relative to its folder.");
  if (path.isAbsolute(file) || /^[A-Za-z]:/.test(file)) throw new Error(`"${file}" is an absolute path: name a file relative to the skill's folder.`);
  if (file.split(/[\\/]+/).includes("..")) throw new Error(`"${file}" leaves the skill's folder ("..").`);
  let real: string;
  try {
    real = await fs.realpath(path.join(skill.folder, file));
  } catch {
    throw new Error(`The skill "${skill.name}" has no file "${file}".`);
  }
  const rel = path.relative(skill.folder, real);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(`"${file}" leads out of the skill's folder (a symbolic link), so it is not read.`);
  const stat = await fs.stat(real);
  if (!stat.isFile()) throw new Error(`"${file}" is not a file.`);
  return readCapped(real);
}

/** The reference files of `skill` (paths relative to its folder, `/`-separated, SKILL.md left out), at most 200. */
export async function referenceFiles(skill: Skill): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4 || out.length >= 200) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith(".")) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full, depth + 1);
      else if (e.isFile() && full !== path.join(skill.folder, "SKILL.md") && out.length < 200) out.push(path.relative(skill.folder, full).split(path.sep).join("/"));
    }
  };
  await walk(skill.folder, 0);
  return out;
}

/** The catalog that goes into a session's first prompt: each skill's name, version and description. "" when none. */
export function skillCatalog(skills: Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((s) => `- ${s.name} (version ${s.version}): ${s.description}`);
  return [SKILLS_HEADER, ...lines, SKILLS_FOOTER, ""].join("\n");
}

/**
 * The note that tells a running session its skills changed since it last saw them (`before`): a version changed, a
 * skill added or removed. "" when nothing changed.
 */
export function skillChanges(before: Skill[], now: Skill[]): string {
  const lines: string[] = [];
  for (const s of now) {
    const old = before.find((b) => b.name === s.name);
    if (!old) lines.push(`- ${s.name} (version ${s.version}) was added: ${s.description}`);
    else if (old.version !== s.version) lines.push(`- ${s.name} is now version ${s.version} (was ${old.version}): read it again with skill_read before following it`);
    else if (old.instructions !== s.instructions) lines.push(`- ${s.name} (still version ${s.version}) was edited: read it again with skill_read before following it`);
  }
  for (const b of before) if (!now.some((s) => s.name === b.name)) lines.push(`- ${b.name} was removed: do not follow it any more`);
  return lines.length === 0 ? "" : [SKILLS_CHANGED_START, ...lines, SKILLS_FOOTER, ""].join("\n");
}

async function readCapped(file: string): Promise<string> {
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_SKILL_FILE_BYTES) throw new Error(`${path.basename(file)} is larger than ${MAX_SKILL_FILE_BYTES / 1024} KB.`);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}
