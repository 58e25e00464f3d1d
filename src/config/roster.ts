import path from "node:path";
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode } from "yaml";
import schema from "../../schema/sidekicks.schema.json";

/** One agent of the roster (`agents[]` in sidekicks.yaml; docs/reference/configuration.md). */
export interface AgentConfig {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute folder the agent works in (resolved against the config file's folder), if the file names one. */
  workspace?: string;
}

/** A validated roster. */
export interface Roster {
  /** Absolute path of the file it was read from. */
  file: string;
  agents: AgentConfig[];
}

/** A problem in the file at a 1-based line and column. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** Formats a problem as `file:line:column: message`, the way compilers and the Problems panel do. */
export function formatProblem(p: ConfigProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
const validate = ajv.compile(schema);

/**
 * Parses and validates roster text: YAML syntax, then the JSON Schema (`schema/sidekicks.schema.json`, ajv), then
 * cross-entry rules (unique names). Every problem carries the line and column of the offending node.
 *
 * @param text the file's content
 * @param file absolute path, used in problems and to resolve `workspace`
 * @returns the roster when there is no problem, and the problems (empty when valid)
 */
export function parseRoster(text: string, file: string): { roster?: Roster; problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  const at = (offset: number, message: string): ConfigProblem => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col, message };
  };
  if (doc.errors.length > 0) {
    return { problems: doc.errors.map((e) => at(e.pos[0], `YAML syntax: ${e.message.split("\n")[0]}`)) };
  }
  const data: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  if (!validate(data)) {
    const errors = (validate.errors ?? []).filter((e) => !isRedundant(e, validate.errors ?? []));
    return { problems: errors.map((e) => at(offsetOf(doc, e), describe(e))) };
  }
  const raw = data as { agents: { name: string; command: string; args?: string[]; env?: Record<string, string>; workspace?: string }[] };
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  raw.agents.forEach((agent, i) => {
    const key = agent.name.toLowerCase();
    if (seen.has(key)) {
      problems.push(at(offsetOf(doc, { instancePath: `/agents/${i}/name` }), `agents[${i}].name: "${agent.name}" is used by another agent; names must be unique`));
    }
    seen.add(key);
  });
  if (problems.length > 0) return { problems };
  const dir = path.dirname(file);
  return {
    problems,
    roster: {
      file,
      agents: raw.agents.map((a) => ({
        name: a.name,
        command: a.command,
        args: a.args ?? [],
        env: a.env ?? {},
        workspace: a.workspace === undefined ? undefined : path.resolve(dir, a.workspace),
      })),
    },
  };
}

/** `required`/`additionalProperties` errors say it all; drop the generic `if`/`anyOf` noise that repeats them. */
function isRedundant(e: ErrorObject, _all: ErrorObject[]): boolean {
  return e.keyword === "if" || e.keyword === "anyOf" || e.keyword === "oneOf";
}

function pathOf(instancePath: string): (string | number)[] {
  return instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function display(instancePath: string): string {
  const parts = pathOf(instancePath);
  if (parts.length === 0) return "(top level)";
  return parts.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function describe(e: ErrorObject): string {
  const where = display(e.instancePath);
  switch (e.keyword) {
    case "additionalProperties": {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = allowedKeys(e);
      const near = nearest(key, allowed);
      return `${where}: unknown key "${key}"${near ? ` (did you mean "${near}"?)` : allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`;
    }
    case "required":
      return `${where}: missing required key "${(e.params as { missingProperty: string }).missingProperty}"`;
    case "pattern":
      return `${where}: "${String(e.data)}" is not a valid name: start with a letter, then letters, digits, "-" or "_" (at most 32)`;
    case "type":
      return `${where}: must be ${(e.params as { type: string }).type}`;
    case "const":
      return `${where}: must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    default:
      return `${where}: ${e.message ?? "is invalid"}`;
  }
}

function allowedKeys(e: ErrorObject): string[] {
  const parent = e.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(parent?.properties ?? {});
}

/** The allowed key closest to `key` by edit distance, if close enough to be a typo. */
function nearest(key: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(key.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** Source offset of the node an error is about: the offending key for unknown keys, else the value. */
function offsetOf(doc: Document, e: Pick<ErrorObject, "instancePath"> & Partial<ErrorObject>): number {
  const parts = pathOf(e.instancePath);
  const node = parts.length === 0 ? doc.contents : (doc.getIn(parts, true) as YamlNode | undefined);
  if (e.keyword === "additionalProperties" && isMap(node)) {
    const key = (e.params as { additionalProperty: string }).additionalProperty;
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
    if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
  }
  const range = (node as YamlNode | undefined)?.range ?? (doc.contents as YamlNode | null)?.range;
  return range ? range[0] : 0;
}
