import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { SidekicksError } from "../../src/shared/errors";
import { Confinement } from "../../src/workspace/confinement";
import { cutIndex, escapeEnd, OutputBuffer, utf8Bytes } from "../../src/workspace/outputBuffer";
import { envMap, exitStatusOf, Terminal, TerminalManager } from "../../src/workspace/terminals";
import { tempDir, waitFor } from "./helpers";

const node = process.execPath;
/** `node -e script` as a terminal request. */
const nodeRun = (script: string, extra: string[] = []) => ({ command: node, args: ["-e", script, ...extra] });
const NO_REPLACEMENT = /\uFFFD/;

describe("OutputBuffer", () => {
  it("keeps everything under the limit", () => {
    const b = new OutputBuffer(100);
    b.push("hello ");
    b.push("world");
    assert.equal(b.text(), "hello world");
    assert.equal(b.truncated, false);
  });

  it("drops from the start at a character boundary, never more than the limit", () => {
    const b = new OutputBuffer(10);
    for (let i = 0; i < 5; i++) b.push("😀"); // 4 bytes each
    const t = b.text();
    assert.equal(t, "😀😀"); // 8 bytes: a third emoji would make 12
    assert.equal(b.truncated, true);
    assert.ok(utf8Bytes(t) <= 10);
  });

  it("cuts inside one big chunk at a boundary (2- and 3-byte characters)", () => {
    const b = new OutputBuffer(7);
    b.push("aé€é€"); // 1 + 2 + 3 + 2 + 3 = 11 bytes
    const t = b.text();
    assert.ok(utf8Bytes(t) <= 7);
    assert.doesNotMatch(t, NO_REPLACEMENT);
    assert.equal(t, "é€"); // dropping 4 bytes lands inside "€": the cut moves past it
  });

  it("limit 0 keeps nothing and says truncated", () => {
    const b = new OutputBuffer(0);
    b.push("x");
    assert.equal(b.text(), "");
    assert.equal(b.truncated, true);
  });

  it("does not start inside an ANSI escape sequence", () => {
    const red = "\x1b[38;5;196m";
    const reset = "\x1b[0m";
    for (let limit = 20; limit < 60; limit++) {
      const b = new OutputBuffer(limit);
      for (let i = 0; i < 10; i++) b.push(`${red}XX${reset}`);
      const t = b.text();
      assert.match(t, /^(?:X|\x1b\[38;5;196m|\x1b\[0m)*$/, `limit ${limit}: ${JSON.stringify(t)}`);
      assert.ok(utf8Bytes(t) <= limit);
    }
  });

  it("does not start inside an escape sequence split across chunks, when the chunk holding its start was dropped", () => {
    for (let limit = 8; limit < 40; limit++) {
      const b = new OutputBuffer(limit);
      for (let i = 0; i < 8; i++) {
        b.push("XX\x1b[3");
        b.push("1mYY\x1b]0;ti");
        b.push("tle\x07Z");
      }
      const t = b.text();
      assert.match(t, /^(?:[XYZ]|\x1b\[31m|\x1b\]0;title\x07)*$/, `limit ${limit}: ${JSON.stringify(t)}`);
      assert.ok(t.endsWith("Z"));
      assert.ok(utf8Bytes(t) <= limit);
      // Polling again without new output changes nothing; more output is cut cleanly too.
      assert.equal(b.text(), t);
      b.push("XX\x1b[3");
      b.push("1mYY");
      assert.match(b.text(), /^(?:[XYZ]|\x1b\[31m|\x1b\]0;title\x07)*$/, `limit ${limit}, again: ${JSON.stringify(b.text())}`);
    }
  });

  it("an unfinished sequence that fills the whole limit is dropped, its end too", () => {
    const b = new OutputBuffer(4);
    b.push("\x1b]0;a long title that does not end yet");
    assert.equal(b.text(), "");
    b.push(" still the title\x07ok");
    assert.equal(b.text(), "ok");
  });

  it("finds the end of CSI, OSC and short escapes", () => {
    assert.equal(escapeEnd("\x1b[31mX", 0), 5);
    assert.equal(escapeEnd("\x1b]0;title\x07X", 0), 10);
    assert.equal(escapeEnd("\x1b]8;;http://x\x1b\\X", 0), 15);
    assert.equal(escapeEnd("\x1b(BX", 0), 3);
    assert.equal(escapeEnd("\x1b[31", 0), undefined);
    assert.equal(cutIndex("ab\x1b[31mcd", 3), 7);
    assert.equal(cutIndex("ab\x1b[31mcd", 2), 2);
  });

  it("stays bounded while megabytes go through", () => {
    const b = new OutputBuffer(64 * 1024);
    const line = "0123456789abcdef€\n"; // 20 bytes
    for (let i = 0; i < 60_000; i++) b.push(line);
    const t = b.text();
    assert.ok(utf8Bytes(t) <= 64 * 1024 && utf8Bytes(t) > 64 * 1024 - 20);
    assert.equal(b.receivedBytes, 60_000 * 20);
    assert.ok(t.endsWith(line));
  });
});

/** A stand-in for node-pty's IPty that delivers the chunks it is given, then exits. */
function fakePty(chunks: Buffer[], exit: { exitCode: number; signal?: number }) {
  let onData: ((d: Buffer) => void) | undefined;
  let onExit: ((e: { exitCode: number; signal?: number }) => void) | undefined;
  const proc = {
    pid: 0,
    onData: (l: (d: Buffer) => void) => ((onData = l), { dispose: () => undefined }),
    onExit: (l: (e: { exitCode: number; signal?: number }) => void) => ((onExit = l), { dispose: () => undefined }),
    write: () => undefined,
    resize: () => undefined,
    kill: () => undefined,
  };
  const run = () => {
    for (const c of chunks) onData!(c);
    onExit!(exit);
  };
  return { proc: proc as unknown as ConstructorParameters<typeof Terminal>[0], run };
}

describe("Terminal decoding (deterministic chunks)", () => {
  const plan = { file: "x", args: [], cwd: "/", env: {} };
  const request = { command: "x", args: [], cwd: undefined, env: {} };

  it("joins UTF-8 sequences split at every byte", async () => {
    const bytes = Buffer.from("aé€😀z", "utf8");
    const { proc, run } = fakePty([...bytes].map((b) => Buffer.from([b])), { exitCode: 0, signal: 0 });
    const term = new Terminal(proc, request, plan, 1024, 100);
    const pieces: string[] = [];
    term.onData((s) => pieces.push(s));
    run();
    assert.deepEqual(await term.waitForExit(), { exitCode: 0, signal: null });
    assert.deepEqual(pieces, ["a", "é", "€", "😀", "z"]);
    assert.equal(term.output().output, "aé€😀z");
  });

  it("flushes an unfinished sequence at exit as U+FFFD, and keeps ANSI split across chunks", async () => {
    const { proc, run } = fakePty([Buffer.from("\x1b["), Buffer.from("1;32mok\x1b[0"), Buffer.from("m "), Buffer.from([0xe2, 0x82])], { exitCode: 0, signal: 9 });
    const term = new Terminal(proc, request, plan, 1024, 100);
    run();
    assert.deepEqual(await term.waitForExit(), { exitCode: null, signal: "SIGKILL" });
    assert.equal(term.output().output, "\x1b[1;32mok\x1b[0m \uFFFD");
  });
});

describe("terminal helpers", () => {
  it("maps node-pty exit events to ACP exit status", () => {
    assert.deepEqual(exitStatusOf({ exitCode: 3, signal: 0 }), { exitCode: 3, signal: null });
    assert.deepEqual(exitStatusOf({ exitCode: 0, signal: 15 }), { exitCode: null, signal: "SIGTERM" });
    assert.deepEqual(exitStatusOf({ exitCode: 0 }), { exitCode: 0, signal: null });
  });

  it("takes ACP env lists and maps, refuses bad names", () => {
    assert.deepEqual(envMap([{ name: "A", value: "1" }]), { A: "1" });
    assert.deepEqual(envMap({ B: "2" }), { B: "2" });
    assert.throws(() => envMap([{ name: "A=B", value: "1" }]), SidekicksError);
  });
});

describe("terminals (real processes on node-pty)", () => {
  const t = tempDir("sidekicks-term-");
  const base = realpathSync(t.dir);
  const spaced = path.join(base, "my project", "sub dir");
  mkdirSync(spaced, { recursive: true });
  const manager = new TerminalManager({ cwd: base, killGraceMs: 500 });
  after(async () => {
    await manager.releaseAll();
    t.cleanup();
  });

  it("runs a command with args as an array and reports exit code 0", async () => {
    const term = await manager.create(nodeRun("console.log(process.argv.slice(1).join('|'))", ["a b", "c'd", '"e"', "$HOME"]));
    assert.deepEqual(await term.waitForExit(), { exitCode: 0, signal: null });
    const out = manager.output(term.id);
    assert.equal(out.output, `a b|c'd|"e"|$HOME\r\n`);
    assert.equal(out.truncated, false);
    assert.deepEqual(out.exitStatus, { exitCode: 0, signal: null });
    await manager.release(term.id);
  });

  it("honours cwd and env, with spaces in the path", async () => {
    const script = path.join(spaced, "print env.js");
    writeFileSync(script, "console.log(process.cwd()); console.log(process.env.SIDEKICKS_X); console.log(process.env.FROM_BASE);");
    const m = new TerminalManager({ cwd: base, env: { ...process.env, FROM_BASE: "base" } });
    const term = await m.create({ command: node, args: [script], cwd: spaced, env: [{ name: "SIDEKICKS_X", value: "a value with spaces é" }] });
    await term.waitForExit();
    assert.equal(term.output().output, `${spaced}\r\na value with spaces é\r\nbase\r\n`);
    await m.releaseAll();
  });

  it("field case 16: a program whose own path has spaces runs, in a folder with spaces, its argument kept whole", async () => {
    const program = path.join(base, "with space", "node");
    mkdirSync(path.dirname(program), { recursive: true });
    symlinkSync(node, program);
    const folder = path.join(base, "Test User", "my repo");
    mkdirSync(folder, { recursive: true });
    const term = await manager.create({ command: program, args: ["-e", "console.log('a b'); console.log(process.cwd())"], cwd: folder });
    assert.deepEqual(await term.waitForExit(), { exitCode: 0, signal: null });
    assert.equal(manager.output(term.id).output, `a b\r\n${folder}\r\n`);
    await manager.release(term.id);
  });

  it("reports a non-zero exit code and output before exit", async () => {
    const term = await manager.create(nodeRun("process.stdout.write('bye'); process.exitCode = 7"));
    assert.deepEqual(await manager.waitForExit(term.id), { exitCode: 7, signal: null });
    assert.equal(manager.output(term.id).output, "bye");
    await manager.release(term.id);
  });

  it("keeps multi-byte characters split across writes whole", async () => {
    // Every write ends in the middle of a character; the pauses make the pty deliver them as separate reads.
    const script = `
      const b = Buffer.from("é€😀 ok ", "utf8");
      const parts = [b.subarray(0, 1), b.subarray(1, 3), b.subarray(3, 6), b.subarray(6, 8), b.subarray(8)];
      let i = 0;
      const next = () => { if (i < parts.length) { process.stdout.write(parts[i++]); setTimeout(next, 30); } };
      next();`;
    const term = await manager.create(nodeRun(script));
    const pieces: string[] = [];
    term.onData((s) => pieces.push(s));
    await term.waitForExit();
    assert.equal(term.output().output, "é€😀 ok ");
    assert.ok(pieces.length >= 2, `arrived in ${pieces.length} pieces: the writes were not split`);
    for (const p of pieces) assert.doesNotMatch(p, NO_REPLACEMENT);
    assert.equal(pieces.join(""), "é€😀 ok ");
    await manager.release(term.id);
  });

  it("passes ANSI sequences split across writes through intact", async () => {
    const script = `
      const parts = ["\\x1b[", "31", "mred\\x1b", "[0m plain \\x1b]0;ti", "tle\\x07end"];
      let i = 0;
      const next = () => { if (i < parts.length) { process.stdout.write(parts[i++]); setTimeout(next, 30); } };
      next();`;
    const term = await manager.create(nodeRun(script));
    await term.waitForExit();
    assert.equal(term.output().output, "\x1b[31mred\x1b[0m plain \x1b]0;title\x07end");
    await manager.release(term.id);
  });

  it("keeps 1 MB of output within a 64 KB limit, cut at a character boundary", async () => {
    // 1 MiB of lines with a 3-byte character; the last line is known.
    const script = `
      const line = "€".repeat(10) + " 0123456789\\n"; // 42 bytes
      let n = Math.ceil(1024 * 1024 / line.length);
      const out = line.repeat(n) + "LAST LINE\\n";
      process.stdout.write(out);`;
    const term = await manager.create({ ...nodeRun(script), outputByteLimit: 64 * 1024 });
    await term.waitForExit();
    const out = term.output();
    assert.equal(out.truncated, true);
    const bytes = utf8Bytes(out.output);
    assert.ok(bytes <= 64 * 1024, `${bytes} bytes retained`);
    assert.ok(bytes > 64 * 1024 - 4, `only ${bytes} bytes retained`);
    assert.ok(out.output.endsWith("LAST LINE\r\n"));
    assert.doesNotMatch(out.output, NO_REPLACEMENT);
    assert.ok(term.receivedBytes > 1024 * 1024);
    await manager.release(term.id);
  });

  it("kills a running command (the terminal stays until released)", async () => {
    const term = await manager.create(nodeRun("console.log('started'); setInterval(() => {}, 1000)"));
    await waitForOutput(term, "started");
    await manager.kill(term.id);
    assert.deepEqual(term.exitStatus, { exitCode: null, signal: "SIGTERM" });
    assert.equal(manager.output(term.id).output, "started\r\n");
    assert.deepEqual(manager.output(term.id).exitStatus, { exitCode: null, signal: "SIGTERM" });
    await manager.release(term.id);
    assert.throws(() => manager.output(term.id), (e: unknown) => e instanceof SidekicksError && e.code === "terminal/unknown");
  });

  it("kills the whole process group, and SIGKILLs what ignores SIGTERM", async () => {
    const script = `
      process.on("SIGTERM", () => console.log("ignored"));
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      console.log("child " + child.pid);
      setInterval(() => {}, 1000);`;
    const term = await manager.create(nodeRun(script));
    const line = await waitForOutput(term, /child (\d+)/);
    const childPid = Number(/child (\d+)/.exec(line)![1]);
    const started = Date.now();
    await manager.kill(term.id);
    assert.deepEqual(term.exitStatus, { exitCode: null, signal: "SIGKILL" });
    assert.ok(Date.now() - started >= 400, "waited for the grace period");
    await waitUntil(() => !alive(childPid), 3000, `child ${childPid} still alive`);
    await manager.release(term.id);
  });

  it("release kills a running command and forgets it", async () => {
    const term = await manager.create(nodeRun("console.log('up'); setInterval(() => {}, 1000)"));
    await waitForOutput(term, "up");
    const final = await manager.release(term.id);
    assert.equal(final.output, "up\r\n");
    assert.deepEqual(final.exitStatus, { exitCode: null, signal: "SIGTERM" });
    assert.equal(alive(term.pid), false);
    assert.deepEqual(manager.ids().includes(term.id), false);
    await assert.rejects(async () => manager.release(term.id), /No terminal/);
  });

  it("starts a missing command and reports its failure as output, like a terminal", async () => {
    const term = await manager.create({ command: "definitely-not-a-command-sidekicks" });
    assert.deepEqual(await term.waitForExit(), { exitCode: 1, signal: null });
    assert.match(term.output().output, /No such file or directory/);
    await manager.release(term.id);
  });

  it("refuses a missing cwd, a relative cwd, and (confined) a cwd outside the workspace", async () => {
    await assert.rejects(manager.create({ command: node, cwd: path.join(base, "nope") }), (e: unknown) => e instanceof SidekicksError && e.code === "workspace/notFound");
    await assert.rejects(manager.create({ command: node, cwd: "relative" }), (e: unknown) => e instanceof SidekicksError && e.code === "workspace/outside");
    const confined = new TerminalManager({ cwd: spaced, confinement: await Confinement.create([spaced]) });
    await assert.rejects(confined.create({ command: node, cwd: base }), (e: unknown) => e instanceof SidekicksError && e.code === "workspace/outside");
  });

  it("calls onCreate before output, writes input and mirrors output through onData", async () => {
    const mirrored: string[] = [];
    const m = new TerminalManager({ cwd: base, onCreate: (term) => term.onData((s) => mirrored.push(s)) });
    const term = await m.create(nodeRun("process.stdin.once('data', (d) => { console.log('got ' + d.toString().trim()); process.exit(0); })"));
    assert.match(term.title, /-e/);
    term.write("hello\r");
    await term.waitForExit();
    assert.match(mirrored.join(""), /got hello/);
    assert.equal(mirrored.join(""), term.output().output);
    await m.releaseAll();
  });

  it("releaseAll(owner) releases only that owner's terminals", async () => {
    const a = await manager.create(nodeRun("setInterval(() => {}, 1000)"), "session-a");
    const b = await manager.create(nodeRun("setInterval(() => {}, 1000)"), "session-b");
    await manager.releaseAll("session-a");
    assert.equal(manager.ids().includes(a.id), false);
    assert.equal(manager.ids().includes(b.id), true);
    await manager.release(b.id);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `ok` holds; rejects after `ms` (ms) saying `what` (`waitFor`). */
async function waitUntil(ok: () => boolean, ms: number, what: string): Promise<void> {
  await waitFor(() => (ok() ? true : undefined), ms, what);
}

/** Resolves with the retained output once it matches. */
async function waitForOutput(term: Terminal, match: string | RegExp, ms = 5000): Promise<string> {
  const test = (s: string) => (typeof match === "string" ? s.includes(match) : match.test(s));
  await waitUntil(() => test(term.output().output), ms, `output ${String(match)} not seen: ${JSON.stringify(term.output().output)}`);
  return term.output().output;
}
