/**
 * A store written before the meta index (no `meta/`, `ctx/` or `tally/` keys, issue 21) gets it once after its open,
 * a step at a time through the write lane: the same entries a store that wrote them from its creation holds, with
 * messages committed and rewritten between the steps counted once, and the catch-up the same text.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ClassicLevel } from "classic-level";
import { monotonicFactory } from "ulid";
import { unseenContext } from "../../src/channels/unseenContext";
import { META_INDEX_STATE } from "../../src/store/messageMeta";
import { MetaIndexBuild } from "../../src/store/metaIndexBuild";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import type { MessageRecord } from "../../src/store/records";
import { tempDir } from "./helpers";

const INDEX_PREFIXES = ["meta/", "ctx/", "tally/"];

/** Every key and value of the meta index in the store in `dir` (closed), and its state. */
async function indexOf(dir: string): Promise<{ entries: [string, string][]; state: string | undefined }> {
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
  const entries: [string, string][] = [];
  for (const prefix of INDEX_PREFIXES) entries.push(...(await db.iterator({ gte: prefix, lt: prefix + "\uffff" }).all()));
  for (const entry of entries) {
    if (!entry[0].startsWith("tally/")) continue;
    const tally = JSON.parse(entry[1]) as { saysBy: Record<string, number> }; // (its agents in any order)
    entry[1] = JSON.stringify({ ...tally, saysBy: Object.fromEntries(Object.entries(tally.saysBy).sort()) });
  }
  const state = await db.get(META_INDEX_STATE);
  await db.close();
  return { entries, state };
}

/** Removes the meta index from the store in `dir` (closed), as a store written before it: `state` left, or none. */
async function withoutIndex(dir: string, state?: string): Promise<void> {
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
  for (const prefix of INDEX_PREFIXES) await db.clear({ gte: prefix, lt: prefix + "\uffff" });
  if (state === undefined) await db.del(META_INDEX_STATE);
  else await db.put(META_INDEX_STATE, state);
  await db.close();
}

function history(channels: number, turns: number): { messages: MessageRecord[]; channelIds: string[] } {
  const ulid = monotonicFactory();
  let at = 1_700_000_000_000;
  const messages: MessageRecord[] = [];
  const channelIds = Array.from({ length: channels }, () => ulid());
  for (let t = 0; t < turns; t++) {
    for (const channelId of channelIds) {
      at += 1000;
      messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: `@a question ${t}` }], createdAt: at });
      at += 1000;
      const by = t % 3 === 0 ? "a" : "b";
      const text = t % 5 === 4 ? " " : `${by} answers ${t} ${"x".repeat(700)}`; // every fifth says nothing
      messages.push({ version: 1, id: ulid(at), channelId, author: { kind: "agent", agentName: by }, parts: [{ type: "toolCall", toolCallId: `t${t}`, title: "grep", status: "completed", content: "o".repeat(1500) }, { type: "text", text }], createdAt: at });
    }
  }
  return { messages, channelIds };
}

for (const older of [{ state: undefined, what: "no meta index at all" }, { state: "complete", what: "meta entries only (\"complete\")" }]) {
  test(`a store written before the meta index (${older.what}) gets it once after the open: the same entries as a store that wrote them, messages committed between the steps counted once`, async () => {
    const written = tempDir();
    const upgraded = tempDir();
    try {
      const { messages, channelIds } = history(3, 90); // 540 messages, steps of 100
      const request = (channelId: string, at: number): MessageRecord => ({ version: 1, id: monotonicFactory()(at), channelId, author: { kind: "user" }, parts: [{ type: "text", text: "@a now?" }], createdAt: at });
      // Between steps: an answer rewritten with text (not yet given its entries), another already given its entries
      // rewritten empty, and a new message.
      const late = request(channelIds[0]!, 1_800_000_000_000);
      const rewrites = [{ ...messages.at(-1)!, parts: [{ type: "text" as const, text: "now it says something" }] }, { ...messages[1]!, parts: [] }];
      const final = [...messages.slice(0, -1), rewrites[0]!, late];
      final[1] = rewrites[1]!;

      const members = channelIds.map((channelId) => ({ version: 1 as const, channelId, agentName: "a", joinedAt: 1, lastSeenMessageId: messages[0]!.id }));
      // The store as a new one writes it, the same messages committed the same way.
      let store = await Store.open(written.dir);
      await store.commit({ messages, members });
      await store.commit({ messages: [...rewrites, late] });
      const catchUps = await Promise.all(channelIds.map((c) => unseenContext(store, c, "a", late.id, true)));
      await store.close();
      const expected = await indexOf(written.dir);
      assert.equal(expected.entries.filter(([k]) => k.startsWith("ctx/")).length, final.length);

      store = await Store.open(upgraded.dir);
      await store.commit({ messages });
      await store.close();
      await withoutIndex(upgraded.dir, older.state);
      store = await Store.open(upgraded.dir);
      assert.equal(store.metaIndexComplete, false);
      await store.commit({ members });
      const before = await Promise.all(channelIds.map((c) => unseenContext(store, c, "a", late.id, true)));
      const build = new MetaIndexBuild(new StoreWriter(store), 100);
      assert.equal(await build.next(), false);
      assert.equal(await build.next(), false);
      await store.commit({ messages: [...rewrites, late] });
      await build.build();
      assert.equal(store.metaIndexComplete, true);
      // The catch-up reads the new entries and says what it said before them (channel 1 was not written since), and
      // what the store that wrote them says.
      const after = await Promise.all(channelIds.map((c) => unseenContext(store, c, "a", late.id, true)));
      assert.match(after[1]!, /\[\d+ older messages left out\]/);
      assert.equal(after[1], before[1]);
      assert.deepEqual(after, catchUps);
      await store.close();
      const built = await indexOf(upgraded.dir);
      assert.deepEqual(built, expected);
      // Once built, a later open does nothing more.
      store = await Store.open(upgraded.dir);
      assert.equal(store.metaIndexComplete, true);
      const batches = store.batches;
      await new MetaIndexBuild(new StoreWriter(store)).build();
      assert.equal(store.batches, batches);
      await store.close();
    } finally {
      written.cleanup();
      upgraded.cleanup();
    }
  });
}
