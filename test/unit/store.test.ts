import { test } from "node:test";
import assert from "node:assert/strict";
import { ClassicLevel } from "classic-level";
import { monotonicFactory } from "ulid";
import { Store } from "../../src/store/Store";
import { keys, type MessageRecord } from "../../src/store/records";
import { SidekicksError } from "../../src/shared/errors";
import { tempDir } from "./helpers";

const message = (id: string, text: string): MessageRecord => ({
  version: 1, id, channelId: "C1", author: { kind: "user" }, parts: [{ type: "text", text }], createdAt: 0,
});

test("ULID message keys sort by time: latestMessages returns the last page, oldest first", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const ulid = monotonicFactory();
    const ids = Array.from({ length: 120 }, (_, i) => ulid(1_700_000_000_000 + i * 1000));
    // written out of order: the key order, not the write order, decides
    for (const id of [...ids].reverse()) await store.commit({ messages: [message(id, id)] });
    const page = await store.latestMessages("C1", 50);
    assert.deepEqual(page.map((m) => m.id), ids.slice(70));
    assert.deepEqual(await store.latestMessages("C2", 50), []);
  } finally {
    await store.close();
    cleanup();
  }
});

test("messages survive closing and reopening; the schema version key v is 4", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open(dir);
    await store.commit({ messages: [message("01A", "hello")] });
    await store.close();
    const raw = new ClassicLevel<string, string>(dir);
    assert.equal(await raw.get(keys.version), "4");
    await raw.close();
    const again = await Store.open(dir);
    assert.equal((await again.latestMessages("C1", 10))[0]?.parts[0]?.type, "text");
    await again.close();
  } finally {
    cleanup();
  }
});

test("a corrupt record is skipped and reported; the rest of the history loads", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open(dir);
    await store.commit({ messages: [message("01A", "one"), message("01C", "three")] });
    await store.close();
    const raw = new ClassicLevel<string, string>(dir);
    await raw.put(keys.message("C1", "01B"), "{not json");
    await raw.close();
    const skipped: string[] = [];
    const again = await Store.open(dir, (key) => skipped.push(key));
    assert.deepEqual((await again.latestMessages("C1", 10)).map((m) => m.id), ["01A", "01C"]);
    assert.deepEqual(skipped, ["msg/C1/01B"]);
    await again.close();
  } finally {
    cleanup();
  }
});

test("a second open of the same folder fails with store/locked and a plain explanation", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    await assert.rejects(Store.open(dir), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "store/locked");
      assert.match(err.message, /open in another VS Code window/);
      return true;
    });
  } finally {
    await store.close();
    cleanup();
  }
});

test("a store written by a newer schema is refused, not misread", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const raw = new ClassicLevel<string, string>(dir);
    await raw.put(keys.version, "99");
    await raw.close();
    await assert.rejects(Store.open(dir), /newer Sidekicks/);
  } finally {
    cleanup();
  }
});
