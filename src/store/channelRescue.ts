import type { GuardedLevel, LevelOp } from "./guardedLevel";
import { asChannelRecord, keys, type ChannelRecord } from "./records";

/** Receives one line per channel record rebuilt (the store's `onCorrupt`). */
type Report = (key: string, reason: string) => void;

/**
 * Gives back their channel to messages that lost it, at open, so no history hides behind a missing record:
 * - a channel whose record is corrupt or missing while its name index still names it (`channel-name/<name>` → id)
 *   gets its record back, same id and name, so its members and messages show again — instead of disappearing, or
 *   `#general` hiding behind a new, empty `#general` (`syncGeneral` creates one when `channelByName` finds none);
 * - with `orphans` (after a repair, which may have lost the table holding the channel records), messages whose
 *   channel has no record at all get one: `@agent` when a `direct/<agent>` index names it, else
 *   `recovered-<id>`. That scan reads one key per channel (it seeks past each channel's messages).
 * Unreadable bytes are kept under `value/corrupt/<key>`; each rebuilt record is reported through `report`.
 */
export async function rescueChannels(db: GuardedLevel, report: Report, orphans: boolean): Promise<void> {
  const ops: LevelOp[] = [];
  const rebuild = (id: string, name: string, raw: string | undefined, why: string) => {
    const at = ulidTime(id) ?? Date.now();
    const record: ChannelRecord = { version: 1, id, name, kind: name.startsWith("@") ? "direct" : "channel", createdAt: at, updatedAt: at };
    if (raw !== undefined) ops.push({ type: "put", key: keys.value(`corrupt/${keys.channel(id)}`), value: JSON.stringify({ version: 1, value: raw }) });
    ops.push({ type: "put", key: keys.channel(id), value: JSON.stringify(record) });
    report(keys.channel(id), `${raw === undefined ? "missing" : "unreadable"}: rebuilt as ${name.startsWith("@") ? name : `#${name}`} (${why})`);
  };
  const prefix = keys.channelName("");
  const named = new Set<string>();
  for await (const [key, id] of db.iterator({ gte: prefix, lt: prefix + "\uffff" })) {
    named.add(id);
    const raw = await db.get(keys.channel(id));
    if (raw !== undefined && parsesAsChannel(raw)) continue;
    rebuild(id, key.slice(prefix.length), raw, "from its name index");
  }
  if (orphans) {
    const direct = new Map<string, string>();
    for await (const [key, id] of db.iterator({ gte: keys.direct(""), lt: keys.direct("") + "\uffff" })) direct.set(id, key.slice(keys.direct("").length));
    let from = "msg/";
    for (;;) {
      const [entry] = await collect(db.iterator({ gt: from, lt: "msg/\uffff", limit: 1 }));
      if (!entry) break;
      const id = entry[0].slice("msg/".length).split("/")[0]!;
      from = keys.messagePrefix(id) + "\uffff";
      if (named.has(id)) continue;
      const raw = await db.get(keys.channel(id));
      if (raw !== undefined && parsesAsChannel(raw)) continue;
      const name = direct.has(id) ? `@${direct.get(id)}` : `recovered-${id.toLowerCase()}`;
      ops.push({ type: "put", key: keys.channelName(name), value: id });
      rebuild(id, name, raw, "its messages had no channel");
    }
  }
  if (ops.length > 0) await db.batch(ops, true);
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

function parsesAsChannel(raw: string): boolean {
  try {
    return asChannelRecord(JSON.parse(raw)) !== undefined;
  } catch {
    return false;
  }
}

/** The time (ms since the epoch) of a ULID's first 10 characters, or undefined when `id` is not a ULID. */
function ulidTime(id: string): number | undefined {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(id)) return undefined;
  let ms = 0;
  for (const c of id.slice(0, 10).toUpperCase()) ms = ms * 32 + "0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(c);
  return ms;
}
