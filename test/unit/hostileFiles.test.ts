/**
 * The hostile-agent suite, file and terminal limits (issue 17): what an agent's `fs/*` and `terminal/*` requests
 * may not do, on real files in a temp folder — a symbolic link swapped in while Sidekicks writes (a racing process),
 * a sparse file with one 400 MB "line", a 2,000-level path, a thousand terminals.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync, ftruncateSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { SidekicksError } from "../../src/shared/errors";
import { Confinement, MAX_PATH_DEPTH } from "../../src/workspace/confinement";
import { WorkspaceFiles } from "../../src/workspace/fsAccess";
import { MAX_READ_CHARS } from "../../src/workspace/regularFile";
import { TerminalManager, terminalsAvailable } from "../../src/workspace/terminals";
import { tempDir } from "./helpers";

const code = (c: string) => (e: unknown) => e instanceof SidekicksError && e.code === c;

describe("an agent's files", () => {
  const t = tempDir("sidekicks-hostile-files-");
  const base = realpathSync(t.dir);
  const ws = path.join(base, "ws");
  const outside = path.join(base, "outside");
  let files: WorkspaceFiles;

  before(async () => {
    mkdirSync(ws);
    mkdirSync(outside);
    files = new WorkspaceFiles({ confinement: await Confinement.create([ws]) });
  });
  after(() => t.cleanup());

  it("a write never lands outside through a symbolic link a racing process swaps in (3,000 writes)", async () => {
    // The racer flips `ws/target.txt` between a regular file and a link to outside/victim.txt, and `ws/sub` between
    // a folder and a link to outside/, as fast as it can (rename(2) is atomic), while Sidekicks writes to both.
    writeFileSync(path.join(outside, "victim.txt"), "untouched");
    const racer = spawn(process.execPath, [
      "-e",
      `const fs = require("fs"), p = require("path"), ws = ${JSON.stringify(ws)}, out = ${JSON.stringify(outside)};
       fs.mkdirSync(p.join(ws, "real-sub"));
       fs.symlinkSync(p.join(out, "victim.txt"), p.join(ws, "link-file"));
       fs.symlinkSync(out, p.join(ws, "link-sub"));
       process.stdout.write("ready\\n");
       for (;;) {
         try { fs.writeFileSync(p.join(ws, "plain"), "x"); fs.renameSync(p.join(ws, "plain"), p.join(ws, "target.txt")); } catch {}
         try { fs.symlinkSync(p.join(out, "victim.txt"), p.join(ws, "tmp-link")); fs.renameSync(p.join(ws, "tmp-link"), p.join(ws, "target.txt")); } catch {}
         try { fs.renameSync(p.join(ws, "real-sub"), p.join(ws, "sub")); fs.renameSync(p.join(ws, "sub"), p.join(ws, "real-sub")); } catch {}
         try { fs.symlinkSync(out, p.join(ws, "tmp-sub")); fs.renameSync(p.join(ws, "tmp-sub"), p.join(ws, "sub")); fs.unlinkSync(p.join(ws, "sub")); } catch {}
       }`,
    ]);
    await new Promise<void>((resolve) => racer.stdout.once("data", () => resolve()));
    let written = 0;
    let refused = 0;
    const unexpected: string[] = [];
    try {
      for (let i = 0; i < 1500; i++) {
        for (const target of [path.join(ws, "target.txt"), path.join(ws, "sub", `f${i % 10}.txt`)]) {
          try {
            await files.writeTextFile(target, `write ${i}`);
            written += 1;
          } catch (err) {
            if (err instanceof SidekicksError) refused += 1;
            else unexpected.push(`${(err as NodeJS.ErrnoException).code ?? ""} ${(err as Error).message}`);
          }
        }
      }
    } finally {
      racer.kill("SIGKILL");
    }
    assert.equal(readFileSync(path.join(outside, "victim.txt"), "utf8"), "untouched", "the file outside was never written");
    assert.deepEqual(readdirSync(outside).sort(), ["victim.txt"], "no file was created outside");
    assert.deepEqual(unexpected, [], "every failed write is a refusal that says why, never a raw file system error");
    assert.equal(written + refused, 3000);
    assert.ok(written > 0, "writes that met no link went through");
  });

  it("FIFOs are refused for writes too, without blocking", async () => {
    const fifo = path.join(ws, "write-pipe");
    spawn("mkfifo", [fifo]).once("exit", () => undefined);
    await new Promise<void>((resolve) => {
      const poll = () => (existsSync(fifo) ? resolve() : setImmediate(poll));
      poll();
    });
    await assert.rejects(files.writeTextFile(fifo, "x"), code("workspace/notRegular"));
  });

  it("one huge line of a sparse file is refused, not returned; a range far into a large file still reads", async () => {
    const sparse = path.join(ws, "sparse.bin");
    const fd = openSync(sparse, "w");
    ftruncateSync(fd, 400 * 1024 * 1024); // 400 MB of NUL bytes and no line end: one "line"
    closeSync(fd);
    const heapBefore = process.memoryUsage().heapUsed;
    await assert.rejects(files.readTextFile(sparse, { line: 1, limit: 1 }), (e: unknown) => code("workspace/tooLarge")(e) && /"\S+sparse.bin" line 1: that is more than 16,777,216 characters.*Ask for fewer lines/.test((e as Error).message));
    await assert.rejects(files.readTextFile(sparse), code("workspace/tooLarge"));
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 4 * MAX_READ_CHARS, "memory stays within the limit");
    rmSync(sparse);
    const lines = path.join(ws, "lines.txt");
    const line = "x".repeat(99) + "\n";
    writeFileSync(lines, line.repeat(Math.ceil((MAX_READ_CHARS * 1.5) / line.length)));
    const far = Math.ceil((MAX_READ_CHARS * 1.2) / line.length);
    assert.equal(await files.readTextFile(lines, { line: far, limit: 3 }), line.repeat(3), "lines past the limit's worth of text are found");
    rmSync(lines);
  });

  it("a path deeper than the limit is refused before anything is created; one within it is written", async () => {
    const deep = path.join(ws, ...Array.from({ length: 2000 }, () => "d"), "f.txt");
    await assert.rejects(files.writeTextFile(deep, "x"), (e: unknown) => code("workspace/tooLarge")(e) && /folders deep; at most 128/.test((e as Error).message));
    assert.equal(existsSync(path.join(ws, "d")), false, "no folder was made");
    const ok = path.join(ws, ...Array.from({ length: MAX_PATH_DEPTH - ws.split(path.sep).length - 1 }, () => "e"), "f.txt");
    await files.writeTextFile(ok, "x");
    assert.equal(readFileSync(ok, "utf8"), "x");
  });
});

describe("an agent's terminals", { skip: terminalsAvailable() ? false : "node-pty does not load here" }, () => {
  it("at most maxTerminals are held at once, however many are asked for together; a release makes room", async () => {
    const t = tempDir("sidekicks-hostile-terms-");
    const manager = new TerminalManager({ cwd: t.dir, maxTerminals: 3 });
    try {
      const asked = await Promise.allSettled(Array.from({ length: 10 }, () => manager.create({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] })));
      const made = asked.filter((r) => r.status === "fulfilled");
      const refused = asked.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      assert.equal(made.length, 3);
      assert.equal(refused.length, 7);
      for (const r of refused) assert.ok(code("agent/requestLimit")(r.reason) && /at most 3 may be at once/.test(r.reason.message));
      await manager.release(manager.ids()[0]!);
      const again = await manager.create({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] });
      assert.ok(manager.ids().includes(again.id), "one more fits after a release");
    } finally {
      await manager.releaseAll();
      t.cleanup();
    }
  });
});
