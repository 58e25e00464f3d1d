import { test } from "node:test";
import assert from "node:assert/strict";
import { accept, suggest } from "../../webview/autocomplete";

const members = [
  { name: "garfield", detail: "ready" },
  { name: "odie", detail: "stopped" },
];
const commands = {
  garfield: [
    { name: "idioms", description: "Explain a French idiom", hint: "a French phrase" },
    { name: "lasagna", description: "Order lasagna" },
    { name: "frontend:component", description: "A namespaced command (Claude Code)" },
  ],
  odie: [{ name: "fetch", description: "Fetch" }],
};

/** Text with `|` marking the caret → labels offered. */
const cases: [string, string[]][] = [
  ["@|", ["@garfield", "@odie"]],
  ["@g|", ["@garfield"]],
  ["@DI|", ["@odie"]],
  ["hello @o|", ["@odie"]],
  ["(@g|", ["@garfield"]],
  ["me@g|", []],
  ["`@g|", []],
  ["```\n@g|", []],
  ["/|", ["/garfield:idioms", "/garfield:lasagna", "/garfield:frontend:component", "/odie:fetch"]],
  ["/l|", ["/garfield:lasagna"]],
  ["/garf|", ["/garfield:idioms", "/garfield:lasagna", "/garfield:frontend:component"]],
  ["/odie:|", ["/odie:fetch"]],
  ["/nobody:|", []],
  ["/front|", ["/garfield:frontend:component"]],
  ["/frontend:|", ["/garfield:frontend:component"]],
  ["@garfield /frontend:c|", ["/frontend:component"]],
  ["/garfield:frontend:|", ["/garfield:frontend:component"]],
  ["@garfield /|", ["/idioms", "/lasagna", "/frontend:component"]],
  ["@garfield /I|", ["/idioms"]],
  ["@garfield, @odie: /|", ["/idioms", "/lasagna", "/frontend:component", "/fetch"]],
  ["say /|", []],
  ["/idioms Il pleut|", []],
  ["plain text|", []],
];

for (const [marked, expected] of cases) {
  test(`suggest(${JSON.stringify(marked)}) → ${JSON.stringify(expected)}`, () => {
    const caret = marked.indexOf("|");
    const text = marked.replace("|", "");
    assert.deepEqual(suggest(text, caret, members, commands).map((s) => s.label), expected);
  });
}

test("a single member's commands come without the agent prefix", () => {
  assert.deepEqual(suggest("/", 1, [members[0]!], commands).map((s) => s.label), ["/idioms", "/lasagna", "/frontend:component"]);
});

test("accepting replaces the word at the caret and puts the caret after the inserted text", () => {
  const [s] = suggest("ask @ga about it", 7, members, commands);
  assert.deepEqual(accept("ask @ga about it", 7, s!), { text: "ask @garfield about it", caret: 14 });
  const [c] = suggest("@garfield /id", 13, members, commands);
  assert.equal(c!.hint, "a French phrase");
  assert.deepEqual(accept("@garfield /id", 13, c!), { text: "@garfield /idioms ", caret: 18 });
});

test("field case 22: a command typing cannot call is offered as text, greyed with why, and inserts nothing", () => {
  const odd = { odie: [{ name: "has space", description: "Spaced", hint: "x", notCallable: "whitespace" as const }, { name: "help", description: "Help" }] };
  const offered = suggest("@odie /h", 8, members, odd);
  assert.deepEqual(offered.map((s) => [s.label, s.notCallable ?? null, s.insert, s.hint ?? null]), [
    ["/has space", "whitespace", "", null],
    ["/help", null, "/help ", null],
  ]);
  assert.deepEqual(suggest("/", 1, members, odd).map((s) => s.label), ["/odie:has space", "/odie:help"]);
});
