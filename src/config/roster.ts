import * as l10n from "@vscode/l10n";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { isMap, isSeq, LineCounter, parseDocument, Parser, visit, type Document } from "yaml";
import { buildSchema } from "./buildSchema";
import { crossFindings, GENERAL_CHANNEL, parseDuration } from "./crossRules";
import { findingsOf, type Finding } from "./schemaFindings";
import { deref, isMergePair, keyNodeAt, nodeAt, spanOf } from "./yamlNodes";

/** An agent's picture: a codicon (`hubot`, written `hubot` or `$(hubot)`) or an image file (absolute path). */
export type AgentIcon = { kind: "codicon"; name: string } | { kind: "file"; path: string };

/** Where an agent process runs (`agents[].runtime`). `sbx` is accepted here and refused when the agent starts. */
export type AgentRuntime = { type: "local" } | { type: "container"; container: string; user?: string; workdir?: string } | { type: "sbx" };

/** How permission requests are answered automatically (`agents[].permissions`); never a safety classifier. */
export type PermissionPolicy = "ask" | "allow-reads" | "allow-all";

/** ACP's `EnvVariable` / `HttpHeader`. */
export interface NameValue {
  name: string;
  value: string;
}

/** An MCP server in ACP's own shape, as `session/new` takes it (`McpServerStdio` | `McpServerHttp` | `McpServerSse`). */
export type McpServerConfig = { name: string; command: string; args: string[]; env: NameValue[] } | { type: "http" | "sse"; name: string; url: string; headers: NameValue[] };

/** One agent of the roster (`agents[]` in sidekicks.yaml; docs/reference/configuration.md), defaults applied. */
export interface AgentConfig {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute folder the agent works in (resolved against the config file's folder), if the file names one. */
  workspace?: string;
  /**
   * The agent works in a git worktree of its own (`agents[].workspace.worktree`, or a channel's `worktree`); never
   * set together with `workspace`.
   */
  worktree?: WorktreeConfig;
  /*
   * The keys below are always set by `parseRoster` (defaults applied); they are optional so code that builds an
   * agent by hand (tests, the demo) need not spell them out. Absent means the documented default.
   */
  /** Shown instead of the name (default: the name). */
  title?: string;
  /** Default: the codicon `hubot`. */
  icon?: AgentIcon;
  /** The colour of the agent's name: a theme colour id (`charts.blue`) or `#rrggbb`. Default: none (a palette colour). */
  color?: string;
  description?: string;
  /** Default: `{ type: "local" }`. */
  runtime?: AgentRuntime;
  /** Default: `ask`. */
  permissions?: PermissionPolicy;
  /** Default: none. */
  mcpServers?: McpServerConfig[];
  /** Whether the agent's sessions get Sidekicks' own MCP server (issue 22). Default: true. */
  sidekicksTools?: boolean;
  /** Skill folders attached to the agent, as written (relative to the workspace folder, `~/…`, or absolute). Default: none. */
  skills?: string[];
}

/** An agent's git worktree as the roster gives it (`agents[].workspace.worktree`), placeholders replaced. */
export interface WorktreeConfig {
  /** The branch the agent's branch starts from; absent: the repository's `HEAD`. */
  base?: string;
  /** The agent's branch (`{agent}` and `{channel}` replaced). */
  branch: string;
  /** Absolute folder holding the worktrees, one subfolder per agent; absent: `.sidekicks-worktrees/<repo>` beside the repository. */
  root?: string;
  /** The channel it comes from (`channels[].worktree`), if it does. */
  channel?: string;
}

/** The default of `worktree.branch`. */
export const DEFAULT_WORKTREE_BRANCH = "sidekicks/{agent}";

/** A declared channel (`channels[]`); member names are spelt as the agents' `name`. `general` lists none (every agent). */
export interface ChannelConfig {
  name: string;
  description?: string;
  members: string[];
  moderator?: string;
  /** Skill folders attached to the channel's members there, as written (as `agents[].skills`). Default: none. */
  skills?: string[];
}

/** A validated roster, every default applied. */
export interface Roster {
  /** Absolute path of the file it was read from. */
  file: string;
  version: 1;
  /** `limits`, with the durations in ms. */
  limits: { maxRunningAgents: number; idleTimeoutMs: number; requestTimeoutMs: number; cancelTimeoutMs: number };
  agents: AgentConfig[];
  channels: ChannelConfig[];
  ui: { defaultChannel: string };
}

/** A problem in the file at a 1-based line and column; the end (exclusive) covers the offending key or value. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  message: string;
  /** Default `error`: the roster is not used. A `warning` is shown but leaves the roster in force (a broken skill). */
  severity?: "warning";
}

/** Defaults the schema documents (src/config/spec.ts), applied by `parseRoster`. */
export const ROSTER_DEFAULTS = { maxRunningAgents: 4, idleTimeout: "10m", requestTimeout: "60s", cancelTimeout: "10s", icon: "hubot", permissions: "ask", defaultChannel: GENERAL_CHANNEL } as const;

/** Formats a problem as `file:line:column: message`, the way compilers and the Problems panel do. */
export function formatProblem(p: ConfigProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** The JSON Schema `parseRoster` validates against: the one `schema/sidekicks.schema.json` is generated from. */
export const ROSTER_SCHEMA = buildSchema();
const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
ajv.addKeyword({ keyword: "markdownDescription", schemaType: "string" });
const validate = ajv.compile(ROSTER_SCHEMA);

/**
 * Parses and validates roster text: YAML syntax, then the JSON Schema (ajv, 2020-12) on the merged data (`<<:` merge
 * keys and aliases resolved), then the cross-entry rules (`crossFindings`). Every problem carries the line and
 * column of the offending node, following merge keys to where a merged value is written; problems are sorted by
 * position.
 *
 * @param text the file's content
 * @param file absolute path, used in problems and to resolve `workspace` and icon files
 * @returns the roster when there is no problem, and the problems (empty when valid)
 */
export function parseRoster(text: string, file: string): { roster?: Roster; problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  const at = (start: number, end: number | undefined, message: string): ConfigProblem => {
    const from = lineCounter.linePos(start);
    const to = end === undefined ? undefined : lineCounter.linePos(end);
    return { file, line: from.line, column: from.col, ...(to ? { endLine: to.line, endColumn: to.col } : {}), message };
  };
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => {
        // An unclosed `[` or `{` is reported where the parser gave up (often the end of the file): point at the bracket.
        const close = /end with a ([\]}])/.exec(e.message)?.[1];
        const open = close ? unclosedFlow(text, e.pos[0], close === "]" ? "[" : "{") : undefined;
        if (open !== undefined) return at(open, open + 1, l10n.t('YAML syntax: this "{0}" is never closed: end it with "{1}", or write the items on lines of their own', close === "]" ? "[" : "{", close!));
        // An unclosed quote is reported where the file ends: point at the quote that opened the string.
        const quote = e.code === "MISSING_CHAR" ? unclosedQuote(text, e.pos[0]) : undefined;
        if (quote) return at(quote.at, quote.at + 1, l10n.t("YAML syntax: this {0} is never closed: end the string with {0} on the same line, or write the value without quotes", quote.char));
        return at(e.pos[0], e.pos[1] > e.pos[0] ? e.pos[1] : undefined, `YAML syntax: ${e.message.split("\n")[0]}`);
      }),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    const offset = badMergeOffset(doc) ?? 0;
    return { problems: [at(offset, undefined, `YAML: ${err instanceof Error ? err.message : String(err)}`)] };
  }
  const findings = validate(data) ? [] : findingsOf(validate.errors ?? []);
  findings.push(...crossFindings(data));
  if (findings.length > 0) return { problems: sortProblems(findings.map((f) => locate(doc, f, at))) };
  return { problems: [], roster: resolveRoster(data as RawRoster, file) };
}

/**
 * A problem with `message` at the node of `path` in the roster `text` (`["agents", 0, "skills", 1]`): for findings
 * made after parsing, such as a skill folder that cannot be read. Falls back to the document's start.
 */
export function problemAt(text: string, file: string, path: (string | number)[], message: string, severity?: "warning"): ConfigProblem {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  const span = spanOf(nodeAt(doc, path) ?? (doc.contents as Parameters<typeof spanOf>[0])) ?? [0, undefined];
  const from = lineCounter.linePos(span[0]);
  const to = span[1] === undefined ? undefined : lineCounter.linePos(span[1]);
  return { file, line: from.line, column: from.col, ...(to ? { endLine: to.line, endColumn: to.col } : {}), message, ...(severity ? { severity } : {}) };
}

function locate(doc: Document, f: Finding, at: (start: number, end: number | undefined, message: string) => ConfigProblem): ConfigProblem {
  const node = f.key !== undefined ? keyNodeAt(doc, f.path, f.key) : f.child !== undefined ? (nodeAt(doc, [...f.path, f.child]) ?? nodeAt(doc, f.path)) : nodeAt(doc, f.path);
  const span = spanOf(node ?? (doc.contents as Parameters<typeof spanOf>[0])) ?? [0, undefined];
  return at(span[0], span[1], f.message);
}

function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems
    .sort((a, b) => a.line - b.line || a.column - b.column || a.message.localeCompare(b.message))
    .filter((p) => {
      const key = formatProblem(p);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Where a `<<:` merges something that is not a map (yaml's `toJS` throws on it), if anywhere. */
function badMergeOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (offset !== undefined || !isMergePair(pair)) return;
      const source = deref(doc, pair.value);
      const sources = isSeq(source) ? source.items.map((s) => deref(doc, s)) : [source];
      if (sources.some((s) => !isMap(s))) offset = (pair.value as { range?: [number, number, number] } | null)?.range?.[0];
    },
  });
  return offset;
}

interface RawAgent {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  workspace?: string | { worktree: RawWorktree };
  title?: string;
  icon?: string;
  color?: string;
  description?: string;
  runtime?: "local" | "sbx" | { type: "container"; container: string; user?: string; workdir?: string };
  permissions?: PermissionPolicy;
  mcpServers?: RawMcpServer[];
  sidekicksTools?: boolean;
  skills?: string[];
}
type RawWorktree = true | { base?: string; branch?: string; root?: string };
type RawNameValues = Record<string, string> | NameValue[];
type RawMcpServer = { type?: "stdio"; name: string; command: string; args?: string[]; env?: RawNameValues } | { type: "http" | "sse"; name: string; url: string; headers?: RawNameValues };
interface RawRoster {
  version?: 1;
  limits?: { maxRunningAgents?: number; idleTimeout?: string; requestTimeout?: string; cancelTimeout?: string };
  agents: RawAgent[];
  channels?: { name: string; description?: string; members?: string[]; moderator?: string; skills?: string[]; worktree?: RawWorktree }[];
  ui?: { defaultChannel?: string };
}

function nameValues(raw: RawNameValues | undefined): NameValue[] {
  if (!raw) return [];
  return Array.isArray(raw) ? raw.map(({ name, value }) => ({ name, value })) : Object.entries(raw).map(([name, value]) => ({ name, value }));
}

/** Applies defaults and resolves paths of data the schema and the cross-entry rules accepted. */
function resolveRoster(raw: RawRoster, file: string): Roster {
  const dir = path.dirname(file);
  const spelling = new Map(raw.agents.map((a) => [a.name.toLowerCase(), a.name]));
  const canonical = (name: string) => spelling.get(name.toLowerCase()) ?? name;
  return {
    file,
    version: 1,
    limits: {
      maxRunningAgents: raw.limits?.maxRunningAgents ?? ROSTER_DEFAULTS.maxRunningAgents,
      idleTimeoutMs: parseDuration(raw.limits?.idleTimeout ?? ROSTER_DEFAULTS.idleTimeout)!,
      requestTimeoutMs: parseDuration(raw.limits?.requestTimeout ?? ROSTER_DEFAULTS.requestTimeout)!,
      cancelTimeoutMs: parseDuration(raw.limits?.cancelTimeout ?? ROSTER_DEFAULTS.cancelTimeout)!,
    },
    agents: raw.agents.map((a) => ({
      name: a.name,
      command: a.command,
      args: a.args ?? [],
      env: a.env ?? {},
      ...(typeof a.workspace === "string" ? { workspace: path.resolve(dir, a.workspace) } : {}),
      ...worktreeOf(a, raw, dir),
      title: a.title ?? a.name,
      icon: resolveIcon(a.icon ?? ROSTER_DEFAULTS.icon, dir),
      ...(a.color !== undefined ? { color: a.color } : {}),
      ...(a.description !== undefined ? { description: a.description } : {}),
      runtime: a.runtime === undefined || a.runtime === "local" ? { type: "local" } : a.runtime === "sbx" ? { type: "sbx" } : { ...a.runtime },
      permissions: a.permissions ?? ROSTER_DEFAULTS.permissions,
      mcpServers: (a.mcpServers ?? []).map((s): McpServerConfig =>
        "url" in s ? { type: s.type, name: s.name, url: s.url, headers: nameValues(s.headers) } : { name: s.name, command: s.command, args: s.args ?? [], env: nameValues(s.env) },
      ),
      sidekicksTools: a.sidekicksTools ?? true,
      skills: a.skills ?? [],
    })),
    channels: (raw.channels ?? []).map((c) => ({
      name: c.name,
      ...(c.description !== undefined ? { description: c.description } : {}),
      members: (c.members ?? []).map(canonical),
      ...(c.moderator !== undefined ? { moderator: canonical(c.moderator) } : {}),
      ...(c.skills !== undefined ? { skills: c.skills } : {}),
    })),
    ui: { defaultChannel: raw.ui?.defaultChannel ?? ROSTER_DEFAULTS.defaultChannel },
  };
}

/**
 * The agent's worktree: its own `workspace.worktree`, else the `worktree` of a channel it is a member of (`general`:
 * every agent) when it names no `workspace` (the cross-entry rules allow one such channel).
 */
function worktreeOf(a: RawAgent, raw: RawRoster, dir: string): { worktree?: WorktreeConfig } {
  const resolve = (w: RawWorktree, channel?: string): { worktree: WorktreeConfig } => {
    const keys = w === true ? {} : w;
    const branch = (keys.branch ?? DEFAULT_WORKTREE_BRANCH).replace(/\{agent\}/g, a.name).replace(/\{channel\}/g, channel ?? "");
    return {
      worktree: {
        ...(keys.base !== undefined ? { base: keys.base } : {}),
        branch,
        ...(keys.root !== undefined ? { root: path.resolve(dir, keys.root) } : {}),
        ...(channel !== undefined ? { channel } : {}),
      },
    };
  };
  if (typeof a.workspace === "object") return resolve(a.workspace.worktree);
  if (a.workspace !== undefined) return {};
  const name = a.name.toLowerCase();
  const channel = (raw.channels ?? []).find((c) => c.worktree !== undefined && (c.name === GENERAL_CHANNEL || (c.members ?? []).some((m) => m.toLowerCase() === name)));
  return channel ? resolve(channel.worktree!, channel.name) : {};
}

function resolveIcon(icon: string, dir: string): AgentIcon {
  const codicon = /^\$\(([a-z0-9-]+)\)$/.exec(icon)?.[1] ?? (/^[a-z0-9-]+$/.test(icon) ? icon : undefined);
  return codicon ? { kind: "codicon", name: codicon } : { kind: "file", path: path.resolve(dir, icon) };
}

/**
 * The offset of the last `opener` (`[` or `{`) before `before` that no bracket closes, outside quotes and comments;
 * undefined when there is none (a rough scan for the message only: YAML's own parser has already refused the text).
 */
function unclosedFlow(text: string, before: number, opener: "[" | "{"): number | undefined {
  const stack: { char: string; at: number }[] = [];
  let quote: string | undefined;
  for (let i = 0; i < Math.min(before, text.length); i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote && text[i - 1] !== "\\") quote = undefined;
      else if (c === "\n") quote = undefined;
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") stack.push({ char: c, at: i });
    else if ((c === "]" && stack.at(-1)?.char === "[") || (c === "}" && stack.at(-1)?.char === "{")) stack.pop();
  }
  for (let k = stack.length - 1; k >= 0; k--) if (stack[k]!.char === opener) return stack[k]!.at;
  return undefined;
}

/**
 * The opening quote of the quoted scalar that runs up to `pos` (where YAML's parser reported a missing closing quote),
 * found in the parser's own tokens; undefined when `pos` is not inside one.
 */
function unclosedQuote(text: string, pos: number): { at: number; char: string } | undefined {
  let found: { at: number; char: string } | undefined;
  const scan = (token: unknown): void => {
    if (found || typeof token !== "object" || token === null) return;
    if (Array.isArray(token)) return token.forEach(scan);
    const t = token as { type?: string; offset?: number; source?: string };
    if ((t.type === "double-quoted-scalar" || t.type === "single-quoted-scalar") && typeof t.offset === "number" && typeof t.source === "string" && t.offset < pos && pos <= t.offset + t.source.length) {
      found = { at: t.offset, char: t.source[0]! };
      return;
    }
    for (const value of Object.values(token)) scan(value);
  };
  for (const token of new Parser().parse(text)) scan(token);
  return found;
}
