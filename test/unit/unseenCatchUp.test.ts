/**
 * The catch-up reads only what fits (issue 21, "Lists that stay fast"): the context built from the newest messages
 * backwards is the same text the agent got when the whole window of CONTEXT_SCAN_LIMIT messages was read and
 * formatted (`formatContext(unseenMessages(latest 1,000))`, the code before).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import { CONTEXT_SCAN_LIMIT, formatContext, unseenMessages } from "../../src/channels/context";
import { unseenContext } from "../../src/channels/unseenContext";
import { Store } from "../../src/store/Store";
import type { MessageRecord } from "../../src/store/records";
import { ClassicLevel } from "classic-level";
import { META_INDEX_STATE, asMessageMeta, metaPut } from "../../src/store/messageMeta";
import { tempDir } from "./helpers";

/** What the agent got before: the latest CONTEXT_SCAN_LIMIT messages read and formatted whole. */
async function wholeWindow(store: Store, channelId: string, agent: string, beforeId: string, fresh: boolean): Promise<string> {
  const member = (await store.members(channelId)).find((m) => m.agentName === agent);
  const newSession = fresh && member?.lastSeenMessageId !== undefined;
  const lastSeen = newSession ? undefined : member?.lastSeenMessageId;
  const recent = await store.latestMessages(channelId, CONTEXT_SCAN_LIMIT);
  const truncated = recent.length === CONTEXT_SCAN_LIMIT && (lastSeen === undefined || recent[0]!.id > lastSeen);
  return formatContext(unseenMessages(recent, agent, lastSeen, beforeId, newSession), { olderNotRead: truncated, newSession });
}

/** Opens the store in `dir` as one created before the meta index (issue 21): its state key and entries removed. */
async function withoutMetaIndex(dir: string): Promise<Store> {
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.del(META_INDEX_STATE);
  await db.clear({ gte: "meta/", lt: "meta/\uffff" });
  await db.close();
  return Store.open(dir);
}

for (const indexed of [true, false]) {
  test(`a long history's catch-up is the same text as when the whole window was read: sizes, own answers, empty answers, tool outputs (${indexed ? "meta index" : "a store from before the meta index"})`, async () => {
    const { dir, cleanup } = tempDir();
    let store = await Store.open(dir);
    try {
      await history(store, async () => {
        if (indexed) return store;
        await store.close();
        return (store = await withoutMetaIndex(dir));
      });
    } finally {
      await store.close();
      cleanup();
    }
  });
}

/** Writes five histories, then (`reopen`) checks each one's catch-up against the whole window's. */
async function history(first: Store, reopen: () => Promise<Store>): Promise<void> {
  const store = first;
  const checks: (() => Promise<void>)[] = [];
  {
    const ulid = monotonicFactory();
    let at = 1_700_000_000_000;
    const cases: { turns: number; answerBytes: number; toolBytes: number }[] = [
      { turns: 3, answerBytes: 200, toolBytes: 100 }, // fits whole
      { turns: 40, answerBytes: 300, toolBytes: 2_000 }, // fits once tool outputs are left out
      { turns: 200, answerBytes: 1_000, toolBytes: 2_000 }, // older messages dropped, counted
      { turns: 600, answerBytes: 100, toolBytes: 50 }, // beyond the window of 1,000
      { turns: 2, answerBytes: 40_000, toolBytes: 0 }, // one answer larger than the budget, cut
    ];
    for (const [n, c] of cases.entries()) {
      const channelId = ulid();
      const messages: MessageRecord[] = [];
      const add = (author: MessageRecord["author"], parts: MessageRecord["parts"]) => {
        at += 1000;
        const m: MessageRecord = { version: 1, id: ulid(at), channelId, author, parts, createdAt: at };
        messages.push(m);
        return m;
      };
      let seen: string | undefined;
      for (let t = 0; t < c.turns; t++) {
        add({ kind: "user" }, [{ type: "text", text: `@a question ${t} é` }]);
        if (t === Math.floor(c.turns / 3)) seen = messages.at(-1)!.id;
        const by = t % 3 === 0 ? "a" : "b";
        add({ kind: "agent", agentName: by }, [
          { type: "toolCall", toolCallId: `t${t}`, title: `step ${t}`, status: "completed", ...(c.toolBytes ? { content: "o".repeat(c.toolBytes + t) } : {}) },
          { type: "text", text: t % 7 === 5 ? "  " : `${by} answers ${t} ${"x".repeat(c.answerBytes)}` }, // every 7th has nothing to say
        ]);
      }
      const request = add({ kind: "user" }, [{ type: "text", text: "@a now?" }]);
      await store.commit({ messages, members: [{ version: 1, channelId, agentName: "a", joinedAt: at, ...(seen ? { lastSeenMessageId: seen } : {}) }] });
      checks.push(async () => {
        for (const fresh of [false, true]) {
          const built = await unseenContext(reopened!, channelId, "a", request.id, fresh);
          assert.equal(built, await wholeWindow(reopened!, channelId, "a", request.id, fresh), `case ${n} (${c.turns} turns), fresh ${fresh}`);
          assert.ok(Buffer.byteLength(built) <= 32 * 1024 + 200, `case ${n}: ${Buffer.byteLength(built)} bytes`);
        }
      });
    }
  }
  const reopened: Store | undefined = await reopen();
  for (const check of checks) await check();
}

test("the meta index follows the messages: an answer created empty then checkpointed with text is counted, a deleted channel leaves no entry", async () => {
  const { dir, cleanup } = tempDir();
  let store = await Store.open(dir);
  try {
    const ulid = monotonicFactory();
    let at = 1_700_000_000_000;
    const channelId = ulid();
    const channel = { version: 1 as const, id: channelId, name: "long", kind: "channel" as const, createdAt: at, updatedAt: at };
    const messages: MessageRecord[] = [];
    for (let t = 0; t < 120; t++) {
      at += 1000;
      messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: `@a question ${t}` }], createdAt: at });
      at += 1000;
      messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "agent", agentName: "b" }, parts: [], createdAt: at }); // admitted, empty
    }
    const request: MessageRecord = { version: 1, id: ulid(at + 1000), channelId, author: { kind: "user" }, parts: [{ type: "text", text: "@a now?" }], createdAt: at + 1000 };
    await store.commit({ channels: [{ channel }], messages: [...messages, request], members: [{ version: 1, channelId, agentName: "a", joinedAt: at }] });
    const before = await unseenContext(store, channelId, "a", request.id, false);
    // Each answer's checkpoint rewrites it with text: the old entries ("nothing to say") must not stay.
    await store.commit({ messages: messages.filter((m) => m.author.kind === "agent").map((m) => ({ ...m, parts: [{ type: "text", text: `b answers ${"y".repeat(600)}` }] })) });
    const after = await unseenContext(store, channelId, "a", request.id, false);
    assert.notEqual(after, before);
    assert.equal(after, await wholeWindow(store, channelId, "a", request.id, false));
    assert.match(after, /\[\d+ older messages left out\]/);
    await store.commit({ deletedChannels: [{ channel, directAgents: [] }] });
    await store.close();
    const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
    const left = await db.keys({ gte: `meta/${channelId}/`, lt: `meta/${channelId}/\uffff` }).all();
    await db.close();
    assert.deepEqual(left, []);
    store = await Store.open(dir);
  } finally {
    await store.close();
    cleanup();
  }
});

test("a meta entry reads back as written, agent names with spaces included, and a damaged one is refused (its message is read instead)", () => {
  const m: MessageRecord = { version: 1, id: "01J0000000000000000000000A", channelId: "c", author: { kind: "agent", agentName: "my agent" }, parts: [{ type: "text", text: " é " }, { type: "toolCall", toolCallId: "t", title: "x", status: "completed" }], createdAt: 1 };
  const put = metaPut(m);
  assert.ok(put.type === "put");
  assert.deepEqual(asMessageMeta(m.id, put.value), { id: m.id, kind: "agent", agentName: "my agent", says: true, textBytes: 2 });
  assert.deepEqual(asMessageMeta(m.id, (metaPut({ ...m, author: { kind: "user" }, parts: [] }) as { value: string }).value), { id: m.id, kind: "user", says: false, textBytes: 0 });
  for (const bad of ["", "1", "2 3 user", "1 -4 user", "1 x user", "1 3 robot", '{"kind":"user"}']) assert.equal(asMessageMeta(m.id, bad), undefined, bad);
});

test("a long catch-up of a new session is written from the context entries: the same text with the older messages' records and the meta entries gone, and the tally follows rewrites", async () => {
  const { dir, cleanup } = tempDir();
  let store = await Store.open(dir);
  try {
    const ulid = monotonicFactory();
    let at = 1_700_000_000_000;
    const channelId = ulid();
    const messages: MessageRecord[] = [];
    for (let t = 0; t < 150; t++) {
      at += 1000;
      messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: `@a question ${t}` }], createdAt: at });
      at += 1000;
      const by = t % 2 === 0 ? "a" : "b";
      messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "agent", agentName: by }, parts: [{ type: "toolCall", toolCallId: `t${t}`, title: "run", status: "completed", content: "line\r".repeat(300) + "done" }, { type: "text", text: `${by} answers ${t} ${"é".repeat(500)}` }], createdAt: at });
    }
    const request: MessageRecord = { version: 1, id: ulid(at + 1000), channelId, author: { kind: "user" }, parts: [{ type: "text", text: "@a now?" }], createdAt: at + 1000 };
    const later: MessageRecord = { version: 1, id: ulid(at + 2000), channelId, author: { kind: "agent", agentName: "b" }, parts: [{ type: "text", text: "b, after the request" }], createdAt: at + 2000 };
    await store.commit({ messages: [...messages, request, later], members: [{ version: 1, channelId, agentName: "a", joinedAt: at, lastSeenMessageId: messages.at(-1)!.id }] });
    // Some answers said nothing at first, then were rewritten with text; one that said something now says nothing.
    await store.commit({ messages: [{ ...messages[3]!, parts: [] }, { ...messages[5]!, parts: [{ type: "text", text: " " }] }] });
    await store.commit({ messages: [messages[3]!] });
    for (const fresh of [true, false]) {
      const expected = await wholeWindow(store, channelId, "a", request.id, fresh);
      assert.equal(await unseenContext(store, channelId, "a", request.id, fresh), expected, `fresh ${fresh}`);
    }
    const expected = await wholeWindow(store, channelId, "a", request.id, true);
    assert.match(expected, /\[\d+ older messages left out\]/);
    // The older half's records and every meta entry gone: a catch-up that read them (or counted from them) would change.
    await store.close();
    const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
    await db.clear({ gte: `msg/${channelId}/`, lt: `msg/${channelId}/${messages[150]!.id}` });
    await db.clear({ gte: `meta/${channelId}/`, lt: `meta/${channelId}/\uffff` });
    await db.close();
    store = await Store.open(dir);
    assert.equal(await unseenContext(store, channelId, "a", request.id, true), expected);
  } finally {
    await store.close();
    cleanup();
  }
});
