/**
 * `npm start` (issue 15, item 6): the port the way the README says (`--port`, `PORT`, `SIDEKICKS_PORT`, `--help`),
 * waiting for code-server as long as it makes progress instead of a fixed 60 s, and the demo workspace it opens
 * (two demo agents, a file for "edit a file" to change). The rules as pure functions; `scripts/start.mjs` itself for
 * `--help`, a bad argument and a port that is taken (all answered before anything is built); `startCodeServer` with a
 * small stand-in server (a real process) that starts slowly, goes quiet or cannot bind.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { parseRoster } from "../../src/config/roster";
import { nextNotes } from "../../src/demo-agent/fileEdit";
import type { StartupError, StartupWait } from "../../scripts/codeServer.mjs";
import { DEMO_NOTES, createDemoWorkspace } from "../../scripts/demoWorkspace.mjs";
import { parseStartArgs } from "../../scripts/startArgs.mjs";
import { progressMade, startupVerdict } from "../../scripts/startupWait.mjs";
import { tempDir } from "./helpers";

const START = path.resolve(__dirname, "../../scripts/start.mjs");

test("npm start's port: --port, then SIDEKICKS_PORT, then PORT; --help; a bad port or an unknown argument is one sentence", () => {
  const cases: [string[], Record<string, string>, ReturnType<typeof parseStartArgs>][] = [
    [[], {}, {}],
    [["--port", "9000"], {}, { port: 9000, portFrom: "--port" }],
    [["--port=9001"], {}, { port: 9001, portFrom: "--port" }],
    [["-p", "9002"], { PORT: "7000" }, { port: 9002, portFrom: "--port" }],
    [[], { PORT: "9000" }, { port: 9000, portFrom: "PORT" }],
    [[], { PORT: "9000", SIDEKICKS_PORT: "9100" }, { port: 9100, portFrom: "SIDEKICKS_PORT" }],
    [[], { PORT: " " }, {}],
    // `npm start --port 9000` without the `--`: npm keeps --port as its setting and passes the number on.
    [["9000"], { npm_config_port: "true" }, { port: 9000, portFrom: "--port" }],
    [[], { npm_config_port: "9003" }, { port: 9003, portFrom: "--port" }],
    [["--help"], { PORT: "nope" }, { help: true }],
    [["-h"], {}, { help: true }],
    [["--port"], {}, { error: "--port needs a port number, such as --port 9000." }],
    [["--port", "abc"], {}, { error: '--port must be a port number from 1 to 65535, not "abc".' }],
    [["--port", "70000"], {}, { error: '--port must be a port number from 1 to 65535, not "70000".' }],
    [[], { PORT: "80a" }, { error: 'PORT must be a port number from 1 to 65535, not "80a".' }],
    [["--verbose"], {}, { error: 'Unknown argument "--verbose".' }],
  ];
  for (const [argv, env, expected] of cases) assert.deepEqual(parseStartArgs(argv, env), expected, `${argv.join(" ")} ${JSON.stringify(env)}`);
});

test("waiting for code-server: as long as it makes progress, within a hard cap; exited and healthy win over the clocks", () => {
  const o = { stallMs: 90_000, maxWaitMs: 600_000 };
  const at = (elapsedMs: number, sinceProgressMs: number, more: { healthy?: boolean; exited?: boolean } = {}) =>
    startupVerdict({ elapsedMs, sinceProgressMs, healthy: false, exited: false, ...more }, o);
  assert.equal(at(61_000, 2_000), "wait", "past the old fixed 60 s, still working: keep waiting");
  assert.equal(at(300_000, 500), "wait");
  assert.equal(at(120_000, 90_000), "stalled", "nothing new for the stall window");
  assert.equal(at(600_000, 0), "timeout", "the hard cap, even while working");
  assert.equal(at(1_000, 0, { exited: true }), "exited");
  assert.equal(at(700_000, 100_000, { healthy: true }), "ready");

  const base = { logBytes: 100, cpuMs: 1_000, health: "refused" };
  assert.equal(progressMade(base, { ...base }), false, "the same picture is no progress");
  assert.equal(progressMade(base, { ...base, logBytes: 120 }), true, "its log grew");
  assert.equal(progressMade(base, { ...base, cpuMs: 1_010 }), true, "it used CPU");
  assert.equal(progressMade(base, { ...base, health: "status 503" }), true, "/healthz answers now");
  assert.equal(progressMade({ ...base, cpuMs: undefined }, { ...base, cpuMs: undefined }), false, "CPU unknown: the log and /healthz decide");
});

test("the demo workspace: two demo agents, demo-notes.md for the edit prompt; an untouched earlier roster is brought up to date, the user's own is kept", () => {
  const { dir, cleanup } = tempDir();
  try {
    const folder = path.join(dir, "workspace");
    assert.deepEqual(createDemoWorkspace(folder), ["sidekicks.yaml", "README.md", "demo-notes.md"]);
    const { roster, problems } = parseRoster(readFileSync(path.join(folder, "sidekicks.yaml"), "utf8"), path.join(folder, "sidekicks.yaml"));
    assert.deepEqual(problems, []);
    assert.deepEqual(roster?.agents.map((a) => [a.name, a.command]), [["demo", "sidekicks:demo"], ["odie", "sidekicks:demo"]], "someone for demo to delegate to");
    assert.equal(nextNotes(readFileSync(path.join(folder, "demo-notes.md"), "utf8"), "demo").edit, 1, "the notes the demo's edit counts in");
    assert.match(readFileSync(path.join(folder, "README.md"), "utf8"), /@demo edit a file[\s\S]*@demo delegate to odie/);
    assert.deepEqual(createDemoWorkspace(folder), [], "a second start writes nothing");

    // What npm start wrote before, never edited: replaced. A roster the user edited: kept.
    writeFileSync(path.join(folder, "sidekicks.yaml"), "# Sidekicks demo roster: an offline demo agent that needs no account.\nagents:\n  - name: demo\n    command: sidekicks:demo\n");
    writeFileSync(path.join(folder, "demo-notes.md"), `${DEMO_NOTES}- Edit 1, by demo\n`);
    assert.deepEqual(createDemoWorkspace(folder), ["sidekicks.yaml"]);
    const mine = "agents:\n  - name: mine\n    command: sidekicks:demo\n";
    writeFileSync(path.join(folder, "sidekicks.yaml"), mine);
    assert.deepEqual(createDemoWorkspace(folder), []);
    assert.equal(readFileSync(path.join(folder, "sidekicks.yaml"), "utf8"), mine);
  } finally {
    cleanup();
  }
});

/** Runs scripts/start.mjs with `args` and `env` (no editor CLI, the browser editor), to its end. */
const runStart = (args: string[], env: Record<string, string> = {}) => {
  const run = spawnSync(process.execPath, [START, ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, SIDEKICKS_EDITOR: "code-server", PORT: "", SIDEKICKS_PORT: "", npm_config_port: "", ...env },
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
};

test("npm start -- --help prints the usage and starts nothing; a bad argument says what is wrong, with the usage", () => {
  const help = runStart(["--help"]);
  assert.equal(help.status, 0);
  assert.match(help.out, /^Usage: npm start \[-- options\]/);
  assert.match(help.out, /-p, --port <port>/);
  assert.match(help.out, /SIDEKICKS_PORT, PORT/);
  assert.doesNotMatch(help.out + help.err, /\[start\] building/, "nothing built");

  const bad = runStart(["--port", "eighty"]);
  assert.equal(bad.status, 2);
  assert.match(bad.err, /\[start\] --port must be a port number from 1 to 65535, not "eighty"\./);
  assert.match(bad.err, /Usage: npm start/);
});

test("npm start with a port that is taken stops at once and says so, whether asked by --port or PORT", async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", () => resolve()));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    for (const [args, env, how] of [[["--port", String(port)], {}, `--port ${port}`], [[], { PORT: String(port) }, `PORT=${port}`]] as const) {
      const run = runStart([...args], { ...env });
      assert.equal(run.status, 1, how);
      assert.match(run.err, new RegExp(`\\[start\\] port ${port} \\(asked for by ${how}\\) is already in use on 127\\.0\\.0\\.1`), how);
      assert.match(run.err, new RegExp(`npm start -- --port ${port + 1}`), "what to do instead");
      assert.doesNotMatch(run.out, /\[start\] building/, "nothing built");
    }
  } finally {
    holder.close();
  }
});

/**
 * A stand-in for code-server's entry (run as `node <file> --bind-addr 127.0.0.1:<port> …`): `mode` "slow" writes a
 * log line every 100 ms for `ms`, then serves /healthz; "quiet" writes one line and then does nothing; "taken" prints
 * an EADDRINUSE error and exits 1.
 */
const STANDIN = `
const http = require("node:http");
const [host, port] = process.argv[process.argv.indexOf("--bind-addr") + 1].split(":");
const { mode, ms } = JSON.parse(process.env.STANDIN);
console.log("[info] stand-in starting");
if (mode === "taken") {
  console.error("Error: listen EADDRINUSE: address already in use " + host + ":" + port);
  process.exit(1);
}
if (mode === "quiet") setInterval(() => {}, 1 << 30);
else {
  const timer = setInterval(() => console.log("[info] still loading"), 100);
  setTimeout(() => {
    clearInterval(timer);
    http.createServer((req, res) => res.end("ok")).listen(Number(port), host, () => console.log("[info] HTTP server listening"));
  }, ms);
}
`;

test("startCodeServer waits past the stall window while the server keeps working, and a server that goes quiet or cannot bind fails with its log", async () => {
  // Imported when used: codeServer.mjs imports tools.mjs, whose top-level await only an ES module import allows.
  const { startCodeServer } = await import("../../scripts/codeServer.mjs");
  const { dir, cleanup } = tempDir();
  const entry = path.join(dir, "standin.cjs");
  writeFileSync(entry, STANDIN);
  const start = async (mode: string, ms = 0) => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    process.env.STANDIN = JSON.stringify({ mode, ms });
    const waits: StartupWait[] = [];
    const logFile = path.join(dir, `${mode}.log`);
    const started = startCodeServer({ node24: process.execPath, entry, port, dataDir: path.join(dir, mode), logFile, stallMs: 1_000, maxWaitMs: 60_000, reportEveryMs: 200, onWait: (w) => waits.push(w) });
    return { started, waits, port, logFile };
  };
  try {
    // Busy for three stall windows in a row, logging all along: waited for, and told about meanwhile.
    const slow = await start("slow", 3_000);
    const server = await slow.started;
    assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    await server.stop();
    assert.ok(slow.waits.length > 0, "onWait was told while it waited");
    assert.ok(slow.waits.at(-1)!.elapsedMs >= 1_000, "it waited longer than the stall window");

    const quiet = await start("quiet");
    const stalled = (await quiet.started.then(() => undefined, (e: StartupError) => e))!;
    assert.equal(stalled?.code, "codeServer/stalled");
    assert.match(stalled.message, /code-server made no progress for \d+ s \(no new log line, no CPU time used, \/healthz: refused\)/);
    assert.ok(stalled.message.includes(`log: ${quiet.logFile}`), stalled.message);
    assert.deepEqual(stalled.logTail, ["[info] stand-in starting"], "this run's log lines");

    const taken = await start("taken");
    const exited = (await taken.started.then(() => undefined, (e: StartupError) => e))!;
    assert.equal(exited?.code, "codeServer/exited");
    assert.match(exited.message, new RegExp(`its log says port ${taken.port} is in use`));
  } finally {
    delete process.env.STANDIN;
    cleanup();
  }
});
