/**
 * The faults suite's history (test/faults): a real store written through the real `Store` API, what a user would
 * see of it through the real channel directory, what LevelDB's repair keeps of a damaged copy, and the files of a
 * folder (to tell whether any was deleted).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { monotonicFactory } from "ulid";
import { ChannelDirectory, GENERAL } from "../../src/channels/ChannelDirectory";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import { asMessageRecord, type ChannelRecord, type MessageRecord } from "../../src/store/records";

/** What {@link buildHistory} wrote: message ids by channel name. */
export interface Written {
  byChannel: Map<string, string[]>;
  total: number;
  generalId: string;
}

const CHANNELS = [GENERAL, "design", "ops", "@alpha"];

/**
 * Writes `messages` messages (user and agent, 100 to 3,000 characters) across four channels (#general, two more and
 * a direct conversation) through `Store.putChannel` and `Store.commit`, closing and reopening the store after the
 * first 75 % so that the folder holds a table (LevelDB writes the replayed log as one) and a log.
 */
export async function buildHistory(dir: string, messages = 400): Promise<Written> {
  const ulid = monotonicFactory();
  let store = await Store.open(dir);
  const byChannel = new Map<string, string[]>();
  const channels: ChannelRecord[] = [];
  for (const name of CHANNELS) {
    const at = Date.now();
    const channel: ChannelRecord = { version: 1, id: ulid(at), name, kind: name.startsWith("@") ? "direct" : "channel", createdAt: at, updatedAt: at };
    if (name === GENERAL) delete channel.kind; // as syncGeneral writes it
    await store.commit({ channels: [{ channel, ...(name.startsWith("@") ? { directAgent: "alpha" } : {}) }], members: [{ version: 1, channelId: channel.id, agentName: "alpha", joinedAt: at }] });
    channels.push(channel);
    byChannel.set(name, []);
  }
  for (let i = 0; i < messages; i++) {
    if (i === Math.floor(messages * 0.75)) {
      await store.close();
      store = await Store.open(dir);
    }
    const channel = channels[i % channels.length]!;
    const id = ulid();
    const user = i % 2 === 0;
    const text = `message ${i} ${"lorem ipsum ".repeat(8 + ((i * 37) % 250))}`;
    const message: MessageRecord = {
      version: 1,
      id,
      channelId: channel.id,
      author: user ? { kind: "user" } : { kind: "agent", agentName: "alpha" },
      parts: [{ type: "text", text }],
      createdAt: Date.now(),
    };
    await store.commit({ messages: [message] });
    byChannel.get(channel.name)!.push(id);
  }
  await store.close();
  return { byChannel, total: messages, generalId: channels[0]!.id };
}

/** What a user sees after opening `dir` through the real open path: the messages of every listed channel. */
export interface Visible {
  total: number;
  byChannel: Map<string, number>;
  generalId: string;
  corrupt: string[];
  recovery: Store["recovery"];
}

/**
 * Opens `dir` with `Store.open`, brings `#general` in step as the app does (`syncGeneral`), lists the channels and
 * reads each one's whole history with `latestMessages`. Errors (`store/damaged`, …) are thrown as the app gets them.
 */
export async function visibleHistory(dir: string): Promise<Visible> {
  const corrupt: string[] = [];
  const store = await Store.open(dir, (key, reason) => corrupt.push(`${key}: ${reason}`));
  try {
    const directory = new ChannelDirectory(new StoreWriter(store), { names: () => ["alpha"], state: () => "stopped" }, { emit: () => undefined });
    const general = await directory.syncGeneral(["alpha"]);
    const byChannel = new Map<string, number>();
    let total = 0;
    for (const summary of await directory.list()) {
      const n = (await store.latestMessages(summary.id, 1_000_000)).length;
      byChannel.set(summary.name, n);
      total += n;
    }
    return { total, byChannel, generalId: general.id, corrupt, recovery: store.recovery };
  } finally {
    await store.close();
  }
}

/**
 * How many messages a repair could keep: LevelDB's `RepairDB` run on a copy of `dir` (taken now, before anything
 * opens it), counting the `msg/` records that still parse as messages.
 */
export async function repairableMessages(dir: string, scratch: string): Promise<number> {
  const copy = path.join(scratch, `baseline-${path.basename(dir)}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  await ClassicLevel.repair(copy);
  const db = new ClassicLevel<string, string>(copy, { createIfMissing: false });
  let n = 0;
  try {
    await db.open();
    for await (const [, value] of db.iterator({ gte: "msg/", lt: "msg/\uffff" })) {
      try {
        if (asMessageRecord(JSON.parse(value))) n++;
      } catch {
        // not JSON: no repair keeps it
      }
    }
  } finally {
    await db.close();
    rmSync(copy, { recursive: true, force: true });
  }
  return n;
}

/**
 * Every file of a folder (not recursive), name → SHA-256 of its bytes; left out: `LOCK` (empty) and LevelDB's own
 * diagnostic log `LOG`/`LOG.old`, which every open attempt rotates (no history is in them).
 */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name === "LOCK" || name === "LOG" || name === "LOG.old" || !statSync(file).isFile()) continue;
    out.set(name, createHash("sha256").update(readFileSync(file)).digest("hex"));
  }
  return out;
}

/** The files of `before` that `after` lacks or holds with other bytes. */
export function missingFrom(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([name, hash]) => after.get(name) !== hash).map(([name]) => name);
}

/** The folders next to `dir` that hold a damaged original (`<dir>.damaged-*`). */
export function asideFolders(dir: string): string[] {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.damaged-`;
  return readdirSync(parent)
    .filter((name) => name.startsWith(prefix))
    .map((name) => path.join(parent, name));
}
