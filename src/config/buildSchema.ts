import { parse } from "yaml";
import { CONFIG_SPEC, type JsonSchema, type KeySpec, type SectionSpec } from "./spec";

/** The schema's `$id`, as editors and the YAML extension know it. */
export const SCHEMA_ID = "https://sidekicks.dev/schema/sidekicks.schema.json";

/**
 * Builds the JSON Schema (2020-12) of `sidekicks.yaml` from the spec (`src/config/spec.ts`): one object schema per
 * section with `additionalProperties: false`, shared sections (`agents[]`, `channels[]`) under `$defs`, and every
 * key annotated with `description` (plain text), `markdownDescription` (for the YAML extension's hovers),
 * `default` and `examples` (the value of the key's example).
 *
 * @throws Error when the spec refers to a section it does not define, or a key's example lacks the key
 */
export function buildSchema(spec: readonly SectionSpec[] = CONFIG_SPEC): JsonSchema {
  const byId = new Map(spec.map((s) => [s.id, s]));
  const defs: Record<string, JsonSchema> = {};
  const sectionSchema = (s: SectionSpec): JsonSchema => {
    const required = s.keys.filter((k) => k.required).map((k) => k.key);
    return {
      ...(s.title ? { title: s.title } : {}),
      type: "object",
      additionalProperties: false,
      ...(required.length > 0 ? { required } : {}),
      properties: Object.fromEntries(s.keys.map((k) => [k.key, keySchema(k)])),
      ...(s.schemaExtra ?? {}),
    };
  };
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (node === null || typeof node !== "object") return node;
    const id = (node as { $section?: unknown }).$section;
    if (typeof id === "string") {
      const target = byId.get(id);
      if (!target) throw new Error(`spec: unknown section "${id}"`);
      if (!target.shared) return sectionSchema(target);
      defs[id] ??= sectionSchema(target);
      return { $ref: `#/$defs/${id}` };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]));
  };
  const keySchema = (k: KeySpec): JsonSchema => ({
    description: plain(k.description),
    markdownDescription: k.description,
    ...(k.default !== undefined ? { default: k.default } : {}),
    examples: [exampleValue(k)],
    ...(resolve(k.schema) as JsonSchema),
  });
  const root = byId.get("root");
  if (!root) throw new Error('spec: no "root" section');
  const body = sectionSchema(root);
  const sortedDefs = Object.fromEntries(spec.filter((s) => defs[s.id]).map((s) => [s.id, defs[s.id]]));
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: SCHEMA_ID,
    title: "Sidekicks roster (sidekicks.yaml)",
    description: "The ACP agents Sidekicks can start, its channels and limits. Generated from src/config/spec.ts; see docs/reference/configuration.md.",
    ...body,
    $defs: sortedDefs,
  };
}

/** The value a key's example gives the key (`maxRunningAgents: 2` → 2). */
export function exampleValue(k: KeySpec): unknown {
  const parsed = parse(k.example) as Record<string, unknown> | null;
  if (!parsed || typeof parsed !== "object" || !(k.key in parsed)) throw new Error(`spec: the example of "${k.key}" does not set it`);
  return parsed[k.key];
}

/** Markdown to plain text for the schema's `description`: drops backticks, emphasis and link targets. */
function plain(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\*([^*]+)\*/g, "$1")
    .replace(/\\\|/g, "|");
}

/** The schema file's text, as `npm run gen:config` writes it: two-space JSON and a final newline. */
export function renderSchemaFile(spec: readonly SectionSpec[] = CONFIG_SPEC): string {
  return `${JSON.stringify(buildSchema(spec), null, 2)}\n`;
}
