import { test } from "node:test";
import assert from "node:assert/strict";
import { channelSetup, demoAgent, textOf } from "./channelHarness";

/** The fenced code blocks of a Markdown text: language and body. */
const fences = (markdown: string) => [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1], body: m[2]! }));

test("the demo agent shows a fenced code block when asked for code, and its hello and /help say how", async () => {
  const s = await channelSetup([demoAgent("demo")]);
  try {
    const ask = async (text: string) => {
      const { messageId } = await s.channels.send(s.general.id, text);
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
    assert.match(await ask("@demo /help"), /`show code`/);
  } finally {
    await s.teardown();
  }
});
