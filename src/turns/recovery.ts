/**
 * The sweeper's reading (brief, "Recovery"): what a previous activation left open, gathered into the reducer's
 * `recover` input. It only reads — the open turns through the `turn-open/` index, their answers, and each unsettled
 * tool intent classified from the files on disk (`IntentLog.classifyOpen`); the reducer decides what is settled and
 * writes it (`reduceRecovery.ts`), each intent with its card.
 */
import type { Store } from "../store/Store";
import type { IntentLog } from "./intents";
import type { EngineInput } from "./reducerState";

/**
 * The `recover` input for what the store holds open, or undefined when nothing is.
 * @param readFile a file's text now, or undefined when it cannot be read (the evidence for write intents)
 * @param at ms since the epoch
 */
export async function recoveryInput(
  store: Store,
  intents: IntentLog,
  readFile: (path: string) => Promise<string | undefined>,
  at: number,
): Promise<Extract<EngineInput, { type: "recover" }> | undefined> {
  const found = await intents.classifyOpen(readFile);
  const open = await store.openTurns();
  const turns = await Promise.all(
    open.map(async (record) => {
      const mine = found.get(record.id) ?? [];
      found.delete(record.id);
      return { record, message: await store.message(record.channelId, record.messageId), intents: mine };
    }),
  );
  // Intents of turns settled already: written with a card in their answer.
  const orphans = [];
  for (const [turnId, settled] of found) {
    const turn = await store.turn(turnId);
    orphans.push({ message: turn && (await store.message(turn.channelId, turn.messageId)), intents: settled });
  }
  return turns.length > 0 || orphans.length > 0 ? { type: "recover", at, turns, orphans } : undefined;
}
