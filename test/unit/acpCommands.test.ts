import assert from "node:assert/strict";
import { test } from "node:test";
import { cleanCommands, MAX_COMMANDS } from "../../src/acp/commands";
import { AgentCommands, commandsKey } from "../../src/channels/AgentCommands";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import { tempDir } from "./helpers";

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

test("cleanCommands: a flood is bounded — at most MAX_COMMANDS kept, a name too long to call kept greyed, long descriptions cut", () => {
  const flood = Array.from({ length: MAX_COMMANDS + 20 }, (_, i) => ({ name: `c${i}`, description: "d".repeat(5_000) }));
  const { commands, problems } = cleanCommands([{ name: "x".repeat(101), description: "" }, ...flood]);
  assert.equal(commands.length, MAX_COMMANDS);
  assert.deepEqual(commands[0], { name: "x".repeat(101), description: "", notCallable: "long" });
  assert.equal(commands[1]!.name, "c0");
  assert.equal(commands[1]!.description.length, 1_000);
  assert.ok(commands[1]!.description.endsWith("…"));
  assert.equal(problems.length, 2);
  assert.equal(problems[0], `commands past the first ${MAX_COMMANDS} left out`);
  assert.match(problems[1]!, /^the command "x{60}" cannot be called: .* \(shown greyed in the command menu\)$/);
  const huge = cleanCommands([{ name: "y".repeat(5_000), description: "" }]).commands[0]!;
  assert.equal(huge.name.length, 200, "a name shown, not called, is cut too");
});

test("field case 22: a name typing cannot call is kept to show, with why (a space, a \"/\"), and logged in one line; never merged with a callable one", () => {
  const { commands, problems } = cleanCommands([
    { name: "has space", description: "Spaced", input: { hint: "what" } },
    { name: "<img src=x onerror=alert(1)>", description: "Markup" },
    { name: "a/b", description: "Slashed" },
    { name: "has", description: "A callable one" },
    { name: "HAS SPACE", description: "again" },
  ]);
  assert.deepEqual(commands, [
    { name: "has space", description: "Spaced", hint: "what", notCallable: "whitespace" },
    { name: "<img src=x onerror=alert(1)>", description: "Markup", notCallable: "whitespace" },
    { name: "a/b", description: "Slashed", notCallable: "slash" },
    { name: "has", description: "A callable one" },
  ]);
  assert.deepEqual(problems, [
    'the commands "has space", "<img src=x onerror=alert(1)>", "a/b" cannot be called: a name with spaces, a "/" or over 100 characters cannot be typed as /name (shown greyed in the command menu)',
    "1 command announced again merged into the first of the same name",
  ]);
  const many = cleanCommands(Array.from({ length: 7 }, (_, i) => ({ name: `n ${i}`, description: "" }))).problems;
  assert.match(many[0]!, /"n 4" and 2 more cannot be called/);
});

test("stored commands are checked when read back: a name typing cannot call must say so with a known reason, else it is left out", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const writer = new StoreWriter(store);
    const value = [
      { name: "review", description: "Review" },
      { name: "has space", description: "marked", notCallable: "whitespace" },
      { name: "no mark", description: "stored unmarked: routing must not call it" },
      { name: "odd", description: "an unknown reason", notCallable: "other" },
    ];
    await writer.write(() => undefined, () => ({ changes: { values: [{ key: commandsKey("odie"), value }] }, result: undefined }));
    const read = await new AgentCommands(writer).of("odie");
    assert.deepEqual(read?.map((c) => c.name), ["review", "has space"]);
  } finally {
    await store.close();
    cleanup();
  }
});
