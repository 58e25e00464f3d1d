import { test } from "node:test";
import assert from "node:assert/strict";
import { formatProblem, parseRoster } from "../../src/config/roster";

const FILE = "/work/project/sidekicks.yaml";
const agent = (color: string) => `agents:\n  - name: demo\n    command: sidekicks:demo\n    color: ${JSON.stringify(color)}\n`;

test("an agent's color is a theme colour id or #rrggbb, kept as written; absent by default", () => {
  for (const color of ["charts.blue", "terminal.ansiBrightMagenta", "#3794ff", "#A1B2C3"]) {
    const { roster, problems } = parseRoster(agent(color), FILE);
    assert.deepEqual(problems.map(formatProblem), [], color);
    assert.equal(roster?.agents[0]?.color, color);
  }
  assert.equal(parseRoster("agents:\n  - name: demo\n    command: sidekicks:demo\n", FILE).roster?.agents[0]?.color, undefined);
});

test("a color that is neither says what to write, at the value", () => {
  for (const color of ["red", "#fff", "rgb(1,2,3)", "charts.", "var(--x)"]) {
    const found = parseRoster(agent(color), FILE).problems.map(formatProblem);
    assert.deepEqual(found, [`${FILE}:4:12: agents[0].color: "${color}" is not a colour: write a theme colour id such as "charts.blue" or "terminal.ansiGreen", or #rrggbb such as "#3794ff"`], color);
  }
});
