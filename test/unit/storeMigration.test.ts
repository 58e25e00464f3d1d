import { test } from "node:test";
import assert from "node:assert/strict";
import { ClassicLevel } from "classic-level";
import { migrate } from "../../src/store/migrations";
import { Store } from "../../src/store/Store";
import { STORE_SCHEMA_VERSION, keys } from "../../src/store/records";
import { tempDir } from "./helpers";

/** Writes a store exactly as schema 1 did: `v` = 1, a channel without `kind`, its name index, a member, a message. */
async function writeV1(dir: string): Promise<void> {
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.batch([
    { type: "put", key: keys.version, value: "1" },
    { type: "put", key: "channel/C1", value: JSON.stringify({ version: 1, id: "C1", name: "general", createdAt: 1, updatedAt: 1 }) },
    { type: "put", key: "channel-name/general", value: "C1" },
    { type: "put", key: "member/C1/demo", value: JSON.stringify({ version: 1, channelId: "C1", agentName: "demo", joinedAt: 1 }) },
    { type: "put", key: "msg/C1/01A", value: JSON.stringify({ version: 1, id: "01A", channelId: "C1", author: { kind: "user" }, parts: [{ type: "text", text: "hi" }], createdAt: 1 }) },
    { type: "put", key: "channel/BAD", value: "{not json" },
  ]);
  await db.close();
}

test("a schema-1 store opens as schema 4: channels get kind, v moves to 4, history and members stay", async () => {
  assert.equal(STORE_SCHEMA_VERSION, 4);
  const { dir, cleanup } = tempDir();
  try {
    await writeV1(dir);
    const skipped: string[] = [];
    const store = await Store.open(dir, (key) => skipped.push(key));
    const general = await store.channelByName("general");
    assert.equal(general?.kind, "channel");
    assert.deepEqual((await store.latestMessages("C1", 10)).map((m) => m.id), ["01A"]);
    assert.deepEqual((await store.members("C1")).map((m) => m.agentName), ["demo"]);
    await store.close();
    const raw = new ClassicLevel<string, string>(dir);
    assert.equal(await raw.get(keys.version), "4");
    assert.equal(await raw.get("channel/BAD"), "{not json", "a corrupt record is left for the reader to skip");
    await raw.close();
    const again = await Store.open(dir, (key) => skipped.push(key));
    assert.equal((await again.channels()).length, 1);
    assert.deepEqual(skipped, ["channel/BAD"]);
    await again.close();
  } finally {
    cleanup();
  }
});

test("each step commits with its v: a failing step leaves the store at the last finished schema", async () => {
  const { dir, cleanup } = tempDir();
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
  try {
    await db.put(keys.version, "1");
    const steps = [
      { from: 1, description: "add x", plan: async () => [{ type: "put" as const, key: "value/x", value: "1" }] },
      { from: 2, description: "boom", plan: async () => { throw new Error("boom"); } },
    ];
    await assert.rejects(migrate(db, 1, 3, steps), /boom/);
    assert.equal(await db.get(keys.version), "2");
    assert.equal(await db.get("value/x"), "1");
    await assert.rejects(migrate(db, 2, 4, steps.slice(0, 1)), /no store migration from schema 2/);
  } finally {
    await db.close();
    cleanup();
  }
});
