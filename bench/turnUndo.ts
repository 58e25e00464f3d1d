/**
 * turn.undoMs — undo of a settled turn that changed 100 files (issue 19): from `TurnRestore.restore(…, "undo")` to
 * every file back and the states and settled intents written, through the real `Channels` (LevelDB in a temp folder)
 * after a real turn of the fake agent (a subprocess) that appended to 100 files of about 2 KB. Each file is read and
 * checked (disk text against the turn's later text; no editor), recorded in one intents batch, written whole (temp
 * file, fsync, rename) and settled in one batch. Undo and redo alternate; the median undo is reported beside the same
 * run's baseline: plain `fs.promises.writeFile` of the same 100 texts (turn.undoWriteFileMs), and their ratio
 * (turn.undoVsWriteFile). The difference is mostly the fsync of each file that makes a crash leave it whole.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { AgentManager } from "../src/agents/AgentManager";
import { composeChannels } from "../src/app/compose";
import { Recorder } from "../src/events/events";
import { Store } from "../src/store/Store";
import { FAKE_AGENT, tempDir } from "../test/unit/helpers";
import { median } from "./stats";

const FILES = 100;
const ROUNDS = Number(process.env.BENCH_UNDO_ROUNDS ?? 7);

/** turn.undoMs, turn.undoWriteFileMs and their ratio (medians of {@link ROUNDS} alternating rounds). */
export async function turnUndoFigures(): Promise<Record<string, number | string>> {
  const { dir, cleanup } = tempDir();
  const folder = path.join(dir, "project");
  const baseline = path.join(dir, "baseline");
  mkdirSync(path.join(folder, "src"), { recursive: true });
  mkdirSync(baseline);
  const files = Array.from({ length: FILES }, (_, i) => path.join(folder, "src", `file${i}.ts`));
  const before = (i: number) => `// file ${i}\n${"export const value = 1;\n".repeat(85)}`;
  files.forEach((f, i) => writeFileSync(f, before(i)));
  const events = new Recorder();
  const agents = new AgentManager(events, { launch: { workspaceFolder: folder, nodePath: process.execPath, demoAgentPath: "", env: process.env } });
  const steps = [...files.map((f) => ({ appendFile: { path: f, text: "export const changed = true;\n" } })), { chunk: "done" }];
  agents.setRoster([{ name: "a", command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify({ prompt: steps }) } } as never]);
  const store = await Store.open(path.join(dir, "store"));
  const channels = composeChannels({ store, agents, emitter: events });
  try {
    const general = await channels.directory.syncGeneral(["a"]);
    await channels.messages.send(general.id, "@a change them");
    let answerId: string | undefined;
    while (!answerId) {
      answerId = events.of("message/finished").find((m) => m.author.kind === "agent" && m.parts.some((p) => p.type === "files"))?.id;
      await new Promise((r) => setTimeout(r, 20));
    }
    const undo: number[] = [];
    const plain: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let start = performance.now();
      const result = await channels.restore.restore(answerId, "undo", undefined);
      undo.push(performance.now() - start);
      if (result.done.length !== FILES) throw new Error(`undo restored ${result.done.length} of ${FILES} files`);
      start = performance.now();
      for (const [i] of files.entries()) await writeFile(path.join(baseline, `file${i}.ts`), before(i), "utf8");
      plain.push(performance.now() - start);
      const redo = await channels.restore.restore(answerId, "redo", undefined);
      if (redo.done.length !== FILES) throw new Error(`redo wrote ${redo.done.length} of ${FILES} files`);
    }
    const round2 = (x: number) => Math.round(x * 100) / 100;
    return {
      "turn.undoMs": round2(median(undo)),
      "turn.undoWriteFileMs": round2(median(plain)),
      "turn.undoVsWriteFile": round2(median(undo) / median(plain)),
      "turn.undoFiles": FILES,
    };
  } finally {
    await channels.close();
    await store.close();
    await agents.stopAll();
    cleanup();
  }
}
