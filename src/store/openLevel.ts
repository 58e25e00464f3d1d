import * as l10n from "@vscode/l10n";
import { closeSync, cpSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { ClassicLevel } from "classic-level";
import { SidekicksError } from "../shared/errors";
import { inspectStore, lockHeld, type DamageReason } from "./inspect";
import { asMessageRecord } from "./records";

/** What the store's open did to a damaged folder: where the original is (unchanged), and what the repair kept. */
export interface StoreRecovery {
  reason: DamageReason;
  /** What was wrong, in LevelDB's words or the inspection's (`000004.log: checksum mismatch at offset 524288`). */
  detail: string;
  /** The original folder, moved aside and never written to again: `<dir>.damaged-<time>`. */
  aside: string;
  /** How many messages (`msg/` records that parse) the repaired copy holds. */
  messages: number;
}

/** A LevelDB database opened by {@link openLevel}, with what its open repaired (when it did). */
export interface OpenedLevel {
  db: ClassicLevel<string, string>;
  recovery?: StoreRecovery;
}

/**
 * Test seam of the crash-during-repair fault (test/faults): called at each step of a repair, in order: `journal`,
 * `aside`, `copied`, `repairing` (the native repair started, not finished), `repaired`, `renamed`. Unset in the product.
 */
export const repairSteps: { hook?: (step: string) => void } = {};

/** The sibling file that says a repair of `dir` started and where the original went (removed once it is done). */
export const journalOf = (dir: string) => `${dir}.repair.json`;
/** The sibling file a read that met corruption leaves, so the next open repairs (see {@link markNeedsRepair}). */
export const needsRepairMarkerOf = (dir: string) => `${dir}.needs-repair`;
const workCopyOf = (dir: string) => `${dir}.repairing`;

/**
 * Opens the LevelDB database in `dir` without ever creating over, or deleting, a damaged one. The folder is first
 * inspected ({@link inspectStore}); a damaged folder — or one whose open LevelDB refuses as corrupt, or one a
 * read found damaged — is moved aside as `<dir>.damaged-<time>` (kept as it is), a copy of it is repaired with
 * LevelDB's `RepairDB` and becomes `dir`, and the result says so ({@link StoreRecovery}). Each step is journalled
 * in `<dir>.repair.json`, so a repair cut short (a crash, a kill) resumes at the next open from the original.
 * @throws SidekicksError `store/locked` (another process holds it), `store/unavailable` (the folder cannot be read
 *   or written: permissions, a read-only disk), `store/damaged` (damaged and the repair failed: the original is kept)
 */
export async function openLevel(dir: string): Promise<OpenedLevel> {
  if (existsSync(journalOf(dir))) return repair(dir);
  if (existsSync(needsRepairMarkerOf(dir))) {
    const detail = readFileSync(needsRepairMarkerOf(dir), "utf8").trim() || "a read met corruption";
    return startRepair(dir, "readFailed", detail);
  }
  const inspection = inspectStore(dir);
  if (inspection.state === "damaged") return startRepair(dir, inspection.reason, inspection.detail);
  if (inspection.state === "empty") mkdirSync(dir, { recursive: true });
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8", createIfMissing: inspection.state === "empty" });
  try {
    await db.open();
    return { db };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === "LEVEL_LOCKED") {
      throw new SidekicksError(
        "store/locked",
        l10n.t("This history is open in another VS Code window. Close Sidekicks there (or that window) and reload this one."),
        dir,
        { cause: err },
      );
    }
    const message = cause?.message ?? (err as Error).message;
    if (cause?.code === "LEVEL_CORRUPTION" || /does not exist|corrupt/i.test(message)) return startRepair(dir, "openFailed", message);
    throw new SidekicksError(
      "store/unavailable",
      l10n.t("Cannot open the history store: {0}. Check that the folder {1} can be read and written (permissions, a read-only or full disk), then reload the window.", message, dir),
      dir,
      { cause: err },
    );
  }
}

/**
 * Records that a read of the open store in `dir` met corruption (a damaged table): the next {@link openLevel}
 * repairs it. Writes only a sibling file, never into the store.
 */
export function markNeedsRepair(dir: string, detail: string): void {
  try {
    writeDurably(needsRepairMarkerOf(dir), `${detail}\n`);
  } catch {
    // the error the read throws still says what to do
  }
}

function startRepair(dir: string, reason: DamageReason, detail: string): Promise<OpenedLevel> {
  if (lockHeld(dir)) {
    throw new SidekicksError(
      "store/locked",
      l10n.t("This history is open in another VS Code window. Close Sidekicks there (or that window) and reload this one."),
      dir,
    );
  }
  let aside = `${dir}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  for (let n = 2; existsSync(aside); n++) aside = aside.replace(/(-\d+)?$/, `-${n}`);
  writeDurably(journalOf(dir), JSON.stringify({ version: 1, aside, reason, detail }));
  repairSteps.hook?.("journal");
  return repair(dir);
}

/** Carries out (or resumes) the journalled repair of `dir`: original aside, copy repaired, copy in place. */
async function repair(dir: string): Promise<OpenedLevel> {
  const journal = JSON.parse(readFileSync(journalOf(dir), "utf8")) as { aside: string; reason: DamageReason; detail: string };
  const { aside, reason, detail } = journal;
  const damaged = (why: string, cause?: unknown) =>
    new SidekicksError(
      "store/damaged",
      l10n.t("The history is damaged ({0}) and could not be repaired: {1}. The damaged folder is kept, unchanged, at {2}; nothing was deleted. Keep that folder: Sidekicks tries the repair again when the window reloads.", detail, why, aside),
      aside,
      { cause },
    );
  try {
    if (!existsSync(aside)) {
      if (!existsSync(dir)) throw new Error(`neither ${dir} nor ${aside} exists`);
      renameSync(dir, aside);
      repairSteps.hook?.("aside");
    }
    if (!existsSync(dir)) {
      const work = workCopyOf(dir);
      rmSync(work, { recursive: true, force: true }); // a copy cut short by a crash: ours, never the original
      cpSync(aside, work, { recursive: true });
      rmSync(`${work}/LOCK`, { force: true });
      repairSteps.hook?.("copied");
      const repairing = ClassicLevel.repair(work);
      repairSteps.hook?.("repairing");
      await repairing;
      repairSteps.hook?.("repaired");
      renameSync(work, dir);
      repairSteps.hook?.("renamed");
    }
  } catch (err) {
    throw damaged(err instanceof SidekicksError ? err.message : ((err as { cause?: Error }).cause?.message ?? (err as Error).message), err);
  }
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8", createIfMissing: false });
  let messages = 0;
  try {
    await db.open();
    for await (const [, value] of db.iterator({ gte: "msg/", lt: "msg/\uffff" })) if (parses(value)) messages++;
  } catch (err) {
    await db.close().catch(() => undefined);
    throw damaged((err as { cause?: Error }).cause?.message ?? (err as Error).message, err);
  }
  unlinkSync(journalOf(dir));
  rmSync(needsRepairMarkerOf(dir), { force: true });
  return { db, recovery: { reason, detail, aside, messages } };
}

/** Whether a stored value is a message record (what the channels will show). */
function parses(value: string): boolean {
  try {
    return asMessageRecord(JSON.parse(value)) !== undefined;
  } catch {
    return false;
  }
}

/** Writes `text` to `file` and flushes it to the disk before returning. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
