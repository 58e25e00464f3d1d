import * as l10n from "@vscode/l10n";
import type { ErrorObject } from "ajv";
import { PATTERNS, type JsonSchema, type PatternSpec } from "./spec";
import type { DataPath } from "./yamlNodes";

/** A problem before it has a position: the data path it is about and, for unknown keys, the key itself. */
export interface Finding {
  path: DataPath;
  /** Set when the problem is the key itself (an unknown key): the position is the key's, not the value's. */
  key?: string;
  /** When set, the position is this key's value inside `path` (`type` of an MCP server). */
  child?: string;
  message: string;
}

/** ajv's `instancePath` (`/agents/0/name`) as a path (`["agents", 0, "name"]`). */
export function pathOf(instancePath: string): (string | number)[] {
  return instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** A path as people read it: `agents[0].env.LOG`; `(top level)` for the root. */
export function displayPath(path: DataPath): string {
  if (path.length === 0) return "(top level)";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/**
 * Turns ajv errors (allErrors, verbose) into findings, one per real problem: of the alternatives of a `oneOf`,
 * only the one whose shape matches the value speaks (a string is checked against the string branch, a map with
 * `type: http` against the http branch); when none matches, one finding lists the alternatives.
 */
export function findingsOf(errors: readonly ErrorObject[]): Finding[] {
  const kept = new Set(errors.filter((e) => e.keyword !== "if" && e.keyword !== "anyOf"));
  const alternatives = new Map<ErrorObject, string[]>();
  const oneOfs = errors.filter((e) => e.keyword === "oneOf").sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const o of oneOfs) {
    if (!kept.has(o)) continue;
    const branches = (o.schema as JsonSchema[]) ?? [];
    const chosen = branches.findIndex((b) => shapeMatches(b, o.data));
    const inside = (e: ErrorObject) => e !== o && e.schemaPath.startsWith(`${o.schemaPath}/`) && isWithin(e.instancePath, o.instancePath);
    kept.delete(o);
    if (chosen >= 0) {
      const others = branches.filter((_, i) => i !== chosen).map(titleOf);
      for (const e of errors) {
        if (!inside(e)) continue;
        if (!e.schemaPath.startsWith(`${o.schemaPath}/${chosen}/`)) kept.delete(e);
        else if (e.instancePath === o.instancePath && e.keyword === "enum") alternatives.set(e, others);
      }
    } else {
      for (const e of errors) if (inside(e)) kept.delete(e);
      kept.add({ ...o, keyword: "x-alternatives", params: { branches } });
    }
  }
  return [...kept].map((e) => describe(e, alternatives.get(e) ?? []));
}

function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function jsonType(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether a `oneOf` branch is meant for this value: same JSON type and, for maps, a fitting `type` key. */
function shapeMatches(branch: JsonSchema, data: unknown): boolean {
  const t = jsonType(data);
  const declared = branch.type as string | undefined;
  if (declared && declared !== t && !(declared === "number" && t === "integer")) return false;
  if (!declared && Array.isArray(branch.enum) && !branch.enum.some((v) => jsonType(v) === t)) return false;
  if (t !== "object") return true;
  const discriminator = (branch.properties as Record<string, JsonSchema> | undefined)?.type;
  const allowed = discriminator ? ((discriminator.enum as unknown[] | undefined) ?? ("const" in discriminator ? [discriminator.const] : undefined)) : undefined;
  if (!allowed) return true;
  const value = (data as Record<string, unknown>).type;
  if (value === undefined) return !((branch.required as string[] | undefined) ?? []).includes("type");
  return allowed.includes(value);
}

function titleOf(branch: JsonSchema): string {
  if (typeof branch.title === "string") return branch.title;
  return kindWords(String(branch.type ?? "value"));
}

/** What a JSON type is called in a problem ("must be a string"), translated when read. */
const KIND_WORDS: Record<string, () => string> = {
  string: () => l10n.t("a string"),
  integer: () => l10n.t("a whole number"),
  number: () => l10n.t("a number"),
  boolean: () => l10n.t("true or false"),
  array: () => l10n.t("a list"),
  object: () => l10n.t("a map"),
  null: () => l10n.t("empty"),
};

function kindWords(type: string): string {
  return KIND_WORDS[type]?.() ?? type;
}

/** ` (did you mean "near"?)`, appended to a problem. */
export function didYouMeanHint(near: string): string {
  return l10n.t(' (did you mean "{0}"?)', near);
}

/** What a value is, after "not": `a number`, `a list`, `empty`. */
function found(value: unknown): string {
  const t = jsonType(value);
  return kindWords(t === "integer" ? "number" : t);
}

function patternFor(source: unknown): PatternSpec | undefined {
  return Object.values(PATTERNS).find((p) => p.pattern === source);
}

function quoteList(values: readonly unknown[], extra: readonly string[] = []): string {
  const all = [...values.map((v) => JSON.stringify(v)), ...extra];
  return all.length <= 1 ? all.join("") : l10n.t("{0} or {1}", all.slice(0, -1).join(", "), all[all.length - 1]!);
}

function describe(e: ErrorObject, alternatives: string[]): Finding {
  const path = pathOf(e.instancePath);
  const where = displayPath(path);
  const parent = (e.parentSchema ?? {}) as JsonSchema;
  switch (e.keyword) {
    case "additionalProperties": {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((parent.properties as object | undefined) ?? {});
      const near = nearest(key, allowed);
      const hint = near ? didYouMeanHint(near) : allowed.length > 0 ? l10n.t(" (allowed: {0})", allowed.join(", ")) : "";
      return { path, key, message: l10n.t('{0}: unknown key "{1}"{2}', where, key, hint) };
    }
    case "not":
      // A rule between keys (spec `schemaExtra`): its branch says it in `description`.
      return { path, message: `${where}: ${typeof parent.description === "string" ? parent.description : l10n.t("this combination of keys is not allowed")}` };
    case "required":
      return { path, message: l10n.t('{0}: missing required key "{1}"', where, (e.params as { missingProperty: string }).missingProperty) };
    case "type": {
      const pattern = patternFor(parent.pattern);
      const wanted = pattern ? pattern.what : kindWords((e.params as { type: string }).type);
      return { path, message: l10n.t("{0}: must be {1}, not {2}", where, wanted, found(e.data)) };
    }
    case "pattern": {
      const pattern = patternFor((e.params as { pattern: string }).pattern);
      return { path, message: `${where}: ${pattern ? pattern.invalid(String(e.data)) : l10n.t('"{0}" does not have the expected form', String(e.data))}` };
    }
    case "const":
      return { path, message: l10n.t("{0}: must be {1}", where, JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)) };
    case "enum": {
      const values = (e.params as { allowedValues: unknown[] }).allowedValues;
      const near = typeof e.data === "string" ? nearest(e.data, values.filter((v): v is string => typeof v === "string")) : undefined;
      const hint = near ? didYouMeanHint(near) : "";
      return { path, message: l10n.t("{0}: {1} is not one of {2}{3}", where, JSON.stringify(e.data), quoteList(values, alternatives), hint) };
    }
    case "minLength":
      return { path, message: l10n.t("{0}: must not be empty", where) };
    case "minItems":
      return { path, message: (e.params as { limit: number }).limit === 1 ? l10n.t("{0}: must not be empty", where) : l10n.t("{0}: must list at least {1}", where, (e.params as { limit: number }).limit) };
    case "minimum":
      return { path, message: l10n.t("{0}: must be at least {1}", where, (e.params as { limit: number }).limit) };
    case "x-alternatives": {
      const branches = (e.params as { branches: JsonSchema[] }).branches;
      const typeValues = branches.flatMap((b) => {
        const d = (b.properties as Record<string, JsonSchema> | undefined)?.type;
        return d ? ((d.enum as unknown[] | undefined) ?? ("const" in d ? [d.const] : [])) : [];
      });
      const given = jsonType(e.data) === "object" ? (e.data as Record<string, unknown>).type : undefined;
      if (given !== undefined && typeValues.length > 0) {
        const near = typeof given === "string" ? nearest(given, typeValues.filter((v): v is string => typeof v === "string")) : undefined;
        return { path, child: "type", message: l10n.t("{0}: {1} is not one of {2}{3}", `${where}.type`, JSON.stringify(given), quoteList(typeValues), near ? didYouMeanHint(near) : "") };
      }
      return { path, message: l10n.t("{0}: must be {1}, not {2}", where, branches.map(titleOf).join(l10n.t(" or ")), found(e.data)) };
    }
    default:
      return { path, message: `${where}: ${e.message ?? l10n.t("is invalid")}` };
  }
}

/** The candidate closest to `word` by edit distance (ignoring case), if close enough to be a typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
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
