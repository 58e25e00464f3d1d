import assert from "node:assert/strict";
import { test } from "node:test";
import { cleanCommands, MAX_COMMANDS } from "../../src/acp/commands";

test("cleanCommands: names that are not text or not lists are left out with a reason; descriptions and hints that are not text read as none", () => {
  assert.deepEqual(cleanCommands(null), { commands: [], problems: ["availableCommands is not a list: no commands"] });
  const { commands, problems } = cleanCommands([
    { name: 42, description: "number" },
    { description: "no name" },
    "a string",
    { name: "//init", description: 7, input: { hint: ["x"] } },
    { name: "Init", description: "same name, other case" },
    { name: " plan ", description: "Plan", input: { hint: "  " } },
  ]);
  assert.deepEqual(commands, [
    { name: "init", description: "" },
    { name: "plan", description: "Plan" },
  ]);
  assert.deepEqual(problems, [
    "a command whose name is not text (42) left out",
    "a command whose name is missing left out",
    "a command whose name is missing left out",
    "1 command announced again merged into the first of the same name",
  ]);
});

test("cleanCommands: a flood is bounded — at most MAX_COMMANDS kept, long names left out, long descriptions cut", () => {
  const flood = Array.from({ length: MAX_COMMANDS + 20 }, (_, i) => ({ name: `c${i}`, description: "d".repeat(5_000) }));
  const { commands, problems } = cleanCommands([{ name: "x".repeat(101), description: "" }, ...flood]);
  assert.equal(commands.length, MAX_COMMANDS);
  assert.equal(commands[0]!.name, "c0");
  assert.equal(commands[0]!.description.length, 1_000);
  assert.ok(commands[0]!.description.endsWith("…"));
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /^the command "x{60}" left out/);
  assert.equal(problems[1], `commands past the first ${MAX_COMMANDS} left out`);
});
