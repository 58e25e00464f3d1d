/**
 * The history store's lifetime meets a damaged disk (issue 17): the window opens a repaired copy and tells the user
 * where the untouched original is; a damaged table found while the store opens is repaired at once.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { monotonicFactory } from "ulid";
import type { AgentManager } from "../../src/agents/AgentManager";
import { ChannelDirectory } from "../../src/channels/ChannelDirectory";
import type { Channels } from "../../src/app/composeChannels";
import type { EditorPort } from "../../src/app/EditorPort";
import type { RosterLoader } from "../../src/app/RosterLoader";
import { StoreLifecycle } from "../../src/app/StoreLifecycle";
import type { EventBus } from "../../src/events/events";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import { tempDir } from "./helpers";

const ulid = monotonicFactory();

/** #general with `n` messages, written in two sessions: a table and a log. */
async function history(dir: string, n: number): Promise<string> {
  let store = await Store.open(dir);
  const general = await new ChannelDirectory(new StoreWriter(store), { names: () => [], state: () => "stopped" }, { emit: () => undefined }).syncGeneral([]);
  for (let i = 0; i < n; i++) {
    if (i === n / 2) {
      await store.close();
      store = await Store.open(dir);
    }
    await store.commit({ messages: [{ version: 1, id: ulid(), channelId: general.id, author: { kind: "user" }, parts: [{ type: "text", text: `m${i} ${"y".repeat(400)}` }], createdAt: 0 }] });
  }
  await store.close();
  return general.id;
}

function lifecycle(storageDir: string) {
  const notices: string[] = [];
  const logs: string[] = [];
  let store: Store | undefined;
  const editor = { log: (level: string, line: string) => logs.push(`${level}: ${line}`), notify: (_level: string, message: string) => notices.push(message) } as unknown as EditorPort;
  const life = new StoreLifecycle({
    storageDir,
    editor,
    agents: { names: () => [] } as unknown as AgentManager,
    events: { emit: () => undefined } as unknown as EventBus,
    roster: { roster: undefined, config: { state: "missing" } } as unknown as RosterLoader,
    channelsFor: (s) => {
      store = s;
      return { directory: new ChannelDirectory(new StoreWriter(s), { names: () => [], state: () => "stopped" }, { emit: () => undefined }), close: async () => undefined } as unknown as Channels;
    },
  });
  return { life, notices, logs, store: () => store! };
}

test("a store without CURRENT: the window opens the repaired copy, with every message, and says where the original is", async () => {
  const { dir: root, cleanup } = tempDir();
  const dir = path.join(root, "history");
  try {
    const generalId = await history(dir, 40);
    rmSync(path.join(dir, "CURRENT"));
    const { life, notices, store } = lifecycle(dir);
    await life.open();
    try {
      assert.ok(life.current, "the channels are open");
      assert.equal((await store().latestMessages(generalId, 100)).length, 40);
      assert.equal(life.repaired?.code, "store/damaged");
      assert.equal(notices.length, 1);
      const aside = readdirSync(root).find((f) => f.startsWith("history.damaged-"));
      assert.ok(aside);
      assert.match(notices[0]!, new RegExp(`the CURRENT file is missing.*${aside}.*holds 40 messages`));
    } finally {
      await life.dispose(Promise.resolve());
    }
  } finally {
    cleanup();
  }
});

test("a damaged table met while the store opens is repaired at once: no raw LEVEL_CORRUPTION, the history opens", async () => {
  const { dir: root, cleanup } = tempDir();
  const dir = path.join(root, "history");
  try {
    await history(dir, 40);
    const table = path.join(dir, readdirSync(dir).find((f) => f.endsWith(".ldb"))!);
    const fd = openSync(table, "r+");
    writeSync(fd, Buffer.alloc(statSync(table).size - 48, 0x5a), 0, statSync(table).size - 48, 0); // all but the footer
    closeSync(fd);
    const { life, notices, logs } = lifecycle(dir);
    await life.open();
    try {
      assert.equal(life.problem, undefined, "the history is usable");
      assert.ok(life.current);
      assert.doesNotMatch([...logs, ...notices].join("\n"), /LEVEL_CORRUPTION/);
      assert.match(notices[0] ?? "", /damaged folder is kept, unchanged/);
    } finally {
      await life.dispose(Promise.resolve());
    }
  } finally {
    cleanup();
  }
});
