/**
 * The store's answers to a damaged or failing disk (issue 17; the full set of fault kinds is `npm run test:faults`):
 * a damaged folder is set aside unchanged and a repaired copy opened, a corrupt `#general` record never hides its
 * messages, and after one failed write nothing more reports success.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { monotonicFactory } from "ulid";
import { ChannelDirectory } from "../../src/channels/ChannelDirectory";
import { SidekicksError } from "../../src/shared/errors";
import { GuardedLevel } from "../../src/store/guardedLevel";
import { checkLog } from "../../src/store/inspect";
import { journalOf } from "../../src/store/openLevel";
import { keys, type MessageRecord } from "../../src/store/records";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import { tempDir } from "./helpers";

const ulid = monotonicFactory();
const message = (channelId: string, text: string): MessageRecord => ({
  version: 1, id: ulid(), channelId, author: { kind: "user" }, parts: [{ type: "text", text }], createdAt: 0,
});
const directory = (store: Store) => new ChannelDirectory(new StoreWriter(store), { names: () => [], state: () => "stopped" }, { emit: () => undefined });

/** A store with #general and `n` messages in it, written in two sessions (so it holds a table and a log). */
async function history(dir: string, n: number): Promise<string> {
  let store = await Store.open(dir);
  const general = await directory(store).syncGeneral([]);
  for (let i = 0; i < n; i++) {
    if (i === n / 2) {
      await store.close();
      store = await Store.open(dir);
    }
    await store.commit({ messages: [message(general.id, `message ${i} ${"x".repeat(500)}`)] });
  }
  await store.close();
  return general.id;
}

test("a store without CURRENT is set aside unchanged and a repaired copy opens with every message, never a new empty store", async () => {
  const { dir: root, cleanup } = tempDir();
  const dir = path.join(root, "store");
  try {
    const generalId = await history(dir, 200);
    rmSync(path.join(dir, "CURRENT"));
    const original = new Map(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f)).toString("hex")]));
    const store = await Store.open(dir);
    try {
      assert.equal((await store.latestMessages(generalId, 1000)).length, 200);
      assert.equal(store.recovery?.reason, "missingCurrent");
      assert.equal(store.recovery?.messages, 200);
      const aside = store.recovery!.aside;
      assert.match(path.basename(aside), /^store\.damaged-\d{4}-\d\d-\d\dT/);
      for (const [file, bytes] of original) assert.equal(readFileSync(path.join(aside, file)).toString("hex"), bytes, `${file} kept as it was`);
      assert.equal(readdirSync(root).includes(path.basename(journalOf(dir))), false, "the repair journal is gone once done");
    } finally {
      await store.close();
    }
    const again = await Store.open(dir);
    assert.equal(again.recovery, undefined, "the repaired copy then opens normally");
    await again.close();
  } finally {
    cleanup();
  }
});

test("a corrupt #general record is rebuilt with the same id: its messages stay visible, no new empty #general", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const generalId = await history(dir, 10);
    const raw = new ClassicLevel<string, string>(dir);
    await raw.put(keys.channel(generalId), "{not json");
    await raw.close();
    const skipped: string[] = [];
    const store = await Store.open(dir, (key, reason) => skipped.push(`${key}: ${reason}`));
    try {
      const general = await directory(store).syncGeneral([]);
      assert.equal(general.id, generalId);
      assert.equal((await store.latestMessages(general.id, 100)).length, 10);
      assert.equal((await store.channels()).length, 1);
      assert.match(skipped.join("\n"), /unreadable: rebuilt as #general/);
      assert.deepEqual(await store.getValue(`corrupt/${keys.channel(generalId)}`), "{not json", "the unreadable bytes are kept");
    } finally {
      await store.close();
    }
  } finally {
    cleanup();
  }
});

test("after one failed write every later write is refused with store/writeFailed, even if the disk has room again", async () => {
  let calls = 0;
  const raw = {
    status: "open",
    batch: async () => {
      calls++;
      if (calls === 1) throw Object.assign(new Error("write failed"), { cause: new Error("IO error: 000003.log: No space left on device") });
    },
  } as unknown as ClassicLevel<string, string>;
  const level = new GuardedLevel(raw, "/tmp/history");
  const refused = (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "store/writeFailed");
    assert.match(err.message, /No space left on device.*free disk space.*reload the window/);
    return true;
  };
  await assert.rejects(level.batch([{ type: "put", key: "a", value: "1" }]), refused);
  await assert.rejects(level.batch([{ type: "put", key: "b", value: "2" }], true), refused);
  await assert.rejects(level.clear({ gte: "a" }), refused);
  assert.equal(calls, 1, "nothing reached LevelDB after the failure");
});

test("the log check ignores an incomplete last record and finds a corrupt one before the end", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const db = new ClassicLevel<string, string>(dir);
    for (let i = 0; i < 100; i++) await db.put(`k${i}`, "v".repeat(i === 50 ? 40_000 : 300));
    await db.close();
    const log = path.join(dir, readdirSync(dir).find((f) => f.endsWith(".log"))!);
    const bytes = readFileSync(log);
    assert.equal(checkLog(bytes), undefined);
    assert.equal(checkLog(bytes.subarray(0, bytes.length - 100)), undefined, "cut short: an incomplete write");
    const damaged = Buffer.from(bytes);
    damaged[1000] = damaged[1000]! ^ 0xff;
    assert.match(checkLog(damaged) ?? "", /checksum mismatch/);
    writeFileSync(log, damaged);
    const store = await Store.open(dir);
    assert.equal(store.recovery?.reason, "corruptLog");
    await store.close();
  } finally {
    cleanup();
  }
});
