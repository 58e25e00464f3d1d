// Issue 18, "the roster's two judges agree": the JSON Schema the YAML extension shows while the user types and
// Sidekicks' own validator (the Problems panel) accept and reject the same files. The only files they may judge apart
// are those whose every problem is a rule JSON Schema cannot state (a reference to another entry, uniqueness ignoring
// case): the schema accepts those, and the validator says why not. Over every fixture of test/fixtures/config.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { parse } from "yaml";
import { buildSchema } from "../../src/config/buildSchema";
import { formatProblem, parseRoster } from "../../src/config/roster";

const dir = path.join(import.meta.dirname, "..", "fixtures", "config");

/** The validator's rules no JSON Schema can state: references between entries and uniqueness ignoring case. */
const CROSS_RULES = [
  /is already the name of/, // agents (ignoring case), channels, an agent's MCP servers
  /is already listed/, // a channel's members (ignoring case)
  /no agent named/, // members and moderators that are roster agents
  /is not a member of this channel/, // a moderator among the members
  /no channel named/, // ui.defaultChannel
  /already gets a worktree from/, // one channel worktree per agent without a workspace of its own
];

test("schema and validator agree on every fixture, but for rules JSON Schema cannot state", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const schemaAccepts = ajv.compile(buildSchema());
  const judged: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort()) {
    const text = readFileSync(path.join(dir, file), "utf8");
    let data: unknown;
    let readable = true;
    try {
      // As the YAML extension reads it: merge keys resolved, duplicate keys an error.
      data = parse(text, { merge: true, uniqueKeys: true });
    } catch {
      readable = false;
    }
    const bySchema = readable && schemaAccepts(data ?? null);
    const problems = parseRoster(text, "/project/sidekicks.yaml").problems.map(formatProblem);
    const byValidator = problems.length === 0;
    if (bySchema === byValidator) {
      judged.push(file);
      continue;
    }
    assert.ok(bySchema && !byValidator, `${file}: the schema rejects what the validator accepts: ${JSON.stringify(schemaAccepts.errors)}`);
    const beyond = problems.filter((p) => !CROSS_RULES.some((rule) => rule.test(p)));
    assert.deepEqual(beyond, [], `${file}: the validator rejects, the schema accepts, for a rule the schema could state`);
  }
  assert.ok(judged.length >= 40, `${judged.length} fixtures judged alike`);
  for (const alike of ["channel-general.yaml", "channel-general-members.yaml", "channel-members-missing.yaml", "limits-duration-too-long.yaml"]) {
    assert.ok(judged.includes(alike), `${alike} judged alike`);
  }
});
