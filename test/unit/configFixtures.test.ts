import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseRoster } from "../../src/config/roster";

/**
 * Table test over test/fixtures/config/*.yaml. Each file starts with comment lines `# expect: valid` or
 * `# expect: line:column: message` (one per problem, in order); a valid file may have a sibling `<name>.roster.json`
 * with the exact roster `parseRoster` must return for it, read as `/project/sidekicks.yaml`.
 */
const dir = path.join(import.meta.dirname, "..", "fixtures", "config");
const FILE = "/project/sidekicks.yaml";
const files = readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort();

test("there are at least 30 fixtures, valid and invalid", () => {
  const valid = files.filter((f) => expectations(f)[0] === "valid");
  assert.ok(files.length >= 30, `${files.length} fixtures`);
  assert.ok(valid.length >= 5 && files.length - valid.length >= 25, `${valid.length} valid of ${files.length}`);
});

function expectations(file: string): string[] {
  const text = readFileSync(path.join(dir, file), "utf8");
  const lines = [...text.matchAll(/^# expect: (.*)$/gm)].map((m) => m[1]!);
  assert.ok(lines.length > 0, `${file} has no "# expect:" line`);
  return lines;
}

for (const file of files) {
  test(`fixture ${file}`, () => {
    const text = readFileSync(path.join(dir, file), "utf8");
    const expected = expectations(file);
    const { roster, problems } = parseRoster(text, FILE);
    const actual = problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
    if (expected[0] === "valid") {
      assert.deepEqual(actual, []);
      const rosterFile = path.join(dir, file.replace(/\.yaml$/, ".roster.json"));
      if (existsSync(rosterFile)) assert.deepEqual(roster, JSON.parse(readFileSync(rosterFile, "utf8")));
    } else {
      assert.deepEqual(actual, expected);
      assert.equal(roster, undefined);
    }
  });
}
