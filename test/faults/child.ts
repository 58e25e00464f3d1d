/**
 * A second process of the faults suite (test/faults/run.ts), run with `node --import tsx test/faults/child.ts <mode> …`:
 * - `hold <dir>`: opens the store, prints `open`, keeps it (the lock) until its stdin ends;
 * - `open <dir>`: opens the store and prints `{ ok }` or `{ code, message }` as one JSON line;
 * - `repairCrash <dir> <step>`: opens a damaged store and SIGKILLs itself at that step of the repair (openLevel's
 *   `repairSteps`): a crash during the repair;
 * - `diskFull <dir> <out>`: in a small tmpfs (the harness mounts it): writes a history, fills the disk, commits until
 *   a write fails, frees the space and commits three more, prints what each commit reported as one JSON line, then
 *   copies the store to `<out>` for the harness to reopen.
 */
import { cpSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { monotonicFactory } from "ulid";
import { SidekicksError } from "../../src/shared/errors";
import { repairSteps } from "../../src/store/openLevel";
import { Store } from "../../src/store/Store";
import type { MessageRecord } from "../../src/store/records";
import { buildHistory } from "./history";

/** One commit of the disk-full run: the message's channel and id, and what `Store.commit` reported. */
export interface CommitReport {
  channelId: string;
  id: string;
  ok: boolean;
  code?: string;
  afterFreeing: boolean;
}

async function main(): Promise<void> {
  const [mode, dir, arg] = process.argv.slice(2);
  if (!dir) throw new Error("usage: child.ts <mode> <dir> [arg]");
  if (mode === "hold") {
    const store = await Store.open(dir);
    process.stdout.write("open\n");
    process.stdin.resume();
    await new Promise((resolve) => process.stdin.on("end", resolve));
    await store.close();
  } else if (mode === "open") {
    try {
      const store = await Store.open(dir);
      await store.close();
      process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    } catch (err) {
      const e = err as SidekicksError;
      process.stdout.write(`${JSON.stringify({ ok: false, code: e.code, message: e.message })}\n`);
    }
  } else if (mode === "repairCrash") {
    repairSteps.hook = (step) => {
      if (step === arg) process.kill(process.pid, "SIGKILL");
    };
    const store = await Store.open(dir);
    await store.close();
    process.stdout.write("not killed\n");
  } else if (mode === "diskFull") {
    if (!arg) throw new Error("diskFull needs <out>");
    await diskFull(dir, arg);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
}

async function diskFull(dir: string, out: string): Promise<void> {
  const written = await buildHistory(dir, 200);
  const store = await Store.open(dir);
  const channelId = written.generalId;
  const filler = path.join(path.dirname(dir), "filler");
  const free = () => {
    const s = statfsSync(path.dirname(dir));
    return s.bavail * s.bsize;
  };
  writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 48 * 1024)));
  const ulid = monotonicFactory();
  const reports: CommitReport[] = [];
  let failedAt = -1;
  for (let i = 0; i < 10_000 && (failedAt < 0 || i < failedAt + 4); i++) {
    const afterFreeing = failedAt >= 0;
    const message: MessageRecord = { version: 1, id: ulid(), channelId, author: { kind: i % 2 ? "user" : "system" }, parts: [{ type: "text", text: `full ${i} ${"z".repeat(2_000)}` }], createdAt: Date.now() };
    try {
      await store.commit({ messages: [message] });
      reports.push({ channelId, id: message.id, ok: true, afterFreeing });
    } catch (err) {
      reports.push({ channelId, id: message.id, ok: false, code: (err as SidekicksError).code, afterFreeing });
      if (failedAt < 0) {
        failedAt = i;
        rmSync(filler); // the space comes back, as when the user deletes something: later commits must still not pass
      }
    }
  }
  await store.close().catch(() => undefined);
  cpSync(dir, out, { recursive: true });
  process.stdout.write(`${JSON.stringify({ reports })}\n`);
}

main().catch((err) => {
  process.stdout.write(`${JSON.stringify({ crashed: String((err as Error).stack ?? err) })}\n`);
  process.exitCode = 1;
});
