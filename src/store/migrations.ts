import type { ClassicLevel } from "classic-level";
import { keys } from "./records";
import { SEARCH_INDEX_STATE } from "./search";

/** One write of a migration batch. */
export type MigrationOp = { type: "put"; key: string; value: string } | { type: "del"; key: string };

/** A step from schema `from` to `from + 1`: reads what it needs and returns the writes, applied in one batch with `v`. */
export interface Migration {
  from: number;
  /** What the step does, for the log. */
  description: string;
  plan(db: ClassicLevel<string, string>): Promise<MigrationOp[]>;
}

/**
 * The store's schema steps, in order (the original design's ADR 0003 "Pebble keys": `v` holds the schema version).
 *
 * 1 → 2: channel records get `kind` (`channel`, or `direct` for a direct conversation indexed by `direct/<agent>`).
 * Schema 1 had no direct conversations, so every existing channel becomes `kind: "channel"`; records that do not
 * parse are left alone (the store skips and reports them when read).
 *
 * 2 → 3: durable turns (`turn/<id>`, `turn-open/<id>`); messages get optional `turnId`, `outcome`, `attempt`.
 * Older messages are settled history without a turn, so nothing is rewritten.
 *
 * 3 → 4: the word index of history search (`word/<word>/<messageId>`, ADR 0007). Nothing is indexed here, so an
 * open stays quick however long the history: the step marks the index as not built, and the search unit builds it
 * in the background in small batches through the write lane (searches read every message until it is complete).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    description: "channel records get kind (channel | direct)",
    async plan(db) {
      const ops: MigrationOp[] = [];
      for await (const [key, value] of db.iterator({ gte: keys.channelPrefix, lt: keys.channelPrefix + "\uffff" })) {
        let record: unknown;
        try {
          record = JSON.parse(value);
        } catch {
          continue;
        }
        if (typeof record !== "object" || record === null || "kind" in record) continue;
        ops.push({ type: "put", key, value: JSON.stringify({ ...record, kind: "channel" }) });
      }
      return ops;
    },
  },
  {
    from: 2,
    description: "durable turns: turn/<id> records and the turn-open/<id> index (nothing to convert)",
    // Messages written before schema 3 have no turn: they are settled history and stay as they are.
    async plan() {
      return [];
    },
  },
  {
    from: 3,
    description: "history search: the word index, built in the background after the open",
    async plan() {
      return [{ type: "put", key: SEARCH_INDEX_STATE, value: JSON.stringify({ complete: false }) }];
    },
  },
];

/**
 * Runs every step from schema `current` up to `target`, each in one atomic batch that also writes `v`, so a crash
 * between steps leaves the store at a consistent schema that the next open continues from.
 * @returns the descriptions of the steps run, in order
 * @throws Error when a step is missing for a version in between
 */
export async function migrate(db: ClassicLevel<string, string>, current: number, target: number, steps: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  const ran: string[] = [];
  for (let v = current; v < target; v++) {
    const step = steps.find((s) => s.from === v);
    if (!step) throw new Error(`no store migration from schema ${v} to ${v + 1}`);
    const ops = await step.plan(db);
    await db.batch([...ops, { type: "put", key: keys.version, value: String(v + 1) }]);
    ran.push(`${v} → ${v + 1}: ${step.description}`);
  }
  return ran;
}
