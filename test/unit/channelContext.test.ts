import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import { formatContext } from "../../src/channels/context";
import { SidekicksError } from "../../src/shared/errors";
import type { MessageView } from "../../src/shared/protocol";
import type { MessageRecord } from "../../src/store/records";
import { channelSetup, demoAgent, fakeAgent, textOf } from "./channelHarness";

const echo = { prompt: [{ echo: true }] };
/** Echoes without "@", so quoting the context delegates to nobody. */
const quiet = { prompt: [{ echoWithoutMentions: true }] };
const noAt = (s: string) => s.replaceAll("@", "＠");

test("re-injection: across three agents and interleaved messages, each receives exactly what it had not seen, once, in order", async () => {
  const s = await channelSetup([fakeAgent("a", quiet), fakeAgent("b", quiet), fakeAgent("c", quiet)]);
  try {
    const history = async () => (await s.channels.messages.open("general")).messages;
    /** Sends `text`, waits for the answers of `agents`, and returns what each agent received (its echo). */
    const say = async (text: string, agents: string[]) => {
      const { messageId } = await s.channels.messages.send(s.general.id, text);
      const answers = await Promise.all(agents.map((agent) => s.finished((m) => m.author.agentName === agent && m.id > messageId)));
      return answers.map((m) => textOf(m).replace(/^You said: /, ""));
    };
    /** The prompt an agent should have received: the listed messages (author, text) as context, then `text`. */
    const expected = async (seen: [string, string][], text: string) => {
      const all = await history();
      const picked = seen.map(([author, t]) => {
        const m = all.find((x) => (x.author.agentName ?? x.author.kind) === author && textOf(x) === t);
        assert.ok(m, `${author}: ${t} is in the history`);
        return m as MessageView as unknown as MessageRecord;
      });
      return noAt(formatContext(picked) + text);
    };

    const [a1] = await say("@a one", ["a"]);
    assert.equal(a1, "one", "nothing before the first message");
    const [b2] = await say("@b two", ["b"]);
    assert.equal(b2, await expected([["user", "@a one"], ["a", "You said: one"]], "two"));
    const [a3] = await say("@a three", ["a"]);
    assert.equal(a3, await expected([["user", "@b two"], ["b", `You said: ${b2}`]], "three"), "a gets only what came after its last answer");
    const [c4] = await say("@c four", ["c"]);
    assert.equal(
      c4,
      await expected(
        [["user", "@a one"], ["a", "You said: one"], ["user", "@b two"], ["b", `You said: ${b2}`], ["user", "@a three"], ["a", `You said: ${a3}`]],
        "four",
      ),
      "a late joiner catches up on the whole channel",
    );
    const [a5, b5] = await say("@a @b five", ["a", "b"]);
    assert.equal(a5, await expected([["user", "@c four"], ["c", `You said: ${c4}`]], "five"));
    assert.equal(
      b5,
      await expected([["user", "@a three"], ["a", `You said: ${a3}`], ["user", "@c four"], ["c", `You said: ${c4}`]], "five"),
    );
    const [c6] = await say("@c six", ["c"]);
    assert.equal(c6, await expected([["user", "@a @b five"], ["a", `You said: ${a5}`], ["b", `You said: ${b5}`]], "six"), "parallel answers both reach the next agent");
    const [c7] = await say("@c seven", ["c"]);
    assert.equal(c7, "seven", "nothing is injected twice");
  } finally {
    await s.teardown();
  }
});

test("a failed turn does not count as seen: the context comes again with the next message", async () => {
  const s = await channelSetup([fakeAgent("a", echo), fakeAgent("b", { prompt: [{ echoWithoutMentions: true }, { exit: 1 }] })]);
  try {
    const first = await s.channels.messages.send(s.general.id, "@a one");
    await s.finished((m) => m.author.agentName === "a" && m.id > first.messageId);
    const second = await s.channels.messages.send(s.general.id, "@b two");
    const failed = await s.finished((m) => m.author.agentName === "b" && m.id > second.messageId);
    assert.equal(failed.status, "error");
    assert.match(textOf(failed), /＠a one[\s\S]*two$/);
    const third = await s.channels.messages.send(s.general.id, "@b three");
    const retried = await s.finished((m) => m.author.agentName === "b" && m.id > third.messageId);
    assert.match(textOf(retried), /user:\n＠a one\n[\s\S]*user:\n＠b two\n[\s\S]*three$/);
  } finally {
    await s.teardown();
  }
});

test("commands: announced commands are stored per agent, survive a reopen, and a near miss is refused with the closest match", async () => {
  const announce = {
    update: {
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "idioms", description: "Explain a French idiom", input: { hint: "a French phrase" } },
        { name: "lasagna", description: "Order lasagna" },
        { name: "has space", description: "Cannot be typed" },
      ],
    },
  };
  const s = await channelSetup([fakeAgent("garfield", { prompt: [announce, { echo: true }] }), fakeAgent("odie", echo)]);
  try {
    const first = await s.channels.messages.send(s.general.id, "@garfield hello");
    await s.finished((m) => m.author.agentName === "garfield" && m.id > first.messageId);
    const announced = s.events.of("commands/changed");
    assert.deepEqual(announced.at(-1), {
      agent: "garfield",
      commands: [
        { name: "idioms", description: "Explain a French idiom", hint: "a French phrase" },
        { name: "lasagna", description: "Order lasagna" },
        { name: "has space", description: "Cannot be typed", notCallable: "whitespace" },
      ],
    });
    await s.reopen();
    assert.deepEqual(
      (await s.channels.commands.ofAll(["garfield", "odie"])).garfield?.map((c) => (c.notCallable ? `${c.name} (${c.notCallable})` : c.name)),
      ["idioms", "lasagna", "has space (whitespace)"],
      "known after a reload, before the agent runs again; the one typing cannot call still marked so",
    );
    // Field case 22: a name typing cannot call is never what routing calls, nor offers as the closest match.
    await assert.rejects(s.channels.messages.send(s.general.id, "@garfield /has space"), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "channel/unknownCommand");
      assert.doesNotMatch(err.message, /has space/);
      return true;
    });
    await assert.rejects(s.channels.messages.send(s.general.id, "@garfield /idiom Il pleut"), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "channel/unknownCommand");
      assert.equal(err.message, "garfield has no command /idiom — did you mean /idioms?");
      return true;
    });
    const call = await s.channels.messages.send(s.general.id, "/garfield:idioms Il pleut");
    const answer = await s.finished((m) => m.author.agentName === "garfield" && m.id > call.messageId);
    assert.equal(textOf(answer), "You said: /idioms Il pleut", "a command goes first, without context before it");
  } finally {
    await s.teardown();
  }
});

test("the demo agent announces /idioms and explains a French idiom, offline", async () => {
  const s = await channelSetup([demoAgent("garfield"), demoAgent("odie")]);
  try {
    const sent = await s.channels.messages.send(s.general.id, "@garfield /idioms Il pleut");
    const answer = await s.finished((m) => m.author.agentName === "garfield" && m.id > sent.messageId, 20_000);
    assert.equal(answer.status, "done");
    assert.match(textOf(answer), /\*\*Il pleut des cordes\*\* — literally “It is raining ropes”[\s\S]*raining cats and dogs/);
    const known = s.events.of("commands/changed").find((c) => c.agent === "garfield");
    assert.deepEqual(known?.commands.map((c) => [c.name, c.hint]), [["idioms", "a French phrase, e.g. Il pleut"], ["help", undefined]]);
  } finally {
    await s.teardown();
  }
});

test("a late joiner catches up beyond the latest page, and a long history is bounded with a count of what was left out", async () => {
  const s = await channelSetup([fakeAgent("a", quiet)]);
  try {
    const ids = monotonicFactory();
    /** `n` user notes written at `at` (ms): before the next send, whatever the millisecond it lands in. */
    const notes = (n: number, size: number, at: number): MessageRecord[] =>
      Array.from({ length: n }, (_, i) => ({
        version: 1 as const,
        id: ids(at),
        channelId: s.general.id,
        author: { kind: "user" as const },
        parts: [{ type: "text" as const, text: `note ${i} ${"x".repeat(size)}` }],
        createdAt: at,
      }));
    await s.store.commit({ messages: notes(120, 10, Date.now() - 10_000) });
    const first = await s.channels.messages.send(s.general.id, "@a hi");
    const caughtUp = textOf(await s.finished((m) => m.author.agentName === "a" && m.id > first.messageId));
    assert.equal([...caughtUp.matchAll(/^user:\nnote \d+/gm)].length, 120, "all 120 earlier notes, not just the latest page");
    assert.doesNotMatch(caughtUp, /left out/);

    await s.store.commit({ messages: notes(100, 1000, Date.now() - 1) }); // after "@a hi": its turn took longer than 1 ms
    const second = await s.channels.messages.send(s.general.id, "@a again");
    const bounded = textOf(await s.finished((m) => m.author.agentName === "a" && m.id > second.messageId));
    assert.ok(Buffer.byteLength(bounded) < 33 * 1024, `${Buffer.byteLength(bounded)} bytes`);
    const kept = [...bounded.matchAll(/^user:\nnote (\d+)/gm)].map((m) => Number(m[1]));
    const leftOut = Number(/\[(\d+) older messages left out\]/.exec(bounded)?.[1]);
    assert.equal(leftOut + kept.length, 100, "each of the 100 new notes kept or counted, nothing seen before");
    assert.equal(kept.at(-1), 99, "the newest are kept");
  } finally {
    await s.teardown();
  }
});

test("an agent whose session is new (stopped, crashed, reloaded) gets the channel's history again, its own answers included", async () => {
  const s = await channelSetup([fakeAgent("a", quiet), fakeAgent("b", quiet)]);
  try {
    const ask = async (text: string, agent: string) => {
      const { messageId } = await s.channels.messages.send(s.general.id, text);
      return textOf(await s.finished((m) => m.author.agentName === agent && m.id > messageId)).replace(/^You said: /, "");
    };
    assert.equal(await ask("@a one", "a"), "one");
    await ask("@b two", "b");
    const three = await ask("@a three", "a");
    assert.match(three, /^\[Messages in this channel since you last answered, oldest first\]\n\nuser:\n＠b two\n/, "same session: only what it had not seen");
    await s.agents.stop("a");
    const four = await ask("@a four", "a");
    assert.match(four, /^\[Your session was restarted\. The messages of this channel so far, oldest first, yours included\]\n\nuser:\n＠a one\n\n＠a:\nYou said: one\n\nuser:\n＠b two\n/);
    assert.match(four, /\n\nuser:\n＠a three\n\n＠a:\nYou said: \[Messages in/, "its own last answer is included");
    assert.match(four, /four$/);
    assert.equal(await ask("@a five", "a"), "five", "then back to what it has not seen");
  } finally {
    await s.teardown();
  }
});

test("an agent that accepts embedded context gets the channel messages as a resource after its request, never as the request's text (so they cannot become its session title)", async () => {
  const s = await channelSetup([fakeAgent("a", { prompt: [{ chunk: "I'll look." }, { toolCall: { toolCallId: "t1", title: "Read a.ts", status: "completed" } }, { chunk: "Done." }] }), fakeAgent("b", { embeddedContext: true, prompt: [{ blocks: true }] }), fakeAgent("c", { prompt: [{ blocks: true }] })]);
  try {
    const { messageId } = await s.channels.messages.send(s.general.id, "@a look");
    await s.finished((m) => m.author.agentName === "a" && m.id > messageId);
    const ask = async (agent: string) => {
      const sent = await s.channels.messages.send(s.general.id, `@${agent} summarise`);
      return JSON.parse(textOf(await s.finished((m) => m.author.agentName === agent && m.id > sent.messageId)));
    };
    const resource = await ask("b");
    assert.equal(resource.length, 2);
    assert.deepEqual(resource[0], { type: "text", text: "summarise" }, "the request alone, first");
    assert.equal(resource[1].type, "resource");
    assert.equal(resource[1].resource.uri, "sidekicks://channel/context");
    assert.equal(resource[1].resource.mimeType, "text/markdown");
    assert.match(resource[1].resource.text, /^\[Messages in this channel since you last answered, oldest first\]/);
    // The agent's two text pieces (around its tool call) keep a line break between them.
    assert.match(resource[1].resource.text, /@a:\n\[tool call: Read a\.ts \(completed\)\]\nI'll look\.\n\nDone\.\n/);
    assert.match(resource[1].resource.text, /\[End of channel messages\. The message for you is outside this block\.\]\n\n$/);
    // An agent without embedded context gets one text block: the same context, then the request.
    const text = await ask("c");
    assert.equal(text.length, 1);
    assert.equal(text[0].type, "text");
    assert.match(text[0].text, /^\[Messages in this channel since you last answered, oldest first\][\s\S]*\[End of channel messages\. The message for you is outside this block\.\]\n\nsummarise$/);
  } finally {
    await s.teardown();
  }
});
