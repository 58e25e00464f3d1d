import { test } from "node:test";
import assert from "node:assert/strict";
import { findMentions, routeMessage } from "../../src/channels/mentions";

const names = (text: string) => findMentions(text).map((m) => m.name);

const cases: [string, string[]][] = [
  ["@demo hello", ["demo"]],
  ["hello @demo", ["demo"]],
  ["@demo, and @claude: compare", ["demo", "claude"]],
  ["thanks @demo.", ["demo"]],
  ["(@demo)", ["demo"]],
  ["mail me@demo.dev please", []],
  ["a+b@demo", []],
  ["`@demo` is a name", []],
  ["```\n@demo in a fence\n```\n@claude after", ["claude"]],
  ["@9lives is not a name", []],
  ["@code-reviewer look", ["code-reviewer"]],
  ["@snake_case ok", ["snake_case"]],
  ["@demo- trailing dash", ["demo"]],
  ["éa@demo is glued to a letter", []],
  ["line one\n@demo on line two", ["demo"]],
  ["@@demo double at", ["demo"]],
];

for (const [text, expected] of cases) {
  test(`findMentions(${JSON.stringify(text)}) → ${JSON.stringify(expected)}`, () => {
    assert.deepEqual(names(text), expected);
  });
}

test("routing sends to each mentioned member once, in order, with the leading mentions stripped", () => {
  assert.deepEqual(routeMessage("@b @a @b do it", ["a", "b"]), { kind: "agents", agents: ["b", "a"], prompt: "do it" });
});

test("routing matches names case-insensitively and returns the roster's spelling", () => {
  assert.deepEqual(routeMessage("@Demo hi", ["demo"]), { kind: "agents", agents: ["demo"], prompt: "hi" });
});

test("a message with no mention goes to the only member, else to the agent addressed last", () => {
  assert.deepEqual(routeMessage("hi", ["demo"]), { kind: "agents", agents: ["demo"], prompt: "hi" });
  assert.deepEqual(routeMessage("hi", ["a", "b"], "b"), { kind: "agents", agents: ["b"], prompt: "hi" });
  assert.deepEqual(routeMessage("hi", ["a", "b"]), { kind: "none" });
});

test("an unknown name is reported when nobody known is mentioned", () => {
  assert.deepEqual(routeMessage("@nobody hi", ["demo"]), { kind: "unknown", names: ["nobody"] });
});
