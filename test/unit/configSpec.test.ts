import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { buildSchema, exampleValue, renderSchemaFile } from "../../src/config/buildSchema";
import { renderReference } from "../../src/config/renderReference";
import { formatProblem, parseRoster, ROSTER_DEFAULTS } from "../../src/config/roster";
import { CONFIG_SPEC, FULL_EXAMPLE } from "../../src/config/spec";

const root = path.join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const STALE = "is stale: edit src/config/spec.ts and run `npm run gen:config`, never the generated file";

test("schema/sidekicks.schema.json is generated from the spec (not edited by hand)", () => {
  assert.ok(read("schema/sidekicks.schema.json") === renderSchemaFile(), `schema/sidekicks.schema.json ${STALE}`);
});

test("docs/reference/configuration.md is generated from the spec (not edited by hand)", () => {
  assert.ok(read("docs/reference/configuration.md") === renderReference(), `docs/reference/configuration.md ${STALE}`);
});

test("package.json contributes the generated schema for both default file locations", () => {
  const pkg = JSON.parse(read("package.json")) as { contributes: { yamlValidation: { fileMatch: string[]; url: string }[] }; scripts: Record<string, string> };
  assert.deepEqual(pkg.contributes.yamlValidation, [{ fileMatch: ["sidekicks.yaml", ".vscode/sidekicks.yaml"], url: "./schema/sidekicks.schema.json" }]);
  assert.equal(pkg.scripts["gen:config"], "node scripts/gen-config.mjs");
});

test("the schema is valid JSON Schema 2020-12 and says every key's description, default and example", () => {
  const schema = buildSchema();
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  const ajv = new Ajv2020({ strict: true });
  ajv.addKeyword({ keyword: "markdownDescription", schemaType: "string" });
  assert.doesNotThrow(() => ajv.compile(schema));
  const keys = CONFIG_SPEC.flatMap((s) => s.keys.map((k) => `${s.path || "(top)"}.${k.key}`));
  assert.equal(new Set(keys).size, keys.length, "a key appears twice in one section");
  for (const s of CONFIG_SPEC) for (const k of s.keys) assert.ok(k.description.length > 20 && k.example.length > 0, `${s.path}.${k.key}`);
});

test("every key's example is valid against that key's own schema", () => {
  const schema = buildSchema();
  const defs = schema.$defs as Record<string, { properties: Record<string, object> }>;
  const rootProps = schema.properties as Record<string, object>;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addKeyword({ keyword: "markdownDescription", schemaType: "string" });
  for (const s of CONFIG_SPEC) {
    for (const k of s.keys) {
      // The key's schema as it appears in the built schema (inlined sections are reached through their parent).
      const own = s.id === "root" ? rootProps[k.key] : defs[s.id]?.properties[k.key];
      if (!own) continue;
      const check = ajv.compile({ ...own, $defs: schema.$defs });
      assert.ok(check(exampleValue(k)), `${s.path}.${k.key}: ${JSON.stringify(check.errors)}`);
    }
  }
});

test("the complete example in the reference is a valid roster using every section", () => {
  const { roster, problems } = parseRoster(FULL_EXAMPLE, "/project/sidekicks.yaml");
  assert.deepEqual(problems.map(formatProblem), []);
  assert.deepEqual(roster?.limits, { maxRunningAgents: 3, idleTimeoutMs: 15 * 60_000, requestTimeoutMs: 120_000, cancelTimeoutMs: 30_000 });
  assert.deepEqual(roster?.agents.map((a) => [a.name, a.permissions, a.runtime?.type]), [
    ["demo", "ask", "local"],
    ["claude", "allow-reads", "local"],
    ["codex", "allow-reads", "local"],
    ["gemini", "ask", "container"],
  ]);
  assert.deepEqual(roster?.agents[1]?.mcpServers, [{ type: "http", name: "docs", url: "https://mcp.example.com/mcp", headers: [] }]);
  assert.equal(roster?.ui.defaultChannel, "review");
});

test("the reference names every key, and the defaults parseRoster applies are the documented ones", () => {
  const doc = renderReference();
  for (const s of CONFIG_SPEC) {
    const prefix = s.path === "" ? "" : `${s.path.replace(/ \(.*\)$/, "")}.`;
    for (const k of s.keys) assert.ok(doc.includes(`### \`${prefix}${k.key}\``), `${prefix}${k.key}`);
  }
  const defaults = Object.fromEntries(CONFIG_SPEC.flatMap((s) => s.keys.filter((k) => k.default !== undefined).map((k) => [`${s.id}.${k.key}`, k.default])));
  assert.equal(defaults["limits.maxRunningAgents"], ROSTER_DEFAULTS.maxRunningAgents);
  assert.equal(defaults["limits.idleTimeout"], ROSTER_DEFAULTS.idleTimeout);
  assert.equal(defaults["limits.requestTimeout"], ROSTER_DEFAULTS.requestTimeout);
  assert.equal(defaults["limits.cancelTimeout"], ROSTER_DEFAULTS.cancelTimeout);
  assert.equal(defaults["agent.icon"], ROSTER_DEFAULTS.icon);
  assert.equal(defaults["agent.permissions"], ROSTER_DEFAULTS.permissions);
  assert.equal(defaults["ui.defaultChannel"], ROSTER_DEFAULTS.defaultChannel);
  assert.match(doc, /it is not a safety classifier/);
});
