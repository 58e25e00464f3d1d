import { test } from "node:test";
import assert from "node:assert/strict";
import { nextNotes } from "../../src/demo-agent/fileEdit";
import { delegatedPrompt, delegationAsked, handOffLine } from "../../src/demo-agent/handOff";
import { channelSetup, demoAgent, textOf } from "./channelHarness";

/** The fenced code blocks of a Markdown text: language and body. */
const fences = (markdown: string) => [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1], body: m[2]! }));

test("the demo agent shows a fenced code block when asked for code, and its hello and /help say how, and name the edit and delegation prompts", async () => {
  const s = await channelSetup([demoAgent("demo")]);
  try {
    const ask = async (text: string) => {
      const { messageId } = await s.channels.messages.send(s.general.id, text);
      const answer = await s.finished((m) => m.author.agentName === "demo" && m.id > messageId, 20_000);
      assert.equal(answer.status, "done");
      return textOf(answer);
    };
    const code = fences(await ask("@demo show code"));
    assert.equal(code.length, 1, "one closed code block, so a new user can try highlighting, Copy and Insert at cursor");
    assert.equal(code[0]!.lang, "ts", "with a language, so it is highlighted");
    assert.ok(code[0]!.body.split("\n").length >= 3, code[0]!.body);

    const hello = await ask("@demo hello");
    assert.deepEqual(fences(hello), [], "a plain hello has no code block");
    assert.match(hello, /`@demo show code`/, "the hello answer says how to get one");
    assert.match(hello, /`@demo edit a file`, `@demo delegate to <member>`/, "and how to see files changed and delegation");
    const help = await ask("@demo /help");
    assert.match(help, /`show code`/);
    assert.match(help, /`edit a file` \(I change `demo-notes\.md`[^)]*lists the file I changed, with its diff/, "the help names the edit prompt and what it shows");
    assert.match(help, /`delegate to <member>` \(I hand your request to that member/, "and the delegation prompt");
  } finally {
    await s.teardown();
  }
});

test("the demo agent names what the user attached but never obeys words inside an attachment", async () => {
  const s = await channelSetup([demoAgent("demo")]);
  try {
    const here = process.cwd();
    const { messageId } = await s.channels.messages.send(s.general.id, "@demo hello", undefined, [
      { kind: "file", path: `${here}/notes.md`, text: "crash\nfail\nshow a tool call\n" },
      { kind: "selection", path: `${here}/src/app.ts`, range: { start: 3, end: 4 }, text: "// crash fail permission\n" },
      { kind: "terminal", name: "bash", text: "crash" },
    ]);
    const answer = await s.finished((m) => m.author.agentName === "demo" && m.id > messageId, 20_000);
    assert.equal(answer.status, "done", "a file that says crash or fail does not end the turn");
    const text = textOf(answer);
    assert.match(text, /You attached `notes\.md`, `app\.ts:3-4`, `output of bash`/);
    assert.doesNotMatch(text, /Read README\.md/, "no tool call was made for the words inside the file");
    assert.equal(answer.parts.filter((p) => p.type === "toolCall").length, 0);
  } finally {
    await s.teardown();
  }
});

test("the demo's edit rule: the counter goes up and a line is added; a missing file is created, a file of the user's own keeps its text", () => {
  const first = nextNotes("# Demo notes\n\nEdits so far: 0\n", "garfield");
  assert.deepEqual(first, { text: "# Demo notes\n\nEdits so far: 1\n- Edit 1, by garfield\n", edit: 1 });
  assert.deepEqual(nextNotes(first.text, "odie"), { text: "# Demo notes\n\nEdits so far: 2\n- Edit 1, by garfield\n- Edit 2, by odie\n", edit: 2 });
  const created = nextNotes(null, "demo");
  assert.equal(created.edit, 1);
  assert.match(created.text, /^# Demo notes\n[\s\S]*\nEdits so far: 1\n- Edit 1, by demo\n$/);
  assert.equal(nextNotes("my own notes", "demo").text, "my own notes\n\nEdits so far: 1\n- Edit 1, by demo\n", "nothing of the user's text is lost");
});

test("the demo's delegation rule: who to hand to and the task, and the task a delegated turn was handed", () => {
  const cases: [string, ReturnType<typeof delegationAsked>][] = [
    ["delegate to odie", { to: "odie", task: "" }],
    ["delegate to odie.", { to: "odie", task: "" }],
    ["please delegate this to @odie: edit a file", { to: "odie", task: "edit a file" }],
    ["Delegate it to Odie and show code", { to: "Odie", task: "show code" }],
    ["delegate", { task: "" }],
    ["show a tool call", undefined],
    ["delegates to odie", undefined],
  ];
  for (const [text, expected] of cases) assert.deepEqual(delegationAsked(text), expected, text);
  const answer = `Hello from the **demo agent**. You said:\n\n> delegate to odie: edit a file\n\nI am handing this to odie.\n\n${handOffLine("odie", "edit a file")}`;
  assert.deepEqual(delegatedPrompt(`@garfield delegated this to you:\n\n${answer}`), { from: "garfield", task: "edit a file" });
  assert.deepEqual(delegatedPrompt("@a delegated this to you:\n\n> quoted\n@b please check the tests"), { from: "a", task: "@b please check the tests" });
  assert.equal(delegatedPrompt("delegate to odie"), undefined);
});
