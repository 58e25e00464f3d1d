import { test } from "node:test";
import assert from "node:assert/strict";
import { ClassicLevel } from "classic-level";
import { monotonicFactory } from "ulid";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import { keys, type ChannelRecord, type MessageRecord } from "../../src/store/records";
import { HistorySearch, parseSearch } from "../../src/channels/HistorySearch";
import { tempDir } from "./helpers";
import { channelSetup, fakeAgent } from "./channelHarness";

const ulid = monotonicFactory();
const DAY = 86_400_000;
const T0 = Date.parse("2026-11-01T10:00:00Z");

const channel = (name: string): ChannelRecord => ({ version: 1, id: ulid(T0 - DAY), name, kind: "channel", createdAt: T0, updatedAt: T0 });

function msg(channelId: string, at: number, author: MessageRecord["author"], parts: MessageRecord["parts"], extra: Partial<MessageRecord> = {}): MessageRecord {
  return { version: 1, id: ulid(at), channelId, author, parts, createdAt: at, ...extra };
}
const text = (t: string): MessageRecord["parts"] => [{ type: "text", text: t }];

async function withHistory(run: (search: HistorySearch, store: Store, ids: Record<string, string>) => Promise<void>): Promise<void> {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const general = channel("general");
    const infra = channel("infra");
    await store.commit({ channels: [{ channel: general }, { channel: infra }] });
    const m = {
      ask: msg(general.id, T0, { kind: "user" }, text("Please refactor the parser, it is slow")),
      answer: msg(general.id, T0 + DAY, { kind: "agent", agentName: "claude" }, [
        { type: "toolCall", toolCallId: "t1", title: "Read src/parser.ts", status: "completed" },
        { type: "text", text: "I refactored the Parser: tokens are now cached." },
      ], { turnId: "T1", outcome: "completed" }),
      infra: msg(infra.id, T0 + 2 * DAY, { kind: "agent", agentName: "codex" }, text("The deploy of the parser service failed on Friday."), { turnId: "T2", outcome: "completed" }),
      running: msg(infra.id, T0 + 3 * DAY, { kind: "agent", agentName: "codex" }, text("Still refactoring…"), { turnId: "T3" }),
    };
    await store.commit({ messages: Object.values(m) });
    await run(new HistorySearch(new StoreWriter(store)), store, Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.id])));
  } finally {
    await store.close();
    cleanup();
  }
}

test("a word finds the messages of every channel that have a word starting with it, newest first, with channel, author and a snippet", async () => {
  await withHistory(async (search, _store, ids) => {
    const { hits, more } = await search.search("parser");
    assert.deepEqual(hits.map((h) => [h.messageId, h.channelName, h.author]), [
      [ids.infra, "infra", "codex"],
      [ids.answer, "general", "claude"],
      [ids.ask, "general", "user"],
    ]);
    assert.equal(more, false);
    assert.match(hits[1]!.snippet, /I refactored the Parser: tokens are now cached\./);
    assert.deepEqual((await search.search("REFAC")).hits.map((h) => h.messageId), [ids.answer, ids.ask], "case ignored; a running answer is not found until it settles");
    assert.deepEqual((await search.search("arser")).hits, [], "a term matches the start of a word, not its middle");
  });
});

test("filters narrow by channel, author and date; several words must all be there", async () => {
  await withHistory(async (search, _store, ids) => {
    const ids_ = async (q: string) => (await search.search(q)).hits.map((h) => h.messageId);
    assert.deepEqual(await ids_("parser in:#general"), [ids.answer, ids.ask]);
    assert.deepEqual(await ids_("parser from:claude"), [ids.answer]);
    assert.deepEqual(await ids_("parser from:user"), [ids.ask]);
    assert.deepEqual(await ids_("parser after:2026-11-02 before:2026-11-03"), [ids.answer]);
    assert.deepEqual(await ids_("parser failed"), [ids.infra]);
    assert.deepEqual(await search.search("parser in:#nochannel"), { hits: [], more: false, noChannel: "No channel named #nochannel. Channels: #general, #infra." }, "a channel that does not exist is named, not an empty result");
    assert.deepEqual((await search.search("parser in:#genral")).noChannel, "No channel named #genral — did you mean #general?");
    assert.equal((await search.search("parser in:#GENERAL")).noChannel, undefined, "channel names match whatever their case");
    assert.deepEqual(await ids_("src/parser"), [ids.answer], "a tool call's title is searched too");
  });
});

test("the limit keeps the newest hits and says more exist; the index and the full scan agree", async () => {
  await withHistory(async (search, store) => {
    const { hits, more } = await search.search("parser", 2);
    assert.equal(hits.length, 2);
    assert.equal(more, true);
    for (const q of [{ text: "parser" }, { text: "the", author: "codex" }, { text: "p", limit: 10 }, { text: "tokens cached" }]) {
      assert.deepEqual(await store.search(q), await store.scanSearch(q), JSON.stringify(q));
    }
  });
});

test("filters alone list the newest messages that pass them, across channels, a running answer left out; no filter finds nothing", async () => {
  await withHistory(async (search, _store, ids) => {
    assert.deepEqual((await search.search("from:codex")).hits.map((h) => [h.messageId, h.channelName]), [[ids.infra, "infra"]], "codex's settled answer, not its running one");
    assert.deepEqual((await search.search("in:#general")).hits.map((h) => h.messageId), [ids.answer, ids.ask], "newest first");
    assert.deepEqual((await search.search("before:2026-11-02")).hits.map((h) => h.messageId), [ids.ask]);
    const limited = await search.search({ text: "", author: "user" }, 1);
    assert.deepEqual([limited.hits.map((h) => h.messageId), limited.more], [[ids.ask], false]);
    const two = await search.search({ text: "", since: T0 }, 1);
    assert.deepEqual([two.hits.map((h) => h.messageId), two.more], [[ids.infra], true], "the limit keeps the newest and says more exist");
    assert.match((await search.search("from:claude")).hits[0]!.snippet, /^I refactored the Parser/, "the snippet is the message's start");
    assert.deepEqual((await search.search("   ")).hits, [], "no words and no filter: nothing");
  });
});

test("parseSearch keeps a filter that does not parse as a word, and names it so the user is told", () => {
  assert.deepEqual(parseSearch("  deploy in:#infra from:@codex after:2026-11-02 before:soon "), {
    text: "deploy before:soon", channel: "infra", author: "codex", since: Date.parse("2026-11-02T00:00:00Z"), unreadDates: ["before:soon"],
  });
});

test("a deleted channel's messages are no longer found", async () => {
  await withHistory(async (search, store) => {
    const infra = (await store.channelByName("infra"))!;
    await store.commit({ deletedChannels: [{ channel: infra, directAgents: [] }] });
    assert.deepEqual((await search.search("deploy")).hits, []);
    const raw = store as unknown as { db: { iterator(r: object): AsyncIterable<[string, string]> } };
    const left: string[] = [];
    for await (const [key] of raw.db.iterator({ gte: "word/deploy/", lt: "word/deploy/\uffff" })) left.push(key);
    assert.deepEqual(left, [], "its words left the index in the same batch");
  });
});

test("a message of 200,000 distinct words (a pasted log of ids) is kept and found by its last word, and leaves the index with its channel", async () => {
  await withHistory(async (search, store) => {
    const infra = (await store.channelByName("infra"))!;
    const ids = Array.from({ length: 200_000 }, (_, i) => `id${i.toString(36)}`);
    const pasted = msg(infra.id, T0 + 4 * DAY, { kind: "user" }, text(ids.join(" ")));
    await store.commit({ messages: [pasted] }); // pushed each word's key as an argument: "Maximum call stack size exceeded"
    assert.deepEqual((await search.search(ids.at(-1)!)).hits.map((h) => h.messageId), [pasted.id]);
    await store.commit({ deletedChannels: [{ channel: infra, directAgents: [] }] });
    assert.deepEqual((await search.search(ids.at(-1)!)).hits, []);
  });
});

test("a schema-3 store is searched by reading every message, then through the index once it is built in the background", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
    const ids: string[] = [];
    const ops: { type: "put"; key: string; value: string }[] = [{ type: "put", key: keys.version, value: "3" }];
    for (let i = 0; i < 1_200; i++) {
      const m = msg("C1", T0 + i * 1000, { kind: "user" }, text(i % 100 === 0 ? `milestone ${i}` : `message ${i}`));
      ids.push(m.id);
      ops.push({ type: "put", key: keys.message("C1", m.id), value: JSON.stringify(m) });
    }
    await db.batch(ops);
    await db.close();
    const store = await Store.open(dir);
    try {
      const search = new HistorySearch(new StoreWriter(store));
      assert.equal((await store.searchIndexState()).complete, false);
      const expected = ids.filter((_, i) => i % 100 === 0).reverse();
      assert.deepEqual((await search.search("milestone")).hits.map((h) => h.messageId), expected, "found before the index is built");
      await search.buildIndex();
      assert.equal((await store.searchIndexState()).complete, true);
      assert.deepEqual((await search.search("milestone")).hits.map((h) => h.messageId), expected, "found through the index");
      assert.deepEqual(await store.search({ text: "milestone" }), await store.scanSearch({ text: "milestone" }));
    } finally {
      await store.close();
    }
  } finally {
    cleanup();
  }
});

test("an agent's answer is found once it settles, opens by its id, and exports with its author", async () => {
  const s = await channelSetup([fakeAgent("demo", { prompt: [{ chunk: "I renamed the tokenizer " }, { chunk: "and its tests." }] })]);
  try {
    await s.channels.messages.send(s.general.id, "@demo rename the lexer");
    const answer = await s.finished((m) => m.author.kind === "agent");
    await s.channels.ready;
    const { hits } = await s.channels.search.search("tokenizer");
    assert.deepEqual(hits.map((h) => [h.messageId, h.channelName, h.author, h.snippet]), [[answer.id, "general", "demo", "I renamed the tokenizer and its tests."]]);
    assert.deepEqual((await s.channels.search.search("lexer from:user")).hits.map((h) => h.author), ["user"]);
    const { name, markdown } = await s.channels.exportChannel(s.general.id);
    assert.equal(name, "general");
    assert.match(markdown, /## You → @demo · .*\n\n@demo rename the lexer\n\n## @demo · .*\n\nI renamed the tokenizer and its tests\.\n/);
  } finally {
    await s.teardown();
  }
});
