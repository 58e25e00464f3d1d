import { test } from "node:test";
import assert from "node:assert/strict";
import { closestMatch, findMentions, findTypedPaths, parseCommand, routeMessage, type Route } from "../../src/shared/mentions";

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
  // unicode text around ASCII names
  ["Ça va, @garfield ? Très bien.", ["garfield"]],
  ["日本語のテキスト @odie です", ["odie"]],
  ["«@odie» and “@garfield”", ["odie", "garfield"]],
  ["@garfield🙂 emoji after", ["garfield"]],
  ["🙂@garfield emoji before", ["garfield"]],
  ["@Gärfield is read whole", ["Gärfield"]],
  ["naïve@odie glued to a letter", []],
  ["x\u0301@odie glued to a combining mark", []],
  // punctuation
  ["@odie! @garfield? @nermal;", ["odie", "garfield", "nermal"]],
  ["[@odie](link) and {@garfield}", ["odie", "garfield"]],
  ["@odie's bone", ["odie"]],
  ["@odie/@garfield", ["odie", "garfield"]],
  ["@odie…", ["odie"]],
  // paths typed after @ (issue 21): the host attaches the file they name; they mention nobody
  ["@garfield look at @src/a.ts", ["garfield"]],
  ["@src/a.ts:10-20", []],
  ["see @a.ts, @odie.", ["odie"]],
  ["@Makefile:7 and @odie:", ["odie"]],
  ["@./b.md @../c @/abs/path @C:\\x.ts", []],
  ["@odie/ or @v1.2?", ["odie"]],
  // e-mails and handles
  ["write to odie@example.com or @garfield", ["garfield"]],
  ["first.last@garfield.io", []],
  ["user_name@odie", []],
  ["x-y@odie", []],
  ["a@b@odie", []],
  // code spans and fences
  ["``code with ` and @odie`` then @garfield", ["garfield"]],
  ["~~~ts\nconst x = '@odie';\n~~~\ndone", []],
  ["```\nunclosed fence @odie", []],
  ["`@odie` `@garfield`", []],
  ["inline `x` then @odie", ["odie"]],
  // quoted lines (Quote in composer): another message's mentions do not route this one
  ["> @codex please review the parser\n\n@garfield what do you think?", ["garfield"]],
  ["   > indented quote @odie\n@garfield", ["garfield"]],
  ["@odie > not a quote here", ["odie"]],
  ["    > four spaces is code, not a quote: @odie", ["odie"]],
  // several mentions
  ["@odie @garfield @odie again", ["odie", "garfield", "odie"]],
  ["@a,@b", ["a", "b"]],
  // commands are not mentions
  ["/idioms Il pleut", []],
  ["@garfield /idioms Il pleut", ["garfield"]],
  ["/garfield:idioms Il pleut", []],
];

for (const [text, expected] of cases) {
  test(`findMentions(${JSON.stringify(text)}) → ${JSON.stringify(expected)}`, () => {
    assert.deepEqual(names(text), expected);
  });
}

const members = ["garfield", "odie", "nermal"];
const commands: Record<string, string[]> = { garfield: ["idioms", "lasagna", "frontend:component"], odie: ["fetch"] };
const commandsOf = (agent: string) => commands[agent];

/** Routing cases in channel `members`, where garfield announced /idioms, /lasagna and /frontend:component, odie /fetch, nermal nothing. */
const routes: [string, string | undefined, Route][] = [
  ["@garfield /idioms Il pleut", undefined, { kind: "agents", agents: ["garfield"], prompt: "/idioms Il pleut", command: "idioms" }],
  ["/idioms Il pleut", "garfield", { kind: "agents", agents: ["garfield"], prompt: "/idioms Il pleut", command: "idioms" }],
  ["/garfield:idioms Il pleut", "odie", { kind: "agents", agents: ["garfield"], prompt: "/idioms Il pleut", command: "idioms" }],
  ["/Garfield:IDIOMS   Il pleut  ", undefined, { kind: "agents", agents: ["garfield"], prompt: "/idioms Il pleut", command: "idioms" }],
  ["/odie:fetch", undefined, { kind: "agents", agents: ["odie"], prompt: "/fetch", command: "fetch" }],
  ["@garfield /idioms ask @odie", undefined, { kind: "agents", agents: ["garfield"], prompt: "/idioms ask @odie", command: "idioms" }],
  ["@nermal /anything goes", undefined, { kind: "agents", agents: ["nermal"], prompt: "/anything goes", command: "anything" }],
  ["/usr/bin/env is broken", "odie", { kind: "agents", agents: ["odie"], prompt: "/usr/bin/env is broken" }],
  ["@garfield /idiom Il pleut", undefined, { kind: "error", code: "channel/unknownCommand", message: "garfield has no command /idiom — did you mean /idioms?" }],
  ["/garfield:zzz", undefined, { kind: "error", code: "channel/unknownCommand", message: "garfield has no command /zzz (it has /idioms, /lasagna, /frontend:component)." }],
  ["@garfield @odie /fetch", undefined, { kind: "error", code: "channel/unknownCommand", message: "garfield has no command /fetch (it has /idioms, /lasagna, /frontend:component)." }],
  // A namespaced command (Claude Code's `frontend:component`): "frontend" is no member, garfield announced it.
  ["@garfield /frontend:component Button", undefined, { kind: "agents", agents: ["garfield"], prompt: "/frontend:component Button", command: "frontend:component" }],
  ["/frontend:component Button", "garfield", { kind: "agents", agents: ["garfield"], prompt: "/frontend:component Button", command: "frontend:component" }],
  ["/garfield:frontend:component", undefined, { kind: "agents", agents: ["garfield"], prompt: "/frontend:component", command: "frontend:component" }],
  ["/frontend:component", "odie", { kind: "error", code: "channel/unknownMember", message: "No member named @frontend in this channel. Members: @garfield, @odie, @nermal." }],
  ["/garfeld:idioms Il pleut", undefined, { kind: "error", code: "channel/unknownMember", message: "No member named @garfeld — did you mean @garfield?" }],
  ["@garfeld hi", undefined, { kind: "error", code: "channel/unknownMember", message: "No member named @garfeld — did you mean @garfield?" }],
  ["@odie @garfeld compare", undefined, { kind: "error", code: "channel/unknownMember", message: "No member named @garfeld — did you mean @garfield?" }],
  ["@Gärfield hi", undefined, { kind: "error", code: "channel/unknownMember", message: "No member named @Gärfield — did you mean @garfield?" }],
  ["hello @nobody", undefined, { kind: "error", code: "channel/unknownMember", message: "No member named @nobody in this channel. Members: @garfield, @odie, @nermal." }],
  ["@odie ask @jon too", undefined, { kind: "agents", agents: ["odie"], prompt: "ask @jon too" }],
  ["@odie, @garfield: compare", undefined, { kind: "agents", agents: ["odie", "garfield"], prompt: "compare" }],
  ["no mention", "nermal", { kind: "agents", agents: ["nermal"], prompt: "no mention" }],
  ["no mention", undefined, { kind: "none" }],
  // A path typed after @ (issue 21) is no member and no error: the message goes where it would without it.
  ["@src/a.ts:10-20 why?", "odie", { kind: "agents", agents: ["odie"], prompt: "@src/a.ts:10-20 why?" }],
  ["@src/a.ts why?", undefined, { kind: "none" }],
  ["@garfield look at @src/a.ts and @docs/none.md", undefined, { kind: "agents", agents: ["garfield"], prompt: "look at @src/a.ts and @docs/none.md" }],
  ["/idioms x", undefined, { kind: "none" }],
];

for (const [text, last, expected] of routes) {
  test(`routeMessage(${JSON.stringify(text)}${last ? `, last @${last}` : ""}) → ${expected.kind}`, () => {
    assert.deepEqual(routeMessage(text, members, last, commandsOf), expected);
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

test("a /cmd for an agent that announced no commands yet is passed through as text", () => {
  assert.deepEqual(routeMessage("/idioms Il pleut", ["demo"]), { kind: "agents", agents: ["demo"], prompt: "/idioms Il pleut", command: "idioms" });
});

test("parseCommand reads /cmd and /agent:cmd with their arguments, and refuses paths", () => {
  assert.deepEqual(parseCommand("  /idioms Il pleut"), { name: "idioms", args: "Il pleut" });
  assert.deepEqual(parseCommand("/demo:idioms\nline two"), { agent: "demo", name: "idioms", args: "line two" });
  assert.equal(parseCommand("/usr/bin"), undefined);
  assert.equal(parseCommand("say /idioms"), undefined);
});

test("closestMatch suggests near names and prefixes, and nothing far away", () => {
  assert.equal(closestMatch("garfeld", ["odie", "garfield"]), "garfield");
  assert.equal(closestMatch("idi", ["idioms", "lasagna"]), "idioms");
  assert.equal(closestMatch("xyz", ["odie", "garfield"]), undefined);
});

test("closest match counts swapped neighbours as one typo: @dmeo and @deom suggest @demo", () => {
  assert.equal(closestMatch("dmeo", ["demo", "demo2"]), "demo");
  assert.equal(closestMatch("deom", ["demo"]), "demo");
  assert.equal(closestMatch("xyzzy", ["demo"]), undefined);
});

test("findTypedPaths reads the paths typed after @ as routing leaves them: trailing punctuation off, code and quotes skipped", () => {
  const text = "@odie see @src/a.ts:10-20, @b.md. and `@c.ts`\n> @quoted.ts\nme@mail.dev @odie: @./d/e.ts)";
  assert.deepEqual(findTypedPaths(text).map((t) => [t.path, text.slice(t.index, t.index + t.path.length + 1)]), [
    ["src/a.ts:10-20", "@src/a.ts:10-20"],
    ["b.md", "@b.md"],
    ["./d/e.ts", "@./d/e.ts"],
  ]);
});
