/**
 * Issue 22: skill folders as the roster names them — read, checked where they are read, and a broken one reported as
 * a warning at its roster entry (the Problems panel), the roster staying in force.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { skillFindings } from "../../src/app/skillFindings";
import { parseRoster } from "../../src/config/roster";
import { isSkill, loadSkill, skillFolder } from "../../src/mcp/skills";
import { tempDir } from "./helpers";

function skill(root: string, name: string, text: string | undefined): string {
  const folder = path.join(root, name);
  mkdirSync(folder, { recursive: true });
  if (text !== undefined) writeFileSync(path.join(folder, "SKILL.md"), text);
  return folder;
}

test("a skill's SKILL.md: front matter read, instructions after it; each way of being broken says what is wrong", async () => {
  const { dir, cleanup } = tempDir("sidekicks-skill-");
  try {
    const good = await loadSkill(skill(dir, "good", "---\nname: review\nversion: 2\ndescription: Reviews diffs\n---\nLook at the tests first.\n"));
    assert.ok(isSkill(good));
    assert.deepEqual([good.name, good.version, good.description, good.instructions], ["review", "2", "Reviews diffs", "Look at the tests first.\n"]);
    const cases: [string | undefined, RegExp][] = [
      [undefined, /no SKILL\.md/],
      ["# just markdown\n", /does not start with front matter/],
      ["---\nname: [unclosed\n---\nx\n", /not valid YAML/],
      ["---\nname: x\ndescription: d\n---\n", /needs "version"/],
      ["---\nname: has space\nversion: 1\ndescription: d\n---\n", /must be a letter or digit/],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const loaded = await loadSkill(skill(dir, `bad${i}`, text), `skills/bad${i}`);
      assert.ok(!isSkill(loaded), `case ${i} is refused`);
      assert.equal(loaded.path, `skills/bad${i}`);
      assert.match(loaded.message, message);
    }
    assert.equal(skillFolder("~/skills/x", "/ws", "/home/me"), "/home/me/skills/x");
    assert.equal(skillFolder("skills/x", "/ws", "/home/me"), "/ws/skills/x");
  } finally {
    cleanup();
  }
});

test("the roster's broken skills are warnings at their entries; the roster stays valid", async () => {
  const { dir, cleanup } = tempDir("sidekicks-skill-roster-");
  try {
    skill(path.join(dir, "skills"), "good", "---\nname: good\nversion: 1\ndescription: d\n---\n");
    skill(path.join(dir, "skills"), "broken", "no front matter\n");
    const text = ["agents:", "  - name: a", "    command: x", "    skills:", "      - skills/good", "      - skills/broken", "channels:", "  - name: review", "    members: [a]", "    skills: [skills/missing]", ""].join("\n");
    const { roster, problems } = parseRoster(text, path.join(dir, "sidekicks.yaml"));
    assert.deepEqual(problems, []);
    const found = await skillFindings(roster!, text, dir);
    assert.deepEqual(found.map((p) => [p.line, p.column, p.severity]), [[6, 9, "warning"], [10, 14, "warning"]]);
    assert.match(found[0]!.message, /skills\/broken.*front matter.*left out/);
    assert.match(found[1]!.message, /skills\/missing.*no SKILL\.md/);
  } finally {
    cleanup();
  }
});
